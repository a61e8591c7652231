//! `stratagen pregen`: generate a rectangle of chunks into a SQLite chunk store, resuming
//! where an earlier (or killed) run stopped; with `--shard I/N`, only shard I of the region's
//! tiles (`stratagen merge` joins the shards' stores).

use std::ops::ControlFlow;
use std::path::PathBuf;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use stratagen_core::engine::ChunkRect;
use stratagen_core::world::WorldSettings;

use stratagen_host::shard::{pregen_shard, ShardPlan, DEFAULT_TILE};

use crate::args::{parse_rect, region_chunks, threads_or_default};
use crate::error::{usage, CliError};
use crate::pregen::pregen;
use crate::worlds::WorldArg;

/// Most chunks one `pregen` call covers (about 1.3 GiB of store at 20 KiB a chunk).
const MAX_REGION_CHUNKS: u64 = 1 << 16;

/// Arguments of `stratagen pregen`.
#[derive(Args)]
pub struct PregenArgs {
    /// World seed.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub seed: i64,
    /// World definition.
    #[command(flatten)]
    pub world: WorldArg,
    /// Inclusive chunk rectangle X0,Z0,X1,Z1 (at most 65536 chunks).
    #[arg(long, value_parser = parse_rect, allow_hyphen_values = true)]
    pub region: ChunkRect,
    /// The SQLite store to write (created if missing; another world's store is refused).
    #[arg(long)]
    pub out: PathBuf,
    /// Threads that run bodies (0: inline). Default: available cores.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Generate only shard I of N (0 <= I < N): the region is cut into tiles (row-major), and
    /// shard I takes every N-th tile from tile I. The region may then hold any number of
    /// chunks; the shard at most 65536.
    #[arg(long, value_parser = parse_shard, value_name = "I/N")]
    pub shard: Option<(usize, usize)>,
    /// Tile side in chunks, with --shard.
    #[arg(long, default_value_t = DEFAULT_TILE, requires = "shard")]
    pub tile: i32,
}

/// Parse `I/N`.
fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| format!("expected I/N, got {s:?}"))?;
    let p = |t: &str| t.trim().parse::<usize>().map_err(|e| format!("{t:?}: {e}"));
    let (i, n) = (p(i)?, p(n)?);
    if n == 0 || i >= n {
        return Err(format!("{s}: I must be below N"));
    }
    Ok((i, n))
}

/// Run `stratagen pregen`.
pub fn run(a: PregenArgs) -> Result<(), CliError> {
    let plan = match a.shard {
        Some(shard) => {
            let plan = ShardPlan::new(a.region, a.tile)?;
            let chunks: u64 = plan
                .shard(shard.0, shard.1)?
                .into_iter()
                .map(|t| t.count())
                .sum();
            if chunks > MAX_REGION_CHUNKS {
                return Err(usage(format!(
                    "--shard {}/{} covers {chunks} chunks; at most {MAX_REGION_CHUNKS}",
                    shard.0, shard.1
                )));
            }
            Some((plan, shard))
        }
        None => {
            region_chunks(a.region, MAX_REGION_CHUNKS)?;
            None
        }
    };
    let threads = threads_or_default(a.threads);
    if threads > 256 {
        return Err(usage(format!("--threads {threads}: at most 256")));
    }
    let def = WorldSettings {
        seed: a.seed,
        ..WorldSettings::default()
    };
    // Drawn on stderr only when it is a terminal.
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} chunks  {per_sec}  elapsed {elapsed}  eta {eta}",
        )
        .map_err(|e| usage(e.to_string()))?,
    );
    let show = |done: usize, total: usize| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        ControlFlow::Continue(())
    };
    let generator = a.world.generator(def)?;
    let report = match plan {
        Some((plan, shard)) => pregen_shard(&generator, &plan, shard, &a.out, threads, show)?,
        None => pregen(generator, a.region, &a.out, threads, show)?,
    };
    bar.finish_and_clear();
    println!(
        "pregen {}: {} chunks generated, {} already stored ({} loaded as neighbours)",
        a.out.display(),
        report.generated,
        report.skipped,
        report.loaded
    );
    if report.generated > 0 {
        let n = report.generated as f64;
        println!(
            "{} tasks in {:.2} s on {} threads: {:.1} chunks/s, {:.2} ms per chunk; records {:.1} KiB per chunk on average; peak holders {}",
            report.tasks,
            report.seconds,
            threads,
            n / report.seconds.max(1e-9),
            report.seconds * 1000.0 / n,
            report.record_bytes as f64 / n / 1024.0,
            report.peak_holders
        );
    }
    Ok(())
}
