//! `stratagen`: render world maps and noise images, print digests, benchmark.
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;
use stratagen::{encode_png, generate, render, square, write_atomic, Layer};
use stratagen_core::ladder::ChunkStatus;
use stratagen_core::world::WorldDef;

#[derive(Parser)]
#[command(
    name = "stratagen",
    version,
    about = "Deterministic procedural worlds: maps, noise images, digests, benchmarks"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Clone, Copy, ValueEnum)]
enum LayerArg {
    Biomes,
    Height,
    Shaded,
    Structures,
    Light,
}

#[derive(Subcommand)]
enum Cmd {
    /// Generate a square of chunks and write a PNG map; prints the region digest and speed.
    Render {
        /// World seed.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        seed: i64,
        /// Centre chunk as X,Z.
        #[arg(long, default_value = "0,0", value_parser = parse_pair, allow_hyphen_values = true)]
        center: (i32, i32),
        /// Radius in chunks (the map is 2R+1 chunks wide), 0..=256.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=256))]
        radius: u32,
        /// Output PNG.
        #[arg(long, default_value = "map.png")]
        out: PathBuf,
        /// What to draw.
        #[arg(long, value_enum, default_value = "shaded")]
        layer: LayerArg,
        /// Worker threads (0: run inline on the main thread). Default: available cores.
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Cold fill of a square of chunks to full: chunks per second, per-status split, peak
    /// memory. The last line is machine-readable.
    Bench {
        /// World seed.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        seed: i64,
        /// Radius in chunks of the requested square (default 8: 17 x 17 chunks), 0..=64.
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=64))]
        radius: u32,
        /// Worker threads (0: inline). Default: available cores.
        #[arg(long)]
        threads: Option<usize>,
    },
}

fn parse_pair(s: &str) -> Result<(i32, i32), String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("expected X,Z, got {s:?}"))?;
    let p = |t: &str| t.trim().parse::<i32>().map_err(|e| format!("{t:?}: {e}"));
    Ok((p(a)?, p(b)?))
}

fn threads_or_default(t: Option<usize>) -> usize {
    t.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.cmd {
        Cmd::Render {
            seed,
            center,
            radius,
            out,
            layer,
            threads,
        } => {
            let threads = threads_or_default(threads);
            if threads > 256 {
                return Err(format!("--threads {threads}: at most 256"));
            }
            let positions = square(center, radius as i32);
            let total = positions.len();
            let mut last = std::time::Instant::now();
            let region = generate(
                WorldDef {
                    seed,
                    ..WorldDef::default()
                },
                &positions,
                ChunkStatus::Full,
                threads,
                |n, _| {
                    if last.elapsed().as_secs_f64() > 0.5 {
                        eprint!("\rgenerating: {n} tasks done");
                        last = std::time::Instant::now();
                    }
                },
            )?;
            eprint!("\r");
            let layer = match layer {
                LayerArg::Biomes => Layer::Biomes,
                LayerArg::Height => Layer::Height,
                LayerArg::Shaded => Layer::Shaded,
                LayerArg::Structures => Layer::Structures,
                LayerArg::Light => Layer::Light,
            };
            let img = render(&region, layer);
            write_atomic(
                &out,
                &encode_png(img.width, img.height, 3, false, &img.rgb)?,
            )?;
            println!(
                "wrote {} ({}x{} px, {} chunks)",
                out.display(),
                img.width,
                img.height,
                total
            );
            println!("region digest {:016x}", region.digest());
            println!(
                "generated {} chunks ({} tasks) in {:.2} s on {} threads: {:.1} chunks/s, {:.2} ms per requested chunk",
                total,
                region.tasks,
                region.seconds,
                threads,
                total as f64 / region.seconds,
                region.seconds * 1000.0 / total as f64
            );
            Ok(())
        }
        Cmd::Bench {
            seed,
            radius,
            threads,
        } => {
            let threads = threads_or_default(threads);
            if threads > 256 {
                return Err(format!("--threads {threads}: at most 256"));
            }
            bench(seed, radius, threads)
        }
    }
}

fn bench(seed: i64, radius: u32, threads: usize) -> Result<(), String> {
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
    println!(
        "bench threads={} chunks={} ms_per_chunk={:.3} chunks_per_s={:.1} peak_rss_mib={:.1}",
        threads,
        positions.len(),
        region.seconds * 1000.0 / n,
        n / region.seconds,
        stratagen::peak_rss_mib()
    );
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("stratagen: error: {e}");
            ExitCode::FAILURE
        }
    }
}
