//! Structures: placement grids, the biome check before assembly, pieces,
//! references, the terrain "beard" and placement during `features`.
//!
//! - **Placement.** Each kind the definition lists has a grid of `spacing × spacing` chunk regions; region
//!   `(rx, rz)` has one candidate chunk at `(rx*spacing + a, rz*spacing + b)` with `a, b`
//!   drawn from `JavaRandom(region_seed(world, rx, rz, salt))` in `0..spacing − separation`.
//! - **Biome check first.** `structure_starts` of a candidate chunk looks up the biome at the
//!   chunk's centre *before* any piece is laid out; a rejected candidate records the biome
//!   and never assembles.
//! - **Pieces** are boxes with a pure `place` that writes only inside the chunk being
//!   decorated. A start's pieces span at most 3 chunks from its chunk (dungeons) or 3 chunks
//!   plus the 8-block beard (watchtowers), inside the radius 8 that `structure_references`
//!   searches.

use alloc::vec::Vec;

use crate::engine::ChunkPos;
use crate::util::random::{large_feature_seed, region_seed, JavaRandom};
use crate::world::biome::{BiomeId, ClimateSampler};
use crate::world::definition::{Definition, StructureDef};
use crate::world::dims::Dims;
use crate::world::feature::BlockEntity;
use crate::world::terrain::{BeardBox, BEARD_FALLOFF};

mod dungeon;
mod place;
mod watchtower;

pub use place::place;

/// Structure kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum StructureKind {
    /// Underground dungeon: BSP rooms and corridors, a spawner and chests.
    Dungeon = 0,
    /// Surface watchtower with outbuildings and paths, spanning several chunks.
    Watchtower = 1,
}

/// An inclusive block box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BlockBox {
    /// Minimum corner (x, y, z).
    pub min: [i32; 3],
    /// Maximum corner (x, y, z), inclusive.
    pub max: [i32; 3],
}

impl BlockBox {
    /// The smallest box holding both.
    pub fn union(&self, o: &BlockBox) -> BlockBox {
        let mut b = *self;
        for a in 0..3 {
            b.min[a] = core::cmp::min(b.min[a], o.min[a]);
            b.max[a] = core::cmp::max(b.max[a], o.max[a]);
        }
        b
    }

    /// Whether the box's columns, grown by `margin` blocks, touch chunk `c`.
    pub fn touches_chunk(&self, c: ChunkPos, margin: i32) -> bool {
        let (x0, z0) = (c.block_x(), c.block_z());
        self.min[0] - margin <= x0 + 15
            && self.max[0] + margin >= x0
            && self.min[2] - margin <= z0 + 15
            && self.max[2] + margin >= z0
    }

    /// Whether a block is inside.
    pub fn contains(&self, p: [i32; 3]) -> bool {
        (0..3).all(|a| p[a] >= self.min[a] && p[a] <= self.max[a])
    }
}

/// What a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PieceKind {
    /// A dungeon room (mossy walls, floor and ceiling, air inside).
    Room,
    /// A dungeon corridor (air with a cobblestone floor).
    Corridor,
    /// The watchtower.
    Tower,
    /// An outbuilding.
    Hut,
    /// A path on the surface from `bbox.min` to `bbox.max` (x leg first, then z).
    Path,
}

/// One piece of a structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Piece {
    /// Kind.
    pub kind: PieceKind,
    /// Bounds (for paths, the endpoints as min and max x/z).
    pub bbox: BlockBox,
    /// Path endpoints (x0, z0, x1, z1); zero for other pieces.
    pub ends: [i32; 4],
}

/// An assembled structure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assembled {
    /// Pieces in placement order.
    pub pieces: Vec<Piece>,
    /// Union of the pieces.
    pub bbox: BlockBox,
    /// Pairs of room indices joined by corridors (dungeons).
    pub links: Vec<(u16, u16)>,
    /// Spawners and chests (kind + position + loot table or creature).
    pub entities: Vec<BlockEntity>,
    /// XXH64 of the layout's intermediate floats (angles, distances, surface estimates).
    pub witness: u64,
}

impl Assembled {
    /// An assembly whose box is the union of its pieces' (there is at least one piece).
    fn new(
        pieces: Vec<Piece>,
        links: Vec<(u16, u16)>,
        entities: Vec<BlockEntity>,
        witness: u64,
    ) -> Self {
        let bbox = pieces
            .iter()
            .skip(1)
            .fold(pieces[0].bbox, |b, p| b.union(&p.bbox));
        Assembled {
            pieces,
            bbox,
            links,
            entities,
            witness,
        }
    }
}

