//! Chunk records: save a resident chunk at the status it reached, load a record into a world
//! so generation continues from there. The format is `stratagen_store::record`'s (magic,
//! version, world identity, position, status, LZ4 body, XXH64). Owner thread.

use stratagen_store::record::{load_chunk, save_chunk};

use crate::boundary::{copy_out, ffi, optional_out, out_buf, try_slice, write_optional};
use crate::handles::{valid_pos, with_owner};
use crate::result::sg_result;
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
    ffi(|| {
        // SAFETY: `buf` and `needed` are NULL or writable as this function's contract states.
        let buf = unsafe { out_buf(buf, cap, needed) };
        let record = with_owner(world, |_, st| {
            Ok(save_chunk(&st.sched, valid_pos(cx, cz)?)?)
        })?;
        copy_out(&record, buf)
    })
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
    ffi(|| {
        // SAFETY: `bytes` is NULL or readable for `len` bytes, and `cx`, `cz`, `status` NULL
        // or writable, as this function's contract states; the slice lives only for the call.
        let (record, cx, cz, status) = unsafe {
            (
                try_slice(bytes, len)?,
                optional_out(cx),
                optional_out(cz),
                optional_out(status),
            )
        };
        let (header, _) = with_owner(world, |_, st| {
            st.pinned.clear();
            Ok(load_chunk(&mut st.sched, record)?)
        })?;
        write_optional(cx, header.pos.x);
        write_optional(cz, header.pos.z);
        write_optional(status, header.status as u32);
        Ok(())
    })
}
