//! What every Stratagen host needs around the core, shared by the `stratagen` command, the
//! Python package and any Rust host:
//!
//! - [`driver`]: the threaded driver (the owner thread takes and finishes tasks, helpers run
//!   them), with a hook after each finished task;
//! - [`region`]: generating a rectangle of chunks to a status, with timings and digests;
//! - [`pregen`](mod@pregen): pregeneration into a SQLite chunk store that resumes where a killed run
//!   stopped; [`stored`]: regions read back from a store;
//! - [`shard`]: a region cut into tiles and shards that any process generates on its own,
//!   and merging their stores;
//! - [`allocator`]: the allocator policy threaded generation wants (freed memory kept);
//! - [`error`]: the error every part returns, with the messages hosts print.

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod allocator;
pub mod driver;
pub mod error;
pub mod pregen;
pub mod region;
pub mod shard;
pub mod stored;

pub use driver::{drive, drive_hooked, drive_timed, OnFinish};
pub use error::HostError;
pub use pregen::{pregen, PregenReport, BATCH_CHUNKS};
pub use region::{generate, generate_world, rect, square, Region};
pub use shard::{merge, pregen_shard, verify, ShardPlan, VerifyReport, DEFAULT_TILE};
pub use stored::{load_store_edits, open_store, read_region};
