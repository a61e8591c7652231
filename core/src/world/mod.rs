//! The world's content: blocks, biomes, terrain, structures, features, light and spawns, and
//! the pipeline that runs them as status bodies on the [`crate::engine`].

pub mod biome;
pub mod block;
pub mod dims;
pub mod feature;
pub mod gen;
pub mod light;
pub mod spawn;
pub mod structure;
pub mod terrain;
