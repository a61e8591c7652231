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
//! - [`parse_tree`]: a document that a host parsed itself, as a tree with line:column (the
//!   JavaScript package, which parses TOML in JavaScript); [`toml_tree`] and [`preset_trees`]
//!   make such trees from text.
//!
//! The text formats are the `text` feature (on by default). Without it the library reads
//! trees only, has no dependency besides core, and builds with Rust 1.63 (the WebAssembly
//! build).

#![deny(missing_docs)]
// The writers serve `print`, which is text: a tree-only build reads and never writes.
#![cfg_attr(not(feature = "text"), allow(dead_code))]

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
#[cfg(feature = "text")]
mod text;
mod tree;

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

#[cfg(feature = "text")]
/// Parse and check a document given as bytes (from a file or a C caller). Bytes that are not
/// UTF-8 are one problem at the line and column of the first bad byte.
pub fn parse_bytes(bytes: &[u8]) -> Result<Definition, Problems> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text),
        Err(e) => Err(problem::not_utf8(bytes, e).into()),
    }
}

#[cfg(feature = "text")]
/// Parse and check a document (its format guessed by [`Format::guess`]).
pub fn parse(text: &str) -> Result<Definition, Problems> {
    parse_as(text, Format::guess(text))
}

#[cfg(feature = "text")]
/// Parse and check a document of a known format.
pub fn parse_as(text: &str, format: Format) -> Result<Definition, Problems> {
    let root = match format {
        Format::Toml => text::from_toml(text),
        Format::Json => text::from_json(text),
    }
    .map_err(Problems::from)?;
    let root = document::with_base(root, 0, &|name| {
        preset(name).map(|t| text::from_toml(t).map_err(Problems::from))
    })?;
    document::read(&root)
}

#[cfg(feature = "text")]
/// The full document of `d` (every value written, no `base`).
pub fn print(d: &Definition, format: Format) -> String {
    let root = document::write(d);
    match format {
        Format::Toml => text::to_toml(&root),
        Format::Json => text::to_json(&root),
    }
}

#[cfg(feature = "text")]
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

#[cfg(feature = "text")]
/// A preset by name, or a definition file by path.
pub fn load(spec: &str) -> Result<Definition, LoadError> {
    let parsed = match preset(spec) {
        Some(t) => parse(t),
        None => parse_bytes(
            &std::fs::read(std::path::Path::new(spec)).map_err(|source| LoadError::NotFound {
                spec: spec.to_string(),
                presets: PRESETS.join(", "),
                source,
            })?,
        ),
    };
    parsed.map_err(|problems| LoadError::Invalid {
        spec: spec.to_string(),
        problems,
    })
}

#[cfg(feature = "text")]
/// A TOML document as the tree [`parse_tree`] reads, what a host that parsed the text itself
/// hands over.
pub fn toml_tree(text: &str) -> Result<Vec<u8>, Problems> {
    let mut out = Vec::new();
    tree::encode(&text::from_toml(text)?, &mut out);
    Ok(out)
}

#[cfg(feature = "text")]
/// The built-in presets as the list of named trees [`parse_tree`] stands documents on.
pub fn preset_trees() -> Vec<u8> {
    let mut out = (PRESETS.len() as u32).to_le_bytes().to_vec();
    for name in PRESETS {
        out.extend_from_slice(&(name.len() as u32).to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        let text = preset(name).unwrap_or_default();
        match text::from_toml(text) {
            Ok(root) => tree::encode(&root, &mut out),
            // The presets are checked by this crate's tests; an unreadable one is no base.
            Err(_) => return 0u32.to_le_bytes().to_vec(),
        }
    }
    out
}

/// Read and check a document that a host parsed into a tree, standing on the presets in
/// `bases` (a document's `base = "name"` takes the tree of that name). Both are the byte
/// encoding in `worldfile/src/tree.rs`: a node is its kind, line and column, then its value;
/// `bases` is a list of named trees. A damaged encoding is one problem without a position.
pub fn parse_tree(doc: &[u8], bases: &[u8]) -> Result<Definition, Problems> {
    let root = tree::decode(doc)?;
    let bases = tree::decode_list(bases)?;
    let find = |name: &str| {
        bases
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| Ok(t.clone()))
    };
    let root = document::with_base(root, 0, &find)?;
    document::read(&root)
}
