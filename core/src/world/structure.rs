//! Structures (DESIGN §4–§6): placement grids, the biome check before assembly, pieces,
//! references, the terrain "beard" and placement during `features`.
//!
//! - **Placement.** Each kind has a grid of `spacing × spacing` chunk regions; region
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

use crate::engine::ladder::ChunkPos;
use crate::util::math::{cos, floor_i64, sin};
use crate::util::random::{large_feature_seed, position_hash, region_seed, JavaRandom};
use crate::world::biome::{self, BiomeId, ClimateSampler};
use crate::world::block::{self, BlockId};
use crate::world::dims::Dims;
use crate::world::feature::{BlockEntity, Writer};
use crate::world::terrain::{column_shape, BeardBox, BEARD_FALLOFF};

/// Structure kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum StructureKind {
    /// Underground dungeon: BSP rooms and corridors, a spawner and chests.
    Dungeon = 0,
    /// Surface watchtower with outbuildings and paths, spanning several chunks.
    Watchtower = 1,
}

/// A kind's placement grid and allowed biomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Kind.
    pub kind: StructureKind,
    /// Region size in chunks.
    pub spacing: i32,
    /// Minimum gap between candidates of neighbouring regions, in chunks.
    pub separation: i32,
    /// Salt of the region seed.
    pub salt: i32,
    /// Biomes a start may stand in.
    pub biomes: &'static [BiomeId],
}

