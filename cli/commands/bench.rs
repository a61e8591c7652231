//! `stratagen bench`: a cold fill of a square of chunks to full, with the per-status split
//! and peak memory. The last line is machine-readable.

use clap::Args;
use stratagen_core::engine::ChunkStatus;
use stratagen_core::world::WorldDef;

use crate::args::threads_or_default;
use crate::error::{usage, CliError};
use crate::region::{generate, square};
use crate::rss::peak_rss_mib;

/// Arguments of `stratagen bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// World seed.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub seed: i64,
    /// Radius in chunks of the requested square (default 8: 17 x 17 chunks), 0..=64.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub radius: u32,
    /// Worker threads (0: inline). Default: available cores.
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Run `stratagen bench`.
pub fn run(a: BenchArgs) -> Result<(), CliError> {
    let threads = threads_or_default(a.threads);
    if threads > 256 {
        return Err(usage(format!("--threads {threads}: at most 256")));
    }
    report(a.seed, a.radius, threads)
}

fn report(seed: i64, radius: u32, threads: usize) -> Result<(), CliError> {
    let positions = square((0, 0), radius as i32);
    let region = generate(
        WorldDef {
            seed,
            ..WorldDef::default()
        },
        &positions,
        ChunkStatus::Full,
        threads,
        |_, _| {},
    )?;
    let n = positions.len() as f64;
    let busy: f64 = region.status_seconds.iter().sum();
    println!("status                 tasks   ms/task   share");
    for s in ChunkStatus::ALL {
        let i = s.index();
        let k = region.status_tasks[i].max(1) as f64;
        println!(
            "{:<20} {:>7} {:>9.3} {:>6.1}%",
            s.name(),
            region.status_tasks[i],
            region.status_seconds[i] * 1000.0 / k,
            100.0 * region.status_seconds[i] / busy.max(1e-12)
        );
    }
    println!("region digest {:016x}", region.digest());
    let rss = peak_rss_mib();
    println!(
        "scheduler and driver overhead {:.1}% of wall time (threads={}); peak resident holders {}, {:.2} MiB per holder",
        100.0 * (1.0 - busy / (region.seconds * threads.max(1) as f64)).max(0.0),
        threads,
        region.peak_holders,
        rss / region.peak_holders.max(1) as f64
    );
    println!(
        "bench threads={} chunks={} ms_per_chunk={:.3} chunks_per_s={:.1} peak_rss_mib={:.1}",
        threads,
        positions.len(),
        region.seconds * 1000.0 / n,
        n / region.seconds,
        peak_rss_mib()
    );
    Ok(())
}
