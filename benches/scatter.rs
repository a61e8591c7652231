//! Scatter: one layer's instances in one finished chunk at radius 4 blocks (the Poisson set
//! with its rules read from the chunk), against `fast_poisson` (Bridson's algorithm) filling
//! the same 16 × 16 area at the same radius with no seam guarantee, in the same run.
//!
//! Summary line: `scatter chunk_us=... fast_poisson_us=... ratio=... points=...`: medians
//! over 64 chunks of the best of 20 rounds each (the peer with the chunk's index as its seed).
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use fast_poisson::Poisson2D;
use stratagen_cli::{generate, rect};
use stratagen_core::engine::ChunkStatus;
use stratagen_core::world::scatter::{scatter_chunk, ScatterLayer};
use stratagen_core::world::{FullChunk, WorldSettings};

/// Radius in blocks.
const RADIUS: f64 = 4.0;

fn best_us(rounds: usize, mut f: impl FnMut() -> usize) -> (f64, usize) {
    let mut best = f64::MAX;
    let mut n = 0;
    for _ in 0..rounds {
        let t = Instant::now();
        n = black_box(f());
        best = best.min(t.elapsed().as_secs_f64() * 1e6);
    }
    (best, n)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn peer(seed: u64) -> usize {
    Poisson2D::new()
        .with_dimensions([16.0, 16.0], RADIUS)
        .with_seed(seed)
        .iter()
        .count()
}

fn main() {
    println!("cpu {}", stratagen_cli::cpu_model());
    let settings = WorldSettings::default();
    let region = generate(settings, &rect(0, 0, 7, 7), ChunkStatus::Full, 2, |_, _| {}).unwrap();
    let dims = region.generator.dims();
    let chunks: Vec<&FullChunk> = region.chunks.values().filter_map(|d| d.full()).collect();
    let layer = ScatterLayer::new("trees", RADIUS);
    let ours = |c: &FullChunk| scatter_chunk(settings.seed, &dims, &layer, c, |_| true).len();

    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    c.bench_function("scatter_chunk_radius_4", |b| {
        let mut k = 0;
        b.iter(|| {
            k += 1;
            ours(chunks[k % chunks.len()])
        })
    });
    c.bench_function("fast_poisson_16x16_radius_4", |b| {
        let mut k = 0u64;
        b.iter(|| {
            k += 1;
            peer(k)
        })
    });

    let (mut us, mut them, mut points) = (Vec::new(), Vec::new(), 0);
    for (k, chunk) in chunks.iter().enumerate() {
        let (t, n) = best_us(20, || ours(chunk));
        us.push(t);
        points += n;
        them.push(best_us(20, || peer(k as u64)).0);
    }
    let (a, b) = (median(us), median(them));
    println!(
        "scatter chunk_us={a:.2} fast_poisson_us={b:.2} ratio={:.2} points={:.1}",
        a / b,
        points as f64 / chunks.len() as f64
    );
}
