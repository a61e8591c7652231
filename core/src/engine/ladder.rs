//! The status ladder: the ten statuses a chunk goes through, and chunk positions.

/// A chunk's generation status, in ladder order. Reaching a status means every earlier one is
/// done too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum ChunkStatus {
    /// The holder exists; nothing generated.
    Empty = 0,
    /// Structure starts whose origin is in this chunk are decided and laid out.
    StructureStarts = 1,
    /// References to the starts (within 8 chunks) whose bounding boxes touch this chunk.
    StructureReferences = 2,
    /// Biomes per 4 × 4 column cell.
    Biomes = 3,
    /// Blocks from density, caves, sea and surface rules (Minecraft's noise, surface, carvers).
    Terrain = 4,
    /// Feature passes: structure pieces, lakes, ores, trees, vegetation; writes outside the
    /// chunk become patches for the neighbours.
    Features = 5,
    /// The merge of own writes and the eight inbound patches; light sources collected.
    InitializeLight = 6,
    /// Sky and block light.
    Light = 7,
    /// Spawn requests.
    Spawn = 8,
    /// The finished chunk.
    Full = 9,
}

impl ChunkStatus {
    /// Every status in ladder order.
    pub const ALL: [ChunkStatus; 10] = [
        ChunkStatus::Empty,
        ChunkStatus::StructureStarts,
        ChunkStatus::StructureReferences,
        ChunkStatus::Biomes,
        ChunkStatus::Terrain,
        ChunkStatus::Features,
        ChunkStatus::InitializeLight,
        ChunkStatus::Light,
        ChunkStatus::Spawn,
        ChunkStatus::Full,
    ];

    /// Number of statuses.
    pub const COUNT: usize = 10;

    /// Position in the ladder, 0 for `Empty`.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The status at a ladder position.
    pub fn from_index(i: usize) -> Option<ChunkStatus> {
        Self::ALL.get(i).copied()
    }

    /// The status before this one (`None` for `Empty`).
    pub fn parent(self) -> Option<ChunkStatus> {
        self.index().checked_sub(1).and_then(Self::from_index)
    }

    /// The status after this one (`None` for `Full`).
    pub fn next(self) -> Option<ChunkStatus> {
        Self::from_index(self.index() + 1)
    }

    /// Lower-case name, as in the design documents (`structure_starts`, `full`).
    pub fn name(self) -> &'static str {
        match self {
            ChunkStatus::Empty => "empty",
            ChunkStatus::StructureStarts => "structure_starts",
            ChunkStatus::StructureReferences => "structure_references",
            ChunkStatus::Biomes => "biomes",
            ChunkStatus::Terrain => "terrain",
            ChunkStatus::Features => "features",
            ChunkStatus::InitializeLight => "initialize_light",
            ChunkStatus::Light => "light",
            ChunkStatus::Spawn => "spawn",
            ChunkStatus::Full => "full",
        }
    }
}

/// A chunk position in chunk units (block x = 16 * x).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct ChunkPos {
    /// Chunk x.
    pub x: i32,
    /// Chunk z.
    pub z: i32,
}

impl ChunkPos {
    /// Positions must satisfy `|x|, |z| < LIMIT` (2^21 chunks, 2^25 blocks): far enough for any
    /// game, and small enough that block coordinates, neighbourhoods and hashes never overflow.
    pub const LIMIT: i32 = 1 << 21;

    /// A position.
    pub const fn new(x: i32, z: i32) -> Self {
        ChunkPos { x, z }
    }

    /// Whether the position is inside the supported range.
    pub fn is_valid(self) -> bool {
        self.x > -Self::LIMIT
            && self.x < Self::LIMIT
            && self.z > -Self::LIMIT
            && self.z < Self::LIMIT
    }

    /// Chebyshev (chessboard) distance in chunks.
    pub fn distance(self, o: ChunkPos) -> u32 {
        let dx = (i64::from(self.x) - i64::from(o.x)).unsigned_abs();
        let dz = (i64::from(self.z) - i64::from(o.z)).unsigned_abs();
        core::cmp::max(dx, dz) as u32
    }

    /// The position offset by `(dx, dz)` chunks (wrapping; callers stay inside the range).
    pub fn offset(self, dx: i32, dz: i32) -> ChunkPos {
        ChunkPos::new(self.x.wrapping_add(dx), self.z.wrapping_add(dz))
    }

    /// Block x of the chunk's west edge.
    pub fn block_x(self) -> i32 {
        self.x.wrapping_mul(16)
    }

    /// Block z of the chunk's north edge.
    pub fn block_z(self) -> i32 {
        self.z.wrapping_mul(16)
    }
}
