//! Underground dungeons: binary space partitioning of the footprint into rooms, joined by
//! corridors, with a spawner and chests.

use alloc::vec::Vec;

use crate::util::random::JavaRandom;
use crate::world::definition::StructureBlocks;
use crate::world::dims::Dims;
use crate::world::feature::BlockEntity;
use crate::world::structure::{
    bx, piece, Assembled, BlockBox, Piece, PieceKind, LOOT_DUNGEON, SPAWNER_ZOMBIE,
};

/// Binary space partitioning of the dungeon footprint into rooms, with a corridor joining
/// one room of each half at every split (so the room graph is a connected tree).
pub(super) fn dungeon(
    r: &mut JavaRandom,
    dims: &Dims,
    blocks: &StructureBlocks,
    cx: i32,
    cz: i32,
) -> Assembled {
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
        kind: blocks.spawner,
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
            kind: blocks.chest,
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
