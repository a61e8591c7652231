//! Stratagen for Godot 4. Everything here that is not a Godot call is
//! engine-free and tested with `cargo test`, because no Godot 4 binary is available to CI:
//!
//! - [`stream`]: which chunks to request and release as a viewer moves (nearest first, a
//!   hysteresis ring, a per-frame request budget);
//! - [`bridge`]: the scheduler on the main thread, task bodies on a thread pool the host
//!   owns (Godot's `WorkerThreadPool`; in the tests, std threads in random order), and the
//!   frame loop that ties them together with a per-frame budget;
//! - [`meshes`]: chunk meshes built on the pool as chunks and their neighbours load;
//! - [`noise_settings`]: `StratagenNoise`'s settings and the noise built from them, kept until
//!   a setting changes.
//!
//! [`gd`] holds the GDExtension classes (`StratagenWorld`, `StratagenNoise`), thin wrappers
//! over these; no Godot 4 binary is available here, so they are built and symbol-checked in CI
//! but run only by `godot/run-headless.sh` on a machine with Godot.
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod bridge;
// godot-rust's macros generate property accessors without documentation.
#[allow(missing_docs)]
pub mod gd;
pub mod meshes;
pub mod noise_settings;
pub mod stream;
