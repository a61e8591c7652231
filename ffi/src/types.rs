//! The C structs: definitions with their defaults, grids, chunk views and opaque handles.

/// A block entity (chest or spawner of a structure piece).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct sg_block_entity {
    /// World block position x, y, z.
    pub pos: [i32; 3],
    /// Block id (chest or spawner).
    pub kind: u16,
    /// Loot table id (chests) or creature kind (spawners).
    pub data: u32,
}

/// A spawn request.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct sg_spawn_request {
    /// World block position x, y, z of the first creature.
    pub pos: [i32; 3],
    /// Creature kind.
    pub kind: u16,
    /// Group size 1..=4.
    pub group: u8,
}

/// One block edit: world block coordinates and the block to put there.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct sg_block_edit {
    /// World block x.
    pub x: i32,
    /// World block y (min_y ..= min_y + height - 1).
    pub y: i32,
    /// World block z.
    pub z: i32,
    /// Block id of the world's palette.
    pub block: u16,
}

/// A chunk position.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct sg_chunk_pos {
    /// Chunk x.
    pub x: i32,
    /// Chunk z.
    pub z: i32,
}

/// World settings. Initialise with `sg_world_def_default()` and change fields.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct sg_world_def {
    /// `sizeof(sg_world_def)` as the caller compiled it (`sg_world_def_default` sets it). Read
    /// first and alone: a smaller size is refused with `SG_RESULT_BAD_STRUCT_SIZE` before any
    /// other byte is read; a larger one (a newer header) is accepted, and only this library's
    /// fields are read.
    pub struct_size: u32,
    /// Minimum block y, a multiple of 16 in -2048..=2032. Default -64.
    pub min_y: i32,
    /// World seed. Default 0.
    pub seed: i64,
    /// Height in blocks, a multiple of 16 in 16..=4096, min_y + height <= 2048. Default 384.
    pub height: u32,
    /// Sea level (y of the top water block). Default 63.
    pub sea_level: i32,
}

/// Noise settings (mirrors the Rust `NoiseDef`). Initialise with `sg_noise_def_default()`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct sg_noise_def {
    /// `sizeof(sg_noise_def)` as the caller compiled it (`sg_noise_def_default` sets it). Read
    /// first and alone: a smaller size is refused with `SG_RESULT_BAD_STRUCT_SIZE` before any
    /// other byte is read; a larger one (a newer header) is accepted, and only this library's
    /// fields are read.
    pub struct_size: u32,
    /// An `sg_noise_type`. Default Perlin.
    pub noise_type: u32,
    /// Seed. Default 0.
    pub seed: i64,
    /// An `sg_fractal`. Default fBm.
    pub fractal: u32,
    /// Octaves, 1..=16. Default 4.
    pub octaves: u32,
    /// Cycles per world unit, > 0. Default 0.01.
    pub frequency: f64,
    /// Frequency multiplier per octave, > 0. Default 2.
    pub lacunarity: f64,
    /// Amplitude multiplier per octave, >= 0. Default 0.5.
    pub gain: f64,
    /// Added to the coordinates before scaling. Default 0.
    pub offset: [f64; 3],
    /// Cellular distance (`sg_cellular_distance`): 0 Euclidean, 1 Manhattan. Default 0.
    pub cellular_distance: u32,
    /// Cellular return (`sg_cellular_return`): 0 F1, 1 F2, 2 F2-F1, 3 cell value. Default 0.
    pub cellular_return: u32,
    /// Cellular jitter in [0, 1]. Default 0.65.
    pub cellular_jitter: f64,
    /// Domain warp amplitude in world units, >= 0 (0: off). Default 0.
    pub warp_amplitude: f64,
    /// Domain warp frequency, > 0. Default 0.01.
    pub warp_frequency: f64,
    /// An `sg_precision`: 0 double, 1 single (a different noise, twice as many samples per
    /// vector instruction). Default 0.
    pub precision: u32,
}

/// A 2D grid: sample (i, j) at (x0 + i*dx, y0 + j*dy), stored at j*width + i.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sg_grid2 {
    /// First x.
    pub x0: f64,
    /// First y.
    pub y0: f64,
    /// Step in x.
    pub dx: f64,
    /// Step in y.
    pub dy: f64,
    /// Samples per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

/// A 3D grid: sample (i, j, k) at origin + (i, j, k) * step, stored at
/// (j*depth + k)*width + i (y outermost, then z, then x).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sg_grid3 {
    /// First sample (x, y, z).
    pub origin: [f64; 3],
    /// Steps along x, y, z.
    pub step: [f64; 3],
    /// Samples along x.
    pub width: u32,
    /// Samples along y.
    pub height: u32,
    /// Samples along z.
    pub depth: u32,
}

/// A borrowed, read-only view of a full chunk. Valid until the next call on the same world
/// from the owner thread that is not one of the `sg_chunk_*` readers or `sg_world_chunk_view`
/// (that is: request, release, take, finish, run inline, destroy).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sg_chunk_view {
    /// Block ids, index ((y - min_y) * 16 + z) * 16 + x.
    pub blocks: *const u16,
    /// Number of blocks (16 * 16 * height).
    pub block_count: usize,
    /// Biome ids per 4 x 4 column cell, index cz * 4 + cx (16 entries).
    pub biomes: *const u8,
    /// World-surface heightmap, index z * 16 + x (256 entries).
    pub world_surface: *const i32,
    /// Ocean-floor heightmap (256 entries).
    pub ocean_floor: *const i32,
    /// Motion-blocking heightmap (256 entries).
    pub motion_blocking: *const i32,
    /// Motion-blocking-without-leaves heightmap (256 entries).
    pub motion_blocking_no_leaves: *const i32,
    /// Sky light, nibble-packed: block i is byte i / 2, low nibble for even i.
    pub sky_light: *const u8,
    /// Block light, nibble-packed like `sky_light`.
    pub block_light: *const u8,
    /// Bytes in each light array ((block_count + 1) / 2).
    pub light_bytes: usize,
    /// Minimum block y.
    pub min_y: i32,
    /// Height in blocks.
    pub height: u32,
}

/// An opaque world handle.
pub struct sg_world {
    _private: [u8; 0],
}

/// An opaque task handle.
pub struct sg_task {
    _private: [u8; 0],
}
