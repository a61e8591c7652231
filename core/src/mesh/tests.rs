//! Known answers for the mesher built by hand: ambient occlusion around a floor block, a
//! torch's light on the floor next to it (also across a chunk border), winding, fluids,
//! plants and missing neighbours.

mod row_reads;

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

use super::*;
use crate::engine::ChunkPos;
use crate::mesh::rows::Rows;
use crate::world::block::{self, BlockId};
use crate::world::chunk::Merged;
use crate::world::heightmap::Heightmaps;
use crate::world::light;
use crate::world::sections::Sections;

const DIMS: Dims = Dims {
    min_y: 0,
    height: 16,
    sea_level: 0,
};

/// Hand-built chunks: blocks set by world position, light computed by the light status.
struct Hand {
    blocks: BTreeMap<(i32, i32), Vec<BlockId>>,
}

impl Hand {
    /// Chunks `0..w × 0..d`, each with a stone floor at y = 0.
    fn floor(w: i32, d: i32) -> Hand {
        let mut blocks = BTreeMap::new();
        for cz in 0..d {
            for cx in 0..w {
                let mut v = vec![block::AIR; DIMS.volume()];
                v[..256].fill(block::STONE);
                blocks.insert((cx, cz), v);
            }
        }
        Hand { blocks }
    }
    fn set(&mut self, x: i32, y: i32, z: i32, b: BlockId) {
        let v = self.blocks.get_mut(&(x >> 4, z >> 4)).unwrap();
        v[DIMS.index((x & 15) as usize, y, (z & 15) as usize)] = b;
    }
    fn chunks(&self) -> BTreeMap<(i32, i32), FullChunk> {
        let mut out = BTreeMap::new();
        let paletted: BTreeMap<(i32, i32), Sections> = self
            .blocks
            .iter()
            .map(|(&k, v)| (k, Sections::from_dense(v)))
            .collect();
        for (&(cx, cz), blocks) in &self.blocks {
            let n = Neighbourhood::from_fn(|dx, dz| paletted.get(&(cx + dx, cz + dz)));
            let palette = Palette::builtin();
            let l = light::compute(&DIMS, &palette, n, DIMS.max_y());
            let merged = Merged {
                blocks: Sections::from_dense(blocks),
                heightmaps: Heightmaps::of(&DIMS, &palette, blocks),
                block_entities: Vec::new(),
            };
            let pos = ChunkPos::new(cx, cz);
            out.insert(
                (cx, cz),
                FullChunk::from_parts(pos, [0; 16], merged, l, Vec::new(), Vec::new()),
            );
        }
        out
    }
}

fn mesh_of(chunks: &BTreeMap<(i32, i32), FullChunk>, cx: i32, cz: i32, o: MeshOptions) -> Mesh {
    let n = Neighbourhood::from_fn(|dx, dz| chunks.get(&(cx + dx, cz + dz)));
    mesh_chunk(&n, DIMS, &Palette::builtin(), &o).unwrap()
}

/// The quad of `face` whose first cell is at chunk-local block `(x, y, z)` (culled mode).
fn quad_at(m: &Mesh, face: Face, x: i32, y: i32, z: i32) -> (usize, &SurfaceMesh) {
    for s in &m.surfaces {
        for q in 0..s.quad_count() {
            let vs = &s.positions[4 * q..4 * q + 4];
            if s.faces[4 * q] != face as u8 {
                continue;
            }
            let min = |k: usize| vs.iter().map(|p| p[k]).fold(f32::INFINITY, f32::min);
            // The block the face belongs to: its minimum corner, minus one along a
            // positive normal.
            let (mut bx, mut by, mut bz) = (min(0) as i32, min(1) as i32, min(2) as i32);
            match face {
                Face::PosX => bx -= 1,
                Face::PosY => by = (min(1) - 0.5) as i32,
                Face::PosZ => bz -= 1,
                _ => {}
            }
            if (bx, by, bz) == (x, y, z) {
                return (q, s);
            }
        }
    }
    panic!("no {face:?} quad at ({x}, {y}, {z})");
}

/// Per-vertex values of quad `q`, keyed by the vertex's (x, z) for a top face.
fn top_corners(s: &SurfaceMesh, q: usize, f: impl Fn(&SurfaceMesh, usize) -> u8) -> [u8; 4] {
    // Order corners as (x0, z0), (x1, z0), (x1, z1), (x0, z1).
    let vs: Vec<usize> = (4 * q..4 * q + 4).collect();
    let x0 = vs
        .iter()
        .map(|&v| s.positions[v][0])
        .fold(f32::INFINITY, f32::min);
    let z0 = vs
        .iter()
        .map(|&v| s.positions[v][2])
        .fold(f32::INFINITY, f32::min);
    let pick = |dx: f32, dz: f32| {
        let v = *vs
            .iter()
            .find(|&&v| s.positions[v][0] == x0 + dx && s.positions[v][2] == z0 + dz)
            .unwrap();
        f(s, v)
    };
    [
        pick(0.0, 0.0),
        pick(1.0, 0.0),
        pick(1.0, 1.0),
        pick(0.0, 1.0),
    ]
}

