//! Saved edits: a world's edits as the C library's edit records (`sg_world_save_edits`: one
//! chunk's edits with the world's identity, LZ4-compressed and checksummed), one record per
//! edited chunk, one after another. What the package saves, the C library, Python and the
//! command line read, and the other way round.

use stratagen_core::engine::ChunkPos;
use stratagen_store::edits::{apply_edits, decode_edits, save_edits};
use stratagen_store::record::framed_len;

use crate::boundary::{bytes, in_slice, out_slice, status};
use crate::world::with_world;

/// The edit records of every chunk the world's edits reach, in position order (z, then x),
/// one after another, as the bytes result.
#[no_mangle]
pub extern "C" fn sg_world_save_edits(world: u32) -> u32 {
    status(|| {
        let out = with_world(world, |w| {
            let g = w.generator().clone();
            let edits = w.edits_mut();
            let mut chunks: Vec<ChunkPos> = edits.edited_chunks().collect();
            chunks.sort_by_key(|p| (p.z, p.x));
            let mut out = Vec::new();
            for p in chunks {
                out.extend_from_slice(&save_edits(&g, edits, p));
            }
            Ok(out)
        })?;
        bytes(out);
        Ok(())
    })
}

/// Apply edit records (`sg_world_save_edits`'s, or the C library's, one after another) to the
/// world, after the edits it has: every record is checked first, and one refused record
/// refuses them all, changing nothing. The number of records goes to `out`.
///
/// # Safety
/// `records` must be readable for `len` bytes; `out` writable for one `u32`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_load_edits(
    world: u32,
    records: *const u8,
    len: usize,
    out: *mut u32,
) -> u32 {
    status(|| {
        // SAFETY: the caller's promise.
        let (all, out) = unsafe {
            (
                in_slice(records, len, "records")?,
                out_slice(out, 1, "count")?,
            )
        };
        with_world(world, |w| {
            let g = w.generator().clone();
            let mut decoded = Vec::new();
            let mut rest = all;
            while !rest.is_empty() {
                let at = all.len() - rest.len();
                let n = framed_len(rest).map_err(|e| format!("record at byte {at}: {e}"))?;
                let (one, next) = rest.split_at(n.min(rest.len()));
                decoded
                    .push(decode_edits(&g, one).map_err(|e| format!("record at byte {at}: {e}"))?);
                rest = next;
            }
            // Checked whole: applying them now refuses only an edit no chunk can take, which
            // decoding has ruled out.
            for r in &decoded {
                apply_edits(w.edits_mut(), r).map_err(|e| e.to_string())?;
            }
            out[0] = decoded.len() as u32;
            Ok(())
        })
    })
}