/// The placements, one per kind.
pub const PLACEMENTS: [Placement; 2] = [
    Placement {
        kind: StructureKind::Dungeon,
        spacing: 10,
        separation: 3,
        salt: 10_387_319,
        biomes: &[
            biome::PLAINS,
            biome::FOREST,
            biome::BIRCH_FOREST,
            biome::TAIGA,
            biome::SNOWY_PLAINS,
            biome::DESERT,
            biome::SAVANNA,
            biome::JUNGLE,
            biome::SWAMP,
            biome::MOUNTAINS,
        ],
    },
    Placement {
        kind: StructureKind::Watchtower,
        spacing: 16,
        separation: 6,
        salt: 14_357_617,
        biomes: &[
            biome::PLAINS,
            biome::SAVANNA,
            biome::DESERT,
            biome::TAIGA,
            biome::SNOWY_PLAINS,
        ],
    },
];

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
pub fn candidate(seed: i64, p: &Placement, c: ChunkPos) -> ChunkPos {
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
    climate: &ClimateSampler,
    c: ChunkPos,
) -> Vec<StructureStart> {
    let mut out = Vec::new();
    for p in &PLACEMENTS {
        if candidate(seed, p, c) != c {
            continue;
        }
        let (cx, cz) = (c.block_x() + 8, c.block_z() + 8);
        let b = climate.biome_at(cx, cz);
        // The biome check comes first: a rejected candidate never reaches assembly.
        let assembled = if p.biomes.contains(&b) {
            let mut r = JavaRandom::new(large_feature_seed(seed ^ i64::from(p.salt), c.x, c.z));
            Some(match p.kind {
                StructureKind::Dungeon => dungeon(&mut r, dims, cx, cz),
                StructureKind::Watchtower => watchtower(&mut r, dims, climate, cx, cz),
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

fn bx(min: [i32; 3], max: [i32; 3]) -> BlockBox {
    BlockBox { min, max }
}

fn piece(kind: PieceKind, bbox: BlockBox) -> Piece {
    Piece {
        kind,
        bbox,
        ends: [0; 4],
    }
}

/// Binary space partitioning of the dungeon footprint into rooms, with a corridor joining
/// one room of each half at every split (so the room graph is a connected tree).
fn dungeon(r: &mut JavaRandom, dims: &Dims, cx: i32, cz: i32) -> Assembled {
    let lo = core::cmp::max(dims.min_y + 12, -40);
    let hi = core::cmp::max(lo + 1, core::cmp::min(dims.max_y() - 12, 30));
    let y = lo + r.next_int_bounded(hi - lo);
    let root = bx([cx - 14, y, cz - 14], [cx + 13, y + 6, cz + 13]);
    let mut rooms: Vec<Piece> = Vec::new();
    let mut corridors: Vec<Piece> = Vec::new();
    let mut links = Vec::new();
    split(r, root, 3, &mut rooms, &mut corridors, &mut links);
    let mut entities = Vec::new();
    let centre = |p: &Piece| {
        [
            (p.bbox.min[0] + p.bbox.max[0]) / 2,
            p.bbox.min[1] + 1,
            (p.bbox.min[2] + p.bbox.max[2]) / 2,
        ]
    };
    entities.push(BlockEntity {
        pos: centre(&rooms[0]),
        kind: block::SPAWNER,
        data: SPAWNER_ZOMBIE,
    });
    let chests = 1 + r.next_int_bounded(2) as usize;
    for k in 0..chests {
        let room = &rooms[(1 + k) % rooms.len()];
        let pos = [
            room.bbox.min[0] + 1,
            room.bbox.min[1] + 1,
            room.bbox.max[2] - 1,
        ];
        entities.push(BlockEntity {
            pos,
            kind: block::CHEST,
            data: LOOT_DUNGEON,
        });
    }
    let mut pieces = rooms;
    pieces.extend(corridors);
    Assembled::new(pieces, links, entities, 0)
}

/// Split `b` `depth` more times; returns the index range of the rooms made.
fn split(
    r: &mut JavaRandom,
    b: BlockBox,
    depth: u32,
    rooms: &mut Vec<Piece>,
    corridors: &mut Vec<Piece>,
    links: &mut Vec<(u16, u16)>,
) -> (usize, usize) {
    let w = b.max[0] - b.min[0] + 1;
    let d = b.max[2] - b.min[2] + 1;
    if depth == 0 || (w < 14 && d < 14) {
        // A room: the box shrunk by a random margin, at least 5 × 5.
        let m = |r: &mut JavaRandom, len: i32| core::cmp::min(r.next_int_bounded(2), (len - 5) / 2);
        let (mx0, mx1, mz0, mz1) = (m(r, w), m(r, w), m(r, d), m(r, d));
        let room = bx(
            [b.min[0] + mx0, b.min[1], b.min[2] + mz0],
            [b.max[0] - mx1, b.max[1], b.max[2] - mz1],
        );
        rooms.push(piece(PieceKind::Room, room));
        return (rooms.len() - 1, rooms.len());
    }
    let along_x = w >= d;
    let len = if along_x { w } else { d };
    let at = 6 + r.next_int_bounded(core::cmp::max(1, len - 12));
    let (mut a, mut c) = (b, b);
    if along_x {
        a.max[0] = b.min[0] + at - 1;
        c.min[0] = b.min[0] + at;
    } else {
        a.max[2] = b.min[2] + at - 1;
        c.min[2] = b.min[2] + at;
    }
    let (a0, a1) = split(r, a, depth - 1, rooms, corridors, links);
    let (c0, c1) = split(r, c, depth - 1, rooms, corridors, links);
    // Join one room from each half by an L-shaped corridor between their centres.
    let ra = a0 + r.next_int_bounded((a1 - a0) as i32) as usize;
    let rc = c0 + r.next_int_bounded((c1 - c0) as i32) as usize;
    let ca = rooms[ra].bbox;
    let cc = rooms[rc].bbox;
    let (ax, az) = ((ca.min[0] + ca.max[0]) / 2, (ca.min[2] + ca.max[2]) / 2);
    let (cx, cz) = ((cc.min[0] + cc.max[0]) / 2, (cc.min[2] + cc.max[2]) / 2);
    let y = b.min[1];
    corridors.push(piece(
        PieceKind::Corridor,
        bx(
            [core::cmp::min(ax, cx), y, az],
            [core::cmp::max(ax, cx), y + 4, az],
        ),
    ));
    corridors.push(piece(
        PieceKind::Corridor,
        bx(
            [cx, y, core::cmp::min(az, cz)],
            [cx, y + 4, core::cmp::max(az, cz)],
        ),
    ));
    links.push((ra as u16, rc as u16));
    (a0, c1)
}

/// Estimated surface height at a column (the terrain's target height, a pure function).
fn surface_estimate(
    climate: &ClimateSampler,
    dims: &Dims,
    x: i32,
    z: i32,
    w: &mut crate::util::digest::Digest,
) -> i32 {
    let c = climate.sample(f64::from(x), f64::from(z));
    let (h, _) = column_shape(&c, f64::from(dims.sea_level));
    w.write_f64(h);
    core::cmp::max(floor_i64(h) as i32, dims.sea_level + 1)
}

fn watchtower(
    r: &mut JavaRandom,
    dims: &Dims,
    climate: &ClimateSampler,
    cx: i32,
    cz: i32,
) -> Assembled {
    let mut wit = crate::util::digest::Digest::new();
    let fy = surface_estimate(climate, dims, cx, cz, &mut wit);
    let top = core::cmp::min(fy + 14, dims.max_y() - 1);
    let mut pieces = alloc::vec![piece(
        PieceKind::Tower,
        bx([cx - 3, fy, cz - 3], [cx + 3, top, cz + 3])
    )];
    let mut entities = alloc::vec![BlockEntity {
        pos: [cx, fy + 1, cz],
        kind: block::CHEST,
        data: LOOT_TOWER
    }];
    let huts = 2 + r.next_int_bounded(3);
    let mut paths = Vec::new();
    for _ in 0..huts {
        let angle = r.next_float_f64() * core::f64::consts::TAU;
        let dist = f64::from(14 + r.next_int_bounded(10));
        let (ox, oz) = (cos(angle) * dist, sin(angle) * dist);
        wit.write_f64(ox);
        wit.write_f64(oz);
        let hx = cx + floor_i64(ox) as i32;
        let hz = cz + floor_i64(oz) as i32;
        let (hw, hd) = if r.next_bool() { (2, 2) } else { (3, 2) };
        let hy = surface_estimate(climate, dims, hx, hz, &mut wit);
        let hut = bx(
            [hx - hw, hy, hz - hd],
            [hx + hw, core::cmp::min(hy + 5, dims.max_y() - 1), hz + hd],
        );
        if pieces.iter().any(|p| overlaps(&p.bbox, &hut, 2)) {
            continue;
        }
        pieces.push(piece(PieceKind::Hut, hut));
        entities.push(BlockEntity {
            pos: [hx, hy + 1, hz],
            kind: block::CHEST,
            data: LOOT_TOWER,
        });
        let mut path = piece(
            PieceKind::Path,
            bx(
                [core::cmp::min(cx, hx), dims.min_y, core::cmp::min(cz, hz)],
                [core::cmp::max(cx, hx), dims.max_y(), core::cmp::max(cz, hz)],
            ),
        );
        path.ends = [cx, cz, hx, hz];
        paths.push(path);
    }
    pieces.extend(paths);
    Assembled::new(pieces, Vec::new(), entities, wit.finish())
}

fn overlaps(a: &BlockBox, b: &BlockBox, margin: i32) -> bool {
    a.min[0] - margin <= b.max[0]
        && a.max[0] + margin >= b.min[0]
        && a.min[2] - margin <= b.max[2]
        && a.max[2] + margin >= b.min[2]
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

/// Place a start's pieces that intersect the writer's chunk, clipped to it; returns the block
/// entities inside the chunk.
pub fn place(s: &StructureStart, c: ChunkPos, w: &mut Writer<'_>) -> Vec<BlockEntity> {
    let a = match &s.assembled {
        Some(a) => a,
        None => return Vec::new(),
    };
    let (x0, z0) = (c.block_x(), c.block_z());
    let inside = |x: i32, z: i32| x >= x0 && x < x0 + 16 && z >= z0 && z < z0 + 16;
    let set = |w: &mut Writer<'_>, x: i32, y: i32, z: i32, b: BlockId| {
        if inside(x, z) {
            w.set(x, y, z, b);
        }
    };
    w.protect_writes(true);
    for p in &a.pieces {
        if !p.bbox.touches_chunk(c, 0) {
            continue;
        }
        let bb = p.bbox;
        let clip = |lo: i32, hi: i32, o: i32| (core::cmp::max(lo, o), core::cmp::min(hi, o + 15));
        let (xa, xb) = clip(bb.min[0], bb.max[0], x0);
        let (za, zb) = clip(bb.min[2], bb.max[2], z0);
        match p.kind {
            PieceKind::Room | PieceKind::Tower | PieceKind::Hut => {
                for y in bb.min[1]..=bb.max[1] {
                    for z in za..=zb {
                        for x in xa..=xb {
                            let shell = x == bb.min[0]
                                || x == bb.max[0]
                                || z == bb.min[2]
                                || z == bb.max[2]
                                || y == bb.min[1]
                                || y == bb.max[1];
                            let b = match p.kind {
                                PieceKind::Room if shell => {
                                    if position_hash(x, y, z) & 3 == 0 {
                                        block::COBBLESTONE
                                    } else {
                                        block::MOSSY_COBBLESTONE
                                    }
                                }
                                PieceKind::Tower if shell => {
                                    let window = y == bb.max[1] - 2
                                        && (x == (bb.min[0] + bb.max[0]) / 2
                                            || z == (bb.min[2] + bb.max[2]) / 2)
                                        && y != bb.min[1];
                                    if window {
                                        block::AIR
                                    } else if y == bb.max[1] {
                                        block::PLANKS
                                    } else {
                                        block::STONE_BRICKS
                                    }
                                }
                                PieceKind::Hut if shell => {
                                    if y == bb.max[1] || y == bb.min[1] {
                                        block::COBBLESTONE
                                    } else {
                                        block::PLANKS
                                    }
                                }
                                PieceKind::Tower if (y - bb.min[1]) % 5 == 0 => block::PLANKS,
                                _ => block::AIR,
                            };
                            set(w, x, y, z, b);
                        }
                    }
                }
                if p.kind != PieceKind::Room {
                    // Clear above the roof and fill below the floor down to the ground.
                    for z in za..=zb {
                        for x in xa..=xb {
                            for y in bb.max[1] + 1..=core::cmp::min(bb.max[1] + 4, w.max_y()) {
                                if inside(x, z)
                                    && w.get(x, y, z).map_or(false, |b| {
                                        b != block::AIR && !block::props(b).liquid
                                    })
                                {
                                    set(w, x, y, z, block::AIR);
                                }
                            }
                            let mut y = bb.min[1] - 1;
                            while y > bb.min[1] - 12
                                && w.get(x, y, z).map_or(false, |b| !block::props(b).solid)
                            {
                                set(w, x, y, z, block::COBBLESTONE);
                                y -= 1;
                            }
                        }
                    }
                    let (mx, mz) = ((bb.min[0] + bb.max[0]) / 2, (bb.min[2] + bb.max[2]) / 2);
                    // A door on the south side and a torch inside under the roof.
                    set(w, mx, bb.min[1] + 1, bb.max[2], block::AIR);
                    set(w, mx, bb.min[1] + 2, bb.max[2], block::AIR);
                    set(w, mx + 1, bb.max[1] - 1, mz, block::TORCH);
                    if p.kind == PieceKind::Tower {
                        set(w, mx, bb.max[1] + 1, mz, block::TORCH);
                    }
                }
            }
            PieceKind::Corridor => {
                for z in za..=zb {
                    for x in xa..=xb {
                        set(w, x, bb.min[1], z, block::COBBLESTONE);
                        for y in bb.min[1] + 1..=bb.min[1] + 3 {
                            set(w, x, y, z, block::AIR);
                        }
                    }
                }
            }
            PieceKind::Path => {
                let [ax, az, hx, hz] = p.ends;
                let col = |w: &mut Writer<'_>, x: i32, z: i32| {
                    if !inside(x, z) {
                        return;
                    }
                    if let Some(y) = w.top(x, z, w.max_y()) {
                        let g = w.get(x, y, z);
                        if matches!(
                            g,
                            Some(block::GRASS_BLOCK)
                                | Some(block::DIRT)
                                | Some(block::SAND)
                                | Some(block::SNOW_BLOCK)
                                | Some(block::STONE)
                        ) {
                            set(w, x, y, z, block::DIRT_PATH);
                            if w.get(x, y + 1, z).map_or(false, |b| {
                                block::props(b).replaceable && !block::props(b).liquid
                            }) {
                                set(w, x, y + 1, z, block::AIR);
                            }
                        }
                    }
                };
                for x in core::cmp::min(ax, hx)..=core::cmp::max(ax, hx) {
                    col(w, x, az);
                }
                for z in core::cmp::min(az, hz)..=core::cmp::max(az, hz) {
                    col(w, hx, z);
                }
            }
        }
    }
    w.protect_writes(false);
    let mut ents = Vec::new();
    for e in &a.entities {
        if inside(e.pos[0], e.pos[2]) {
            w.protect_writes(true);
            set(w, e.pos[0], e.pos[1], e.pos[2], e.kind);
            w.protect_writes(false);
            ents.push(*e);
        }
    }
    ents
}
