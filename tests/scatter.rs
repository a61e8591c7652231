//! Scatter evidence over a 16 × 16-chunk region: no two points of a layer closer than its
//! radius, chunk borders included; every disc of radius 2r inside the region holds a point
//! where the rules allow placement (the set is maximal); a chunk's instances do not depend on
//! the generation order or on whether its neighbours were generated; thinning by density
//! keeps the expected share of points in every biome.
use std::collections::BTreeMap;
use std::sync::Arc;

use stratagen_cli::{generate, rect};
use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::world::scatter::{scatter_chunk, Instance, PoissonDisk, ScatterLayer};
use stratagen_core::world::{ChunkData, WorldGen, WorldSettings};

const SEED: i64 = 7;
/// The region: chunks 0..16 on both axes.
const SIDE: i32 = 16;

fn settings() -> WorldSettings {
    WorldSettings {
        seed: SEED,
        ..WorldSettings::default()
    }
}

/// Points of `disk` in the region, chunk by chunk (what chunks ask for), in world blocks.
fn region_points(disk: &PoissonDisk) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for cz in 0..SIDE {
        for cx in 0..SIDE {
            let (x0, z0) = (cx * 16, cz * 16);
            for p in disk.points_in(x0, z0, x0 + 16, z0 + 16) {
                out.push((p.x, p.z));
            }
        }
    }
    out
}

/// Points bucketed by square cells of side `cell`, for neighbour queries.
fn buckets(points: &[(f64, f64)], cell: f64) -> BTreeMap<(i64, i64), Vec<(f64, f64)>> {
    let mut b: BTreeMap<(i64, i64), Vec<(f64, f64)>> = BTreeMap::new();
    for &(x, z) in points {
        b.entry(((x / cell).floor() as i64, (z / cell).floor() as i64))
            .or_default()
            .push((x, z));
    }
    b
}

/// Whether some point lies within `d` (strictly) of `(x, z)`.
fn any_within(
    b: &BTreeMap<(i64, i64), Vec<(f64, f64)>>,
    cell: f64,
    x: f64,
    z: f64,
    d: f64,
) -> bool {
    let reach = (d / cell).ceil() as i64;
    let (cx, cz) = ((x / cell).floor() as i64, (z / cell).floor() as i64);
    (cz - reach..=cz + reach).any(|nz| {
        (cx - reach..=cx + reach).any(|nx| {
            b.get(&(nx, nz)).is_some_and(|v| {
                v.iter()
                    .any(|&(px, pz)| (px - x) * (px - x) + (pz - z) * (pz - z) < d * d)
            })
        })
    })
}

#[test]
fn points_keep_their_distance_across_borders_and_leave_no_empty_disc() {
    for radius in [1.5, 4.0, 8.0, 13.0] {
        let disk = PoissonDisk::new(SEED, 99, radius);
        let points = region_points(&disk);
        let b = buckets(&points, radius);
        // Minimum distance: no other point closer than the radius (borders included: the
        // points come chunk by chunk).
        let mut closest = f64::INFINITY;
        for &(x, z) in &points {
            let (cx, cz) = ((x / radius).floor() as i64, (z / radius).floor() as i64);
            for nz in cz - 1..=cz + 1 {
                for nx in cx - 1..=cx + 1 {
                    for &(px, pz) in b.get(&(nx, nz)).into_iter().flatten() {
                        if (px, pz) != (x, z) {
                            closest = closest.min(((px - x).powi(2) + (pz - z).powi(2)).sqrt());
                        }
                    }
                }
            }
        }
        assert!(
            closest >= radius,
            "radius {radius}: two points {closest} apart"
        );
        // No point is asked for twice: chunk boxes tile the plane.
        let mut sorted: Vec<(u64, u64)> = points
            .iter()
            .map(|&(x, z)| (x.to_bits(), z.to_bits()))
            .collect();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), points.len());
        // Maximal: every disc of radius 2r whose centre lies at least 2r inside the region
        // holds a point (centres on a quarter-block grid).
        let extent = f64::from(SIDE * 16);
        let mut centres = 0;
        let mut z = 2.0 * radius;
        while z <= extent - 2.0 * radius {
            let mut x = 2.0 * radius;
            while x <= extent - 2.0 * radius {
                assert!(
                    any_within(&b, radius, x, z, 2.0 * radius),
                    "radius {radius}: the disc of radius 2r at ({x}, {z}) is empty"
                );
                centres += 1;
                x += 0.25;
            }
            z += 0.25;
        }
        assert!(centres > 1000);
        // Intensity within its bounds: discs of radius r/2 around the points do not overlap
        // (at most the hexagonal packing, 2/√3 ≈ 1.155 points per r²), and discs of radius
        // 2r around them cover the plane (at least 1/(4π) ≈ 0.080 points per r²).
        let per_r2 = points.len() as f64 * radius * radius / (extent * extent);
        assert!(
            (0.080..=1.155).contains(&per_r2),
            "radius {radius}: {per_r2} points per r²"
        );
    }
}

