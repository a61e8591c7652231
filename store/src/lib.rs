//! Stratagen's persistence: chunk records ([`record`]: one chunk's outputs at its status, with
//! the world identity, versioned, compressed and checksummed), edit records ([`edits`]: one
//! chunk's edits in the same framing) and, with the `sqlite` feature,
//! the SQLite chunk store ([`sqlite`]) that `stratagen pregen` writes.
//!
//! `core` stays `no_std` and owns the bit-exact body encoding
//! ([`stratagen_core::world::record`]); this crate adds the framing, compression and
//! checksum, and the database.

#![deny(missing_docs)]

pub mod edits;
pub mod record;
#[cfg(feature = "sqlite")]
pub mod sqlite;

pub use edits::{load_edits, save_edits, EditRecord};
pub use record::{RecordError, WorldIdentity};
