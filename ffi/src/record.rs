//! Chunk records: save a resident chunk at the status it reached, load a record into a world
//! so generation continues from there. The format is `stratagen_store::record`'s (magic,
//! version, world identity, position, status, LZ4 body, XXH64). Owner thread.

use stratagen_core::engine::ChunkPos;
use stratagen_store::record::{load_chunk, save_chunk};

use crate::chunk::copy_out;
use crate::handles::with_owner;
use crate::result::{ffi, sg_result, write_optional, FfiResult};
use crate::types::sg_world;

/// Write the record of chunk (cx, cz) — its outputs at the status it has reached, with the
/// world's identity — into `buf`. `*needed` (optional) always receives the record's size in
/// bytes; a smaller `cap` gives `SG_RESULT_BUFFER_TOO_SMALL` and leaves `buf` untouched (call
/// with `buf = NULL, cap = 0` to ask the size; the record is encoded on each call).
/// `SG_RESULT_NOT_READY` if nothing is generated there, `SG_RESULT_OUT_OF_RANGE` outside
/// |x|, |z| < 2^21. Owner thread.
///
/// # Safety
/// `buf` must be NULL or valid for writes of `cap` bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sg_world_save_chunk(
    world: *mut sg_world,
    cx: i32,
    cz: i32,
    buf: *mut u8,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    // SAFETY: `buf` and `needed` are forwarded under this function's contract.
    ffi(|| unsafe { save(world, ChunkPos::new(cx, cz), buf, cap, needed) })
}

/// # Safety
/// As for [`sg_world_save_chunk`].
unsafe fn save(
    world: *mut sg_world,
    pos: ChunkPos,
    buf: *mut u8,
    cap: usize,
    needed: *mut usize,
) -> FfiResult<()> {
    let record = with_owner(world, |_, st| {
        if !pos.is_valid() {
            return Err(sg_result::OutOfRange);
        }
        Ok(save_chunk(&st.sched, pos)?)
    })?;
    // SAFETY: forwarded from this function's contract.
    unsafe { copy_out(&record, buf, cap, needed) }
}

/// Give a chunk record (from [`sg_world_save_chunk`], a file or a database) to `world`: the
/// chunk continues from the stored status, and the final chunk equals an uninterrupted run.
/// If a request covers the chunk, it takes the record at once (the statuses it has not
/// reached); otherwise the record waits until a request makes the chunk resident.
/// The chunk's position and status go to `*cx`, `*cz`, `*status` (each optional).
///
/// Refused records change nothing: `SG_RESULT_RECORD_TRUNCATED`, `_RECORD_CHECKSUM`
/// (damaged), `_RECORD_VERSION`, `_RECORD_FOREIGN_WORLD`, `_RECORD_MALFORMED` (not a record,
/// or data that does not match its status), `SG_RESULT_OUT_OF_RANGE`,
/// `SG_RESULT_ALREADY_RESIDENT` (the chunk has that status or higher already),
/// `SG_RESULT_CHUNK_BUSY` (a task of the chunk is in flight), `SG_RESULT_TASK_FAILED` (the
/// chunk failed). Owner thread; ends the lifetime of borrowed chunk views.
///
/// # Safety
/// `bytes` must be valid for reads of `len` bytes (or NULL, refused); `cx`, `cz` and
/// `status` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sg_world_load_chunk(
    world: *mut sg_world,
    bytes: *const u8,
    len: usize,
    cx: *mut i32,
    cz: *mut i32,
    status: *mut u32,
) -> sg_result {
    // SAFETY: the pointers are forwarded under this function's contract.
    ffi(|| unsafe { load(world, bytes, len, (cx, cz, status)) })
}

/// # Safety
/// As for [`sg_world_load_chunk`].
unsafe fn load(
    world: *mut sg_world,
    bytes: *const u8,
    len: usize,
    (cx, cz, status): (*mut i32, *mut i32, *mut u32),
) -> FfiResult<()> {
    if bytes.is_null() {
        return Err(sg_result::NullArgument);
    }
    // SAFETY: non-NULL and valid for `len` reads by the caller's contract; the slice lives
    // only for this call.
    let record = unsafe { std::slice::from_raw_parts(bytes, len) };
    let (header, _) = with_owner(world, |_, st| {
        st.pinned.clear();
        Ok(load_chunk(&mut st.sched, record)?)
    })?;
    // SAFETY: each NULL or writable by the caller's contract.
    unsafe {
        write_optional(cx, header.pos.x);
        write_optional(cz, header.pos.z);
        write_optional(status, header.status as u32);
    }
    Ok(())
}
