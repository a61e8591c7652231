//! Evidence for biomes and terrain: seams across chunk borders, biome statistics, block
//! invariants, a rendered map, and golden digests (regression guards paired with these).
use std::collections::BTreeMap;
use stratagen_cli::{generate, rect, render, square, Layer};
use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::util::digest::Digest;
use stratagen_core::world::biome::{self, ClimateSampler, BUILTIN_COUNT as BIOME_COUNT};
use stratagen_core::world::block;
use stratagen_core::world::{Definition, WorldGen, WorldSettings};

fn region_terrain(
    seed: i64,
    x0: i32,
    z0: i32,
    n: i32,
) -> (
    WorldGen,
    BTreeMap<ChunkPos, std::sync::Arc<stratagen_core::world::ChunkData>>,
) {
    let pos = rect(x0, z0, x0 + n - 1, z0 + n - 1);
    let r = generate(
        WorldSettings {
            seed,
            ..WorldSettings::default()
        },
        &pos,
        ChunkStatus::Terrain,
        2,
        |_, _| {},
    )
    .unwrap();
    (r.generator, r.chunks)
}

/// Per global column: (surface height, cave volume = non-solid blocks below the top solid).
fn columns(
    generator: &WorldGen,
    chunks: &BTreeMap<ChunkPos, std::sync::Arc<stratagen_core::world::ChunkData>>,
) -> BTreeMap<(i32, i32), (i32, i32)> {
    let d = generator.dims();
    let palette = &generator.definition().blocks;
    let mut out = BTreeMap::new();
    for (p, c) in chunks {
        let t = c.terrain().unwrap();
        for z in 0..16 {
            for x in 0..16 {
                let top = t.ocean_floor[z * 16 + x];
                let mut cave = 0;
                for y in d.min_y..top - 1 {
                    cave += !palette.props(t.blocks[d.index(x, y, z)]).solid as i32;
                }
                out.insert(
                    (p.block_x() + x as i32, p.block_z() + z as i32),
                    (t.world_surface[z * 16 + x], cave),
                );
            }
        }
    }
    out
}

#[test]
fn surface_and_caves_are_continuous_across_borders() {
    for (seed, x0, z0) in [(0i64, -2, -2), (7, 40, -13), (123, -300, 250)] {
        let (generator, chunks) = region_terrain(seed, x0, z0, 4);
        let cols = columns(&generator, &chunks);
        let mut inside = (0, 0);
        let mut border = (0, 0);
        for (&(x, z), &(h, c)) in &cols {
            for (nx, nz) in [(x + 1, z), (x, z + 1)] {
                if let Some(&(h2, c2)) = cols.get(&(nx, nz)) {
                    let crosses = nx.div_euclid(16) != x.div_euclid(16)
                        || nz.div_euclid(16) != z.div_euclid(16);
                    let slot = if crosses { &mut border } else { &mut inside };
                    slot.0 = slot.0.max((h - h2).abs());
                    slot.1 = slot.1.max((c - c2).abs());
                }
            }
        }
        println!(
            "seed {seed}: surface jump inside {} border {}; cave jump inside {} border {}",
            inside.0, border.0, inside.1, border.1
        );
        assert!(
            border.0 <= inside.0,
            "seed {seed}: surface seam {} > {}",
            border.0,
            inside.0
        );
        assert!(
            border.1 <= inside.1,
            "seed {seed}: cave seam {} > {}",
            border.1,
            inside.1
        );
    }
}

#[test]
fn biome_statistics_over_256_by_256_chunks() {
    for seed in [0i64, 1] {
        let world = Definition::builtin();
        let c = ClimateSampler::new(seed, &world.climate).unwrap();
        let mut counts = [0u64; BIOME_COUNT];
        // Four cells per chunk (every 8 blocks) over 256 × 256 chunks centred on the origin.
        for j in 0..512 {
            for i in 0..512 {
                counts[c.biome_at((i - 256) * 8, (j - 256) * 8) as usize] += 1;
            }
        }
        let total: u64 = counts.iter().sum();
        let ocean = counts[biome::OCEAN as usize] + counts[biome::DEEP_OCEAN as usize];
        let land = total - ocean;
        let share = ocean as f64 / total as f64;
        print!(
            "seed {seed}: ocean {:.1}% of area; land shares:",
            100.0 * share
        );
        for (i, &k) in counts.iter().enumerate() {
            let b = &world.biomes[i];
            assert!(k > 0, "seed {seed}: {} never occurs", b.name);
            if i as u8 != biome::OCEAN && i as u8 != biome::DEEP_OCEAN {
                let s = k as f64 / land as f64;
                print!(" {} {:.1}%", b.name, 100.0 * s);
                assert!(
                    s <= 0.40,
                    "seed {seed}: {} covers {:.1}% of land",
                    b.name,
                    100.0 * s
                );
            }
        }
        println!();
        assert!(
            (0.20..=0.60).contains(&share),
            "seed {seed}: ocean share {share}"
        );
    }
}

