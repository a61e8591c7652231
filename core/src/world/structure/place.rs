//! Placing a start's pieces into the chunk being decorated, clipped to it, every write
//! protected against inbound patches.

use alloc::vec::Vec;

use crate::engine::ChunkPos;
use crate::util::random::position_hash;
use crate::world::block::{self, BlockId};
use crate::world::definition::StructureBlocks;
use crate::world::feature::{BlockEntity, Writer};
use crate::world::structure::{BlockBox, Piece, PieceKind, StructureStart};

/// The chunk being decorated: writes outside it are dropped (each chunk places its own part
/// of a piece).
#[derive(Clone, Copy)]
struct Clip {
    x0: i32,
    z0: i32,
}

impl Clip {
    fn inside(self, x: i32, z: i32) -> bool {
        x >= self.x0 && x < self.x0 + 16 && z >= self.z0 && z < self.z0 + 16
    }

    fn set(self, w: &mut Writer<'_>, x: i32, y: i32, z: i32, b: BlockId) {
        if self.inside(x, z) {
            w.set(x, y, z, b);
        }
    }

    /// The x and z ranges of `bb` inside the chunk.
    fn ranges(self, bb: &BlockBox) -> ((i32, i32), (i32, i32)) {
        let clip = |lo: i32, hi: i32, o: i32| (core::cmp::max(lo, o), core::cmp::min(hi, o + 15));
        (
            clip(bb.min[0], bb.max[0], self.x0),
            clip(bb.min[2], bb.max[2], self.z0),
        )
    }
}

/// Place a start's pieces that intersect the writer's chunk, clipped to it; returns the block
/// entities inside the chunk. Every write is protected against inbound patches.
pub fn place(
    s: &StructureStart,
    blocks: &StructureBlocks,
    c: ChunkPos,
    w: &mut Writer<'_>,
) -> Vec<BlockEntity> {
    let a = match &s.assembled {
        Some(a) => a,
        None => return Vec::new(),
    };
    let clip = Clip {
        x0: c.block_x(),
        z0: c.block_z(),
    };
    w.protected(|w| {
        for p in a.pieces.iter().filter(|p| p.bbox.touches_chunk(c, 0)) {
            match p.kind {
                PieceKind::Room => place_box(p, blocks, clip, w),
                PieceKind::Tower | PieceKind::Hut => {
                    place_box(p, blocks, clip, w);
                    ground_building(p, blocks, clip, w);
                }
                PieceKind::Corridor => place_corridor(p, blocks, clip, w),
                PieceKind::Path => place_path(p, blocks, clip, w),
            }
        }
        let mut ents = Vec::new();
        for e in a
            .entities
            .iter()
            .filter(|e| clip.inside(e.pos[0], e.pos[2]))
        {
            clip.set(w, e.pos[0], e.pos[1], e.pos[2], e.kind);
            ents.push(*e);
        }
        ents
    })
}

/// The block of a box piece (room, tower, hut) at `(x, y, z)` inside its box: walls, floor
/// and roof on the shell, air (or a tower's floors) inside.
fn box_block(
    blocks: &StructureBlocks,
    kind: PieceKind,
    bb: &BlockBox,
    x: i32,
    y: i32,
    z: i32,
) -> BlockId {
    let shell = x == bb.min[0]
        || x == bb.max[0]
        || z == bb.min[2]
        || z == bb.max[2]
        || y == bb.min[1]
        || y == bb.max[1];
    match kind {
        PieceKind::Room if shell => {
            if position_hash(x, y, z) & 3 == 0 {
                blocks.wall
            } else {
                blocks.mossy_wall
            }
        }
        PieceKind::Tower if shell => {
            let window = y == bb.max[1] - 2
                && (x == (bb.min[0] + bb.max[0]) / 2 || z == (bb.min[2] + bb.max[2]) / 2)
                && y != bb.min[1];
            if window {
                block::AIR
            } else if y == bb.max[1] {
                blocks.planks
            } else {
                blocks.bricks
            }
        }
        PieceKind::Hut if shell => {
            if y == bb.max[1] || y == bb.min[1] {
                blocks.wall
            } else {
                blocks.planks
            }
        }
        PieceKind::Tower if (y - bb.min[1]) % 5 == 0 => blocks.planks,
        _ => block::AIR,
    }
}

