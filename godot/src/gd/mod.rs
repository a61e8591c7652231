//! The Godot classes: thin wrappers over the engine-free [`crate::stream`],
//! [`crate::bridge`], [`crate::feed`] and [`crate::streaming`]. Everything here runs on Godot's main thread but
//! [`pool`]'s task entry, which runs a pure-Rust job element on a worker thread and touches no
//! Godot object.

pub mod noise;
pub mod pool;
pub mod world;

use godot::prelude::*;

/// The extension's entry point (`stratagen_godot_init` in `stratagen.gdextension`).
struct StratagenExtension;

// SAFETY: the one `ExtensionLibrary` of this library; godot-rust's macro generates the entry
// symbol named in `godot/demo/stratagen.gdextension` (`entry_symbol`).
#[gdextension(entry_symbol = stratagen_godot_init)]
unsafe impl ExtensionLibrary for StratagenExtension {}
