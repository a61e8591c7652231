//! The C ABI of Stratagen. `include/stratagen.h` is generated from this crate
//! by cbindgen (`ffi/cbindgen.toml`); a test fails when the committed header is stale.
//!
//! One file per domain: [`result`] (the result enum and its messages), `boundary` (the panic
//! boundary and the helpers that turn caller pointers into references),
//! [`enums`] (the other C enums and their conversions), [`types`] (structs and handles),
//! `handles` (the registry), [`world`], [`task`], [`chunk`] (readers), [`noise`], [`palette`]
//! (block and biome names, properties, colours), [`mesh`] (chunk and heightmap meshes),
//! [`record`] (save and load chunk records), [`edit`] (set and read blocks, changed chunks,
//! edit records), [`definition`] (worlds from definition documents,
//! presets, a world's own palette). Every
//! export is a thin wrapper over an inner function returning `Result<_, sg_result>`.
//!
//! Conventions:
//! - Every fallible function returns an `sg_result` (fixed values, never renumbered) and
//!   writes its outputs only on success.
//! - NULL pointers give `SG_RESULT_NULL_ARGUMENT`; enum values arrive as `uint32_t` and are
//!   checked (`SG_RESULT_BAD_ENUM`).
//! - Handles are tokens, not addresses: a world or task handle names an entry in a registry,
//!   ids are never reused, so a destroyed world or finished task is detected
//!   (`SG_RESULT_STALE_HANDLE`) and never dereferenced.
//! - No panic crosses the boundary: every export runs behind `catch_unwind`
//!   (`SG_RESULT_INTERNAL_PANIC`), in `boundary::ffi`.
//! - A caller's pointer becomes a reference only through the `boundary::try_*` helpers, which
//!   check NULL and, for a versioned `Def` struct, read `struct_size` through the raw pointer
//!   before any reference to the struct exists.
//! - A chunk position outside |x|, |z| < 2^21 gives `SG_RESULT_OUT_OF_RANGE` from every world
//!   call that takes one (noise and heightmap fills are defined at every `int32_t`).
//! - Thread rules are stated per function. "Owner thread" is the thread that created the
//!   world; calls from another thread return `SG_RESULT_WRONG_THREAD`.
#![allow(non_camel_case_types)]
// Every `unsafe` operation inside an `unsafe fn` is its own block with a SAFETY comment.
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

// The order of these modules is the order of the functions in the generated header.
pub mod result;

mod boundary;

pub mod enums;
mod handles;
pub mod types;

pub mod world;

pub mod task;

pub mod chunk;

pub mod noise;

pub mod palette;

pub mod mesh;

pub mod record;

pub mod edit;

pub mod definition;

pub mod scatter;

pub use chunk::*;
pub use definition::*;
pub use edit::*;
pub use enums::*;
pub use mesh::*;
pub use noise::*;
pub use palette::*;
pub use record::*;
pub use result::{
    sg_result, sg_result_message, sg_version, SG_VERSION_MAJOR, SG_VERSION_MINOR, SG_VERSION_PATCH,
};
pub use scatter::*;
pub use task::*;
pub use types::*;
pub use world::*;
