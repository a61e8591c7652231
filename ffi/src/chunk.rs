//! Chunk readers: status, copies into caller buffers (with the size query), digest and the
//! borrowed view. All owner thread.

use stratagen_core::world::feature::BlockEntity;
use stratagen_core::world::light;
use stratagen_core::world::spawn::SpawnRequest;
use stratagen_core::world::{chunk_digest, FullChunk, Heightmap};

use crate::boundary::{copy_out, copy_out_runs, ffi, out_buf, try_out, OutBuf};
use crate::enums::{from_wire, sg_heightmap, sg_light};
use crate::handles::{owner_out, valid_pos, with_full, PinnedView};
use crate::result::{sg_result, FfiResult};
use crate::types::{sg_block_entity, sg_chunk_view, sg_spawn_request, sg_world};

/// The highest completed status of chunk (cx, cz) into `*status`; `SG_RESULT_NOT_READY` if
/// nothing is generated there. Owner thread.
///
/// # Safety
/// `status` must be NULL or valid for a write of a `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_chunk_status(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    status: *mut u32,
) -> sg_result {
    ffi(|| {
        // SAFETY: `status` is NULL or writable by this function's contract.
        let status = unsafe { try_out(status) }?;
        owner_out(world, status, |_, st| {
            let s = st.sched.status(valid_pos(cx, cz)?);
            s.map(|s| s as u32).ok_or(sg_result::NotReady)
        })
    })
}

/// [`copy_out`] of a list built from the finished chunk (cx, cz).
fn copy_list<T: Copy>(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    buf: OutBuf<'_, T>,
    list: impl FnOnce(&FullChunk) -> Vec<T>,
) -> FfiResult<()> {
    with_full(world, cx, cz, |f| copy_out(&list(f), buf))
}

/// Copy a full chunk's block ids (index ((y - min_y) * 16 + z) * 16 + x) into
/// `buf[0..16*16*height]`. `*needed` (optional) receives the count; a smaller `cap` gives
/// `SG_RESULT_BUFFER_TOO_SMALL` (call with `buf = NULL, cap = 0` to ask the size).
/// Owner thread.
///
/// # Safety
/// `buf` must be NULL or valid for writes of `cap` elements; `needed` NULL or writable. The
/// same holds for every `sg_chunk_copy_*` function.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_copy_blocks(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    buf: *mut u16,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: the buffer contract is this function's.
        let buf = unsafe { out_buf(buf, cap, needed) };
        with_full(world, cx, cz, |f| {
            let blocks = f.blocks();
            copy_out_runs(blocks.len(), buf, |put| blocks.for_each_section(put))
        })
    })
}

/// Copy a full chunk's 16 biome ids (per 4 x 4 cell, index cz * 4 + cx). Owner thread.
///
/// # Safety
/// As for `sg_chunk_copy_blocks`.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_copy_biomes(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    buf: *mut u8,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: the buffer contract is this function's.
        let buf = unsafe { out_buf(buf, cap, needed) };
        with_full(world, cx, cz, |f| copy_out(&f.biomes, buf))
    })
}

/// Copy one of a full chunk's heightmaps (`kind` an `sg_heightmap`; 256 entries, index
/// z * 16 + x, each y + 1 of the top block of that kind, min_y if none). Owner thread.
///
/// # Safety
/// As for `sg_chunk_copy_blocks`.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_copy_heightmap(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    kind: u32,
    buf: *mut i32,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    ffi(|| {
        let kind: Heightmap = from_wire::<sg_heightmap, _>(kind)?;
        // SAFETY: the buffer contract is this function's.
        let buf = unsafe { out_buf(buf, cap, needed) };
        with_full(world, cx, cz, |f| copy_out(&f.heightmaps()[kind], buf))
    })
}

