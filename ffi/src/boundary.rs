//! The boundary between C and Rust, written once: the panic boundary every export runs
//! behind, and the helpers that turn a caller's pointer into something Rust may use.
//!
//! A caller's pointer becomes a reference, a slice or an output only through one of the
//! `try_*` helpers here, each of which checks NULL first (and, for a versioned `Def` struct,
//! reads `struct_size` through the raw pointer and checks it) before any reference exists.
//! The helpers are `unsafe` because their callers assert the C contract of the export
//! (the pointer is NULL or valid for what it names); everything after them is safe code.

use std::ffi::CStr;
use std::marker::PhantomData;
use std::os::raw::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;

use crate::result::{sg_result, FfiResult};

/// The panic boundary: run an inner function, turn its `Err` into the code and a caught
/// panic into `SG_RESULT_INTERNAL_PANIC`. Every export goes through here once.
pub(crate) fn ffi(f: impl FnOnce() -> FfiResult<()>) -> sg_result {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => sg_result::Ok,
        Ok(Err(e)) => e,
        Err(_) => sg_result::InternalPanic,
    }
}

/// [`ffi`] for an export that returns a value rather than a result: `fallback` if the body
/// panics.
pub(crate) fn ffi_value<T>(fallback: T, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(fallback)
}

/// A caller's output slot, checked non-NULL, that the library writes at most once (on
/// success, by the convention that outputs are written only then).
pub(crate) struct Out<'a, T> {
    ptr: NonNull<T>,
    _caller: PhantomData<&'a mut T>,
}

impl<T> Out<'_, T> {
    /// Write the output.
    pub fn write(self, v: T) {
        // SAFETY: `try_out` / `optional_out` took the caller's promise that the pointer is
        // valid and aligned for a write of `T` for the whole call.
        unsafe { self.ptr.as_ptr().write(v) }
    }
}

/// A required output: NULL is `SG_RESULT_NULL_ARGUMENT`.
///
/// # Safety
/// `p` must be NULL or valid and aligned for a write of `T` until the export returns.
pub(crate) unsafe fn try_out<'a, T>(p: *mut T) -> FfiResult<Out<'a, T>> {
    // SAFETY: forwarded from this function's contract.
    unsafe { optional_out(p) }.ok_or(sg_result::NullArgument)
}

/// An optional output: NULL means the caller does not want it.
///
/// # Safety
/// As for [`try_out`].
pub(crate) unsafe fn optional_out<'a, T>(p: *mut T) -> Option<Out<'a, T>> {
    NonNull::new(p).map(|ptr| Out {
        ptr,
        _caller: PhantomData,
    })
}

/// Write `v` to an optional output.
pub(crate) fn write_optional<T>(out: Option<Out<'_, T>>, v: T) {
    if let Some(o) = out {
        o.write(v);
    }
}

/// A caller's input struct as a reference.
///
/// # Safety
/// `p` must be NULL or valid and aligned for reads of a `T` until the export returns.
pub(crate) unsafe fn try_ref<'a, T>(p: *const T) -> FfiResult<&'a T> {
    if p.is_null() {
        return Err(sg_result::NullArgument);
    }
    // SAFETY: non-NULL, and readable as a `T` for the call by the caller's contract.
    Ok(unsafe { &*p })
}

/// A versioned settings struct (`sg_*_def`): its first field is `uint32_t struct_size`, the
/// `sizeof` the caller compiled.
///
/// # Safety
/// Implement only for `#[repr(C)]` structs whose first field is the `u32` `struct_size`.
pub(crate) unsafe trait Versioned {}

/// What a `..._default()` export returns if its body panicked: every field zero, so
/// `struct_size` 0 makes every call that takes it refuse it (`SG_RESULT_BAD_STRUCT_SIZE`).
pub(crate) fn refused<T: Versioned + Default>() -> T {
    T::default()
}