/// Instances of `layer` in every chunk of `chunks` (the region), by chunk.
/// Instances of `layer` in every chunk of `positions`, by chunk; every top block carries
/// one unless the layer names its blocks.
fn instances(
    g: &WorldGen,
    chunks: &BTreeMap<ChunkPos, Arc<ChunkData>>,
    layer: &ScatterLayer,
    positions: &[ChunkPos],
) -> BTreeMap<ChunkPos, Vec<Instance>> {
    positions
        .iter()
        .map(|p| {
            let full = chunks[p].full().expect("a full chunk");
            (*p, scatter_chunk(SEED, &g.dims(), layer, full, |_| true))
        })
        .collect()
}

fn bits(v: &[Instance]) -> Vec<[u32; 9]> {
    v.iter()
        .map(|i| {
            [
                u32::from(i.kind),
                i.position[0].to_bits(),
                i.position[1].to_bits(),
                i.position[2].to_bits(),
                i.yaw.to_bits(),
                i.scale.to_bits(),
                i.up[0].to_bits(),
                i.up[1].to_bits(),
                i.up[2].to_bits(),
            ]
        })
        .collect()
}

#[test]
fn instances_do_not_depend_on_generation_order_and_thin_by_density() {
    let region = rect(0, 0, SIDE - 1, SIDE - 1);
    let rows = generate(settings(), &region, ChunkStatus::Full, 2, |_, _| {}).unwrap();
    let mut shuffled_order = region.clone();
    // A fixed permutation: reversed, then every other chunk moved to the front.
    shuffled_order.reverse();
    let (even, odd): (Vec<_>, Vec<_>) = shuffled_order
        .iter()
        .enumerate()
        .partition(|(i, _)| i % 2 == 0);
    let shuffled_order: Vec<ChunkPos> = even.into_iter().chain(odd).map(|(_, p)| *p).collect();
    let shuffled = generate(settings(), &shuffled_order, ChunkStatus::Full, 1, |_, _| {}).unwrap();
    let g = &rows.generator;

    // Everywhere (every column has a top block that carries one): the instances are the
    // Poisson points themselves, and keep the distance.
    let mut everywhere = ScatterLayer::new("grass", 3.0);
    everywhere.kinds = vec![
        stratagen_core::world::scatter::ScatterKind {
            name: "tuft".into(),
            weight: 3,
        },
        stratagen_core::world::scatter::ScatterKind {
            name: "flower".into(),
            weight: 1,
        },
    ];
    everywhere.scale = (0.75, 1.25);
    everywhere.check().unwrap();
    let a = instances(g, &rows.chunks, &everywhere, &region);
    let b = instances(g, &shuffled.chunks, &everywhere, &region);
    for p in &region {
        assert_eq!(bits(&a[p]), bits(&b[p]), "{p:?}");
    }
    let disk = PoissonDisk::new(SEED, everywhere.salt(), everywhere.radius);
    let placed: usize = a.values().map(Vec::len).sum();
    assert_eq!(placed, region_points(&disk).len());
    let mut flowers = 0;
    for (p, v) in &a {
        for i in v {
            assert!((0.0..16.0).contains(&i.position[0]) && (0.0..16.0).contains(&i.position[2]));
            assert!((0.0..std::f32::consts::TAU).contains(&i.yaw));
            assert!((0.75..=1.25).contains(&i.scale));
            let full = rows.chunks[p].full().unwrap();
            let (lx, lz) = (i.position[0] as usize, i.position[2] as usize);
            let top = full.heightmaps()[stratagen_core::world::Heightmap::MotionBlockingNoLeaves]
                [lz * 16 + lx];
            assert_eq!(i.position[1], top as f32);
            flowers += usize::from(i.kind == 1);
        }
    }
    // Kinds by weight: a quarter flowers, within 5% of the expected count.
    let want = placed as f64 / 4.0;
    assert!(
        (flowers as f64 - want).abs() <= 0.05 * want,
        "{flowers} flowers of {placed}"
    );

    // A chunk generated alone (its neighbours only as far as its own statuses need) has the
    // same instances.
    let lone = ChunkPos::new(5, 9);
    let alone = generate(settings(), &[lone], ChunkStatus::Full, 1, |_, _| {}).unwrap();
    let c = instances(g, &alone.chunks, &everywhere, &[lone]);
    assert_eq!(bits(&c[&lone]), bits(&a[&lone]));

    // Density: half the points, per biome within 5% of half the full set's count there.
    // Kept or not is a fair coin per point, so a biome is checked where it has at least
    // 4000 points (5% is then more than 3 standard deviations); radius 1 gives ~33,000.
    let mut dense = everywhere.clone();
    dense.radius = 1.0;
    let mut half = dense.clone();
    half.density = 0.5;
    let a1 = instances(g, &rows.chunks, &dense, &region);
    let h = instances(g, &rows.chunks, &half, &region);
    let per_biome = |m: &BTreeMap<ChunkPos, Vec<Instance>>| {
        let mut n: BTreeMap<u8, usize> = BTreeMap::new();
        for (p, v) in m {
            let full = rows.chunks[p].full().unwrap();
            for i in v {
                let (lx, lz) = (i.position[0] as usize, i.position[2] as usize);
                *n.entry(full.biomes[(lz / 4) * 4 + lx / 4]).or_default() += 1;
            }
        }
        n
    };
    let (all, halved) = (per_biome(&a1), per_biome(&h));
    let mut checked = 0;
    for (biome, &n) in &all {
        if n < 4000 {
            continue;
        }
        checked += 1;
        let want = n as f64 * 0.5;
        let got = halved.get(biome).copied().unwrap_or(0) as f64;
        assert!(
            (got - want).abs() <= 0.05 * want,
            "biome {biome}: {got} kept of {n}"
        );
    }
    assert!(checked >= 2, "{all:?}");
    // Thinning only removes: every kept instance is one of the full set's.
    for p in &region {
        let full: Vec<[u32; 9]> = bits(&a1[p]);
        assert!(bits(&h[p])
            .iter()
            .all(|i| full.iter().any(|f| f[1..4] == i[1..4])));
    }

    // Rules: only on grass blocks, only in the commonest biome, only on flat ground; the
    // distance holds and every instance obeys them.
    let blocks = &g.definition().blocks;
    let grass = blocks.by_name("grass_block").unwrap();
    // The biome with the most points in the region.
    let common = *all.iter().max_by_key(|(_, n)| **n).unwrap().0;
    let mut trees = ScatterLayer::new("trees", 6.0);
    trees.on = vec![grass];
    trees.biomes = vec![common];
    trees.max_slope = 1;
    trees.align_to_normal = true;
    trees.check().unwrap();
    let t = instances(g, &rows.chunks, &trees, &region);
    let mut points = Vec::new();
    for (p, v) in &t {
        let full = rows.chunks[p].full().unwrap();
        for i in v {
            let (lx, lz) = (i.position[0] as usize, i.position[2] as usize);
            assert_eq!(full.biomes[(lz / 4) * 4 + lx / 4], common);
            let y = i.position[1] as i32;
            assert_eq!(full.blocks().value(g.dims().index(lx, y - 1, lz)), grass);
            let len = i.up.iter().map(|c| c * c).sum::<f32>().sqrt();
            assert!((len - 1.0).abs() < 1e-6 && i.up[1] > 0.0);
            points.push((
                f64::from(p.block_x()) + f64::from(i.position[0]),
                f64::from(p.block_z()) + f64::from(i.position[2]),
            ));
        }
    }
    assert!(points.len() > 50, "{} trees", points.len());
    let b = buckets(&points, 6.0);
    for &(x, z) in &points {
        // f32 positions: allow their rounding.
        let crowded = b.values().flatten().any(|&(px, pz)| {
            (px, pz) != (x, z) && (px - x).powi(2) + (pz - z).powi(2) < (6.0 - 1e-3f64).powi(2)
        });
        assert!(
            !crowded,
            "a tree at ({x}, {z}) has a neighbour closer than 6"
        );
    }
}