/// Copy a full chunk's light (`kind` an `sg_light`), nibble-packed: block i is byte i / 2,
/// low nibble for even i; (block count + 1) / 2 bytes. Owner thread.
///
/// # Safety
/// As for `sg_chunk_copy_blocks`.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_copy_light(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    kind: u32,
    buf: *mut u8,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    ffi(|| {
        let kind = sg_light::try_from(kind)?;
        // SAFETY: the buffer contract is this function's.
        let buf = unsafe { out_buf(buf, cap, needed) };
        with_full(world, cx, cz, |f| {
            let l = f.light();
            let src = match kind {
                sg_light::Sky => &l.sky,
                sg_light::Block => &l.block,
            };
            copy_out_runs(src.len().div_ceil(2), buf, |put| {
                light::for_each_nibble_run(src, put)
            })
        })
    })
}

/// Copy a full chunk's block entities. Owner thread.
///
/// # Safety
/// As for `sg_chunk_copy_blocks`.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_copy_block_entities(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    buf: *mut sg_block_entity,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: the buffer contract is this function's.
        let out = unsafe { out_buf(buf, cap, needed) };
        copy_list(world, cx, cz, out, |f| {
            f.block_entities()
                .iter()
                .map(sg_block_entity::from)
                .collect()
        })
    })
}

/// Copy a full chunk's spawn requests. Owner thread.
///
/// # Safety
/// As for `sg_chunk_copy_blocks`.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_copy_spawns(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    buf: *mut sg_spawn_request,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: the buffer contract is this function's.
        let out = unsafe { out_buf(buf, cap, needed) };
        copy_list(world, cx, cz, out, |f| {
            f.spawns.iter().map(sg_spawn_request::from).collect()
        })
    })
}

/// The digest of a full chunk (XXH64, see ARCHITECTURE.md) into `*digest`. Owner thread.
///
/// # Safety
/// `digest` must be NULL or valid for a write of a `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn sg_chunk_digest(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    digest: *mut u64,
) -> sg_result {
    ffi(|| {
        // SAFETY: `digest` is NULL or writable by this function's contract.
        let digest = unsafe { try_out(digest) }?;
        owner_out(world, digest, |_, st| {
            Ok(chunk_digest(st.full(cx, cz)?.as_ref()))
        })
    })
}

/// A borrowed view of a full chunk (lifetime: see `sg_chunk_view`). Owner thread.
///
/// # Safety
/// `view` must be NULL or valid for a write of an `sg_chunk_view`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_chunk_view(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    view: *mut sg_chunk_view,
) -> sg_result {
    ffi(|| {
        // SAFETY: `view` is NULL or writable by this function's contract.
        let view = unsafe { try_out(view) }?;
        owner_out(world, view, |_, st| {
            let d = st.full(cx, cz)?;
            let f = d.full().ok_or(sg_result::NotReady)?;
            let dims = st.generator.dims();
            let hm = f.heightmaps();
            let pin = PinnedView {
                _chunk: d.clone(),
                blocks: f.blocks().to_vec(),
                sky: f.light().sky_nibbles(),
                block_light: f.light().block_nibbles(),
            };
            let v = sg_chunk_view {
                blocks: pin.blocks.as_ptr(),
                block_count: pin.blocks.len(),
                biomes: f.biomes.as_ptr(),
                world_surface: hm[Heightmap::WorldSurface].as_ptr(),
                ocean_floor: hm[Heightmap::OceanFloor].as_ptr(),
                motion_blocking: hm[Heightmap::MotionBlocking].as_ptr(),
                motion_blocking_no_leaves: hm[Heightmap::MotionBlockingNoLeaves].as_ptr(),
                sky_light: pin.sky.as_ptr(),
                block_light: pin.block_light.as_ptr(),
                light_bytes: pin.sky.len(),
                min_y: dims.min_y,
                height: dims.height,
            };
            // The view points into `pin` and into `d` (heightmaps, biomes); keep both alive
            // for the documented lifetime.
            st.pinned.push(pin);
            Ok(v)
        })
    })
}

impl From<&BlockEntity> for sg_block_entity {
    fn from(e: &BlockEntity) -> sg_block_entity {
        sg_block_entity {
            pos: e.pos,
            kind: e.kind,
            data: e.data,
        }
    }
}

impl From<&SpawnRequest> for sg_spawn_request {
    fn from(s: &SpawnRequest) -> sg_spawn_request {
        sg_spawn_request {
            pos: s.pos,
            kind: s.kind,
            group: s.group,
        }
    }
}