/// A caller's versioned struct as a reference. `struct_size` is read through the raw pointer
/// first (the caller's allocation holds at least that field); a size smaller than this
/// library's struct is `SG_RESULT_BAD_STRUCT_SIZE` and no reference is formed. A larger size
/// (a caller built against a newer header) is accepted and only this library's fields are
/// read.
///
/// # Safety
/// `p` must be NULL or valid and aligned for reads of `struct_size` bytes until the export
/// returns (at least the 4 bytes of `struct_size` itself).
pub(crate) unsafe fn try_def<'a, T: Versioned>(p: *const T) -> FfiResult<&'a T> {
    if p.is_null() {
        return Err(sg_result::NullArgument);
    }
    // SAFETY: `struct_size` is the first field (the `Versioned` contract), so these 4 bytes
    // are inside whatever the caller allocated; unaligned reads cost nothing here.
    let size = unsafe { p.cast::<u32>().read_unaligned() };
    if (size as usize) < std::mem::size_of::<T>() {
        return Err(sg_result::BadStructSize);
    }
    // SAFETY: the caller promised `struct_size` readable bytes, and that covers a whole `T`.
    Ok(unsafe { &*p })
}

/// A caller's input array of `len` elements. NULL is `SG_RESULT_NULL_ARGUMENT`, even with
/// `len` 0 (an input the caller forgot is a mistake, not an empty array).
///
/// # Safety
/// `p` must be NULL or valid and aligned for reads of `len` elements, not written by anyone
/// until the export returns.
pub(crate) unsafe fn try_slice<'a, T>(p: *const T, len: usize) -> FfiResult<&'a [T]> {
    if p.is_null() {
        return Err(sg_result::NullArgument);
    }
    // SAFETY: non-NULL and readable for `len` elements by the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// A caller's output array of `cap` elements (written, never read). NULL is
/// `SG_RESULT_NULL_ARGUMENT`.
///
/// # Safety
/// `p` must be NULL or valid and aligned for writes of `cap` elements, and not accessed
/// through any other pointer until the export returns.
pub(crate) unsafe fn try_slice_mut<'a, T: Copy>(p: *mut T, cap: usize) -> FfiResult<&'a mut [T]> {
    if p.is_null() {
        return Err(sg_result::NullArgument);
    }
    // SAFETY: non-NULL, valid for `cap` writes and unaliased by the caller's contract; `T` is
    // plain data (`Copy`), so the slice is only written before anything reads it.
    Ok(unsafe { std::slice::from_raw_parts_mut(p, cap) })
}

/// An optional output array of `cap` elements (NULL: the caller does not want it).
///
/// # Safety
/// As for [`try_slice_mut`].
pub(crate) unsafe fn optional_slice_mut<'a, T: Copy>(p: *mut T, cap: usize) -> Option<&'a mut [T]> {
    // SAFETY: forwarded from this function's contract.
    unsafe { try_slice_mut(p, cap) }.ok()
}

/// A caller's NUL-terminated string.
///
/// # Safety
/// `p` must be NULL or point to a NUL-terminated string readable until the export returns.
pub(crate) unsafe fn try_cstr<'a>(p: *const c_char) -> FfiResult<&'a CStr> {
    if p.is_null() {
        return Err(sg_result::NullArgument);
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    Ok(unsafe { CStr::from_ptr(p) })
}

/// A caller's output buffer `(buf, cap, needed)` with the size query convention: `needed`
/// (optional) receives the size, and `buf` may be NULL when the caller only asks it.
pub(crate) struct OutBuf<'a, T> {
    ptr: *mut T,
    cap: usize,
    needed: Option<Out<'a, usize>>,
    _caller: PhantomData<&'a mut [T]>,
}

/// The caller's buffer, checked when it is filled.
///
/// # Safety
/// `buf` must be NULL or valid and aligned for writes of `cap` elements, and not accessed
/// through any other pointer until the export returns; `needed` NULL or writable.
pub(crate) unsafe fn out_buf<'a, T>(buf: *mut T, cap: usize, needed: *mut usize) -> OutBuf<'a, T> {
    OutBuf {
        ptr: buf,
        cap,
        // SAFETY: forwarded from this function's contract.
        needed: unsafe { optional_out(needed) },
        _caller: PhantomData,
    }
}

/// [`copy_out`] of `text` as a NUL-terminated C string (`needed` counts the NUL).
pub(crate) fn copy_out_str(text: &str, buf: OutBuf<'_, u8>) -> FfiResult<()> {
    let mut bytes = Vec::with_capacity(text.len() + 1);
    bytes.extend_from_slice(text.as_bytes());
    bytes.push(0);
    copy_out(&bytes, buf)
}

/// Copy `src` into the caller's buffer if it fits; always writes the element count to
/// `needed` (if wanted), so a call with `cap = 0` asks the size. The buffer is untouched
/// unless the result is OK: `SG_RESULT_BUFFER_TOO_SMALL` if `cap` is short,
/// `SG_RESULT_NULL_ARGUMENT` if it is enough but the buffer is NULL.
pub(crate) fn copy_out<T: Copy>(src: &[T], buf: OutBuf<'_, T>) -> FfiResult<()> {
    copy_out_runs(src.len(), buf, |put| put(src))
}

/// [`copy_out`] of `len` elements that `runs` hands over in order, a slice at a time (paletted
/// chunk arrays decode a section at a time, so no dense copy is made first). Elements past
/// `len` are ignored; the checks happen before `runs` is called.
pub(crate) fn copy_out_runs<T: Copy>(
    len: usize,
    buf: OutBuf<'_, T>,
    runs: impl FnOnce(&mut dyn FnMut(&[T])),
) -> FfiResult<()> {
    write_optional(buf.needed, len);
    if buf.cap < len {
        return Err(sg_result::BufferTooSmall);
    }
    if buf.ptr.is_null() {
        return Err(sg_result::NullArgument);
    }
    let mut at = 0;
    runs(&mut |run: &[T]| {
        let n = run.len().min(len - at);
        // SAFETY: `out_buf` took the caller's promise that `ptr` is valid for `cap >= len`
        // writes and `at + n <= len`; the library's own `run` cannot overlap the caller's
        // buffer.
        unsafe { std::ptr::copy_nonoverlapping(run.as_ptr(), buf.ptr.add(at), n) };
        at += n;
    });
    Ok(())
}

/// Copy `src` into an optional caller array (NULL: skipped) whose capacity the caller has
/// checked.
///
/// # Safety
/// `dst` must be NULL or valid and aligned for writes of `src.len()` elements.
pub(crate) unsafe fn copy_to<T: Copy>(src: &[T], dst: *mut T) {
    if !dst.is_null() {
        // SAFETY: valid for `src.len()` writes by the caller's contract; the library's `src`
        // cannot overlap the caller's array.
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), dst, src.len()) };
    }
}

