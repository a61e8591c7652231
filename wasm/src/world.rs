//! Worlds, their finished chunks and meshes. A world is its settings and definition (the
//! built-in one, or a definition's canonical bytes, which the package ships for the
//! presets) and a scheduler run inline, on the calling thread, that keeps the chunks asked
//! for last ([`CachedWorld`]); each generating call hands back handles of the finished
//! chunks it asked for.

use std::cell::RefCell;
use std::sync::Arc;

use stratagen_core::engine::{ChunkPos, ChunkRect};
use stratagen_core::mesh::colour::vertex_colours;
use stratagen_core::mesh::{mesh_chunk, Face, Mesh, MeshOptions, Mode};
use stratagen_core::world::sections::Sections;
use stratagen_core::world::{
    chunk_digest, ChunkData, Definition, Heightmap, Neighbourhood, WorldGen, WorldSettings,
    CHUNK_SIDE,
};

use crate::boundary::{handle, in_slice, out_slice, status, Registry};
use crate::cache::CachedWorld;

/// The most chunks one call generates and hands back.
pub const MAX_CHUNKS: u64 = 64 * 64;

thread_local! {
    static WORLDS: RefCell<Registry<CachedWorld>> = RefCell::new(Registry::new("world"));
    static CHUNKS: RefCell<Registry<Arc<ChunkData>>> = RefCell::new(Registry::new("chunk"));
    static MESHES: RefCell<Registry<ColouredMesh>> = RefCell::new(Registry::new("mesh"));
}

/// A chunk mesh and its vertex colours (linear RGBA), per surface.
pub struct ColouredMesh {
    mesh: Mesh,
    colours: [Vec<[f32; 4]>; 3],
}

/// Make a world of `seed`, `min_y`, `height` and `sea_level`, of the definition whose
/// canonical bytes are at `definition` (`definition_len` 0: the built-in world). Its handle,
/// or 0.
///
/// # Safety
/// `definition` must be readable for `definition_len` bytes (it may be null when 0).
#[no_mangle]
pub unsafe extern "C" fn sg_world_create(
    seed: i64,
    min_y: i32,
    height: u32,
    sea_level: i32,
    definition: *const u8,
    definition_len: usize,
) -> u32 {
    handle(|| {
        let def = if definition_len == 0 {
            Definition::builtin()
        } else {
            // SAFETY: the caller's promise, checked for null inside.
            let bytes = unsafe { in_slice(definition, definition_len, "definition")? };
            Definition::from_bytes(bytes).map_err(|e| format!("definition: {e}"))?
        };
        let settings = WorldSettings {
            seed,
            min_y,
            height,
            sea_level,
        };
        let g = WorldGen::with_definition(settings, Arc::new(def)).map_err(|e| e.to_string())?;
        Ok(WORLDS.with(|r| r.borrow_mut().insert(CachedWorld::new(g))))
    })
}

/// The library's default settings into `out`: `min_y`, `height`, `sea_level`.
///
/// # Safety
/// `out` must be writable for 3 `i32`.
#[no_mangle]
pub unsafe extern "C" fn sg_default_settings(out: *mut i32) -> u32 {
    status(|| {
        let d = WorldSettings::default();
        // SAFETY: the caller's promise.
        let out = unsafe { out_slice(out, 3, "settings")? };
        out.copy_from_slice(&[d.min_y, d.height as i32, d.sea_level]);
        Ok(())
    })
}

/// Free a world (its chunks and meshes stay valid).
#[no_mangle]
pub extern "C" fn sg_world_free(world: u32) -> u32 {
    status(|| WORLDS.with(|r| r.borrow_mut().remove(world)).map(drop))
}

/// The world definition's digest (part of its identity).
#[no_mangle]
pub extern "C" fn sg_world_definition_digest(world: u32) -> u64 {
    WORLDS.with(|r| {
        r.borrow()
            .get(world)
            .map_or(0, |w| w.generator().definition_digest())
    })
}

/// `f` on the world of `id`.
pub(crate) fn with_world<R>(
    id: u32,
    f: impl FnOnce(&mut CachedWorld) -> Result<R, String>,
) -> Result<R, String> {
    WORLDS.with(|r| f(r.borrow_mut().get_mut(id)?))
}

