//! The `terrain` status alone (biomes precomputed), single thread, over a 16 × 16 chunk fill,
//! with the split by phase: shape (density + noise caves), resolve (fluids, surface rules,
//! bedrock), carvers, heightmaps. The summary line gives milliseconds per chunk.
use criterion::{black_box, Criterion};
use std::time::{Duration, Instant};
use stratagen_core::engine::ChunkPos;
use stratagen_core::world::terrain;
use stratagen_core::world::{WorldGen, WorldSettings};

fn main() {
    let generator = WorldGen::new(WorldSettings::default()).unwrap();
    let chunks: Vec<(ChunkPos, [u8; 16])> = (0..256)
        .map(|i| {
            let p = ChunkPos::new(i % 16 - 8, i / 16 - 8);
            (p, generator.biomes(p))
        })
        .collect();
    let mut c = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .configure_from_args();
    c.bench_function("terrain_16x16_chunks", |b| {
        b.iter(|| {
            for (p, bio) in &chunks {
                black_box(generator.terrain(*p, bio));
            }
        })
    });
    // Split: time each phase over the fill, three rounds, keep the fastest.
    let mut best = [f64::MAX; 4];
    for _ in 0..3 {
        let mut t = [0.0f64; 4];
        for (p, bio) in &chunks {
            let inp = generator.terrain_input(bio);
            let a = Instant::now();
            let sh = terrain::shape(&inp, *p);
            let b = Instant::now();
            let (mut blocks, aq) = terrain::resolve(&inp, *p, &sh);
            let c = Instant::now();
            terrain::carve(&inp, *p, &sh, &aq, &mut blocks);
            let d = Instant::now();
            black_box(terrain::heightmaps(
                &inp.dims,
                &inp.definition.blocks,
                blocks,
            ));
            let e = Instant::now();
            for (k, (x, y)) in [(a, b), (b, c), (c, d), (d, e)].iter().enumerate() {
                t[k] += (*y - *x).as_secs_f64();
            }
        }
        for k in 0..4 {
            best[k] = best[k].min(t[k] * 1000.0 / chunks.len() as f64);
        }
    }
    println!(
        "terrain ms_per_chunk={:.3} shape={:.3} resolve={:.3} carvers={:.3} heightmaps={:.3}",
        best.iter().sum::<f64>(),
        best[0],
        best[1],
        best[2],
        best[3]
    );
}
