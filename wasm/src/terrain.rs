//! Heightmap terrain meshes: a noise's heightmap chunk with a one-sample apron, meshed into
//! a grid whose shared edges meet their neighbours' bit for bit, as `sg_heightmap_mesh` of
//! the C library gives it.

use std::cell::RefCell;

use stratagen_core::mesh::heightmap::{mesh_heightmap, HeightmapMesh, HeightmapMeshOptions};

use crate::boundary::{handle, out_slice, status, Registry};
use crate::noise::with_noise;

thread_local! {
    static TERRAIN_MESHES: RefCell<Registry<HeightmapMesh>> =
        RefCell::new(Registry::new("heightmap mesh"));
}

/// The library's heightmap mesh defaults into `out`: `res`, `height_scale`, `height_offset`,
/// `skirt_depth`.
///
/// # Safety
/// `out` must be writable for 4 `f64`.
#[no_mangle]
pub unsafe extern "C" fn sg_heightmap_mesh_defaults(out: *mut f64) -> u32 {
    status(|| {
        let d = HeightmapMeshOptions::default();
        // SAFETY: the caller's promise.
        let out = unsafe { out_slice(out, 4, "heightmap mesh defaults")? };
        out.copy_from_slice(&[
            d.res as f64,
            f64::from(d.height_scale),
            f64::from(d.height_offset),
            f64::from(d.skirt_depth),
        ]);
        Ok(())
    })
}

/// Mesh the heightmap chunk (`cx`, `cz`) of `noise` at `res` samples per side, heights
/// `offset + scale * sample` blocks, with skirts `skirt` blocks deep (0: none). Its handle,
/// or 0.
#[no_mangle]
pub extern "C" fn sg_noise_heightmap_mesh(
    noise: u32,
    cx: i32,
    cz: i32,
    res: u32,
    scale: f32,
    offset: f32,
    skirt: f32,
) -> u32 {
    handle(|| {
        let options = HeightmapMeshOptions {
            res: res as usize,
            height_scale: scale,
            height_offset: offset,
            skirt_depth: skirt,
        };
        let side = (res as usize)
            .checked_add(3)
            .ok_or_else(|| format!("res {res}: too large"))?;
        let mesh = with_noise(noise, |n| {
            let mut samples = vec![0.0f32; side * side];
            n.heightmap_apron(cx, cz, res as usize, &mut samples)
                .map_err(|e| e.to_string())?;
            mesh_heightmap(&samples, &options).map_err(|e| e.to_string())
        })?;
        Ok(TERRAIN_MESHES.with(|r| r.borrow_mut().insert(mesh)))
    })
}

/// `f` on the heightmap mesh of `id`.
fn with_terrain<R>(
    id: u32,
    f: impl FnOnce(&HeightmapMesh) -> Result<R, String>,
) -> Result<R, String> {
    TERRAIN_MESHES.with(|r| f(r.borrow().get(id)?))
}

/// The vertex and index counts of a heightmap mesh into `out`.
///
/// # Safety
/// `out` must be writable for 2 `u32`.
#[no_mangle]
pub unsafe extern "C" fn sg_heightmap_mesh_counts(mesh: u32, out: *mut u32) -> u32 {
    status(|| {
        let counts = with_terrain(mesh, |m| Ok([m.positions.len(), m.indices.len()]))?;
        // SAFETY: the caller's promise.
        let out = unsafe { out_slice(out, 2, "counts")? };
        out[0] = counts[0] as u32;
        out[1] = counts[1] as u32;
        Ok(())
    })
}

/// Copy a heightmap mesh's positions and normals (3 `f32` per vertex), uvs (2) and indices.
///
/// # Safety
/// Each pointer must be writable for its array at the counts `sg_heightmap_mesh_counts` gave.
#[no_mangle]
pub unsafe extern "C" fn sg_heightmap_mesh_copy(
    mesh: u32,
    positions: *mut f32,
    normals: *mut f32,
    uvs: *mut f32,
    indices: *mut u32,
) -> u32 {
    status(|| {
        with_terrain(mesh, |m| {
            let v = m.positions.len();
            // SAFETY: the caller's promise, at the mesh's own counts.
            let (p, n, u, i) = unsafe {
                (
                    out_slice(positions, 3 * v, "positions")?,
                    out_slice(normals, 3 * v, "normals")?,
                    out_slice(uvs, 2 * v, "uvs")?,
                    out_slice(indices, m.indices.len(), "indices")?,
                )
            };
            p.copy_from_slice(m.positions.concat().as_slice());
            n.copy_from_slice(m.normals.concat().as_slice());
            u.copy_from_slice(m.uvs.concat().as_slice());
            i.copy_from_slice(&m.indices);
            Ok(())
        })
    })
}

/// The heightmap mesh's digest (as `stratagen heightmap` prints it), 0 for a handle that is
/// not live.
#[no_mangle]
pub extern "C" fn sg_heightmap_mesh_digest(mesh: u32) -> u64 {
    with_terrain(mesh, |m| Ok(m.digest())).unwrap_or(0)
}

/// Free a heightmap mesh.
#[no_mangle]
pub extern "C" fn sg_heightmap_mesh_free(mesh: u32) -> u32 {
    status(|| {
        TERRAIN_MESHES
            .with(|r| r.borrow_mut().remove(mesh))
            .map(drop)
    })
}
