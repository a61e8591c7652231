//! World definitions from C: create a world from a definition document (TOML or JSON, as
//! `stratagen world print` writes them), read a preset's text, a world's definition digest,
//! and a world's own blocks and biomes by id or name (its palette, which may differ from the
//! built-in one that `sg_block_*` describe).

use std::os::raw::c_char;
use std::sync::Arc;

use crate::chunk::copy_out;
use crate::handles::{owner_out, with_owner};
use crate::palette::{sg_biome_info, sg_block_info, CPalette};
use crate::result::{ffi, required, sg_result, FfiResult};
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
    // SAFETY: every pointer is forwarded under this function's contract.
    ffi(|| unsafe { create_from_definition(def, text, len, out, err_buf, err_cap) })
}

/// # Safety
/// As for [`sg_world_create_from_definition`].
unsafe fn create_from_definition(
    def: *const sg_world_def,
    text: *const c_char,
    len: usize,
    out: *mut *mut sg_world,
    err_buf: *mut c_char,
    err_cap: usize,
) -> FfiResult<()> {
    let out = required(out)?;
    if def.is_null() || text.is_null() {
        return Err(sg_result::NullArgument);
    }
    // SAFETY: non-NULL and readable by the caller's contract.
    let d = unsafe { &*def };
    if (d.struct_size as usize) < std::mem::size_of::<sg_world_def>() {
        return Err(sg_result::BadStructSize);
    }
    // SAFETY: non-NULL and readable for `len` bytes by the caller's contract.
    let bytes = unsafe { std::slice::from_raw_parts(text.cast::<u8>(), len) };
    let parsed = match std::str::from_utf8(bytes) {
        Ok(t) => stratagen_worldfile::parse(t).map_err(|p| p.to_string()),
        Err(e) => Err(format!("the definition is not UTF-8: {e}")),
    };
    match parsed {
        Ok(world) => {
            let palette = Arc::new(CPalette::new(Arc::new(world)));
            // SAFETY: `out` is non-NULL and writable by the caller's contract.
            unsafe { crate::world::create(d, palette, out) }
        }
        Err(message) => {
            // SAFETY: NULL or writable for `err_cap` bytes by the caller's contract.
            unsafe { write_message(&message, err_buf, err_cap) };
            Err(sg_result::InvalidDefinition)
        }
    }
}

/// `message` into `buf` as a NUL-terminated string of at most `cap` bytes (cut at a UTF-8
/// character boundary).
///
/// # Safety
/// `buf` must be NULL or valid for writes of `cap` bytes.
unsafe fn write_message(message: &str, buf: *mut c_char, cap: usize) {
    if buf.is_null() || cap == 0 {
        return;
    }
    let mut n = message.len().min(cap - 1);
    while !message.is_char_boundary(n) {
        n -= 1;
    }
    // SAFETY: `buf` is valid for `cap > n` bytes and cannot overlap `message`.
    unsafe {
        std::ptr::copy_nonoverlapping(message.as_ptr(), buf.cast::<u8>(), n);
        *buf.add(n) = 0;
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
    // SAFETY: forwarded under this function's contract.
    ffi(|| unsafe { preset(name, buf, cap, needed) })
}

/// # Safety
/// As for [`sg_definition_preset`].
unsafe fn preset(
    name: *const c_char,
    buf: *mut c_char,
    cap: usize,
    needed: *mut usize,
) -> FfiResult<()> {
    if name.is_null() {
        return Err(sg_result::NullArgument);
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    let name = unsafe { std::ffi::CStr::from_ptr(name) };
    let text = name
        .to_str()
        .ok()
        .and_then(stratagen_worldfile::preset)
        .ok_or(sg_result::NotFound)?;
    let mut bytes = Vec::with_capacity(text.len() + 1);
    bytes.extend_from_slice(text.as_bytes());
    bytes.push(0);
    // SAFETY: forwarded from this function's contract.
    unsafe { copy_out(&bytes, buf.cast::<u8>(), cap, needed) }
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
    // SAFETY: forwarded under this function's contract.
    ffi(|| unsafe { owner_out(world, digest, |_, st| Ok(st.generator.definition_digest())) })
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
    // SAFETY: forwarded under this function's contract.
    ffi(|| unsafe {
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
    // SAFETY: forwarded under this function's contract.
    ffi(|| unsafe { owner_out(world, out, |_, st| st.palette.block(id)) })
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
    // SAFETY: forwarded under this function's contract.
    ffi(|| unsafe { palette(world)?.find(0, name, id) })
}

/// Number of the world's biome ids into `*count`. Owner thread.
///
/// # Safety
/// `count` must be NULL or valid for a write of a `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn sg_world_biome_count(world: *mut sg_world, count: *mut u32) -> sg_result {
    // SAFETY: forwarded under this function's contract.
    ffi(|| unsafe {
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
    // SAFETY: forwarded under this function's contract.
    ffi(|| unsafe { owner_out(world, out, |_, st| st.palette.biome(id)) })
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
    // SAFETY: forwarded under this function's contract.
    ffi(|| unsafe { palette(world)?.find(1, name, id) })
}