#[test]
fn bad_layers_are_refused() {
    let good = ScatterLayer::new("rocks", 4.0);
    assert_eq!(good.check(), Ok(()));
    let mut l = good.clone();
    l.radius = f64::NAN;
    assert!(l.check().is_err());
    l = good.clone();
    l.radius = 0.1;
    assert!(l.check().is_err());
    l = good.clone();
    l.density = 1.5;
    assert!(l.check().is_err());
    l = good.clone();
    l.kinds.clear();
    assert!(l.check().is_err());
    l = good.clone();
    l.kinds[0].weight = 0;
    assert!(l.check().is_err());
    l = good.clone();
    l.scale = (2.0, 1.0);
    assert!(l.check().is_err());
    l = good.clone();
    l.name = "Rocks".into();
    assert!(l.check().is_err());
    l = good;
    l.height = (10, 5);
    assert!(l.check().is_err());
}

#[test]
fn heightmap_instances_stand_on_the_heightmap_and_obey_its_slope() {
    use stratagen_core::noise::NoiseDef;
    use stratagen_core::world::scatter::scatter_heightmap;
    let noise = NoiseDef {
        seed: 3,
        octaves: 6,
        frequency: 1.0 / 64.0,
        ..NoiseDef::default()
    }
    .build()
    .unwrap();
    let height = |x: f64, z: f64| noise.sample_2d(x, z) as f32 * 48.0 + 64.0;
    // Everywhere: the Poisson points themselves, each at the height of its exact position.
    let mut layer = ScatterLayer::new("rocks", 3.0);
    layer.align_to_normal = true;
    let disk = PoissonDisk::new(SEED, layer.salt(), layer.radius);
    let mut placed = 0;
    for cz in 0..8 {
        for cx in 0..8 {
            let pos = ChunkPos::new(cx, cz);
            let v = scatter_heightmap(SEED, &layer, pos, height);
            let points = disk.points_in(cx * 16, cz * 16, cx * 16 + 16, cz * 16 + 16);
            assert_eq!(v.len(), points.len());
            for (i, p) in v.iter().zip(&points) {
                assert_eq!(i.position[1].to_bits(), height(p.x, p.z).to_bits());
                assert_eq!(i.position[0], (p.x - f64::from(cx * 16)) as f32);
                let up_len = i.up.iter().map(|c| c * c).sum::<f32>().sqrt();
                assert!((up_len - 1.0).abs() < 1e-6 && i.up[1] > 0.0);
            }
            placed += v.len();
        }
    }
    assert!(placed > 500, "{placed}");
    // Flat ground only, a height band: every kept instance obeys both, and some are refused.
    let mut flat = ScatterLayer::new("grass", 2.0);
    flat.max_slope = 1;
    flat.height = (50, 80);
    let (mut kept, mut all) = (0, 0);
    for cz in 0..8 {
        for cx in 0..8 {
            let pos = ChunkPos::new(cx, cz);
            for i in scatter_heightmap(SEED, &flat, pos, height) {
                let (x, z) = (
                    f64::from(cx * 16) + f64::from(i.position[0]),
                    f64::from(cz * 16) + f64::from(i.position[2]),
                );
                assert!((50.0..81.0).contains(&i.position[1]));
                let h = i.position[1];
                // Positions are f32-rounded: allow their effect on the slope.
                for (dx, dz) in [(-1.0, 0.0), (1.0, 0.0), (0.0, -1.0), (0.0, 1.0)] {
                    assert!((height(x + dx, z + dz) - h).abs() < 1.0 + 1e-3);
                }
                kept += 1;
            }
            all += scatter_heightmap(SEED, &ScatterLayer::new("grass", 2.0), pos, height).len();
        }
    }
    assert!(kept > 100 && kept < all, "{kept} of {all}");
}

