//! Evidence for chunk meshes on generated terrain: meshing chunk by chunk equals meshing the
//! region as one volume (no hole, no double face at a border); every visible face, found by
//! a direct scan of the world, is emitted exactly once; greedy quads cover exactly the culled
//! faces with the same values; meshes do not depend on the thread that builds them or on
//! how the chunks were generated; vertex colours equal their formula bit for bit.
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use stratagen_cli::generate;
use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::mesh::{mesh_area, mesh_chunk, ChunkArea, Face, Mesh, MeshOptions, Mode};
use stratagen_core::world::block::{self, Shape, Surface};
use stratagen_core::world::{ChunkData, Dims, FullChunk, Neighbourhood, Palette, WorldSettings};

/// Seed and region: the meshed 4 × 4 chunks start at chunk `ORIGIN` and are generated with a
/// ring of neighbours. Chosen for its content: water, lava, oak and spruce trees, plants, a
/// watchtower with torches, planks and a chest, so every surface and shape crosses borders.
const SEED: i64 = 3;
const ORIGIN: (i32, i32) = (16, -16);

/// Chunk (x, z) of the 6 × 6 generated area, in `-1..=4` relative to `ORIGIN`.
fn at(x: i32, z: i32) -> ChunkPos {
    ChunkPos::new(ORIGIN.0 + x, ORIGIN.1 + z)
}
const MESHED: std::ops::RangeInclusive<i32> = 0..=3;

fn region(threads: usize, reverse: bool) -> (BTreeMap<ChunkPos, Arc<ChunkData>>, Dims) {
    let mut order: Vec<ChunkPos> = (-1..=4)
        .flat_map(|z| (-1..=4).map(move |x| at(x, z)))
        .collect();
    if reverse {
        order.reverse();
    }
    let def = WorldSettings {
        seed: SEED,
        ..WorldSettings::default()
    };
    let r = generate(def, &order, ChunkStatus::Full, threads, |_, _| {}).unwrap();
    let dims = r.generator.dims();
    (r.chunks, dims)
}

/// The finished chunk at (x, z) relative to `ORIGIN`.
fn full(m: &BTreeMap<ChunkPos, Arc<ChunkData>>, x: i32, z: i32) -> Option<&FullChunk> {
    m.get(&at(x, z)).and_then(|d| d.full())
}

fn options(mode: Mode) -> MeshOptions {
    MeshOptions {
        mode,
        ..MeshOptions::default()
    }
}

fn chunk_mesh(
    m: &BTreeMap<ChunkPos, Arc<ChunkData>>,
    dims: Dims,
    x: i32,
    z: i32,
    mode: Mode,
) -> Mesh {
    let n = Neighbourhood::from_fn(|dx, dz| full(m, x + dx, z + dz));
    mesh_chunk(&n, dims, &Palette::builtin(), &options(mode)).unwrap()
}

/// One quad in world coordinates: face, block, and its corners sorted by position, each
/// with (AO, sky, block light).
type WorldQuad = (u8, u16, Vec<([i64; 3], u8, u8, u8)>);

/// Quads of a mesh whose origin is block (ox, oz), positions scaled by 16 to integers.
fn world_quads(mesh: &Mesh, ox: i32, oz: i32) -> Vec<WorldQuad> {
    let mut out = Vec::new();
    for s in &mesh.surfaces {
        for q in 0..s.quad_count() {
            let mut corners: Vec<_> = (4 * q..4 * q + 4)
                .map(|v| {
                    let p = s.positions[v];
                    let w = [
                        ((p[0] + ox as f32) * 16.0) as i64,
                        (p[1] * 16.0) as i64,
                        ((p[2] + oz as f32) * 16.0) as i64,
                    ];
                    (w, s.ao[v], s.sky_light[v], s.block_light[v])
                })
                .collect();
            corners.sort();
            out.push((s.faces[4 * q], s.quad_blocks[q], corners));
        }
    }
    out.sort();
    out
}

#[test]
fn chunk_by_chunk_equals_one_volume_and_every_face_once() {
    let (m, dims) = region(2, false);
    let (w, d) = (4usize, 4usize);
    let list: Vec<Option<&FullChunk>> = (-1..=4)
        .flat_map(|z| (-1..=4).map(move |x| (x, z)))
        .map(|(x, z)| full(&m, x, z))
        .collect();
    for mode in [Mode::Culled, Mode::Greedy] {
        let area = ChunkArea {
            width: w,
            depth: d,
            chunks: &list,
        };
        let whole = world_quads(
            &mesh_area(area, dims, &Palette::builtin(), &options(mode)).unwrap(),
            0,
            0,
        );
        let mut pieces = Vec::new();
        for z in MESHED {
            for x in MESHED {
                pieces.extend(world_quads(
                    &chunk_mesh(&m, dims, x, z, mode),
                    x * 16,
                    z * 16,
                ));
            }
        }
        pieces.sort();
        if mode == Mode::Culled {
            // Culled quads never cross a chunk border, so the two lists are equal.
            assert_eq!(pieces.len(), whole.len());
            assert!(
                pieces == whole,
                "culled: chunk-by-chunk differs from one volume"
            );
            let set: BTreeSet<_> = whole.iter().collect();
            assert_eq!(set.len(), whole.len(), "a face is emitted twice");
        }
        // Both modes cover exactly the culled faces, with the same values.
        let cells = unit_faces(&pieces);
        assert_eq!(cells, unit_faces(&whole), "{mode:?}: cells differ");
        assert_eq!(
            cells,
            expected_faces(&m, dims),
            "{mode:?}: not the visible faces"
        );
    }
}