/// Keep at most `chunks` finished chunks of the world between calls (0: none; 128 unless
/// set), releasing the least recently asked for at once.
#[no_mangle]
pub extern "C" fn sg_world_set_cache(world: u32, chunks: u32) -> u32 {
    status(|| {
        with_world(world, |w| {
            w.set_capacity(chunks as usize);
            Ok(())
        })
    })
}

/// Chunks the world holds at any status: the kept ones and what they stand on (0 for a
/// handle that is not live).
#[no_mangle]
pub extern "C" fn sg_world_resident(world: u32) -> u32 {
    with_world(world, |w| Ok(w.resident() as u32)).unwrap_or(0)
}

/// The checked rectangle of a call, at most [`MAX_CHUNKS`].
fn region(x0: i32, z0: i32, x1: i32, z1: i32) -> Result<ChunkRect, String> {
    let r = ChunkRect::new(x0, z0, x1, z1).map_err(|e| e.to_string())?;
    if r.count() > MAX_CHUNKS {
        return Err(format!(
            "region {r} has {} chunks: at most {MAX_CHUNKS} per call",
            r.count()
        ));
    }
    Ok(r)
}

/// Generate the finished chunks of the rectangle `x0..=x1` × `z0..=z1` and write their
/// handles to `out`, row-major (z, then x).
///
/// # Safety
/// `out` must be writable for one `u32` per chunk of the rectangle.
#[no_mangle]
pub unsafe extern "C" fn sg_world_generate(
    world: u32,
    x0: i32,
    z0: i32,
    x1: i32,
    z1: i32,
    out: *mut u32,
) -> u32 {
    status(|| {
        let r = region(x0, z0, x1, z1)?;
        // SAFETY: the caller's promise.
        let out = unsafe { out_slice(out, r.count() as usize, "chunk handles")? };
        let chunks = with_world(world, |w| w.finished(r))?;
        CHUNKS.with(|reg| {
            let mut reg = reg.borrow_mut();
            for (o, d) in out.iter_mut().zip(chunks) {
                *o = reg.insert(d);
            }
        });
        Ok(())
    })
}

/// Put `block` at world block (`x`, `y`, `z`). Chunks and meshes made afterwards show it,
/// relit; handles made before keep what they held.
#[no_mangle]
pub extern "C" fn sg_world_set_block(world: u32, x: i32, y: i32, z: i32, block: u32) -> u32 {
    status(|| {
        let block = u16::try_from(block).map_err(|_| format!("block {block}: not a block id"))?;
        with_world(world, |w| w.set_block(x, y, z, block))
    })
}

/// The block at world block (`x`, `y`, `z`), edits included, into `out`.
///
/// # Safety
/// `out` must be writable for one `u32`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_block(world: u32, x: i32, y: i32, z: i32, out: *mut u32) -> u32 {
    status(|| {
        let b = with_world(world, |w| w.block(x, y, z))?;
        // SAFETY: the caller's promise.
        let out = unsafe { out_slice(out, 1, "block")? };
        out[0] = u32::from(b);
        Ok(())
    })
}

/// `f` on the finished chunk of `id`.
fn with_chunk<R>(
    id: u32,
    f: impl FnOnce(&stratagen_core::world::FullChunk) -> Result<R, String>,
) -> Result<R, String> {
    CHUNKS.with(|r| {
        let r = r.borrow();
        let d = r.get(id)?;
        f(d.full().ok_or("a chunk handle holds a finished chunk")?)
    })
}

/// Free a chunk.
#[no_mangle]
pub extern "C" fn sg_chunk_free(chunk: u32) -> u32 {
    status(|| CHUNKS.with(|r| r.borrow_mut().remove(chunk)).map(drop))
}

/// Live chunks (the memory tests count them).
#[no_mangle]
pub extern "C" fn sg_chunk_count() -> u32 {
    CHUNKS.with(|r| r.borrow().len() as u32)
}

/// The chunk digest (as `stratagen digest` prints it), 0 for a handle that is not live.
#[no_mangle]
pub extern "C" fn sg_chunk_digest(chunk: u32) -> u64 {
    CHUNKS.with(|r| r.borrow().get(chunk).map_or(0, |d| chunk_digest(d)))
}

