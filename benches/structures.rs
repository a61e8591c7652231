//! `structure_starts` + `structure_references` amortised per chunk over a 32 × 32 fill, and
//! the terrain cost of chunks inside a watchtower's beard against chunks with no structure,
//! in the same run. Summary line: `structures starts_refs_ms_per_chunk=... terrain_inside_ms=...
//! terrain_outside_ms=... ratio=...`.
use criterion::{black_box, Criterion};
use std::time::{Duration, Instant};
use stratagen_core::engine::ChunkPos;
use stratagen_core::world::biome::ClimateSampler;
use stratagen_core::world::structure::{self, StructureKind, StructureStart};
use stratagen_core::world::terrain::{self, BeardBox};
use stratagen_core::world::{WorldGen, WorldSettings};

fn starts_and_refs(seed: i64, generator: &WorldGen, n: i32) -> usize {
    let climate: &ClimateSampler = generator.climate();
    let dims = generator.dims();
    // Starts for the fill plus the 8-chunk margin the references read.
    let mut starts: Vec<(ChunkPos, Vec<StructureStart>)> = Vec::new();
    for z in -8..n + 8 {
        for x in -8..n + 8 {
            let p = ChunkPos::new(x, z);
            starts.push((
                p,
                structure::starts(seed, &dims, generator.definition(), climate, p),
            ));
        }
    }
    let w = (n + 16) as usize;
    let mut refs = 0;
    for z in 0..n {
        for x in 0..n {
            let near = (0..17)
                .flat_map(|dz| (0..17).map(move |dx| (dx, dz)))
                .flat_map(|(dx, dz)| {
                    let i = (z as usize + dz) * w + x as usize + dx;
                    starts[i].1.iter()
                });
            refs += structure::references(ChunkPos::new(x, z), near).len();
        }
    }
    refs
}

fn main() {
    let seed = 2024;
    let generator = WorldGen::new(WorldSettings {
        seed,
        ..WorldSettings::default()
    })
    .unwrap();
    let mut c = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    c.bench_function("structure_starts_and_refs_32x32", |b| {
        b.iter(|| black_box(starts_and_refs(seed, &generator, 32)))
    });
    let t = Instant::now();
    let rounds = 3;
    for _ in 0..rounds {
        black_box(starts_and_refs(seed, &generator, 32));
    }
    let per_chunk = t.elapsed().as_secs_f64() * 1000.0 / (rounds as f64 * 1024.0);

    // A watchtower and the chunks under its beard, against the same number of plain chunks.
    let dims = generator.dims();
    let mut tower = None;
    'find: for z in -48..48 {
        for x in -48..48 {
            for s in structure::starts(
                seed,
                &dims,
                generator.definition(),
                generator.climate(),
                ChunkPos::new(x, z),
            ) {
                if s.kind == StructureKind::Watchtower && s.assembled.is_some() {
                    tower = Some(s);
                    break 'find;
                }
            }
        }
    }
    let tower = tower.expect("a watchtower near the origin");
    let bbox = tower.assembled.as_ref().unwrap().bbox;
    let mut inside: Vec<(ChunkPos, Vec<BeardBox>)> = Vec::new();
    for z in bbox.min[2].div_euclid(16)..=bbox.max[2].div_euclid(16) {
        for x in bbox.min[0].div_euclid(16)..=bbox.max[0].div_euclid(16) {
            let p = ChunkPos::new(x, z);
            let mut beard = Vec::new();
            structure::beard_boxes(&tower, p, &mut beard);
            if !beard.is_empty() {
                inside.push((p, beard));
            }
        }
    }
    let outside: Vec<ChunkPos> = (0..inside.len() as i32)
        .map(|i| ChunkPos::new(1000 + i, 1000))
        .collect();
    let time_terrain = |with: bool| {
        let mut best = f64::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            if with {
                for (p, beard) in &inside {
                    let b = generator.biomes(*p);
                    let mut inp = generator.terrain_input(&b);
                    inp.beard = beard;
                    black_box(terrain::generate(&inp, *p));
                }
            } else {
                for p in &outside {
                    black_box(generator.terrain(*p, &generator.biomes(*p)));
                }
            }
            best = best.min(t.elapsed().as_secs_f64() * 1000.0 / inside.len() as f64);
        }
        best
    };
    let (tin, tout) = (time_terrain(true), time_terrain(false));
    println!(
        "structures starts_refs_ms_per_chunk={:.4} terrain_inside_ms={:.3} terrain_outside_ms={:.3} ratio={:.2} ({} chunks under the beard)",
        per_chunk,
        tin,
        tout,
        tin / tout,
        inside.len()
    );
}
