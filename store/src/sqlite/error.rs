//! Why a store could not be opened, read, written or merged.

use crate::record::{RecordError, FORMAT_VERSION};

use super::STORE_FORMAT;

/// Why a store could not be opened, read or written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused (the file is not a database, is locked, the disk is full…).
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The file system refused to tell what is at the path.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The file is a database, but not a Stratagen store (it has no `meta` table): it is
    /// left as it is.
    #[error("{0} is not a Stratagen store (no meta table); it was left untouched")]
    NotAStore(String),
    /// The store was written by a newer format.
    #[error("store format {found} is newer than this library's {STORE_FORMAT}")]
    NewerFormat {
        /// The store's format.
        found: u32,
    },
    /// The store's records are of a format this library does not read.
    #[error("store holds record format {found}, this library reads {FORMAT_VERSION}")]
    RecordFormat {
        /// The store's record format.
        found: u32,
    },
    /// The store belongs to another world.
    #[error("store of another world: its {field} is {stored}, not {wanted}")]
    ForeignWorld {
        /// The field that differs (`seed`, `min_y`, `height`, `sea_level`, `definition`).
        field: &'static str,
        /// The store's value.
        stored: String,
        /// The value asked for.
        wanted: String,
    },
    /// A metadata entry is missing or unreadable.
    #[error("store metadata {key}: {problem}")]
    Meta {
        /// The key.
        key: &'static str,
        /// What is wrong.
        problem: &'static str,
    },
    /// The file does not exist (opening for reading).
    #[error("no store at {0}")]
    Missing(String),
    /// A stored row was refused: damaged, of another world, or not the chunk it is stored
    /// under.
    #[error("chunk ({x}, {z}): {source}")]
    Record {
        /// Chunk x of the row.
        x: i32,
        /// Chunk z of the row.
        z: i32,
        /// Why it was refused.
        #[source]
        source: RecordError,
    },
    /// Merging: both stores hold the chunk, with different bytes. Records are a function of
    /// the world and the position, so one of the two is damaged: nothing of that input is
    /// merged.
    #[error("chunk ({x}, {z}) is stored in both with different bytes: one of them is damaged")]
    Conflict {
        /// Chunk x.
        x: i32,
        /// Chunk z.
        z: i32,
    },
    /// Merging: both stores hold edits of the chunk, and they differ. Nothing of that input
    /// is merged: which edits win is the player's choice, not the merge's.
    #[error("chunk ({x}, {z}) has different edits in both stores")]
    EditConflict {
        /// Chunk x.
        x: i32,
        /// Chunk z.
        z: i32,
    },
    /// Merging: the input holds a table this library does not know, which a merge would
    /// drop; nothing of that input is merged.
    #[error("the store holds a table {0:?} that merging would lose")]
    ForeignTable(String),
}

impl From<crate::record::IdentityMismatch> for StoreError {
    fn from(m: crate::record::IdentityMismatch) -> StoreError {
        StoreError::ForeignWorld {
            field: m.field,
            stored: m.stored,
            wanted: m.wanted,
        }
    }
}
