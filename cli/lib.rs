//! The library half of the `stratagen` command. The binary (`cli/main.rs`) parses the command
//! line ([`args`]) and runs a command ([`commands`]); the tests call the parts directly.
//!
//! - [`driver`], [`region`], [`pregen`](mod@pregen), [`stored`]: the host crate's threaded driver,
//!   regions, pregeneration and stored regions (`stratagen-host`), shared with the Python
//!   package;
//! - [`map`]: rendering a region as a map image;
//! - [`progress`]: progress spinners (indicatif) for the long commands;
//! - [`noise_image`](mod@noise_image): noise images and palettes;
//! - [`files`]: PNG encoding and atomic writes; [`gltf`]: glTF binaries; [`rss`]: peak memory;
//! - [`error`]: the typed error every part returns; [`allocator`]: the host crate's allocator
//!   policy, which the command applies at start.

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod args;
pub mod commands;
pub mod error;
pub mod files;
pub mod gltf;
pub mod map;
pub mod noise_image;
pub mod progress;
pub mod rss;
pub mod worlds;

pub use error::CliError;
pub use files::{encode_png, write_atomic};
pub use map::{render, Image, Layer};
pub use noise_image::{noise_image, palette, NoiseImage};
pub use rss::{cpu_model, peak_rss_mib};
pub use stratagen_host::{allocator, driver, pregen, region, stored};
pub use stratagen_host::{drive, drive_timed, HostError};
pub use stratagen_host::{generate, generate_world, rect, square, Region};
