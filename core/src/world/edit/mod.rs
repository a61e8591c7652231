//! Edits: a saved world is its definition, its seed and the player's changes.
//!
//! [`Edits`] keeps each chunk's edits as a sorted diff over its generated blocks
//! ([`ChunkEdits`]), ordered by the sequence number the world gives each edit, so the result
//! never depends on thread timing. [`EditLayer`] reads finished chunks through them: edited
//! blocks, their heightmaps, and light computed by the `light` body over the edited blocks,
//! the same answer as generating the edited world from scratch. [`record`] is the bit-exact
//! body of an edit record.

mod diff;
mod edits;
mod layer;
pub mod record;

pub use diff::ChunkEdits;
pub use edits::{reach_mask, BlockEdit, EditError, EditSite, Edits, EDIT_REACH};
pub use layer::{EditLayer, EditedBuild, EditedChunk, EditedFull, Generated};
