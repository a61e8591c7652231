//! Stratagen as WebAssembly: the core behind a small `extern "C"` surface over the module's
//! linear memory, which the npm package `stratagen` (`js/`) wraps in classes.
//!
//! The surface follows the C ABI's conventions, in a form JavaScript calls cheaply:
//!
//! - numbers in and out as wasm values (`i32`, `u32`, `f64`; `i64` is a `BigInt` in JS);
//! - buffers in linear memory, allocated by the caller with [`sg_alloc`] (8-byte aligned, so
//!   any typed array can view them) and released with [`sg_free`];
//! - objects (noises, worlds, chunks, meshes) as handles: nonzero `u32` ids that are never
//!   reused, so a freed or foreign id is refused, never misread;
//! - every call that can fail returns a status ([`OK`] or [`FAILED`]) or a handle (0 on
//!   failure), writes its outputs only on success, and leaves a message for
//!   [`sg_error_ptr`]/[`sg_error_len`]; text results (shaders) likewise through
//!   [`sg_text_ptr`]/[`sg_text_len`].
//!
//! Bad input is refused with a message before the core sees it, so nothing a caller passes
//! can trap the instance. The module is single-threaded (one per Web Worker); its state is
//! the registries of handles, never an input of an output.
//!
//! Without its `world` feature it is the noise-only module: noises, fills, images and shaders.
//!
//! It builds for `wasm32-unknown-unknown` with Debian's rustc 1.63 called directly
//! (`.ci/wasm-build.sh`), and natively in the workspace, where its tests run.

#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod boundary;
pub mod noise;

// Worlds: without the `world` feature the module has noises only (`stratagen/noise`).
#[cfg(feature = "world")]
pub mod cache;
#[cfg(feature = "world")]
pub mod definition;
#[cfg(feature = "world")]
pub mod palette;
#[cfg(feature = "world")]
pub mod records;
#[cfg(feature = "world")]
pub mod scatter;
#[cfg(feature = "world")]
pub mod terrain;
#[cfg(feature = "world")]
pub mod world;

pub use boundary::{
    sg_alloc, sg_bytes_len, sg_bytes_ptr, sg_error_len, sg_error_ptr, sg_free, sg_text_len,
    sg_text_ptr, FAILED, OK,
};
