//! Scatter: a world's `[[scatter]]` layers' instances in a finished chunk, as the C
//! library's `sg_world_scatter` gives them, with each instance's transform matrix for
//! instanced rendering, and the chunk's scatter digest as `stratagen scatter` prints it.

use std::cell::RefCell;

use stratagen_core::engine::{ChunkPos, ChunkRect};
use stratagen_core::util::digest::Digest;
use stratagen_core::world::scatter::{instances_digest, is_ground, scatter_chunk, Instance};

use crate::boundary::{handle, out_slice, status, Registry};
use crate::cache::CachedWorld;
use crate::world::with_world;

/// Floats per instance in [`sg_scatter_copy`]'s `fields`: position (3), yaw, scale, up (3).
pub const FIELDS: usize = 8;
/// Floats per instance matrix (4 × 4, column-major).
pub const MATRIX: usize = 16;

thread_local! {
    static SCATTERS: RefCell<Registry<Scattered>> = RefCell::new(Registry::new("scatter"));
}

/// One layer's instances in one chunk.
pub struct Scattered {
    pos: ChunkPos,
    instances: Vec<Instance>,
}

/// The instances of every layer (`None`) or of layer `only` in chunk `pos`.
fn instances(
    w: &mut CachedWorld,
    pos: ChunkPos,
    only: Option<usize>,
) -> Result<Vec<Vec<Instance>>, String> {
    let chunk = w
        .finished(ChunkRect::of(pos).map_err(|e| e.to_string())?)?
        .remove(0);
    let full = chunk.full().ok_or("a finished chunk")?;
    let g = w.generator();
    let def = g.definition();
    let ground = |b| is_ground(&def.blocks, b);
    let layers = match only {
        Some(k) => {
            let l = def
                .scatter
                .get(k)
                .ok_or_else(|| format!("scatter layer {k}: the world has {}", def.scatter.len()))?;
            std::slice::from_ref(l)
        }
        None => &def.scatter[..],
    };
    let seed = g.settings().seed;
    Ok(layers
        .iter()
        .map(|l| scatter_chunk(seed, &g.dims(), l, full, ground))
        .collect())
}

/// The instances of scatter layer `layer` in the finished chunk (`cx`, `cz`). Its handle,
/// or 0.
#[no_mangle]
pub extern "C" fn sg_world_scatter(world: u32, layer: u32, cx: i32, cz: i32) -> u32 {
    handle(|| {
        let pos = ChunkPos::new(cx, cz);
        let mut v = with_world(world, |w| instances(w, pos, Some(layer as usize)))?;
        let instances = v.pop().unwrap_or_default();
        Ok(SCATTERS.with(|r| r.borrow_mut().insert(Scattered { pos, instances })))
    })
}

/// The scatter digest of chunk (`cx`, `cz`) over every layer, as `stratagen scatter` prints
/// it for that one chunk, into `out`.
///
/// # Safety
/// `out` must be writable for one `u64`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_scatter_digest(
    world: u32,
    cx: i32,
    cz: i32,
    out: *mut u64,
) -> u32 {
    status(|| {
        let layers = with_world(world, |w| instances(w, ChunkPos::new(cx, cz), None))?;
        let mut d = Digest::new();
        for v in &layers {
            instances_digest(&mut d, v);
        }
        // SAFETY: the caller's promise.
        let out = unsafe { out_slice(out, 1, "digest")? };
        out[0] = d.finish();
        Ok(())
    })
}

/// `f` on the instances of `id`.
fn with_scatter<R>(id: u32, f: impl FnOnce(&Scattered) -> Result<R, String>) -> Result<R, String> {
    SCATTERS.with(|r| f(r.borrow().get(id)?))
}

/// The instance count of a scatter into `out`.
///
/// # Safety
/// `out` must be writable for one `u32`.
#[no_mangle]
pub unsafe extern "C" fn sg_scatter_count(scatter: u32, out: *mut u32) -> u32 {
    status(|| {
        let n = with_scatter(scatter, |s| Ok(s.instances.len() as u32))?;
        // SAFETY: the caller's promise.
        let out = unsafe { out_slice(out, 1, "count")? };
        out[0] = n;
        Ok(())
    })
}

/// Copy a scatter's instances: `kinds` (one `u32` each), `fields` ([`FIELDS`] `f32` each:
/// position relative to the chunk's corner, yaw, scale, up) and `matrices` ([`MATRIX`] `f32`
/// each: the world transform, column-major).
///
/// # Safety
/// Each pointer must be writable for its array at the count `sg_scatter_count` gave.
#[no_mangle]
pub unsafe extern "C" fn sg_scatter_copy(
    scatter: u32,
    kinds: *mut u32,
    fields: *mut f32,
    matrices: *mut f32,
) -> u32 {
    status(|| {
        with_scatter(scatter, |s| {
            let n = s.instances.len();
            // SAFETY: the caller's promise, at the scatter's own count.
            let (k, f, m) = unsafe {
                (
                    out_slice(kinds, n, "kinds")?,
                    out_slice(fields, FIELDS * n, "fields")?,
                    out_slice(matrices, MATRIX * n, "matrices")?,
                )
            };
            for (j, i) in s.instances.iter().enumerate() {
                k[j] = u32::from(i.kind);
                let [px, py, pz] = i.position;
                let [ux, uy, uz] = i.up;
                f[FIELDS * j..FIELDS * (j + 1)]
                    .copy_from_slice(&[px, py, pz, i.yaw, i.scale, ux, uy, uz]);
                m[MATRIX * j..MATRIX * (j + 1)].copy_from_slice(&i.matrix(s.pos));
            }
            Ok(())
        })
    })
}

/// Free a scatter.
#[no_mangle]
pub extern "C" fn sg_scatter_free(scatter: u32) -> u32 {
    status(|| SCATTERS.with(|r| r.borrow_mut().remove(scatter)).map(drop))
}