#[test]
fn a_density_noise_thins_where_it_is_low() {
    use stratagen_core::noise::NoiseDef;
    use stratagen_core::world::scatter::scatter_heightmap;
    let flat = |_: f64, _: f64| 64.0f32;
    let def = NoiseDef {
        seed: 77,
        octaves: 2,
        frequency: 1.0 / 48.0,
        ..NoiseDef::default()
    };
    let mut layer = ScatterLayer::new("bushes", 2.0);
    layer.density_noise = Some(def);
    let field = NoiseDef {
        seed: def.seed ^ SEED,
        ..def
    }
    .build()
    .unwrap();
    let disk = PoissonDisk::new(SEED, layer.salt(), layer.radius);
    // Kept share of the points where the noise is high against where it is low.
    let (mut high, mut high_kept, mut low, mut low_kept) = (0, 0, 0, 0);
    for cz in 0..24 {
        for cx in 0..24 {
            let kept: Vec<[u32; 2]> = scatter_heightmap(SEED, &layer, ChunkPos::new(cx, cz), flat)
                .iter()
                .map(|i| [i.position[0].to_bits(), i.position[2].to_bits()])
                .collect();
            for p in disk.points_in(cx * 16, cz * 16, cx * 16 + 16, cz * 16 + 16) {
                let share = (field.sample_2d(p.x, p.z) + 1.0) * 0.5;
                let local = [
                    ((p.x - f64::from(cx * 16)) as f32).to_bits(),
                    ((p.z - f64::from(cz * 16)) as f32).to_bits(),
                ];
                let k = usize::from(kept.contains(&local));
                if share >= 0.7 {
                    high += 1;
                    high_kept += k;
                } else if share <= 0.3 {
                    low += 1;
                    low_kept += k;
                }
            }
        }
    }
    // Enough points that 0.05 is more than three standard deviations of either share.
    assert!(high > 800 && low > 800, "{high} {low}");
    let (h, l) = (high_kept as f64 / high as f64, low_kept as f64 / low as f64);
    // Kept with probability (n + 1) / 2: at least 0.7 where high, at most 0.3 where low.
    assert!(
        h >= 0.65 && l <= 0.35,
        "kept {h:.3} where high, {l:.3} where low"
    );
}