#[test]
fn block_invariants_hold() {
    let (generator, chunks) = region_terrain(99, -1, -1, 3);
    let d = generator.dims();
    let palette = &generator.definition().blocks;
    for (p, c) in &chunks {
        let t = c.terrain().unwrap();
        assert_eq!(t.blocks.len(), d.volume());
        for &b in &t.blocks.to_vec() {
            assert!(palette.get(b).is_some(), "unknown block id {b}");
        }
        for z in 0..16 {
            for x in 0..16 {
                // Bedrock floor: the bottom layer is all bedrock, nothing is air at or below it.
                assert_eq!(t.blocks[d.index(x, d.min_y, z)], block::BEDROCK, "{p:?}");
                // No air below water anywhere in the column.
                let mut water_above = false;
                for y in (d.min_y..=d.max_y()).rev() {
                    let b = t.blocks[d.index(x, y, z)];
                    if b == block::WATER {
                        water_above = true;
                    } else if b == block::AIR {
                        assert!(!water_above, "{p:?} ({x},{y},{z}): air below water");
                    }
                }
                // Heightmaps agree with the blocks.
                let ws = t.world_surface[z * 16 + x];
                assert!(ws > d.min_y && ws <= d.max_y() + 1);
                assert_ne!(t.blocks[d.index(x, ws - 1, z)], block::AIR);
                for y in ws..=d.max_y() {
                    assert_eq!(t.blocks[d.index(x, y, z)], block::AIR);
                }
                let of = t.ocean_floor[z * 16 + x];
                assert!(palette.props(t.blocks[d.index(x, of - 1, z)]).solid);
                assert!(of <= ws);
            }
        }
    }
}

/// Away from surface structures (no beard), the scheduled terrain equals the body called
/// directly.
#[test]
fn terrain_through_the_scheduler_equals_the_body_called_directly() {
    let (generator, chunks) = region_terrain(5, 3, -4, 2);
    let dims = generator.dims();
    for (p, c) in &chunks {
        let mut starts = Vec::new();
        for dz in -8..=8 {
            for dx in -8..=8 {
                starts.extend(stratagen_core::world::structure::starts(
                    5,
                    &dims,
                    generator.definition(),
                    generator.climate(),
                    p.offset(dx, dz),
                ));
            }
        }
        let refs = stratagen_core::world::structure::references(*p, starts.iter());
        assert!(
            refs.iter()
                .all(|r| r.kind != stratagen_core::world::structure::StructureKind::Watchtower),
            "pick chunks away from watchtowers"
        );
        let direct = generator.terrain(*p, &generator.biomes(*p));
        assert_eq!(c.terrain().unwrap(), &direct);
    }
}

/// A square of radius 16 is 33 × 33 chunks; its shaded map is one pixel per block column.
#[test]
fn rendered_map_of_33_by_33_chunks() {
    let r = generate(
        WorldSettings {
            seed: 0,
            ..WorldSettings::default()
        },
        &square((0, 0), 16)[..],
        ChunkStatus::Terrain,
        2,
        |_, _| {},
    )
    .unwrap();
    let img = render(&r, Layer::Shaded);
    assert_eq!((img.width, img.height), (33 * 16, 33 * 16));
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/test-scratch");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("terrain_map.png");
    stratagen_cli::write_atomic(
        &path,
        &stratagen_cli::encode_png(img.width, img.height, 3, false, &img.rgb).unwrap(),
    )
    .unwrap();
    let dec = png::Decoder::new(std::fs::File::open(&path).unwrap());
    let reader = dec.read_info().unwrap();
    assert_eq!(
        (reader.info().width, reader.info().height),
        (33 * 16, 33 * 16)
    );
    // Both land and water appear.
    let blue = img
        .rgb
        .chunks(3)
        .filter(|c| c[2] as i32 > c[0] as i32 + 60)
        .count();
    assert!(blue > 0 && blue < img.width * img.height);
}

/// Golden digests of `biomes` and `terrain` outputs (regression guards; the properties above
/// say why the outputs are right).
#[test]
fn golden_biome_and_terrain_digests() {
    let mut lines = String::new();
    for (seed, cx, cz) in [(0i64, 0, 0), (0, -1, -1), (42, 100, -37), (-9, -2000, 3000)] {
        let generator = WorldGen::new(WorldSettings {
            seed,
            ..WorldSettings::default()
        })
        .unwrap();
        let p = ChunkPos::new(cx, cz);
        let b = generator.biomes(p);
        let t = generator.terrain(p, &b);
        let mut hb = Digest::new();
        hb.write_bytes(&b);
        let mut ht = Digest::new();
        ht.write_u16_slice(&t.blocks.to_vec());
        for v in t.world_surface.iter().chain(t.ocean_floor.iter()) {
            ht.write_i32(*v);
        }
        lines.push_str(&format!(
            "seed {seed} chunk ({cx}, {cz}): biomes {:016x} terrain {:016x}\n",
            hb.finish(),
            ht.finish()
        ));
    }
    insta::assert_snapshot!("terrain_digests", lines);
}