#[test]
fn ambient_occlusion_counts_sides_and_corner() {
    let mut h = Hand::floor(1, 1);
    // Around the top face of floor block (5, 0, 5): at its (x0, z0) corner both sides and
    // the corner are occupied; at (x1, z1) only the corner.
    h.set(4, 1, 5, block::STONE);
    h.set(5, 1, 4, block::STONE);
    h.set(4, 1, 4, block::STONE);
    h.set(6, 1, 6, block::STONE);
    let c = h.chunks();
    let m = mesh_of(&c, 0, 0, MeshOptions::default());
    let (q, s) = quad_at(&m, Face::PosY, 5, 0, 5);
    // (x0, z0): two sides -> 3. (x1, z0): side (6, 1, 5) open, side (5, 1, 4) occupied,
    // corner (6, 1, 4) open -> 1.
    // (x1, z1): sides (6, 1, 5), (5, 1, 6) open, corner (6, 1, 6) occupied -> 1.
    // (x0, z1): side (4, 1, 5) occupied, side (5, 1, 6) open, corner (4, 1, 6) open -> 1.
    assert_eq!(top_corners(s, q, |s, v| s.ao[v]), [3, 1, 1, 1]);
    // Two sides without the corner still make 3.
    let mut h = Hand::floor(1, 1);
    h.set(4, 1, 5, block::STONE);
    h.set(5, 1, 4, block::STONE);
    let c = h.chunks();
    let m = mesh_of(&c, 0, 0, MeshOptions::default());
    let (q, s) = quad_at(&m, Face::PosY, 5, 0, 5);
    assert_eq!(top_corners(s, q, |s, v| s.ao[v]), [3, 1, 0, 1]);
    // Leaves and water do not occlude.
    let mut h = Hand::floor(1, 1);
    h.set(4, 1, 5, block::OAK_LEAVES);
    h.set(5, 1, 4, block::WATER);
    let c = h.chunks();
    let m = mesh_of(&c, 0, 0, MeshOptions::default());
    let (q, s) = quad_at(&m, Face::PosY, 5, 0, 5);
    assert_eq!(top_corners(s, q, |s, v| s.ao[v]), [0, 0, 0, 0]);
}

#[test]
fn torch_light_on_the_floor_next_to_it() {
    // Torch (emission 14) at (8, 1, 8). Block light by the flood rule: 14 in its cell,
    // 13 one step away, 12 two steps. The top face of (8, 0, 8) has the torch cell in front:
    // each corner averages the torch cell (14), two sides (13) and a corner (12):
    // (14 + 13 + 13 + 12) / 4 = 13.
    let mut h = Hand::floor(1, 1);
    h.set(8, 1, 8, block::TORCH);
    let c = h.chunks();
    let m = mesh_of(&c, 0, 0, MeshOptions::default());
    let (q, s) = quad_at(&m, Face::PosY, 8, 0, 8);
    assert_eq!(top_corners(s, q, |s, v| s.block_light[v]), [13; 4]);
    assert_eq!(top_corners(s, q, |s, v| s.sky_light[v]), [15; 4]);
    // (9, 0, 8): front 13; a corner at x = 9 sees the torch cell as a side (14), a cell two
    // steps away as the other side (12) and one step away as the corner (13): 52 / 4 = 13;
    // at x = 10: (13 + 12 + 12 + 11) / 4 = 12.
    let (q, s) = quad_at(&m, Face::PosY, 9, 0, 8);
    assert_eq!(top_corners(s, q, |s, v| s.block_light[v]), [13, 12, 12, 13]);
    // The torch itself: crossed quads lit by its own cell, in the cutout surface.
    let cut = m.surface(block::Surface::Cutout);
    assert_eq!(cut.quad_count(), 4);
    assert!(cut.block_light.iter().all(|&l| l == 14));
    assert!(cut.quad_blocks.iter().all(|&b| b == block::TORCH));
}

#[test]
fn torch_light_crosses_a_chunk_border() {
    // Torch at world (15, 1, 8) in chunk (0, 0); mesh chunk (1, 0). The floor face of world
    // (16, 0, 8), chunk-local (0, 0, 8): front (16, 1, 8) = 13. Corner (x0, z0): sides
    // (15, 1, 8) = 14 (the torch), (16, 1, 7) = 12, corner (15, 1, 7) = 13 -> 52 / 4 = 13.
    // Corner (x1, z0): sides (17, 1, 8) = 12, (16, 1, 7) = 12, corner (17, 1, 7) = 11 ->
    // 48 / 4 = 12.
    let mut h = Hand::floor(2, 1);
    h.set(15, 1, 8, block::TORCH);
    let c = h.chunks();
    let m = mesh_of(&c, 1, 0, MeshOptions::default());
    let (q, s) = quad_at(&m, Face::PosY, 0, 0, 8);
    assert_eq!(top_corners(s, q, |s, v| s.block_light[v]), [13, 12, 12, 13]);
    // And the chunk with the torch sees the same values on its side of the border.
    let m0 = mesh_of(&c, 0, 0, MeshOptions::default());
    let (q, s) = quad_at(&m0, Face::PosY, 15, 0, 8);
    assert_eq!(top_corners(s, q, |s, v| s.block_light[v]), [13, 13, 13, 13]);
}

