//! World definitions from C: create a world from a definition document (TOML or JSON, as
//! `stratagen world print` writes them), read a preset's text, a world's definition digest,
//! and a world's own blocks and biomes by id or name (its palette, which may differ from the
//! built-in one that `sg_block_*` describe).

use std::os::raw::c_char;
use std::sync::Arc;

use crate::boundary::{
    copy_out_str, ffi, optional_slice_mut, out_buf, try_cstr, try_def, try_out, try_slice,
};
use crate::handles::{owner_out, with_owner};
use crate::palette::{sg_biome_info, sg_block_info, CPalette};
use crate::result::{sg_result, FfiResult};
use crate::types::{sg_world, sg_world_def};

/// Create a world from a definition document: `text` holds `len` bytes of UTF-8, TOML or JSON
/// (JSON when it starts with `{`); a document may start from a preset with
/// `base = "default"`. Settings (seed, height range, sea level) come from `def`. On success
/// writes `*out` (release with `sg_world_destroy`); the calling thread becomes the owner.
///
/// A document with problems gives `SG_RESULT_INVALID_DEFINITION`, creates nothing, and writes
/// every problem (one per line: `line:column: path: what is wrong`) into `err_buf` as a
/// NUL-terminated string, cut to `err_cap` bytes (`err_buf` may be NULL). Any thread (becomes
/// the owner).
///
/// # Safety
/// `def` must be NULL or point to a readable `sg_world_def` of at least `def->struct_size`
/// bytes; `text` NULL or readable for `len` bytes; `out` NULL or writable; `err_buf` NULL or
/// valid for writes of `err_cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn sg_world_create_from_definition(
    def: *const sg_world_def,
    text: *const c_char,
    len: usize,
    out: *mut *mut sg_world,
    err_buf: *mut c_char,
    err_cap: usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: `out` is NULL or writable, `def` NULL or readable for `struct_size` bytes,
        // `text` NULL or readable for `len` bytes, as this function's contract states.
        let (out, d, bytes) = unsafe {
            (
                try_out(out)?,
                try_def(def)?,
                try_slice(text.cast::<u8>(), len)?,
            )
        };
        match stratagen_worldfile::parse_bytes(bytes) {
            Ok(world) => {
                let palette = Arc::new(CPalette::new(Arc::new(world)));
                crate::world::create(d, palette, out)
            }
            Err(problems) => {
                // SAFETY: `err_buf` is NULL or writable for `err_cap` bytes by this function's
                // contract.
                let err = unsafe { optional_slice_mut(err_buf.cast::<u8>(), err_cap) };
                write_message(&problems.to_string(), err);
                Err(sg_result::InvalidDefinition)
            }
        }
    })
}

/// `message` into `buf` as a NUL-terminated string of at most `buf.len()` bytes (cut at a
/// UTF-8 character boundary).
fn write_message(message: &str, buf: Option<&mut [u8]>) {
    let Some((last, buf)) = buf.and_then(|b| b.split_last_mut()) else {
        return;
    };
    let mut n = message.len().min(buf.len());
    while !message.is_char_boundary(n) {
        n -= 1;
    }
    buf[..n].copy_from_slice(&message.as_bytes()[..n]);
    match buf.get_mut(n) {
        Some(b) => *b = 0,
        None => *last = 0,
    }
}

/// The text of the built-in preset `name` (`"default"`, `"archipelago"`, `"caverns"`), a
/// TOML document, NUL-terminated, into `buf`. `*needed` (optional) always receives its size
/// in bytes with the NUL; a smaller `cap` gives `SG_RESULT_BUFFER_TOO_SMALL` and writes
/// nothing (ask with `buf = NULL, cap = 0`). `SG_RESULT_NOT_FOUND` for an unknown name. Any
/// thread.
///
/// # Safety
/// `name` must be NULL or NUL-terminated; `buf` NULL or valid for writes of `cap` bytes;
/// `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn sg_definition_preset(
    name: *const c_char,
    buf: *mut c_char,
    cap: usize,
    needed: *mut usize,
) -> sg_result {
    ffi(|| {
        // SAFETY: `name` is NULL or NUL-terminated, `buf` NULL or writable for `cap` bytes and
        // `needed` NULL or writable, as this function's contract states.
        let (name, buf) = unsafe { (try_cstr(name)?, out_buf(buf.cast::<u8>(), cap, needed)) };
        let text = name
            .to_str()
            .ok()
            .and_then(stratagen_worldfile::preset)
            .ok_or(sg_result::NotFound)?;
        copy_out_str(text, buf)
    })
}

