//! The host's allocator policy. A chunk's bodies allocate and free a few MiB of temporaries
//! and outputs; glibc's default returns freed memory to the kernel eagerly (heap trimming,
//! and `mmap` for blocks above a threshold that adapts as blocks are freed), so the next
//! chunk faults the same pages in again. With two threads in one process those faults
//! contend for the address space, and bodies run 25–30% slower on two threads than alone;
//! with freed memory kept, two threads run close to twice as fast as one.

/// Keep freed memory in the process (glibc on Linux; elsewhere nothing to do): no trimming,
/// no `mmap` below 32 MiB, and heap growth in 256 MiB steps of address space (pages are only
/// faulted in when first touched). Call once, early: it changes the whole process's
/// allocator, which a library does only when its host asks (the CLI at start, Python through
/// `stratagen.keep_freed_memory()`).
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes glibc's tuning parameters, under glibc's own arena lock,
    // so it may run while other threads allocate; every value is in its documented range.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TOP_PAD, 256 << 20);
    }
}
