//! The whole ladder, cold, over a 32 × 32 chunk fill (every chunk requested at `full`), on one
//! thread and on two, in the same run. Summary line:
//! `ladder ms_per_chunk_1t=... ms_per_chunk_2t=... speedup=...` plus the per-status split.
use criterion::Criterion;
use std::time::Duration;
use stratagen_cli::{generate, square};
use stratagen_core::engine::ChunkStatus;
use stratagen_core::world::WorldDef;

fn fill(threads: usize) -> stratagen_cli::Region {
    // 32 × 32 chunks: the square of radius 16 minus its last row and column.
    let positions: Vec<_> = square((0, 0), 16)
        .into_iter()
        .filter(|p| p.x < 16 && p.z < 16)
        .collect();
    generate(
        WorldDef::default(),
        &positions,
        ChunkStatus::Full,
        threads,
        |_, _| {},
    )
    .unwrap()
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(20))
        .configure_from_args();
    c.bench_function("ladder_32x32_full_1_thread", |b| b.iter(|| fill(1)));
    c.bench_function("ladder_32x32_full_2_threads", |b| b.iter(|| fill(2)));
    // Summary: alternate 1 and 2 threads three times, keep the best of each.
    let (mut t1, mut t2) = (f64::MAX, f64::MAX);
    let mut split = [0.0; ChunkStatus::COUNT];
    for _ in 0..3 {
        let r = fill(1);
        if r.seconds < t1 {
            t1 = r.seconds;
            split = r.status_seconds;
        }
        t2 = t2.min(fill(2).seconds);
    }
    let n = 1024.0;
    let busy: f64 = split.iter().sum();
    print!("ladder split:");
    for s in ChunkStatus::ALL {
        print!(" {} {:.1}%", s.name(), 100.0 * split[s.index()] / busy);
    }
    println!();
    println!(
        "ladder ms_per_chunk_1t={:.3} ms_per_chunk_2t={:.3} speedup={:.2}",
        t1 * 1000.0 / n,
        t2 * 1000.0 / n,
        t1 / t2
    );
}
