//! World dimensions and the block index of a chunk.

/// Blocks along a chunk's x and z.
pub const CHUNK_SIDE: usize = 16;
/// Blocks in one layer (one y) of a chunk.
pub const LAYER_BLOCKS: usize = CHUNK_SIDE * CHUNK_SIDE;

/// World dimensions and sea level, validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    /// Lowest block y.
    pub min_y: i32,
    /// Height in blocks (a multiple of 16).
    pub height: u32,
    /// Sea level (top water block y).
    pub sea_level: i32,
}

impl Dims {
    /// Blocks per chunk.
    pub fn volume(&self) -> usize {
        self.height as usize * LAYER_BLOCKS
    }

    /// Index of block `(x, y, z)` (chunk-local x, z in 0..16; world y).
    #[inline]
    pub fn index(&self, x: usize, y: i32, z: usize) -> usize {
        (((y - self.min_y) as usize * CHUNK_SIDE + z) * CHUNK_SIDE) + x
    }

    /// Highest block y.
    pub fn max_y(&self) -> i32 {
        self.min_y + self.height as i32 - 1
    }
}
