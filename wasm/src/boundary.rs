//! What every export shares: buffers in linear memory, the last error and text result,
//! handle registries, and the checks that turn a caller's pointer into a slice.

use std::alloc::{alloc, dealloc, Layout};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Display;

/// A call succeeded.
pub const OK: u32 = 0;
/// A call failed; [`sg_error_ptr`] and [`sg_error_len`] give why.
pub const FAILED: u32 = 1;

/// Alignment of every buffer [`sg_alloc`] hands out, in bytes: enough for any typed array.
const ALIGN: usize = 8;

thread_local! {
    /// Why the last failing call failed.
    static ERROR: RefCell<String> = const { RefCell::new(String::new()) };
    /// The last text result (a shader).
    static TEXT: RefCell<String> = const { RefCell::new(String::new()) };
    /// The last bytes result (saved edits).
    static BYTES: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The layout of a buffer of `len` bytes (at least one, so every pointer is unique).
fn layout(len: usize) -> Option<Layout> {
    Layout::from_size_align(len.max(1), ALIGN).ok()
}

/// A buffer of `len` bytes, 8-byte aligned, uninitialised; null when memory is exhausted or
/// `len` is impossible. Release it with [`sg_free`] and the same `len`.
#[no_mangle]
pub extern "C" fn sg_alloc(len: usize) -> *mut u8 {
    match layout(len) {
        // SAFETY: the layout has a nonzero size (`layout` takes at least one byte).
        Some(l) => unsafe { alloc(l) },
        None => std::ptr::null_mut(),
    }
}

/// Release a buffer from [`sg_alloc`]; null is ignored.
///
/// # Safety
/// `ptr` must be null or a pointer [`sg_alloc`] returned for this `len`, not released yet.
#[no_mangle]
pub unsafe extern "C" fn sg_free(ptr: *mut u8, len: usize) {
    if let (false, Some(l)) = (ptr.is_null(), layout(len)) {
        // SAFETY: the caller passes a live allocation of `sg_alloc(len)`, whose layout this is.
        unsafe { dealloc(ptr, l) }
    }
}

/// Record why a call failed; the status a failing call returns.
pub fn fail(why: impl Display) -> u32 {
    ERROR.with(|e| *e.borrow_mut() = why.to_string());
    FAILED
}

/// Record a text result; [`OK`].
pub fn text(t: String) -> u32 {
    TEXT.with(|x| *x.borrow_mut() = t);
    OK
}

/// The UTF-8 bytes of the last error message (valid until the next failing call).
#[no_mangle]
pub extern "C" fn sg_error_ptr() -> *const u8 {
    ERROR.with(|e| e.borrow().as_ptr())
}

/// The length in bytes of the last error message.
#[no_mangle]
pub extern "C" fn sg_error_len() -> usize {
    ERROR.with(|e| e.borrow().len())
}

/// The UTF-8 bytes of the last text result (valid until the next call that gives text).
#[no_mangle]
pub extern "C" fn sg_text_ptr() -> *const u8 {
    TEXT.with(|t| t.borrow().as_ptr())
}

/// The length in bytes of the last text result.
#[no_mangle]
pub extern "C" fn sg_text_len() -> usize {
    TEXT.with(|t| t.borrow().len())
}

/// Record a bytes result; [`OK`].
pub fn bytes(b: Vec<u8>) -> u32 {
    BYTES.with(|x| *x.borrow_mut() = b);
    OK
}

/// The last bytes result (valid until the next call that gives bytes).
#[no_mangle]
pub extern "C" fn sg_bytes_ptr() -> *const u8 {
    BYTES.with(|b| b.borrow().as_ptr())
}

/// The length of the last bytes result.
#[no_mangle]
pub extern "C" fn sg_bytes_len() -> usize {
    BYTES.with(|b| b.borrow().len())
}

/// Objects behind handles: nonzero ids, never reused.
pub struct Registry<T> {
    next: u32,
    items: BTreeMap<u32, T>,
    what: &'static str,
}

impl<T> Registry<T> {
    /// An empty registry of objects called `what` in messages.
    pub fn new(what: &'static str) -> Registry<T> {
        Registry {
            next: 1,
            items: BTreeMap::new(),
            what,
        }
    }

    /// Keep `item`; its handle (0 once every id was used: the caller reports it).
    pub fn insert(&mut self, item: T) -> u32 {
        let id = self.next;
        if id == 0 {
            return 0;
        }
        self.next = id.wrapping_add(1);
        self.items.insert(id, item);
        id
    }

    /// The object of `id`, or why there is none.
    pub fn get(&self, id: u32) -> Result<&T, String> {
        self.items
            .get(&id)
            .ok_or_else(|| format!("{} {id} is not live (freed, or never made)", self.what))
    }

    /// The object of `id` to change, or why there is none.
    pub fn get_mut(&mut self, id: u32) -> Result<&mut T, String> {
        let what = self.what;
        self.items
            .get_mut(&id)
            .ok_or_else(|| format!("{what} {id} is not live (freed, or never made)"))
    }

    /// Take the object of `id` out.
    pub fn remove(&mut self, id: u32) -> Result<T, String> {
        self.items
            .remove(&id)
            .ok_or_else(|| format!("{} {id} is not live (freed, or never made)", self.what))
    }

    /// Live objects (for the memory tests).
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether none is live.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// `count` elements of `T` at `ptr` as a slice to write, or why not (null, misaligned, a size
/// that overflows).
///
/// # Safety
/// A non-null, aligned `ptr` must be valid for writes of `count` elements of `T` for `'a`,
/// and nothing else may use that memory meanwhile.
pub unsafe fn out_slice<'a, T>(
    ptr: *mut T,
    count: usize,
    what: &str,
) -> Result<&'a mut [T], String> {
    checked(ptr as *const T, count, what)?;
    // SAFETY: non-null and aligned (checked); valid for `count` writes (the caller's promise).
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, count) })
}

