//! The world's content: blocks, biomes, terrain, structures, features, light and spawns,
//! and the [`World`] pipeline that runs them as status bodies on the
//! [`crate::engine`]. Depends on [`crate::util`], [`crate::noise`] and the engine's interfaces.

pub mod biome;
pub mod block;
pub mod chunk;
pub mod definition;
pub mod digest;
pub mod dims;
pub mod edit;
pub mod feature;
pub mod generator;
pub mod heightmap;
pub mod light;
pub mod neighbourhood;
pub mod palette;
pub mod pipeline;
pub mod record;
pub mod scatter;
pub mod sections;
pub mod settings;
pub mod spawn;
pub mod structure;
pub mod terrain;

pub use chunk::{ChunkData, FullChunk, Merged, StorageBytes};
pub use definition::Definition;
pub use digest::{chunk_digest, status_digest};
pub use dims::{Dims, CHUNK_SIDE, LAYER_BLOCKS};
pub use generator::WorldGen;
pub use heightmap::{Heightmap, Heightmaps};
pub use neighbourhood::Neighbourhood;
pub use palette::Palette;
pub use pipeline::{full_neighbourhood, full_output, World, WorldScratch};
pub use settings::{WorldError, WorldSettings};
