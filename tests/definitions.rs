//! World definitions change the world the way they say (paired with the preset lines of the
//! parity corpus): a new block and an ore limited to one biome land only there; archipelago
//! is mostly sea; caverns hold lava lakes and glowstone under a closed ceiling.

use std::sync::Arc;

use stratagen_cli::{generate_world, rect, Region};
use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::world::{Definition, WorldGen, WorldSettings};

fn region(world: Definition, seed: i64, r: (i32, i32, i32, i32)) -> Region {
    let generator = WorldGen::with_definition(
        WorldSettings {
            seed,
            ..WorldSettings::default()
        },
        Arc::new(world),
    )
    .unwrap();
    generate_world(
        generator,
        &rect(r.0, r.1, r.2, r.3),
        ChunkStatus::Full,
        2,
        |_, _| {},
    )
    .unwrap()
}

fn count(r: &Region, p: ChunkPos, block: u16) -> usize {
    let f = r.chunks[&p].full().unwrap();
    f.blocks().to_vec().iter().filter(|&&b| b == block).count()
}

#[test]
fn an_ore_limited_to_a_biome_lands_only_there() {
    let doc = "format = 1\nname = \"rubies\"\nbase = \"default\"\n\
        [[blocks]]\nname = \"ruby_ore\"\ncolour = [200, 20, 40]\n\
        [[features]]\nname = \"rubies\"\nkind = \"ore\"\nstep = 2\nblock = \"ruby_ore\"\n\
        attempts = 40\nmin_y = 0\nmax_y = 60\nmin_radius = 1.0\nmax_radius = 2.0\n\
        replaces = [\"stone\", \"sand\", \"sandstone\"]\nbiomes = [\"desert\"]\n";
    let world = stratagen_worldfile::parse(doc).unwrap();
    let ruby = world.blocks.by_name("ruby_ore").unwrap();
    assert_eq!(ruby, 46, "a new block is appended");
    let desert = world.biome_by_name("desert").unwrap();
    // Seed 0: chunk (21, -38) is desert (a corpus chunk), (0, 0) and around it are not.
    let r = region(world, 0, (20, -39, 22, -37));
    let here = ChunkPos::new(21, -38);
    assert!(r.chunks[&here]
        .full()
        .unwrap()
        .biomes
        .iter()
        .all(|&b| b == desert));
    assert!(count(&r, here, ruby) > 0);
    let world = stratagen_worldfile::parse(doc).unwrap();
    let r = region(world, 0, (-1, -1, 1, 1));
    let f = r.chunks[&ChunkPos::new(0, 0)].full().unwrap();
    assert!(f.biomes.iter().all(|&b| b != desert));
    assert_eq!(count(&r, ChunkPos::new(0, 0), ruby), 0);
}

#[test]
fn archipelago_is_mostly_sea_and_caverns_are_closed_with_lava_and_light() {
    let arch = stratagen_worldfile::load("archipelago").unwrap();
    let water = arch.terrain.sea_fluid;
    let r = region(arch, 0, (-6, -6, 5, 5));
    let (mut sea, mut all) = (0, 0);
    for d in r.chunks.values() {
        let f = d.full().unwrap();
        let dims = r.generator.dims();
        for col in 0..256 {
            let top = f.heightmaps()[stratagen_core::world::Heightmap::WorldSurface][col] - 1;
            all += 1;
            sea += usize::from(f.blocks()[dims.index(col % 16, top, col / 16)] == water);
        }
    }
    assert!(sea * 100 / all >= 60, "sea covers {}%", sea * 100 / all);

    let caverns = stratagen_worldfile::load("caverns").unwrap();
    let (lava, glow, air) = (
        caverns.blocks.by_name("lava").unwrap(),
        caverns.blocks.by_name("glowstone").unwrap(),
        0,
    );
    let r = region(caverns, 0, (-2, -2, 2, 2));
    let dims = r.generator.dims();
    let (mut lava_n, mut glow_n, mut caves) = (0, 0, 0);
    for d in r.chunks.values() {
        let f = d.full().unwrap();
        lava_n += f.blocks().to_vec().iter().filter(|&&b| b == lava).count();
        glow_n += f.blocks().to_vec().iter().filter(|&&b| b == glow).count();
        for col in 0..256 {
            // The ceiling: the top block of every column is bedrock, 230..236 above sea.
            let top = f.heightmaps()[stratagen_core::world::Heightmap::WorldSurface][col] - 1;
            assert!(top >= dims.sea_level + 225, "column {col}: top {top}");
            let below = (dims.min_y + 20..top - 80)
                .filter(|&y| f.blocks()[dims.index(col % 16, y, col / 16)] == air)
                .count();
            caves += below;
        }
    }
    assert!(
        lava_n > 1000 && glow_n > 50 && caves > 100_000,
        "{lava_n} {glow_n} {caves}"
    );
}

/// A world whose terrain noises are `f32` is its own world: it generates, the same on 1 and 2
/// threads, and differs from the built-in world.
#[test]
fn a_world_of_f32_noises_generates_deterministically() {
    use stratagen_core::noise::Precision;
    let mut d = Definition::builtin();
    for n in d.climate.noises.iter_mut() {
        n.precision = Precision::F32;
    }
    let single = |threads| {
        let generator = WorldGen::with_definition(
            WorldSettings {
                seed: 5,
                ..WorldSettings::default()
            },
            Arc::new(d.clone()),
        )
        .unwrap();
        generate_world(
            generator,
            &rect(-1, -1, 1, 1),
            ChunkStatus::Full,
            threads,
            |_, _| {},
        )
        .unwrap()
        .digests()
    };
    let a = single(1);
    assert_eq!(a, single(2));
    let builtin = region(Definition::builtin(), 5, (-1, -1, 1, 1)).digests();
    assert_ne!(a, builtin);
}