/// `count` elements of `T` at `ptr` as a slice to read, or why not.
///
/// # Safety
/// A non-null, aligned `ptr` must be valid for reads of `count` elements of `T` for `'a`.
pub unsafe fn in_slice<'a, T>(ptr: *const T, count: usize, what: &str) -> Result<&'a [T], String> {
    checked(ptr, count, what)?;
    // SAFETY: non-null and aligned (checked); valid for `count` reads (the caller's promise).
    Ok(unsafe { std::slice::from_raw_parts(ptr, count) })
}

/// Refuse a null or misaligned pointer, or a length whose byte size overflows.
fn checked<T>(ptr: *const T, count: usize, what: &str) -> Result<(), String> {
    if ptr.is_null() {
        return Err(format!("{what}: a null buffer"));
    }
    if (ptr as usize) % std::mem::align_of::<T>() != 0 {
        return Err(format!("{what}: a misaligned buffer"));
    }
    if count.checked_mul(std::mem::size_of::<T>()).is_none() {
        return Err(format!("{what}: {count} elements do not fit in memory"));
    }
    Ok(())
}

/// The UTF-8 text of `len` bytes at `ptr`, or why not.
///
/// # Safety
/// As for [`in_slice`] with `u8`.
pub unsafe fn in_str<'a>(ptr: *const u8, len: usize, what: &str) -> Result<&'a str, String> {
    // SAFETY: the caller's promise, passed on.
    let bytes = unsafe { in_slice(ptr, len, what)? };
    std::str::from_utf8(bytes).map_err(|e| format!("{what}: not UTF-8 ({e})"))
}

/// Run an export's body: its status, or the failure recorded.
pub fn status(body: impl FnOnce() -> Result<(), String>) -> u32 {
    match body() {
        Ok(()) => OK,
        Err(e) => fail(e),
    }
}

/// Run an export's body that makes a handle: the handle, or 0 with the failure recorded.
pub fn handle(body: impl FnOnce() -> Result<u32, String>) -> u32 {
    match body() {
        Ok(0) => {
            fail("every handle id was used");
            0
        }
        Ok(h) => h,
        Err(e) => {
            fail(e);
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_never_reused_and_stale_ones_are_refused() {
        let mut r = Registry::new("thing");
        let a = r.insert(1);
        let b = r.insert(2);
        assert_ne!(a, b);
        assert_eq!(r.remove(a), Ok(1));
        assert!(r.get(a).unwrap_err().contains("thing"));
        let c = r.insert(3);
        assert!(c != a && c != b);
        assert_eq!(r.get(c), Ok(&3));
    }

    #[test]
    fn buffers_are_aligned_and_bad_pointers_refused() {
        let p = sg_alloc(24);
        assert_eq!(p as usize % 8, 0);
        // SAFETY: 24 bytes hold three f64; the buffer is ours until freed below.
        let s = unsafe { out_slice(p as *mut f64, 3, "out") }.unwrap();
        s.copy_from_slice(&[1.0, 2.0, 3.0]);
        // SAFETY: a misaligned pointer is refused before any access.
        assert!(unsafe { out_slice((p as usize + 1) as *mut f64, 1, "out") }.is_err());
        // SAFETY: null is refused before any access.
        assert!(unsafe { in_slice(std::ptr::null::<u16>(), 1, "in") }.is_err());
        // SAFETY: the pointer came from `sg_alloc(24)`.
        unsafe { sg_free(p, 24) };
    }
}