/// The chunk's x and z into `out`.
///
/// # Safety
/// `out` must be writable for 2 `i32`.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_position(chunk: u32, out: *mut i32) -> u32 {
    status(|| {
        let p = with_chunk(chunk, |c| Ok(c.pos))?;
        // SAFETY: the caller's promise.
        unsafe { out_slice(out, 2, "position")? }.copy_from_slice(&[p.x, p.z]);
        Ok(())
    })
}

/// Decode paletted `sections` into `out` (as long as they are), each value through `f`.
fn copy_sections<T>(sections: &Sections, out: &mut [T], f: impl Fn(u16) -> T) {
    let mut at = 0;
    sections.for_each_section(|s| {
        for (o, &v) in out[at..at + s.len()].iter_mut().zip(s) {
            *o = f(v);
        }
        at += s.len();
    });
}

/// The chunk's block ids, `16 * 16 * height` `u16` indexed `((y - min_y) * 16 + z) * 16 + x`.
///
/// # Safety
/// `out` must be writable for `count` `u16`; `count` must be the chunk's block count.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_blocks(chunk: u32, out: *mut u16, count: usize) -> u32 {
    status(|| {
        with_chunk(chunk, |c| {
            let blocks = c.blocks();
            if blocks.len() != count {
                return Err(format!(
                    "blocks: {count} asked, the chunk has {}",
                    blocks.len()
                ));
            }
            // SAFETY: the caller's promise.
            copy_sections(blocks, unsafe { out_slice(out, count, "blocks")? }, |b| b);
            Ok(())
        })
    })
}

/// The chunk's biome ids per 4 × 4 column cell (16 `u8`, index `z / 4 * 4 + x / 4`).
///
/// # Safety
/// `out` must be writable for 16 bytes.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_biomes(chunk: u32, out: *mut u8) -> u32 {
    status(|| {
        let b = with_chunk(chunk, |c| Ok(c.biomes))?;
        // SAFETY: the caller's promise.
        unsafe { out_slice(out, 16, "biomes")? }.copy_from_slice(&b);
        Ok(())
    })
}

/// A heightmap of the chunk (`kind`: 0 world surface, 1 ocean floor, 2 motion blocking, 3
/// motion blocking without leaves): 256 `i32`, index `z * 16 + x`, `y + 1` of the top block.
///
/// # Safety
/// `out` must be writable for 256 `i32`.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_heightmap(chunk: u32, kind: u32, out: *mut i32) -> u32 {
    status(|| {
        let kind = Heightmap::ALL
            .get(kind as usize)
            .copied()
            .ok_or_else(|| format!("heightmap kind {kind}: 0 to 3"))?;
        let h = with_chunk(chunk, |c| Ok(c.heightmaps()[kind]))?;
        // SAFETY: the caller's promise.
        unsafe { out_slice(out, CHUNK_SIDE * CHUNK_SIDE, "heightmap")? }.copy_from_slice(&h);
        Ok(())
    })
}

/// The chunk's sky (`sky` 1) or block (0) light, one byte per block, in block order.
///
/// # Safety
/// `out` must be writable for `count` bytes; `count` must be the chunk's block count.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_light(chunk: u32, sky: u32, out: *mut u8, count: usize) -> u32 {
    status(|| {
        with_chunk(chunk, |c| {
            let light = if sky != 0 {
                &c.light().sky
            } else {
                &c.light().block
            };
            if light.len() != count {
                return Err(format!(
                    "light: {count} asked, the chunk has {}",
                    light.len()
                ));
            }
            // SAFETY: the caller's promise.
            copy_sections(light, unsafe { out_slice(out, count, "light")? }, |l| {
                l as u8
            });
            Ok(())
        })
    })
}