/// Unit faces by (face, lowest corner ×16): the block and the corner values (AO, sky, block
/// light) in sorted corner order.
type UnitFaces = BTreeMap<(u8, [i64; 3]), (u16, Vec<(u8, u8, u8)>)>;

/// Split every axis quad into its unit faces: (face, block, cell min corner ×16, the corner
/// values in sorted order). Plant quads are kept whole.
fn unit_faces(quads: &[WorldQuad]) -> UnitFaces {
    let mut out = BTreeMap::new();
    for (face, b, corners) in quads {
        let lo = corners[0].0;
        let hi = corners[3].0;
        let values: Vec<(u8, u8, u8)> = corners.iter().map(|c| (c.1, c.2, c.3)).collect();
        if *face >= 6 {
            assert!(
                out.insert((*face, lo), (*b, values)).is_none(),
                "plant twice"
            );
            continue;
        }
        let axis = (*face / 2) as usize;
        // Steps of one block (16) along the two in-plane axes, clamped to partial heights.
        let span: Vec<(usize, i64)> = (0..3)
            .filter(|&k| k != axis)
            .map(|k| (k, hi[k] - lo[k]))
            .collect();
        let steps = |len: i64| if len % 16 == 0 { len / 16 } else { 1 };
        for a in 0..steps(span[0].1) {
            for c in 0..steps(span[1].1) {
                let mut cell = lo;
                cell[span[0].0] += a * 16;
                cell[span[1].0] += c * 16;
                let prev = out.insert((*face, cell), (*b, values.clone()));
                assert!(prev.is_none(), "face {face} at {cell:?} covered twice");
            }
        }
    }
    out
}

/// The faces of the meshed 4 × 4 chunks found by a direct scan of the blocks (coordinates
/// relative to `ORIGIN`) (the rule of
/// `mesh::faces`, restated over world coordinates), as (face, min corner ×16) with the
/// block; values are not recomputed here (the hand-built tests pin them).
fn expected_faces(m: &BTreeMap<ChunkPos, Arc<ChunkData>>, dims: Dims) -> UnitFaces {
    let block_at = |x: i32, y: i32, z: i32| -> u16 {
        if y < dims.min_y {
            return block::BEDROCK;
        }
        if y > dims.max_y() {
            return block::AIR;
        }
        let c = full(m, x.div_euclid(16), z.div_euclid(16)).unwrap();
        c.blocks()[dims.index(x.rem_euclid(16) as usize, y, z.rem_euclid(16) as usize)]
    };
    // Faces found by the scan; the values are taken from the culled mesh of the whole
    // region so the maps compare (the values themselves are pinned by the core tests).
    let list: Vec<Option<&FullChunk>> = (-1..=4)
        .flat_map(|z| (-1..=4).map(move |x| (x, z)))
        .map(|(x, z)| full(m, x, z))
        .collect();
    let area = ChunkArea {
        width: 4,
        depth: 4,
        chunks: &list,
    };
    let values = unit_faces(&world_quads(
        &mesh_area(area, dims, &Palette::builtin(), &options(Mode::Culled)).unwrap(),
        0,
        0,
    ));
    let mut out = BTreeMap::new();
    let palette = Palette::builtin();
    let dirs: [(Face, [i32; 3]); 6] = [
        (Face::NegX, [-1, 0, 0]),
        (Face::PosX, [1, 0, 0]),
        (Face::NegY, [0, -1, 0]),
        (Face::PosY, [0, 1, 0]),
        (Face::NegZ, [0, 0, -1]),
        (Face::PosZ, [0, 0, 1]),
    ];
    for y in dims.min_y..=dims.max_y() {
        for z in 0..64 {
            for x in 0..64 {
                let b = block_at(x, y, z);
                let p = palette.props(b);
                if p.shape == Shape::Cross {
                    for f in [
                        Face::CrossA,
                        Face::CrossABack,
                        Face::CrossB,
                        Face::CrossBBack,
                    ] {
                        // The lowest corner: plane A starts at (x, z), plane B's lowest
                        // corner is (x, z + 1).
                        let dz = if matches!(f, Face::CrossA | Face::CrossABack) {
                            0
                        } else {
                            16
                        };
                        let lo = [x as i64 * 16, y as i64 * 16, z as i64 * 16 + dz];
                        let key = (f as u8, lo);
                        out.insert(key, values.get(&key).cloned().unwrap_or((b, vec![])));
                    }
                    continue;
                }
                if p.shape == Shape::None {
                    continue;
                }
                let above = block_at(x, y + 1, z);
                let lowered = match p.shape {
                    Shape::Layer => Some(2),
                    Shape::Fluid if above != b => Some(14),
                    _ => None,
                };
                for (f, [dx, dy, dz]) in dirs {
                    let n = block_at(x + dx, y + dy, z + dz);
                    let pn = palette.props(n);
                    let hidden = pn.is_occluder()
                        || (n == b && (p.surface != Surface::Opaque || p.shape != Shape::Cube));
                    let shown = !hidden || (f == Face::PosY && lowered.is_some());
                    if !shown {
                        continue;
                    }
                    let mut lo = [x as i64 * 16, y as i64 * 16, z as i64 * 16];
                    match f {
                        Face::PosX => lo[0] += 16,
                        Face::PosY => lo[1] += lowered.unwrap_or(16),
                        Face::PosZ => lo[2] += 16,
                        _ => {}
                    }
                    let key = (f as u8, lo);
                    out.insert(key, values.get(&key).cloned().unwrap_or((b, vec![])));
                }
            }
        }
    }
    out
}

