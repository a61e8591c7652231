//! Evidence for features, patches, the merge, light, spawns and full chunks: results are the
//! same in every generation order and thread count; trees and ores cross borders whole;
//! Poisson-disk vegetation keeps its distance across borders and is independent of the region;
//! light obeys its flood-fill equation and crosses borders; golden full-chunk digests.
mod common;
use common::shuffled;
use std::collections::BTreeMap;
use std::sync::Arc;
use stratagen_cli::{generate, square};
use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::world::block;
use stratagen_core::world::dims::Dims;
use stratagen_core::world::feature::poisson_points;
use stratagen_core::world::light;
use stratagen_core::world::sections::Sections;
use stratagen_core::world::{ChunkData, Heightmap, Neighbourhood, Palette, WorldSettings};

fn full_region(
    seed: i64,
    order: &[ChunkPos],
    threads: usize,
) -> BTreeMap<ChunkPos, Arc<ChunkData>> {
    generate(
        WorldSettings {
            seed,
            ..WorldSettings::default()
        },
        order,
        ChunkStatus::Full,
        threads,
        |_, _| {},
    )
    .unwrap()
    .chunks
}

#[test]
fn full_digests_are_independent_of_order_and_threads() {
    let base: Vec<ChunkPos> = (0..144)
        .map(|i| ChunkPos::new(i % 12 - 6, i / 12 - 6))
        .collect();
    let digest = |m: &BTreeMap<ChunkPos, Arc<ChunkData>>| -> Vec<u64> {
        m.values()
            .map(|d| stratagen_core::world::chunk_digest(d))
            .collect()
    };
    let want = digest(&full_region(3, &base, 2));
    let mut rev = base.clone();
    rev.reverse();
    for (name, order) in [
        ("row-major", base.clone()),
        ("reversed", rev),
        ("shuffled", shuffled(&base, 5)),
    ] {
        for threads in [0usize, 1, 2, 4] {
            assert_eq!(
                digest(&full_region(3, &order, threads)),
                want,
                "{name}, {threads} threads"
            );
        }
    }
}

/// Trees and ore blobs cross chunk borders through patches. Generating a 3 × 3 region in two
/// opposite orders gives identical merged blocks, and the patches are really used.
#[test]
fn features_crossing_borders_are_whole_in_any_order() {
    // A forest region (seed 0 around chunk (-10, -10) is forest; checked below).
    let region = square((-10, -10), 1);
    let mut rev = region.clone();
    rev.reverse();
    let a = full_region(0, &region, 1);
    let b = full_region(0, &rev, 2);
    for p in &region {
        assert_eq!(
            a[p].full().unwrap().blocks(),
            b[p].full().unwrap().blocks(),
            "{p:?}"
        );
    }
    // The features of the centre chunk write into its neighbours.
    let r = generate(
        WorldSettings::default(),
        &[ChunkPos::new(-10, -10)],
        ChunkStatus::Features,
        1,
        |_, _| {},
    )
    .unwrap();
    let f = match &*r.chunks[&ChunkPos::new(-10, -10)] {
        ChunkData::Features(f) => f.clone(),
        _ => panic!("not a features output"),
    };
    let outbound: usize = f.outbound.iter().map(|v| v.len()).sum();
    assert!(
        outbound > 0,
        "no feature crossed a border here; pick another region"
    );
    assert!(f.outbound.centre().is_empty());
    // Every leaf or ore block written across a border shows up in the neighbour's final blocks
    // unless the neighbour's own later writes or structures replaced it; count the survivors.
    let full = full_region(0, &region, 2);
    let mut survived = 0;
    for (&(dx, dz), patch) in Neighbourhood::<()>::OFFSETS.iter().zip(&f.outbound) {
        if (dx, dz) == (0, 0) {
            continue;
        }
        let n = ChunkPos::new(-10 + dx, -10 + dz);
        let blocks = full[&n].full().unwrap().blocks();
        for &(i, b) in patch {
            survived += (blocks[i as usize] == b) as usize;
        }
    }
    assert!(
        survived * 2 > outbound,
        "{survived} of {outbound} patch writes survived"
    );
}

