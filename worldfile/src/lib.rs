//! World definitions as data: a game's own blocks, biomes, terrain shape, caves,
//! ores, vegetation, trees and structures in a TOML (or JSON) document, checked with errors a
//! designer can act on (the path, `line:column`, the allowed values; every problem, not just
//! the first), and turned into the plain [`Definition`] that `stratagen-core` generates from.
//!
//! - [`parse`] / [`parse_as`] / [`parse_bytes`]: text to a checked [`Definition`]; nothing is
//!   made on error.
//! - [`print`](fn@print): a definition's full document (no `base`), in TOML or JSON; parsing it gives
//!   the same [`Definition::digest`].
//! - [`preset`]: the text of a built-in preset (`default`, `archipelago`, `caverns`). A
//!   document may start from one with `base = "name"` and change only what differs (see
//!   ARCHITECTURE.md, "World definitions").
//! - [`load`]: a preset name or a file path, as the CLI's `--world` takes it.

#![deny(missing_docs)]

use std::path::Path;

pub use stratagen_core::world::Definition;

mod blocks;
mod build;
mod climate;
mod document;
mod features;
mod node;
mod problem;
mod reader;
mod scatter;
mod terrain;

pub use document::FORMAT;
pub use problem::{Pos, Problem, Problems, MAX_PROBLEMS};

/// A document's text format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// TOML (for people).
    Toml,
    /// JSON (for tools; comments and trailing commas allowed).
    Json,
}

impl Format {
    /// JSON when the text starts with `{`, TOML otherwise.
    pub fn guess(text: &str) -> Format {
        if text.trim_start().starts_with('{') {
            Format::Json
        } else {
            Format::Toml
        }
    }
}

/// The built-in presets, by name.
pub const PRESETS: [&str; 3] = ["default", "archipelago", "caverns"];

/// The text of a built-in preset.
pub fn preset(name: &str) -> Option<&'static str> {
    Some(match name {
        "default" => include_str!("../presets/default.toml"),
        "archipelago" => include_str!("../presets/archipelago.toml"),
        "caverns" => include_str!("../presets/caverns.toml"),
        _ => return None,
    })
}

/// Parse and check a document given as bytes (from a file or a C caller). Bytes that are not
/// UTF-8 are one problem at the line and column of the first bad byte.
pub fn parse_bytes(bytes: &[u8]) -> Result<Definition, Problems> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text),
        Err(e) => Err(problem::not_utf8(bytes, e).into()),
    }
}

/// Parse and check a document (its format guessed by [`Format::guess`]).
pub fn parse(text: &str) -> Result<Definition, Problems> {
    parse_as(text, Format::guess(text))
}

/// Parse and check a document of a known format.
pub fn parse_as(text: &str, format: Format) -> Result<Definition, Problems> {
    let root = match format {
        Format::Toml => node::from_toml(text),
        Format::Json => node::from_json(text),
    }
    .map_err(Problems::from)?;
    let root = document::with_base(root, 0)?;
    document::read(&root)
}

/// The full document of `d` (every value written, no `base`).
pub fn print(d: &Definition, format: Format) -> String {
    let root = document::write(d);
    match format {
        Format::Toml => node::to_toml(&root),
        Format::Json => node::to_json(&root),
    }
}

/// Why [`load`] failed.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Neither a preset nor a readable file.
    #[error("{spec}: not a preset ({presets}) and not a readable file: {source}")]
    NotFound {
        /// What was asked for.
        spec: String,
        /// The presets.
        presets: String,
        /// Why the file could not be read.
        source: std::io::Error,
    },
    /// The document has problems.
    #[error("{spec}:\n{problems}")]
    Invalid {
        /// What was asked for.
        spec: String,
        /// The problems.
        problems: Problems,
    },
}

/// A preset by name, or a definition file by path.
pub fn load(spec: &str) -> Result<Definition, LoadError> {
    let parsed =
        match preset(spec) {
            Some(t) => parse(t),
            None => parse_bytes(&std::fs::read(Path::new(spec)).map_err(|source| {
                LoadError::NotFound {
                    spec: spec.to_string(),
                    presets: PRESETS.join(", "),
                    source,
                }
            })?),
        };
    parsed.map_err(|problems| LoadError::Invalid {
        spec: spec.to_string(),
        problems,
    })
}
