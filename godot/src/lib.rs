//! Stratagen for Godot 4 (DESIGN §11). Everything here that is not a Godot call is
//! engine-free and tested with `cargo test`, because no Godot 4 binary is available to CI:
//!
//! - [`stream`]: which chunks to request and release as a viewer moves (nearest first, a
//!   hysteresis ring, a per-frame request budget);
//! - [`bridge`]: the scheduler on the main thread, task bodies on a thread pool the host
//!   owns (Godot's `WorkerThreadPool`; in the tests, std threads in random order), and the
//!   frame loop that ties them together with a per-frame budget.
//!
//! The GDExtension classes (`StratagenWorld`, `StratagenNoise`) are thin wrappers over these
//! and are not written yet (issue #17).
#![deny(missing_docs)]

pub mod bridge;
pub mod stream;
