//! The library half of the `stratagen` command. The binary (`cli/main.rs`) parses the command
//! line ([`args`]) and runs a command ([`commands`]); the tests call the parts directly.
//!
//! - [`driver`]: the threaded driver (owner thread takes and finishes, workers run);
//! - [`region`]: generating a square or rectangle of chunks, with timings and digests;
//! - [`map`]: rendering a region as a map image;
//! - [`pregen`]: pregeneration into a SQLite chunk store; [`stored`]: regions read back from one;
//! - [`progress`]: progress spinners (indicatif) for the long commands;
//! - [`noise_image`](mod@noise_image): noise images and palettes;
//! - [`files`]: PNG encoding and atomic writes; [`gltf`]: glTF binaries; [`rss`]: peak memory;
//! - [`error`]: the typed error every part returns; [`allocator`]: the allocator policy.

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod allocator;
pub mod args;
pub mod commands;
pub mod driver;
pub mod error;
pub mod files;
pub mod gltf;
pub mod map;
pub mod noise_image;
pub mod pregen;
pub mod progress;
pub mod region;
pub mod rss;
pub mod stored;
pub mod worlds;

pub use driver::{drive, drive_timed};
pub use error::CliError;
pub use files::{encode_png, write_atomic};
pub use map::{render, Image, Layer};
pub use noise_image::{noise_image, palette, NoiseImage};
pub use region::{generate, generate_world, rect, square, Region};
pub use rss::{cpu_model, peak_rss_mib};