/// Every block of a box piece inside the chunk.
fn place_box(p: &Piece, blocks: &StructureBlocks, clip: Clip, w: &mut Writer<'_>) {
    let bb = p.bbox;
    let ((xa, xb), (za, zb)) = clip.ranges(&bb);
    for y in bb.min[1]..=bb.max[1] {
        for z in za..=zb {
            for x in xa..=xb {
                clip.set(w, x, y, z, box_block(blocks, p.kind, &bb, x, y, z));
            }
        }
    }
}

/// How far above a surface building's roof the ground is cleared.
const ROOF_CLEARANCE: i32 = 4;
/// How far below a surface building's floor the ground is filled.
const FOUNDATION_DEPTH: i32 = 12;

/// A surface building (tower, hut) on the ground: clear above the roof, fill below the floor
/// down to the ground, a door on the south side and torches.
fn ground_building(p: &Piece, blocks: &StructureBlocks, clip: Clip, w: &mut Writer<'_>) {
    let bb = p.bbox;
    let palette = w.palette();
    let ((xa, xb), (za, zb)) = clip.ranges(&bb);
    for z in za..=zb {
        for x in xa..=xb {
            let top = core::cmp::min(bb.max[1] + ROOF_CLEARANCE, w.max_y());
            for y in bb.max[1] + 1..=top {
                let solid_or_plant = w
                    .get(x, y, z)
                    .map_or(false, |b| b != block::AIR && !palette.props(b).liquid);
                if clip.inside(x, z) && solid_or_plant {
                    clip.set(w, x, y, z, block::AIR);
                }
            }
            let mut y = bb.min[1] - 1;
            while y > bb.min[1] - FOUNDATION_DEPTH
                && w.get(x, y, z).map_or(false, |b| !palette.props(b).solid)
            {
                clip.set(w, x, y, z, blocks.wall);
                y -= 1;
            }
        }
    }
    let (mx, mz) = ((bb.min[0] + bb.max[0]) / 2, (bb.min[2] + bb.max[2]) / 2);
    clip.set(w, mx, bb.min[1] + 1, bb.max[2], block::AIR);
    clip.set(w, mx, bb.min[1] + 2, bb.max[2], block::AIR);
    clip.set(w, mx + 1, bb.max[1] - 1, mz, blocks.torch);
    if p.kind == PieceKind::Tower {
        clip.set(w, mx, bb.max[1] + 1, mz, blocks.torch);
    }
}

/// A dungeon corridor: a cobblestone floor and three blocks of air above it.
fn place_corridor(p: &Piece, blocks: &StructureBlocks, clip: Clip, w: &mut Writer<'_>) {
    let bb = p.bbox;
    let ((xa, xb), (za, zb)) = clip.ranges(&bb);
    for z in za..=zb {
        for x in xa..=xb {
            clip.set(w, x, bb.min[1], z, blocks.wall);
            for y in bb.min[1] + 1..=bb.min[1] + 3 {
                clip.set(w, x, y, z, block::AIR);
            }
        }
    }
}

/// A path: dirt path on the ground from one end along x, then along z, plants cleared.
fn place_path(p: &Piece, blocks: &StructureBlocks, clip: Clip, w: &mut Writer<'_>) {
    let [ax, az, hx, hz] = p.ends;
    let palette = w.palette();
    let column = |w: &mut Writer<'_>, x: i32, z: i32| {
        if !clip.inside(x, z) {
            return;
        }
        let y = match w.top(x, z, w.max_y()) {
            Some(y) => y,
            None => return,
        };
        let ground = w
            .get(x, y, z)
            .map_or(false, |b| blocks.path_ground.contains(&b));
        if ground {
            clip.set(w, x, y, z, blocks.path);
            if w.get(x, y + 1, z).map_or(false, |b| {
                let p = palette.props(b);
                p.replaceable && !p.liquid
            }) {
                clip.set(w, x, y + 1, z, block::AIR);
            }
        }
    };
    for x in core::cmp::min(ax, hx)..=core::cmp::max(ax, hx) {
        column(w, x, az);
    }
    for z in core::cmp::min(az, hz)..=core::cmp::max(az, hz) {
        column(w, hx, z);
    }
}
