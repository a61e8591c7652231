//! The row reads against cell-by-cell reads: the padded rows, their block-class masks and
//! the face windows equal what reading each cell on its own gives.

use super::*;

/// The row reads of the hidden-by-same check: `row_blocks` gives what `block` gives for every
/// padded cell of a wide area (cells past 64 included, a missing chunk in the ring, the
/// floor below and air above), and `equal_mask` marks exactly the equal cells.
#[test]
fn row_reads_match_cell_reads() {
    let mut h = Hand::floor(5, 1);
    // Water and leaves in every chunk, some next to each other, some alone.
    for x in [3, 4, 17, 40, 63, 64, 65, 66, 79] {
        h.set(x, 1, 5, block::WATER);
        h.set(x, 2, 6, block::OAK_LEAVES);
    }
    let chunks = h.chunks();
    // The ring around the 5 × 1 area: the south row is missing.
    let ring: Vec<Option<&FullChunk>> = (-1..=1)
        .flat_map(|cz| (-1..=5).map(move |cx| (cx, cz)))
        .map(|p| chunks.get(&p))
        .collect();
    let area = ChunkArea {
        width: 5,
        depth: 1,
        chunks: &ring,
    };
    let palette = Palette::builtin();
    let v = volume::Volume::gather(area, DIMS, &palette, MissingNeighbour::Emit).unwrap();
    let n = v.sx + 2;
    assert!(n > 64);
    for py in 0..=v.ny + 1 {
        for pz in 0..v.sz + 2 {
            let row = v.row_blocks(py, pz);
            for (px, &b) in row[..n].iter().enumerate() {
                assert_eq!(b, v.block(px, py, pz), "({px}, {py}, {pz})");
            }
        }
    }
    // The wide area meshes to the same faces as its chunks one by one.
    let faces_of = |m: &Mesh, dx: f32| {
        let mut f = Vec::new();
        for s in &m.surfaces {
            for q in 0..s.quad_count() {
                let p = s.positions[4 * q];
                f.push((
                    s.faces[4 * q],
                    s.quad_blocks[q],
                    [p[0] + dx, p[1], p[2]].map(f32::to_bits),
                ));
            }
        }
        f
    };
    let mut merged = faces_of(
        &mesh_area(area, DIMS, &palette, &MeshOptions::default()).unwrap(),
        0.0,
    );
    let mut single: Vec<_> = (0..5)
        .flat_map(|cx| {
            faces_of(
                &mesh_of(&chunks, cx, 0, MeshOptions::default()),
                16.0 * cx as f32,
            )
        })
        .collect();
    merged.sort_unstable();
    single.sort_unstable();
    assert_eq!(merged, single);
    let a: Vec<BlockId> = (0..128).collect();
    let mut b = a.clone();
    let differ = [0, 1, 3, 15, 16, 17, 18, 31, 32, 47, 63, 64, 99, 126, 127];
    for i in differ {
        b[i] += 1;
    }
    // Every length: the whole windows of 16 and the overlapping last one (one chunk's padded
    // row is 17 or 18 cells).
    for n in 1..=128 {
        let m = rows::equal_mask(&a, &b, n);
        for i in 0..128 {
            let want = i < n && !differ.contains(&i);
            assert_eq!((m >> i) & 1 == 1, want, "n {n} bit {i}");
        }
    }
}

/// The gather's row masks are each cell's block class, cell by cell (the gather packs whole
/// runs by comparing them with each distinct block, the reference looks every cell up), and a
/// row's `uniform` is its block exactly when every cell holds it: one chunk (32-bit rows) and a
/// five-chunk area (128-bit rows), over runs of one, two and many blocks, with plants, fluids,
/// cutout and translucent cubes, layers and a missing neighbour.
/// The row-mask classes of the blocks [`row_masks_are_the_cells_classes`] uses, written out
/// from the block table's shapes and surfaces ("What is drawn" in ARCHITECTURE.md), not from
/// the mesher's own classifier: (occluder, drawn and not an occluder, hidden by the same
/// block on every side, plant).
fn known_class(b: BlockId) -> (bool, bool, bool, bool) {
    match b {
        block::AIR => (false, false, false, false),
        // Opaque cubes that stop all light.
        block::STONE | block::SNOW_BLOCK | block::BEDROCK => (true, false, false, false),
        // A fluid, a translucent cube and a cutout cube: no faces between equal neighbours.
        block::WATER | block::ICE | block::OAK_LEAVES => (false, true, true, false),
        // Crossed quads.
        block::TORCH | block::POPPY => (false, true, false, true),
        // A snow layer: its top is always drawn, so the same block does not hide it.
        block::SNOW => (false, true, false, false),
        other => panic!("block {other} has no known class here"),
    }
}