/// A structure start: a candidate chunk of a placement grid and what became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructureStart {
    /// Kind.
    pub kind: StructureKind,
    /// The candidate chunk.
    pub chunk: ChunkPos,
    /// The biome at the chunk's centre (checked before assembly).
    pub biome: BiomeId,
    /// `None`: rejected by the biome check, never assembled.
    pub assembled: Option<Assembled>,
}

/// A reference from a chunk to a start whose box touches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct StructureRef {
    /// The start's chunk.
    pub start: ChunkPos,
    /// Kind.
    pub kind: StructureKind,
}

/// Loot table id of dungeon chests.
pub const LOOT_DUNGEON: u32 = 1;
/// Loot table id of watchtower chests.
pub const LOOT_TOWER: u32 = 2;
/// Spawner creature kind (a zombie; spawner kinds are separate from spawn-request kinds).
pub const SPAWNER_ZOMBIE: u32 = 100;

/// The candidate chunk of the region containing chunk `c`, for a placement.
pub fn candidate(seed: i64, p: &StructureDef, c: ChunkPos) -> ChunkPos {
    let rx = c.x.div_euclid(p.spacing);
    let rz = c.z.div_euclid(p.spacing);
    let mut r = JavaRandom::new(region_seed(seed, rx, rz, p.salt));
    let span = p.spacing - p.separation;
    let a = r.next_int_bounded(span);
    let b = r.next_int_bounded(span);
    ChunkPos::new(rx * p.spacing + a, rz * p.spacing + b)
}

/// The `structure_starts` body: the starts whose candidate chunk is `c`.
pub fn starts(
    seed: i64,
    dims: &Dims,
    world: &Definition,
    climate: &ClimateSampler,
    c: ChunkPos,
) -> Vec<StructureStart> {
    let mut out = Vec::new();
    let blocks = &world.structure_blocks;
    for p in &world.structures {
        if candidate(seed, p, c) != c {
            continue;
        }
        let (cx, cz) = (c.block_x() + 8, c.block_z() + 8);
        let b = climate.biome_at(cx, cz);
        // The biome check comes first: a rejected candidate never reaches assembly.
        let assembled = if p.biomes.contains(&b) {
            let mut r = JavaRandom::new(large_feature_seed(seed ^ i64::from(p.salt), c.x, c.z));
            Some(match p.kind {
                StructureKind::Dungeon => dungeon::dungeon(&mut r, dims, blocks, cx, cz),
                StructureKind::Watchtower => {
                    watchtower::watchtower(&mut r, dims, world, climate, cx, cz)
                }
            })
        } else {
            None
        };
        out.push(StructureStart {
            kind: p.kind,
            chunk: c,
            biome: b,
            assembled,
        });
    }
    out
}

pub(crate) fn bx(min: [i32; 3], max: [i32; 3]) -> BlockBox {
    BlockBox { min, max }
}

pub(crate) fn piece(kind: PieceKind, bbox: BlockBox) -> Piece {
    Piece {
        kind,
        bbox,
        ends: [0; 4],
    }
}

/// How far outside a start's box the terrain is affected (the beard) — references reach it.
pub fn reach(kind: StructureKind) -> i32 {
    match kind {
        StructureKind::Dungeon => 0,
        StructureKind::Watchtower => BEARD_FALLOFF,
    }
}

/// The `structure_references` body: references to every assembled start (from the starts of
/// chunks within 8) whose box, grown by its reach, touches chunk `c`. `starts` yields the
/// start lists of those chunks.
pub fn references<'a>(
    c: ChunkPos,
    starts: impl Iterator<Item = &'a StructureStart>,
) -> Vec<StructureRef> {
    let mut out: Vec<StructureRef> = starts
        .filter_map(|s| {
            let a = s.assembled.as_ref()?;
            a.bbox
                .touches_chunk(c, reach(s.kind))
                .then_some(StructureRef {
                    start: s.chunk,
                    kind: s.kind,
                })
        })
        .collect();
    out.sort();
    out
}

/// The beard boxes of a start's surface pieces that can affect chunk `c`.
pub fn beard_boxes(s: &StructureStart, c: ChunkPos, out: &mut Vec<BeardBox>) {
    if let Some(a) = &s.assembled {
        for p in &a.pieces {
            if matches!(p.kind, PieceKind::Tower | PieceKind::Hut)
                && p.bbox.touches_chunk(c, BEARD_FALLOFF)
            {
                out.push(BeardBox {
                    min: [p.bbox.min[0], p.bbox.min[2]],
                    max: [p.bbox.max[0], p.bbox.max[2]],
                    floor_y: p.bbox.min[1],
                    top_y: p.bbox.max[1],
                });
            }
        }
    }
}
