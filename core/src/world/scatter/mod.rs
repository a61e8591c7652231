//! Scatter: props for instanced rendering (trees, rocks, grass as instanced models), placed
//! by seamless Poisson-disk sampling ([`PoissonDisk`]) and filtered by placement rules.
//!
//! A layer's instances in a chunk are a pure function of (seed, layer, chunk): the point set
//! does not depend on any other chunk's output, and the rules read only the chunk's own
//! finished output (its surface heights, top blocks and biomes). Rules remove points; they
//! never move one, so the minimum distance holds across chunk borders whatever the rules.

mod instance;
mod layer;
mod points;

pub use instance::instances_digest;
pub use layer::{
    is_ground, scatter_chunk, scatter_heightmap, Instance, ScatterError, ScatterKind, ScatterLayer,
    MAX_SCATTER_KINDS, MAX_SCATTER_RADIUS, MIN_SCATTER_RADIUS,
};
pub use points::{Candidate, PoissonDisk};