#[test]
fn poisson_vegetation_is_seamless_and_region_independent() {
    let radius = 2.0;
    // 16 × 16 chunks as one area, and chunk by chunk.
    let whole = poisson_points(7, 1, radius, 0, 0, 256, 256);
    let mut pieces = Vec::new();
    for cz in 0..16 {
        for cx in 0..16 {
            pieces.extend(poisson_points(
                7,
                1,
                radius,
                cx * 16,
                cz * 16,
                cx * 16 + 16,
                cz * 16 + 16,
            ));
        }
    }
    let mut a = whole.clone();
    let mut b = pieces.clone();
    a.sort();
    b.sort();
    assert_eq!(
        a, b,
        "a chunk's points are the same alone as inside the region"
    );
    assert!(whole.len() > 256 * 256 / 16, "too sparse: {}", whole.len());
    // Minimum distance everywhere, including across chunk borders. Points are block cells,
    // so compare cell centres with one cell of tolerance for the rounding to blocks.
    let grid: BTreeMap<(i32, i32), Vec<(i32, i32)>> =
        whole.iter().fold(BTreeMap::new(), |mut m, p| {
            m.entry((p.0 >> 2, p.1 >> 2))
                .or_insert_with(Vec::new)
                .push(*p);
            m
        });
    let mut across = 0;
    for p in &whole {
        for dz in -1..=1 {
            for dx in -1..=1 {
                for q in grid
                    .get(&((p.0 >> 2) + dx, (p.1 >> 2) + dz))
                    .into_iter()
                    .flatten()
                {
                    if q == p {
                        continue;
                    }
                    let d2 = (p.0 - q.0).pow(2) + (p.1 - q.1).pow(2);
                    assert!(
                        f64::from(d2).sqrt() >= radius - std::f64::consts::SQRT_2,
                        "{p:?} {q:?}"
                    );
                    across += (p.0 >> 4 != q.0 >> 4 || p.1 >> 4 != q.1 >> 4) as usize;
                }
            }
        }
    }
    assert!(across > 0, "pairs across borders were checked");
}