/// Mesh chunk (`cx`, `cz`) of a world with its eight neighbours generated around it (culled,
/// or greedy when `greedy` is 1), with vertex colours. Its handle, or 0.
#[no_mangle]
pub extern "C" fn sg_world_mesh(world: u32, cx: i32, cz: i32, greedy: u32) -> u32 {
    handle(|| {
        let centre = ChunkPos::new(cx, cz);
        let area = ChunkRect::of(centre).map_err(|e| e.to_string())?.grown(1);
        let m = with_world(world, |w| {
            // Row-major over the 3 × 3 area: the neighbourhood's own slot order.
            let around = w.finished(area)?;
            let n =
                Neighbourhood::from_fn(|dx, dz| around[Neighbourhood::<()>::slot(dx, dz)].full());
            let g = w.generator();
            let options = MeshOptions {
                mode: if greedy != 0 {
                    Mode::Greedy
                } else {
                    Mode::Culled
                },
                ..MeshOptions::default()
            };
            let definition = g.definition();
            let mesh = mesh_chunk(&n, g.dims(), &definition.blocks, &options)
                .map_err(|e| e.to_string())?;
            let biomes = n.centre().map_or([0; 16], |c| c.biomes);
            let colours = [0, 1, 2].map(|k| vertex_colours(&mesh.surfaces[k], definition, &biomes));
            Ok(ColouredMesh { mesh, colours })
        })?;
        Ok(MESHES.with(|r| r.borrow_mut().insert(m)))
    })
}

/// `f` on the mesh of `id`.
fn with_mesh<R>(id: u32, f: impl FnOnce(&ColouredMesh) -> Result<R, String>) -> Result<R, String> {
    MESHES.with(|r| f(r.borrow().get(id)?))
}

/// The vertex and index counts of a mesh's `surface` (0 opaque, 1 cutout, 2 translucent)
/// into `out`.
///
/// # Safety
/// `out` must be writable for 2 `u32`.
#[no_mangle]
pub unsafe extern "C" fn sg_mesh_counts(mesh: u32, surface: u32, out: *mut u32) -> u32 {
    status(|| {
        let counts = with_mesh(mesh, |m| {
            let s = m
                .mesh
                .surfaces
                .get(surface as usize)
                .ok_or_else(|| format!("surface {surface}: 0 to 2"))?;
            Ok([s.vertex_count() as u32, s.indices.len() as u32])
        })?;
        // SAFETY: the caller's promise.
        unsafe { out_slice(out, 2, "counts")? }.copy_from_slice(&counts);
        Ok(())
    })
}

/// Copy a mesh's `surface` out: per vertex a position (3 `f32`), a normal (3 `f32`), a
/// colour (4 `f32`, linear RGBA with AO and light) and a UV (2 `f32`, in blocks); then the
/// indices (`u32`, counter-clockwise triangles). Sizes as [`sg_mesh_counts`] gives.
///
/// # Safety
/// Each buffer must be writable for its count.
#[no_mangle]
pub unsafe extern "C" fn sg_mesh_copy(
    mesh: u32,
    surface: u32,
    positions: *mut f32,
    normals: *mut f32,
    colours: *mut f32,
    uvs: *mut f32,
    indices: *mut u32,
) -> u32 {
    status(|| {
        with_mesh(mesh, |m| {
            let k = surface as usize;
            let s = m
                .mesh
                .surfaces
                .get(k)
                .ok_or_else(|| format!("surface {surface}: 0 to 2"))?;
            let n = s.vertex_count();
            // SAFETY: the caller's promise for each buffer.
            let (p, nm, c, uv, ix) = unsafe {
                (
                    out_slice(positions, 3 * n, "positions")?,
                    out_slice(normals, 3 * n, "normals")?,
                    out_slice(colours, 4 * n, "colours")?,
                    out_slice(uvs, 2 * n, "uvs")?,
                    out_slice(indices, s.indices.len(), "indices")?,
                )
            };
            for (i, v) in s.positions.iter().enumerate() {
                p[3 * i..3 * i + 3].copy_from_slice(v);
            }
            for (i, &f) in s.faces.iter().enumerate() {
                let normal = Face::from_index(f).map_or([0.0, 1.0, 0.0], Face::normal);
                nm[3 * i..3 * i + 3].copy_from_slice(&normal);
            }
            for (i, col) in m.colours[k].iter().enumerate() {
                c[4 * i..4 * i + 4].copy_from_slice(col);
            }
            for (i, t) in s.uvs.iter().enumerate() {
                uv[2 * i..2 * i + 2].copy_from_slice(t);
            }
            ix.copy_from_slice(&s.indices);
            Ok(())
        })
    })
}

/// The mesh digest (as in the parity corpus and `stratagen mesh`).
#[no_mangle]
pub extern "C" fn sg_mesh_digest(mesh: u32) -> u64 {
    MESHES.with(|r| r.borrow().get(mesh).map_or(0, |m| m.mesh.digest()))
}