/// A layer limited to some biomes keeps exactly the instances the same layer without the
/// limit places on those biomes' cells, in chunks that have the biomes and in chunks that
/// have none of them.
#[test]
fn a_biome_limit_keeps_the_unlimited_instances_on_its_biomes() {
    let region = rect(0, 0, SIDE - 1, SIDE - 1);
    let rows = generate(settings(), &region, ChunkStatus::Full, 2, |_, _| {}).unwrap();
    let g = &rows.generator;
    let full = |p: &ChunkPos| rows.chunks[p].full().expect("a full chunk");
    // A biome some chunks have and others lack entirely.
    let has = |p: &ChunkPos, b| full(p).biomes.contains(&b);
    let biome = region
        .iter()
        .flat_map(|p| full(p).biomes)
        .find(|&b| region.iter().any(|p| !has(p, b)))
        .expect("a biome missing from some chunk");
    let without = region.iter().filter(|p| !has(p, biome)).count();
    assert!(without > 0 && without < region.len());

    let unlimited = ScatterLayer::new("grass", 2.0);
    let mut limited = unlimited.clone();
    limited.biomes = vec![biome];
    limited.check().unwrap();
    let all = instances(g, &rows.chunks, &unlimited, &region);
    let kept = instances(g, &rows.chunks, &limited, &region);
    let mut placed = 0;
    for p in &region {
        let on_biome: Vec<Instance> = all[p]
            .iter()
            .filter(|i| {
                let (lx, lz) = (i.position[0] as usize, i.position[2] as usize);
                full(p).biomes[(lz / 4) * 4 + lx / 4] == biome
            })
            .cloned()
            .collect();
        assert_eq!(bits(&kept[p]), bits(&on_biome), "chunk {p:?}");
        placed += kept[p].len();
    }
    assert!(placed > 100, "{placed} instances on biome {biome}");
}