#[test]
fn row_masks_are_the_cells_classes() {
    let kinds = [
        block::WATER,
        block::OAK_LEAVES,
        block::ICE,
        block::TORCH,
        block::POPPY,
        block::SNOW,
        block::SNOW_BLOCK,
        block::AIR,
    ];
    let mut h = Hand::floor(5, 1);
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for y in 1..6 {
        for z in 0..16 {
            for x in 0..80 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Layer 1 mixes many blocks, 2 two, 3 one per row in most rows, 4 and 5
                // sparse.
                let pick = match y {
                    1 => Some(kinds[(state % 8) as usize]),
                    2 => Some(if state % 3 == 0 {
                        block::WATER
                    } else {
                        block::STONE
                    }),
                    3 => (z % 4 != 0 || state % 5 == 0).then_some(block::OAK_LEAVES),
                    _ => (state % 11 == 0).then(|| kinds[(state >> 8) as usize % 8]),
                };
                if let Some(b) = pick {
                    h.set(x, y, z, b);
                }
            }
        }
    }
    let chunks = h.chunks();
    let palette = Palette::builtin();
    for (x0, width) in [(0, 1), (2, 1), (0, 5)] {
        // The ring: the chunks around, the south row missing.
        let ring: Vec<Option<&FullChunk>> = (-1..=1)
            .flat_map(|cz| (x0 - 1..=x0 + width).map(move |cx| (cx, cz)))
            .map(|p| chunks.get(&p))
            .collect();
        let area = ChunkArea {
            width: width as usize,
            depth: 1,
            chunks: &ring,
        };
        let v = volume::Volume::gather(area, DIMS, &palette, MissingNeighbour::Emit).unwrap();
        let n = v.sx + 2;
        for py in 0..=v.ny + 1 {
            for pz in 0..v.sz + 2 {
                let m = v.rows.masks(py * (v.sz + 2) + pz);
                let mut same = true;
                for px in 0..n {
                    let b = v.block(px, py, pz);
                    same &= b == v.block(0, py, pz);
                    let (occluder, other, hides_same, plant) = known_class(b);
                    let at = |mask: u128| (mask >> px) & 1 == 1;
                    let here = alloc::format!("({px}, {py}, {pz}) in area {x0}+{width}");
                    assert_eq!(at(m.occ), occluder, "occluder {here}");
                    assert_eq!(at(m.other), other, "other {here}");
                    assert_eq!(at(m.hides_same), hides_same, "hides same {here}");
                    assert_eq!(at(m.plants), plant, "plant {here}");
                }
                // Layers below the world and above the scanned ones are left MIXED_ROW (the
                // scan only compares rows it meshes).
                if (1..=v.ny).contains(&py) {
                    let want = if same {
                        v.block(0, py, pz)
                    } else {
                        rows::MIXED_ROW
                    };
                    assert_eq!(m.uniform, want, "uniform ({py}, {pz}) in area {x0}+{width}");
                }
            }
        }
    }
}

/// The scan's row windows give every face the key that the cell-by-cell definition gives:
/// every interior cell, every direction, over a 2 × 2 area of stone, air, water, leaves, ice
/// and torches (sky and block light varying), with its ring missing on two sides,
/// up to the world's top (the windows above it reach open sky) and down to the floor.
#[test]
fn row_windows_match_the_cell_by_cell_keys() {
    let mut h = Hand::floor(4, 4);
    let kinds = [
        block::AIR,
        block::AIR,
        block::AIR,
        block::STONE,
        block::STONE,
        block::WATER,
        block::OAK_LEAVES,
        block::ICE,
        block::TORCH,
    ];
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for y in 1..DIMS.height as i32 {
        for z in 0..64 {
            for x in 0..64 {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let b = kinds[(state >> 33) as usize % kinds.len()];
                // Fewer blocks higher up, so that the top layers hold open sky.
                if (state >> 20) % 16 >= y as u64 {
                    h.set(x, y, z, b);
                }
            }
        }
    }
    let chunks = h.chunks();
    let palette = Palette::builtin();
    for missing in [MissingNeighbour::Emit, MissingNeighbour::Cull] {
        // The 2 × 2 chunks (1..=2)² with their ring; the ring's row cz = 0 is missing, and
        // so is its column cx = 3.
        let ring: Vec<Option<&FullChunk>> = (0..=3)
            .flat_map(|cz| (0..=3).map(move |cx| (cx, cz)))
            .map(|(cx, cz)| {
                if cz == 0 || cx == 3 {
                    None
                } else {
                    chunks.get(&(cx, cz))
                }
            })
            .collect();
        let area = ChunkArea {
            width: 2,
            depth: 2,
            chunks: &ring,
        };
        let v = volume::Volume::gather(area, DIMS, &palette, missing).unwrap();
        assert_eq!(v.ny, DIMS.height as usize);
        let mut checked = 0;
        for py in 1..=v.ny {
            for pz in 1..=v.sz {
                // A 2 × 2 area: 34-cell rows, wide masks.
                let rows = match &v.rows {
                    Rows::Wide(rows) => rows,
                    Rows::Narrow(_) => panic!("a 2 × 2 area has wide rows"),
                };
                let w = window::RowWindow::new(&v, rows, py, pz);
                for px in 1..=v.sx {
                    let c = [px, py, pz];
                    let b = v.block(px, py, pz);
                    let top = 16 - (px % 3) as u8;
                    macro_rules! same {
                        ($($f:literal)*) => {$(
                            assert_eq!(
                                w.key::<$f>(&v, c, b, top),
                                faces::key_reference::<$f>(&v, c, b, top),
                                "face {} of {c:?} ({missing:?})", $f
                            );
                        )*};
                    }
                    same!(0 1 2 3 4 5);
                    checked += 6;
                }
            }
        }
        assert_eq!(checked, 6 * 32 * 32 * DIMS.height as usize);
    }
}