/// Free a mesh.
#[no_mangle]
pub extern "C" fn sg_mesh_free(mesh: u32) -> u32 {
    status(|| MESHES.with(|r| r.borrow_mut().remove(mesh)).map(drop))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boundary::{FAILED, OK};
    use stratagen_core::engine::{ChunkStatus, Priority, Scheduler};
    use stratagen_core::world::World;

    /// A scheduler of its own that generated `region` in one run: what any order of calls on
    /// a cached world must give.
    fn fresh(g: &WorldGen, region: ChunkRect) -> Scheduler<World> {
        let mut s = Scheduler::new(Arc::new(World::new(g.clone())));
        for p in region.positions() {
            s.request(p, ChunkStatus::Full, Priority::Soon).unwrap();
        }
        s.run_inline(usize::MAX);
        s
    }

    /// Chunks asked for one at a time, out of order, through a cache too small to keep them
    /// (so each is generated again after it was released), equal those of one run over the
    /// whole region; the cache never holds more than asked.
    #[test]
    fn any_order_and_cache_size_give_the_same_chunks() {
        let d = WorldSettings::default();
        // SAFETY: no definition bytes (the built-in world).
        let w = unsafe { sg_world_create(5, d.min_y, d.height, d.sea_level, std::ptr::null(), 0) };
        let g = WorldGen::new(WorldSettings { seed: 5, ..d }).unwrap();
        let s = fresh(&g, ChunkRect::new(-1, -1, 1, 1).unwrap());
        for capacity in [0, 2, 128] {
            assert_eq!(sg_world_set_cache(w, capacity), OK);
            for (x, z) in [(1, 1), (-1, 0), (1, 1), (0, -1), (-1, -1), (1, 1)] {
                let mut h = 0u32;
                // SAFETY: one handle fits.
                let r = unsafe { sg_world_generate(w, x, z, x, z, &mut h) };
                assert_eq!(r, OK);
                let want = s.output(ChunkPos::new(x, z), ChunkStatus::Full).unwrap();
                assert_eq!(sg_chunk_digest(h), chunk_digest(&want), "({x}, {z})");
                assert_eq!(sg_chunk_free(h), OK);
            }
        }
        assert_eq!(sg_world_set_cache(w, 0), OK);
        assert_eq!(sg_world_resident(w), 0, "a cache of none keeps nothing");
        assert_eq!(sg_world_free(w), OK);
        assert_eq!(sg_world_set_cache(w, 1), FAILED);
    }

    /// The chunks of a region through the boundary are the core's: digests equal, blocks in
    /// the C copies' order.
    #[test]
    fn generated_chunks_equal_the_core_s() {
        let d = WorldSettings::default();
        // SAFETY: no definition bytes (the built-in world).
        let w = unsafe { sg_world_create(3, d.min_y, d.height, d.sea_level, std::ptr::null(), 0) };
        assert_ne!(w, 0);
        let mut handles = [0u32; 2];
        // SAFETY: two handles fit.
        let r = unsafe { sg_world_generate(w, 0, 0, 1, 0, handles.as_mut_ptr()) };
        assert_eq!(r, OK);
        let g = WorldGen::new(WorldSettings { seed: 3, ..d }).unwrap();
        let s = fresh(&g, ChunkRect::new(0, 0, 1, 0).unwrap());
        for (h, x) in handles.iter().zip(0..) {
            let want = s.output(ChunkPos::new(x, 0), ChunkStatus::Full).unwrap();
            assert_eq!(sg_chunk_digest(*h), chunk_digest(&want));
            let n = want.full().unwrap().blocks().len();
            let mut blocks = vec![0u16; n];
            // SAFETY: `n` u16 fit.
            assert_eq!(unsafe { sg_chunk_blocks(*h, blocks.as_mut_ptr(), n) }, OK);
            assert_eq!(blocks, want.full().unwrap().blocks().to_vec());
            assert_eq!(sg_chunk_free(*h), OK);
            assert_eq!(sg_chunk_free(*h), FAILED);
        }
        // SAFETY: the region is refused before `out` is touched.
        let inverted = unsafe { sg_world_generate(w, 1, 0, 0, 0, std::ptr::null_mut()) };
        assert_eq!(inverted, FAILED);
        assert_eq!(sg_world_free(w), OK);
    }
}
