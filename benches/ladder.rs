//! The whole ladder, cold, over a 32 × 32 chunk fill (every chunk requested at `full`), inline,
//! on one thread and on two, in the same run, through the driver `stratagen bench` uses.
//! Summary line: `ladder ms_per_chunk_inline=... ms_per_chunk_1t=... ms_per_chunk_2t=...
//! 1t_vs_inline=... speedup_vs_inline=...` plus the per-status split of the inline run.
use criterion::Criterion;
use std::time::Duration;
use stratagen_cli::{generate, square};
use stratagen_core::engine::ChunkStatus;
use stratagen_core::world::WorldSettings;

fn fill(threads: usize) -> stratagen_cli::Region {
    // 32 × 32 chunks: the square of radius 16 minus its last row and column.
    let positions: Vec<_> = square((0, 0), 16)
        .into_iter()
        .filter(|p| p.x < 16 && p.z < 16)
        .collect();
    generate(
        WorldSettings::default(),
        &positions,
        ChunkStatus::Full,
        threads,
        |_, _| {},
    )
    .unwrap()
}

fn main() {
    stratagen_cli::allocator::keep_freed_memory();
    println!("cpu {}", stratagen_cli::cpu_model());
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(20))
        .configure_from_args();
    c.bench_function("ladder_32x32_full_inline", |b| b.iter(|| fill(0)));
    c.bench_function("ladder_32x32_full_1_thread", |b| b.iter(|| fill(1)));
    c.bench_function("ladder_32x32_full_2_threads", |b| b.iter(|| fill(2)));
    // Summary: the driver of `stratagen bench` (inline, then 1 and 2 threads: the owner plus
    // helpers), interleaved three times, the best of each kept.
    let configs = [0usize, 1, 2];
    let mut best = [f64::MAX; 3];
    let mut split = [0.0; ChunkStatus::COUNT];
    for _ in 0..3 {
        for (k, &threads) in configs.iter().enumerate() {
            let r = fill(threads);
            if r.seconds < best[k] {
                best[k] = r.seconds;
                if threads == 0 {
                    split = r.status_seconds;
                }
            }
        }
    }
    let n = 1024.0;
    let busy: f64 = split.iter().sum();
    print!("ladder split (inline):");
    for s in ChunkStatus::ALL {
        print!(" {} {:.1}%", s.name(), 100.0 * split[s.index()] / busy);
    }
    println!();
    println!(
        "ladder ms_per_chunk_inline={:.3} ms_per_chunk_1t={:.3} ms_per_chunk_2t={:.3} 1t_vs_inline={:.3} speedup_vs_inline={:.2}",
        best[0] * 1000.0 / n,
        best[1] * 1000.0 / n,
        best[2] * 1000.0 / n,
        best[0] / best[1],
        best[0] / best[2]
    );
}