#[test]
fn border_faces_follow_the_missing_neighbour_choice() {
    // One chunk, a single stone block at x = 15, y = 1 (its +x face is on the border).
    let mut h = Hand::floor(1, 1);
    h.set(15, 1, 3, block::STONE);
    let c = h.chunks();
    let emit = mesh_of(&c, 0, 0, MeshOptions::default());
    let cull = mesh_of(
        &c,
        0,
        0,
        MeshOptions {
            missing: MissingNeighbour::Cull,
            ..MeshOptions::default()
        },
    );
    let count = |m: &Mesh, f: Face| {
        m.surface(block::Surface::Opaque)
            .faces
            .iter()
            .filter(|&&x| x == f as u8)
            .count()
            / 4
    };
    // Emit: the floor's 16 border faces and the block's at y = 0 and 1.
    assert_eq!(count(&emit, Face::PosX), 16 + 1);
    assert_eq!(count(&cull, Face::PosX), 0);
    // The floor's bottom is never drawn (below the world is an occluder).
    assert_eq!(count(&emit, Face::NegY), 0);
}

#[test]
fn every_quad_is_wound_counter_clockwise_around_its_normal() {
    let mut h = Hand::floor(1, 1);
    for (x, b) in [
        (2, block::STONE),
        (4, block::OAK_LEAVES),
        (6, block::WATER),
        (8, block::SNOW),
        (10, block::POPPY),
        (12, block::LAVA),
    ] {
        h.set(x, 1, 5, b);
    }
    let c = h.chunks();
    for mode in [Mode::Culled, Mode::Greedy] {
        let m = mesh_of(
            &c,
            0,
            0,
            MeshOptions {
                mode,
                ..MeshOptions::default()
            },
        );
        for s in &m.surfaces {
            for t in s.indices.chunks(3) {
                let p = |k: usize| s.positions[t[k] as usize];
                let (a, b, cc) = (p(0), p(1), p(2));
                let e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
                let e2 = [cc[0] - a[0], cc[1] - a[1], cc[2] - a[2]];
                let n = [
                    e1[1] * e2[2] - e1[2] * e2[1],
                    e1[2] * e2[0] - e1[0] * e2[2],
                    e1[0] * e2[1] - e1[1] * e2[0],
                ];
                let face = Face::from_index(s.faces[t[0] as usize]).unwrap();
                let f = face.normal();
                assert!(n[0] * f[0] + n[1] * f[1] + n[2] * f[2] > 0.0, "{face:?}");
            }
        }
        // Lowered tops: water at 1 + 14/16, snow at 1 + 2/16.
        let tops: Vec<f32> = m
            .surfaces
            .iter()
            .flat_map(|s| {
                s.positions
                    .iter()
                    .zip(&s.faces)
                    .filter(|(_, &f)| f == Face::PosY as u8)
                    .map(|(p, _)| p[1])
                    .collect::<Vec<_>>()
            })
            .collect();
        assert!(tops.contains(&1.875) && tops.contains(&1.125) && tops.contains(&2.0));
    }
}

#[test]
fn blocks_on_the_highest_layer_have_an_open_top() {
    // A column up to the world's top layer (y = 15): its top face looks above the world.
    let mut h = Hand::floor(1, 1);
    for y in 1..16 {
        h.set(7, y, 7, block::STONE);
    }
    h.set(8, 15, 7, block::WATER);
    let c = h.chunks();
    for mode in [Mode::Culled, Mode::Greedy] {
        let o = MeshOptions {
            mode,
            ..MeshOptions::default()
        };
        let m = mesh_of(&c, 0, 0, o);
        let (q, s) = quad_at(&m, Face::PosY, 7, 15, 7);
        assert_eq!(top_corners(s, q, |s, v| s.sky_light[v]), [15; 4]);
        assert_eq!(top_corners(s, q, |s, v| s.ao[v]), [0; 4]);
    }
}

#[test]
fn bad_input_is_an_error() {
    let c = Hand::floor(1, 1).chunks();
    let n = Neighbourhood::from_fn(|dx, dz| c.get(&(dx, dz)));
    let wrong = Dims { height: 32, ..DIMS };
    assert_eq!(
        mesh_chunk(&n, wrong, &Palette::builtin(), &MeshOptions::default()),
        Err(MeshError::HeightMismatch)
    );
    let none = Neighbourhood::from_fn(|dx, dz| c.get(&(dx + 5, dz)));
    assert_eq!(
        mesh_chunk(&none, DIMS, &Palette::builtin(), &MeshOptions::default()),
        Err(MeshError::MissingChunk)
    );
    let area = ChunkArea {
        width: 2,
        depth: 1,
        chunks: &[None; 9],
    };
    assert_eq!(
        mesh_area(area, DIMS, &Palette::builtin(), &MeshOptions::default()),
        Err(MeshError::BadArea)
    );
}