/// The digest of the world's definition into `*digest`: equal digests mean the same blocks,
/// biomes, terrain, features and structures (whatever the text's layout), so stored chunks of
/// one world load into the other (with the same seed and height range). Owner thread.
///
/// # Safety
/// `digest` must be NULL or valid for a write of a `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_definition_digest(
    world: *mut sg_world,
    digest: *mut u64,
) -> sg_result {
    ffi(|| {
        // SAFETY: `digest` is NULL or writable by this function's contract.
        let digest = unsafe { try_out(digest) }?;
        owner_out(world, digest, |_, st| Ok(st.generator.definition_digest()))
    })
}

/// The world's palette (the names it hands out live as long as the world).
fn palette(world: *mut sg_world) -> FfiResult<Arc<CPalette>> {
    with_owner(world, |_, st| Ok(st.palette.clone()))
}

/// Number of the world's block ids into `*count`. Owner thread.
///
/// # Safety
/// `count` must be NULL or valid for a write of a `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_block_count(world: *mut sg_world, count: *mut u32) -> sg_result {
    ffi(|| {
        // SAFETY: `count` is NULL or writable by this function's contract.
        let count = unsafe { try_out(count) }?;
        owner_out(world, count, |_, st| {
            Ok(st.palette.world.blocks.len() as u32)
        })
    })
}

/// The world's block `id` into `*out` (its name stays valid until the world is destroyed);
/// `SG_RESULT_INVALID_ARGUMENT` for an id outside `0..count`. Owner thread.
///
/// # Safety
/// `out` must be NULL or valid for a write of an `sg_block_info`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_block_info(
    world: *mut sg_world,
    id: u32,
    out: *mut sg_block_info,
) -> sg_result {
    ffi(|| {
        // SAFETY: `out` is NULL or writable by this function's contract.
        let out = unsafe { try_out(out) }?;
        owner_out(world, out, |_, st| st.palette.block(id))
    })
}

/// The id of the world's block named `name` into `*id`; `SG_RESULT_NOT_FOUND` if there is
/// none. Owner thread.
///
/// # Safety
/// `name` must be NULL or NUL-terminated; `id` NULL or valid for a write of a `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_block_by_name(
    world: *mut sg_world,
    name: *const c_char,
    id: *mut u32,
) -> sg_result {
    ffi(|| {
        // SAFETY: `name` is NULL or NUL-terminated, `id` NULL or writable, by this function's
        // contract.
        let (name, id) = unsafe { (try_cstr(name)?, try_out(id)?) };
        palette(world)?.find(0, name, id)
    })
}

/// Number of the world's biome ids into `*count`. Owner thread.
///
/// # Safety
/// `count` must be NULL or valid for a write of a `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_biome_count(world: *mut sg_world, count: *mut u32) -> sg_result {
    ffi(|| {
        // SAFETY: `count` is NULL or writable by this function's contract.
        let count = unsafe { try_out(count) }?;
        owner_out(world, count, |_, st| {
            Ok(st.palette.world.biomes.len() as u32)
        })
    })
}

/// The world's biome `id` into `*out` (its name stays valid until the world is destroyed);
/// `SG_RESULT_INVALID_ARGUMENT` for an id outside `0..count`. Owner thread.
///
/// # Safety
/// `out` must be NULL or valid for a write of an `sg_biome_info`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_biome_info(
    world: *mut sg_world,
    id: u32,
    out: *mut sg_biome_info,
) -> sg_result {
    ffi(|| {
        // SAFETY: `out` is NULL or writable by this function's contract.
        let out = unsafe { try_out(out) }?;
        owner_out(world, out, |_, st| st.palette.biome(id))
    })
}

/// The id of the world's biome named `name` into `*id`; `SG_RESULT_NOT_FOUND` if there is
/// none. Owner thread.
///
/// # Safety
/// `name` must be NULL or NUL-terminated; `id` NULL or valid for a write of a `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_biome_by_name(
    world: *mut sg_world,
    name: *const c_char,
    id: *mut u32,
) -> sg_result {
    ffi(|| {
        // SAFETY: `name` is NULL or NUL-terminated, `id` NULL or writable, by this function's
        // contract.
        let (name, id) = unsafe { (try_cstr(name)?, try_out(id)?) };
        palette(world)?.find(1, name, id)
    })
}