/// Declare a `#[repr(C)]` settings struct versioned: `struct_size` must be its first field.
macro_rules! versioned {
    ($t:ty) => {
        const _: () = assert!(std::mem::offset_of!($t, struct_size) == 0);
        // SAFETY: `#[repr(C)]`, and `struct_size` is at offset 0 (asserted above); its type is
        // `u32` in every such struct (the header test compares the C declarations).
        unsafe impl $crate::boundary::Versioned for $t {}
    };
}
pub(crate) use versioned;

#[cfg(test)]
mod tests {
    use super::*;

    #[repr(C)]
    struct Def {
        struct_size: u32,
        value: u64,
    }
    // SAFETY: `#[repr(C)]` with `struct_size: u32` first.
    unsafe impl Versioned for Def {}

    /// A struct shorter than the library's is refused from its first 4 bytes alone; an equal
    /// or larger one is read.
    #[test]
    fn versioned_structs_are_checked_before_a_reference() {
        let short: u32 = 4;
        // SAFETY: the 4 bytes of `short` are all `try_def` reads before refusing.
        let r = unsafe { try_def(std::ptr::addr_of!(short).cast::<Def>()) };
        assert_eq!(r.err(), Some(sg_result::BadStructSize));
        let full = Def {
            struct_size: std::mem::size_of::<Def>() as u32 + 8,
            value: 7,
        };
        // SAFETY: a whole `Def`.
        assert_eq!(unsafe { try_def(&full) }.map(|d| d.value), Ok(7));
        // SAFETY: NULL is checked first.
        let null = unsafe { try_def::<Def>(std::ptr::null()) };
        assert_eq!(null.err(), Some(sg_result::NullArgument));
    }