/// Light is the fixpoint of its rules: every cell's level is its source level or the best
/// neighbour's level minus `1 + opacity`, whichever is higher; sky light is 15 above the
/// world surface. Checked on the centre chunk with neighbour values from the neighbours' own
/// light outputs (so the fill agrees across borders).
#[test]
fn light_satisfies_its_flood_fill_equation() {
    let region = square((5, -3), 1);
    let full = full_region(21, &region, 2);
    let dims = Dims {
        min_y: -64,
        height: 384,
        sea_level: 63,
    };
    let c = full[&ChunkPos::new(5, -3)].full().unwrap();
    let get = |wx: i32, y: i32, wz: i32| -> Option<(u16, u8, u8)> {
        if y < dims.min_y || y > dims.max_y() {
            return None;
        }
        let p = ChunkPos::new(wx.div_euclid(16), wz.div_euclid(16));
        let f = full.get(&p)?.full()?;
        let i = dims.index(wx.rem_euclid(16) as usize, y, wz.rem_euclid(16) as usize);
        Some((f.blocks()[i], f.light().sky_at(i), f.light().block_at(i)))
    };
    let palette = Palette::builtin();
    let (bx, bz) = (5 * 16, -3 * 16);
    let mut checked = 0;
    for z in 0..16 {
        for x in 0..16 {
            let (wx, wz) = (bx + x, bz + z);
            // Direct sky light: 15 minus the opacity of every block from the top down to
            // here, 0 below the first opaque block.
            let mut direct = vec![0i32; (dims.height) as usize];
            let mut l = 15i32;
            for y in (dims.min_y..=dims.max_y()).rev() {
                let o = i32::from(palette.props(get(wx, y, wz).unwrap().0).opacity);
                l = if o >= 15 { 0 } else { (l - o).max(0) };
                direct[(y - dims.min_y) as usize] = l;
            }
            for y in dims.min_y..=dims.max_y() {
                let (b, sky, bl) = get(wx, y, wz).unwrap();
                let p = palette.props(b);
                if y >= c.heightmaps()[Heightmap::WorldSurface][(z * 16 + x) as usize] {
                    assert_eq!(sky, 15, "sky above the surface at ({wx},{y},{wz})");
                }
                if p.opacity >= 15 {
                    assert_eq!((sky, bl), (0, p.emission), "opaque ({wx},{y},{wz})");
                    continue;
                }
                let (mut best_sky, mut best_bl) = (0i32, 0i32);
                for (dx, dy, dz) in [
                    (1, 0, 0),
                    (-1, 0, 0),
                    (0, 1, 0),
                    (0, -1, 0),
                    (0, 0, 1),
                    (0, 0, -1),
                ] {
                    if let Some((_, s, l)) = get(wx + dx, y + dy, wz + dz) {
                        best_sky = best_sky.max(i32::from(s) - 1 - i32::from(p.opacity));
                        best_bl = best_bl.max(i32::from(l) - 1 - i32::from(p.opacity));
                    }
                }
                let want_sky = direct[(y - dims.min_y) as usize].max(best_sky).max(0);
                assert_eq!(i32::from(sky), want_sky, "sky at ({wx},{y},{wz})");
                assert_eq!(
                    i32::from(bl),
                    best_bl.max(i32::from(p.emission)).max(0),
                    "block light at ({wx},{y},{wz})"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000);
}

/// A torch in a tunnel 3 blocks east of a chunk border lights the tunnel on the other side.
#[test]
fn a_torch_lights_the_neighbour_through_a_cave() {
    let dims = Dims {
        min_y: 0,
        height: 32,
        sea_level: 0,
    };
    let vol = dims.volume();
    let mut chunks: Vec<Vec<u16>> = (0..9).map(|_| vec![block::STONE; vol]).collect();
    // A tunnel along x at y = 10, z = 8 through the centre (slot 4) and east (slot 5) chunks.
    for x in 0..16 {
        chunks[4][dims.index(x, 10, 8)] = block::AIR;
        chunks[5][dims.index(x, 10, 8)] = block::AIR;
    }
    chunks[5][dims.index(3, 10, 8)] = block::TORCH; // 3 blocks east of the border (x = 19)
    let paletted: Vec<Sections> = chunks.iter().map(|c| Sections::from_dense(c)).collect();
    let refs = Neighbourhood::from_array(std::array::from_fn(|k| Some(&paletted[k])));
    let l = light::compute(&dims, &Palette::builtin(), refs, 31);
    for x in 0..16 {
        let dist = 19 - x as i32;
        let want = (14 - dist).max(0) as u8;
        assert_eq!(l.block_at(dims.index(x, 10, 8)), want, "x = {x}");
    }
    assert_eq!(l.block_at(dims.index(15, 10, 8)), 10);
    assert_eq!(
        l.sky_at(dims.index(15, 10, 8)),
        0,
        "no sky in a sealed tunnel"
    );
}

#[test]
fn spawn_requests_stand_on_valid_ground() {
    let full = full_region(4, &square((0, 0), 3), 2);
    let dims = Dims {
        min_y: -64,
        height: 384,
        sea_level: 63,
    };
    let mut n = 0;
    for (p, d) in &full {
        let f = d.full().unwrap();
        for s in &f.spawns {
            n += 1;
            assert!((1..=4).contains(&s.group));
            assert_eq!(
                (s.pos[0].div_euclid(16), s.pos[2].div_euclid(16)),
                (p.x, p.z)
            );
            let (x, z) = (
                s.pos[0].rem_euclid(16) as usize,
                s.pos[2].rem_euclid(16) as usize,
            );
            let below = f.blocks()[dims.index(x, s.pos[1] - 1, z)];
            let here = f.blocks()[dims.index(x, s.pos[1], z)];
            assert!(
                below == block::GRASS_BLOCK || below == block::SAND || here == block::WATER,
                "{s:?} on {below}"
            );
        }
    }
    assert!(n > 0);
}

/// Golden full-chunk digests (regression guard; the tests above give the properties).
#[test]
fn golden_full_chunk_digests() {
    let full = full_region(0, &square((0, 0), 1), 2);
    let mut lines = String::new();
    for (p, d) in &full {
        lines.push_str(&format!(
            "({}, {}) {:016x}\n",
            p.x,
            p.z,
            stratagen_core::world::chunk_digest(d)
        ));
    }
    insta::assert_snapshot!("full_digests", lines);
}

/// A finished chunk's storage, counted part by part: four 16 × 16 `i32` heightmaps, a 4 × 4
/// biome grid, and blocks and light paletted per 16³ section, so generated ground (stone
/// below, air above) costs a fraction of the dense arrays (a `u16` per block id, half a byte
/// per light value in each of two arrays).
#[test]
fn storage_bytes_count_every_part() {
    let dims = Dims {
        min_y: -64,
        height: 384,
        sea_level: 63,
    };
    let chunks = full_region(11, &[ChunkPos::new(0, 0), ChunkPos::new(-3, 5)], 0);
    for (pos, d) in &chunks {
        let f = d.full().unwrap();
        let b = f.storage_bytes();
        let (dense_blocks, dense_light) = (dims.volume() * 2, 2 * dims.volume().div_ceil(2));
        assert_eq!(b.blocks, f.blocks().heap_bytes(), "{pos:?}");
        assert!(
            b.blocks > 0 && b.blocks * 4 < dense_blocks,
            "{pos:?}: {b:?}"
        );
        assert!(b.light > 0 && b.light * 8 < dense_light, "{pos:?}: {b:?}");
        assert_eq!(b.heightmaps, 4 * 256 * 4, "{pos:?}");
        assert_eq!(b.biomes, 16, "{pos:?}");
        assert!(
            b.other >= f.spawns.len() + f.structures.len() + f.block_entities().len(),
            "{pos:?}"
        );
        assert_eq!(
            b.total(),
            b.blocks + b.light + b.heightmaps + b.biomes + b.other
        );
    }
}

#[test]
fn a_scratch_shared_by_two_worlds_changes_no_output() {
    // One thread's working memory serves tasks of two worlds in turn: caverns (a ceiling near
    // the top, glowstone, so block light) at 384 blocks, and the default world at 256. Every
    // output equals the same task run with fresh working memory.
    use stratagen_core::engine::{Priority, Scheduler};
    use stratagen_core::world::{status_digest, World, WorldGen, WorldScratch};
    let world = |preset: &str, height: u32| {
        let def = Arc::new(stratagen_worldfile::load(preset).unwrap());
        let settings = WorldSettings {
            seed: 7,
            height,
            ..WorldSettings::default()
        };
        let mut s = Scheduler::new(Arc::new(World::new(
            WorldGen::with_definition(settings, def).unwrap(),
        )));
        for z in -1..=1 {
            for x in -1..=1 {
                s.request(ChunkPos::new(x, z), ChunkStatus::Full, Priority::Soon)
                    .unwrap();
            }
        }
        s
    };
    let mut worlds = [world("caverns", 384), world("default", 256)];
    let mut scratch = WorldScratch::default();
    let mut compared = [0usize; ChunkStatus::COUNT];
    loop {
        let mut ran = false;
        for s in worlds.iter_mut() {
            for t in s.take_tasks(1) {
                let shared = t.run_in(&mut scratch).unwrap();
                let fresh = t.run().unwrap();
                assert_eq!(
                    status_digest(&shared),
                    status_digest(&fresh),
                    "{:?} at {:?}",
                    t.status(),
                    t.pos()
                );
                compared[t.status().index()] += 1;
                s.finish(t, Ok(shared)).unwrap();
                ran = true;
            }
        }
        if !ran {
            break;
        }
    }
    // Both worlds reached full everywhere requested, through every status.
    assert!(compared.iter().all(|&n| n >= 18), "{compared:?}");
}

/// Under `Retention::FullChunks` a finished chunk whose eight neighbours are past light drops
/// its terrain and feature outputs: the memory is freed (nothing else holds them: the full
/// chunk shares only the merged blocks and light, which stay readable), its full chunk is
/// the same bytes as under the default retention, and a record of it is refused with the
/// reason. Chunks on the edge of the request keep everything and can be saved.
#[test]
fn full_chunk_retention_frees_terrain_and_features_inside() {
    use stratagen_core::engine::{Priority, Retention, Scheduler};
    use stratagen_core::world::{World, WorldGen};
    use stratagen_store::record::{save_chunk, RecordError};
    let generator = WorldGen::new(WorldSettings::default()).unwrap();
    let area = square((0, 0), 2);
    let centre = ChunkPos::new(0, 0);
    let run = |retention| {
        let mut s = Scheduler::new(Arc::new(World::new(generator.clone())));
        s.set_retention(retention);
        for p in &area {
            s.request(*p, ChunkStatus::Full, Priority::Soon).unwrap();
        }
        // Weak references to the centre's terrain and feature outputs, taken as they appear.
        let mut dropped = Vec::new();
        while s.run_inline(1) == 1 {
            let next = [ChunkStatus::Terrain, ChunkStatus::Features].get(dropped.len());
            if let Some(o) = next.and_then(|st| s.output(centre, *st)) {
                dropped.push(Arc::downgrade(&o));
            }
        }
        (s, dropped)
    };
    let (all, _) = run(Retention::AllStatuses);
    let (compact, dropped) = run(Retention::FullChunks);
    assert_eq!(dropped.len(), 2);
    assert!(
        dropped.iter().all(|w| w.upgrade().is_none()),
        "terrain and features freed"
    );
    for p in &area {
        let full = |s: &Scheduler<World>| {
            stratagen_core::world::chunk_digest(&s.output(*p, ChunkStatus::Full).unwrap())
        };
        assert_eq!(full(&compact), full(&all), "{p:?}");
        let inside = p.x.abs() <= 1 && p.z.abs() <= 1;
        assert_eq!(compact.is_compact(*p), inside, "{p:?}");
        assert!(!all.is_compact(*p));
        for st in [ChunkStatus::Terrain, ChunkStatus::Features] {
            assert_eq!(compact.output(*p, st).is_none(), inside, "{p:?} {st:?}");
        }
        for st in [
            ChunkStatus::Biomes,
            ChunkStatus::InitializeLight,
            ChunkStatus::Light,
        ] {
            assert!(compact.output(*p, st).is_some(), "{p:?} {st:?}");
        }
        match save_chunk(&compact, *p) {
            Err(e @ RecordError::Compact { .. }) if inside => {
                assert!(e.to_string().contains("keeps only its full output"), "{e}");
            }
            Ok(_) if !inside => {}
            other => panic!("{p:?}: {:?}", other.map(|r| r.len())),
        }
    }
}