#[test]
fn meshes_do_not_depend_on_threads_or_generation_order() {
    let (a, dims) = region(0, false);
    let (b, _) = region(2, true);
    let positions: Vec<(i32, i32)> = MESHED.flat_map(|z| MESHED.map(move |x| (x, z))).collect();
    let serial: Vec<u64> = positions
        .iter()
        .map(|&(x, z)| chunk_mesh(&a, dims, x, z, Mode::Greedy).digest())
        .collect();
    // The other generation, meshed on four threads at once in reverse order.
    let b = &b;
    let threaded: Vec<u64> = std::thread::scope(|s| {
        let handles: Vec<_> = positions
            .iter()
            .rev()
            .map(|&(x, z)| s.spawn(move || chunk_mesh(b, dims, x, z, Mode::Greedy).digest()))
            .collect();
        let mut v: Vec<u64> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        v.reverse();
        v
    });
    assert_eq!(serial, threaded);
    // The region has what this test means to exercise, on every surface.
    let mut kinds = BTreeSet::new();
    for &(x, z) in &positions {
        let m = chunk_mesh(&a, dims, x, z, Mode::Culled);
        kinds.extend(m.surfaces.iter().flat_map(|s| s.quad_blocks.clone()));
    }
    for b in [
        block::WATER,
        block::LAVA,
        block::OAK_LEAVES,
        block::SPRUCE_LEAVES,
        block::FERN,
        block::TORCH,
        block::PLANKS,
    ] {
        assert!(
            kinds.contains(&b),
            "no {} in the meshed region",
            Palette::builtin().name(b).unwrap()
        );
    }
}

/// Vertex colours equal the formula they document, evaluated quad by quad with no shared
/// work: the palette colour in the biome of the quad's first column, each RGB byte through
/// the sRGB transfer function, times the vertex shade; alpha from the palette. Bit for bit.
#[test]
fn vertex_colours_equal_the_formula_per_vertex() {
    use stratagen_core::mesh::colour::{block_colour, srgb_to_linear, vertex_colours};
    use stratagen_core::mesh::vertex_shade;
    use stratagen_core::world::Definition;
    let (m, dims) = region(2, false);
    let world = Definition::builtin();
    let mut vertices = 0;
    for z in MESHED {
        for x in MESHED {
            let n = Neighbourhood::from_fn(|dx, dz| full(&m, x + dx, z + dz));
            let mesh = mesh_chunk(&n, dims, &world.blocks, &options(Mode::Culled)).unwrap();
            let biomes = n.centre().unwrap().biomes;
            for s in &mesh.surfaces {
                let got = vertex_colours(s, &world, &biomes);
                assert_eq!(got.len(), s.vertex_count());
                for (v, c) in got.iter().enumerate() {
                    let q = v / 4;
                    let p = s.positions[4 * q];
                    let (cx, cz) = ((p[0] as usize).min(15), (p[2] as usize).min(15));
                    let base =
                        block_colour(&world, s.quad_blocks[q], biomes[(cz / 4) * 4 + cx / 4]);
                    let shade = vertex_shade(s.ao[v], s.sky_light[v], s.block_light[v]);
                    let want = [
                        srgb_to_linear(base[0]) * shade,
                        srgb_to_linear(base[1]) * shade,
                        srgb_to_linear(base[2]) * shade,
                        f32::from(base[3]) / 255.0,
                    ];
                    assert_eq!(c.map(f32::to_bits), want.map(f32::to_bits), "vertex {v}");
                    vertices += 1;
                }
            }
        }
    }
    assert!(vertices > 10_000, "{vertices} vertices");
}