    /// NULL input slices are refused; outputs are written only through `Out`, and a buffer
    /// only when it is large enough.
    #[test]
    fn slices_and_outputs() {
        // SAFETY: NULL is checked first.
        let r = unsafe { try_slice::<u8>(std::ptr::null(), 0) };
        assert_eq!(r.err(), Some(sg_result::NullArgument));
        let mut needed = 0usize;
        let mut buf = [0u16; 2];
        // SAFETY: valid locals.
        let b = unsafe { out_buf(buf.as_mut_ptr(), 1, &mut needed) };
        assert_eq!(copy_out(&[1, 2], b), Err(sg_result::BufferTooSmall));
        assert_eq!((needed, buf), (2, [0, 0]));
        // SAFETY: valid locals.
        let b = unsafe { out_buf(buf.as_mut_ptr(), 2, &mut needed) };
        assert_eq!(copy_out(&[1, 2], b), Ok(()));
        assert_eq!(buf, [1, 2]);
        // SAFETY: NULL with enough capacity is refused before any write.
        let b = unsafe { out_buf::<u16>(std::ptr::null_mut(), 2, std::ptr::null_mut()) };
        assert_eq!(copy_out(&[1, 2], b), Err(sg_result::NullArgument));
    }

    /// The crate's sources, but this file.
    fn other_sources() -> Vec<(String, String)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().unwrap() != "boundary.rs")
            .map(|p| {
                (
                    p.display().to_string(),
                    std::fs::read_to_string(&p).unwrap(),
                )
            })
            .collect();
        files.sort();
        files
    }

    /// Every export's body is one call of the panic boundary: the first statement after the
    /// signature is `ffi(` or `ffi_value(`.
    #[test]
    fn every_export_runs_behind_the_panic_boundary() {
        let mut exports = 0;
        for (path, text) in other_sources() {
            for (at, _) in text.match_indices("extern \"C\" fn ") {
                let body = &text[at + text[at..].find('{').unwrap() + 1..];
                let first = body
                    .lines()
                    .map(str::trim)
                    .find(|l| !l.is_empty() && !l.starts_with("//"))
                    .unwrap();
                let name = text[at..].split(['(', ' ']).nth(3).unwrap();
                assert!(
                    first.starts_with("ffi(") || first.starts_with("ffi_value("),
                    "{path}: {name} starts with `{first}`"
                );
                exports += 1;
            }
        }
        assert!(exports >= 50, "{exports} exports found");
    }

    /// Caller pointers are turned into references, slices and strings only here: no other
    /// file dereferences, reads or slices a raw pointer.
    #[test]
    fn pointers_are_dereferenced_only_in_the_boundary() {
        let forbidden = [
            "&*",
            "from_raw_parts",
            "CStr::from_ptr",
            "read_unaligned",
            "ptr::read",
            "ptr::write",
            ".add(",
            ".offset(",
            "is_null()",
            "copy_nonoverlapping",
        ];
        for (path, text) in other_sources() {
            let code = text.split("#[cfg(test)]").next().unwrap();
            for f in forbidden {
                for line in code.lines().filter(|l| l.contains(f)) {
                    assert!(
                        line.trim().starts_with("//"),
                        "{path}: `{f}` outside the boundary: {line}"
                    );
                }
            }
        }
    }
}
