//! Stratagen for Godot 4. Everything here that is not a Godot call is
//! engine-free and tested with `cargo test`, because no Godot 4 binary is available to CI:
//!
//! - [`stream`]: which chunks to request and release as a viewer moves (nearest first, a
//!   hysteresis ring, a per-frame request budget);
//! - [`bridge`]: what the core needs of a thread pool the host owns (Godot's
//!   `WorkerThreadPool`; in the tests and the harness, std threads);
//! - [`feed`]: the work the pool's workers drain, generation tasks and chunk meshes, each
//!   worker taking the next best job as soon as it finishes one;
//! - [`streaming`]: the main thread's frame (follow the viewers, collect meshes, start
//!   workers), edits, and saving and loading them;
//! - [`noise_settings`]: `StratagenNoise`'s settings and the noise built from them, kept until
//!   a setting changes;
//! - [`error`]: the streaming core's error.
//!
//! [`gd`] holds the GDExtension classes (`StratagenWorld`, `StratagenNoise`), thin wrappers
//! over these; no Godot 4 binary is available here, so they are built and symbol-checked in CI
//! but run only by `godot/run-headless.sh` on a machine with Godot.
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod bridge;
pub mod error;
pub mod feed;
// godot-rust's macros generate property accessors without documentation.
#[allow(missing_docs)]
pub mod gd;
pub mod noise_settings;
pub mod stream;
pub mod streaming;
