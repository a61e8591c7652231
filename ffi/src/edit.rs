//! Edits: set and read blocks, the chunks edits changed, and edit records. A world is its
//! definition, its seed and its edits; every chunk reader (copies, views, digests, meshes)
//! sees the edited blocks, their heightmaps and light recomputed over them. Owner thread.

use stratagen_core::world::edit::BlockEdit;
use stratagen_store::edits::{load_edits, save_edits};

use crate::boundary::{copy_out, ffi, optional_out, out_buf, try_out, try_slice, write_optional};
use crate::handles::{owner_out, valid_pos, with_owner};
use crate::result::sg_result;
use crate::types::{sg_block_edit, sg_chunk_pos, sg_world};

impl From<&sg_block_edit> for BlockEdit {
    fn from(e: &sg_block_edit) -> BlockEdit {
        BlockEdit {
            x: e.x,
            y: e.y,
            z: e.z,
            block: e.block,
        }
    }
}

/// Put `block` at world block (x, y, z). The chunk need not be generated: an edit waits and
/// applies when its chunk is read. Of two edits of one position, the later call wins.
/// `SG_RESULT_OUT_OF_RANGE` outside the world (chunk |x|, |z| < 2^21, y within the height),
/// `SG_RESULT_UNKNOWN_BLOCK` for an id outside the world's palette; a refused edit changes
/// nothing. Owner thread; ends the lifetime of borrowed chunk views.
#[no_mangle]
pub extern "C" fn sg_world_set_block(
    world: *mut sg_world,
    x: i32,
    y: i32,
    z: i32,
    block: u16,
) -> sg_result {
    ffi(|| {
        with_owner(world, |_, st| {
            st.pinned.clear();
            st.edits.set_block(BlockEdit { x, y, z, block })?;
            Ok(())
        })
    })
}

/// Apply `edits[0..count]` in order, all or none: the first refused edit (its index to
/// `*failed`, optional) leaves the world unchanged, with the result `sg_world_set_block`
/// would give it. Owner thread; ends the lifetime of borrowed chunk views.
///
/// # Safety
/// `edits` must be valid for reads of `count` elements (NULL is refused); `failed` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn sg_world_set_blocks(
    world: *mut sg_world,
    edits: *const sg_block_edit,
    count: usize,
    failed: *mut usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: `edits` is NULL or readable for `count` elements and `failed` NULL or
        // writable, as this function's contract states; both live only for the call.
        let (edits, failed) = unsafe { (try_slice(edits, count)?, optional_out(failed)) };
        let list: Vec<BlockEdit> = edits.iter().map(BlockEdit::from).collect();
        let refused = with_owner(world, |_, st| {
            st.pinned.clear();
            Ok(st.edits.edits_mut().set_blocks(&list).err())
        })?;
        match refused {
            None => Ok(()),
            Some((k, e)) => {
                write_optional(failed, k);
                Err(e.into())
            }
        }
    })
}

/// The block at world block (x, y, z) into `*block`: the edit there if any, else the
/// generated block. `SG_RESULT_NOT_READY` when the position has no edit and its chunk is not
/// `full`; `SG_RESULT_OUT_OF_RANGE` outside the world. Owner thread.
///
/// # Safety
/// `block` must be NULL or valid for a write of a `uint16_t`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_block(
    world: *mut sg_world,
    x: i32,
    y: i32,
    z: i32,
    block: *mut u16,
) -> sg_result {
    ffi(|| {
        // SAFETY: `block` is NULL or writable by this function's contract.
        let block = unsafe { try_out(block) }?;
        owner_out(world, block, |_, st| {
            Ok(st.edits.block(&st.sched, x, y, z)?)
        })
    })
}

/// The chunks whose blocks, light or border faces edits changed since the last successful
/// call (each edited chunk and the neighbours its edits reach, 15 blocks along x plus z),
/// ascending by x then z, into `buf`: remesh them. `*needed` (optional) receives the count; a
/// smaller `cap` gives `SG_RESULT_BUFFER_TOO_SMALL` and keeps the list for the next call.
/// When nothing changed the call succeeds with a count of 0, `buf` may then be NULL. Chunks
/// not generated yet may be named. Owner thread.
///
/// # Safety
/// `buf` must be NULL or valid for writes of `cap` elements; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sg_world_changed_chunks(
    world: *mut sg_world,
    buf: *mut sg_chunk_pos,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: the buffer contract is this function's.
        let buf = unsafe { out_buf(buf, cap, needed) };
        with_owner(world, |_, st| {
            let fresh = st.edits.edits_mut().take_changed();
            st.changed.extend(fresh);
            let list: Vec<sg_chunk_pos> = st
                .changed
                .iter()
                .map(|p| sg_chunk_pos { x: p.x, z: p.z })
                .collect();
            if list.is_empty() {
                // Nothing to remesh is an answer, not a missing buffer.
                return copy_out(&list, buf).or_else(|e| match e {
                    sg_result::NullArgument => Ok(()),
                    other => Err(other),
                });
            }
            copy_out(&list, buf)?;
            st.changed.clear();
            Ok(())
        })
    })
}

/// Write the edit record of chunk (cx, cz) — its edits with the world's identity, in the
/// chunk-record framing — into `buf` (a chunk without edits gives a record of none).
/// `*needed` (optional) always receives the size in bytes; a smaller `cap` gives
/// `SG_RESULT_BUFFER_TOO_SMALL`. `SG_RESULT_OUT_OF_RANGE` outside |x|, |z| < 2^21. Owner
/// thread.
///
/// # Safety
/// `buf` must be NULL or valid for writes of `cap` bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sg_world_save_edits(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    buf: *mut u8,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: `buf` and `needed` are NULL or writable as this function's contract states.
        let buf = unsafe { out_buf(buf, cap, needed) };
        let record = with_owner(world, |_, st| {
            let pos = valid_pos(cx, cz)?;
            Ok(save_edits(&st.generator, st.edits.edits_mut(), pos))
        })?;
        copy_out(&record, buf)
    })
}

/// Apply an edit record (from `sg_world_save_edits`, a file or a database) to `world`: its
/// edits, after those already made. The chunk's position goes to `*cx`, `*cz` (optional).
/// Refused records change nothing: `SG_RESULT_RECORD_TRUNCATED`, `_RECORD_CHECKSUM`
/// (damaged), `_RECORD_VERSION`, `_RECORD_FOREIGN_WORLD`, `_RECORD_MALFORMED` (not an edit
/// record, or an edit outside the chunk or the palette), `SG_RESULT_OUT_OF_RANGE`. Owner
/// thread; ends the lifetime of borrowed chunk views.
///
/// # Safety
/// `bytes` must be valid for reads of `len` bytes (or NULL, refused); `cx`, `cz` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn sg_world_load_edits(
    world: *mut sg_world,
    bytes: *const u8,
    len: usize,
    cx: *mut i32,
    cz: *mut i32,
) -> sg_result {
    ffi(|| {
        // SAFETY: `bytes` is NULL or readable for `len` bytes, and `cx`, `cz` NULL or
        // writable, as this function's contract states; the slice lives only for the call.
        let (record, cx, cz) =
            unsafe { (try_slice(bytes, len)?, optional_out(cx), optional_out(cz)) };
        let pos = with_owner(world, |_, st| {
            st.pinned.clear();
            Ok(load_edits(&st.generator, st.edits.edits_mut(), record)?)
        })?;
        write_optional(cx, pos.x);
        write_optional(cz, pos.z);
        Ok(())
    })
}
