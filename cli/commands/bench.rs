//! `stratagen bench`: cold fills of a square of chunks to full, inline and on every requested
//! thread count in the same run (the same chunks, interleaved rounds, best round kept), with
//! the speedup over inline, peak resident holders and memory per holder, the heap bytes of a
//! finished chunk's storage and of a resident chunk under each retention, and the per-status
//! split. The last line is machine-readable.

use clap::Args;
use std::ops::ControlFlow;
use std::sync::Arc;

use stratagen_core::engine::{ChunkPos, ChunkRect, ChunkStatus, Priority, Retention, Scheduler};
use stratagen_core::world::{World, WorldGen, WorldSettings};

use crate::error::{usage, CliError};
use crate::pregen::{pregen, PregenReport};
use crate::region::{generate_world, square, Region};
use crate::rss::{cpu_model, peak_rss_mib};
use crate::worlds::WorldArg;
use stratagen_store::sqlite::remove_store;

/// Arguments of `stratagen bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// World seed.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub seed: i64,
    /// World definition.
    #[command(flatten)]
    pub world: WorldArg,
    /// Radius in chunks of the requested square (default 8: 17 x 17 chunks), 0..=64.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub radius: u32,
    /// Thread counts to measure, comma-separated (threads that run bodies: the owner thread
    /// and N - 1 helpers). Inline (0: no helper, no queue) always runs too, as the baseline.
    #[arg(long, default_value = "1,2", value_delimiter = ',')]
    pub threads: Vec<usize>,
    /// Rounds; each round runs every configuration once, and the best round counts.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub rounds: u32,
    /// Also pregenerate the same square into a fresh SQLite store with each thread count
    /// (in the same rounds), and report its throughput against generation alone.
    #[arg(long)]
    pub store: bool,
}

/// The best of one configuration's rounds.
struct Measured {
    threads: usize,
    seconds: f64,
    peak_holders: usize,
    digest: u64,
    /// The per-status body times of the best round.
    status_seconds: [f64; ChunkStatus::COUNT],
    status_tasks: [u64; ChunkStatus::COUNT],
}

/// Run `stratagen bench`.
pub fn run(a: BenchArgs) -> Result<(), CliError> {
    if let Some(t) = a.threads.iter().find(|&&t| t > 256) {
        return Err(usage(format!("--threads {t}: at most 256")));
    }
    let mut configs = vec![0usize];
    for &t in &a.threads {
        if !configs.contains(&t) {
            configs.push(t);
        }
    }
    let positions = square((0, 0), a.radius as i32);
    let def = WorldSettings {
        seed: a.seed,
        ..WorldSettings::default()
    };
    let generator = a.world.generator(def)?;
    println!("cpu {}", cpu_model());
    let mut best: Vec<Option<Measured>> = configs.iter().map(|_| None).collect();
    let mut stored: Vec<Option<PregenReport>> = configs.iter().map(|_| None).collect();
    let store_path =
        std::env::temp_dir().join(format!("stratagen-bench-{}.sqlite", std::process::id()));
    let bounds = ChunkRect::square(ChunkPos::new(0, 0), a.radius as i32)
        .map_err(|e| usage(e.to_string()))?;
    // Memory is measured on the process's first run (inline): later runs reuse memory the
    // allocator kept, so their peaks say little about one run.
    let mut first_rss = None;
    let mut storage = None;
    for _ in 0..a.rounds {
        for (k, &threads) in configs.iter().enumerate() {
            let g = generate_world(
                generator.clone(),
                &positions,
                ChunkStatus::Full,
                threads,
                |_, _| {},
            )?;
            first_rss.get_or_insert(peak_rss_mib());
            storage.get_or_insert_with(|| mean_storage(&g));
            keep_best(&mut best[k], threads, &g);
            drop(g);
            if a.store {
                // Right after generation with the same threads, so both see the same machine.
                let _ = remove_store(&store_path);
                let p = pregen(generator.clone(), bounds, &store_path, threads, |_, _| {
                    ControlFlow::Continue(())
                })?;
                if stored[k].as_ref().is_none_or(|b| p.seconds < b.seconds) {
                    stored[k] = Some(p);
                }
            }
        }
    }
    let _ = remove_store(&store_path);
    let best: Vec<Measured> = best.into_iter().flatten().collect();
    if let Some((n, b)) = storage {
        print_storage(n, &b);
    }
    print_resident(&generator);
    let machine_line = report(&best, positions.len(), first_rss.unwrap_or(0.0))?;
    if a.store {
        let stored: Vec<PregenReport> = stored.into_iter().flatten().collect();
        store_report(&best, &stored);
    }
    println!("{machine_line}");
    Ok(())
}

/// The finished chunks of a region and the mean heap bytes of their storage, by part.
fn mean_storage(r: &Region) -> (usize, [f64; 5]) {
    let mut sum = [0usize; 5];
    let mut n = 0;
    for f in r.chunks.values().filter_map(|d| d.full()) {
        let b = f.storage_bytes();
        for (s, x) in sum
            .iter_mut()
            .zip([b.blocks, b.light, b.heightmaps, b.biomes, b.other])
        {
            *s += x;
        }
        n += 1;
    }
    (n, sum.map(|s| s as f64 / n.max(1) as f64))
}

/// What one resident finished chunk holds on the heap (KiB, mean over the region).
fn print_storage(n: usize, b: &[f64; 5]) {
    let kib = |x: f64| x / 1024.0;
    println!(
        "full chunk storage (heap, mean of {n} chunks): {:.1} KiB = blocks {:.1} + light {:.1} + heightmaps {:.1} + biomes {:.2} + entities/spawns/structures {:.2}",
        kib(b.iter().sum()),
        kib(b[0]),
        kib(b[1]),
        kib(b[2]),
        kib(b[3]),
        kib(b[4]),
    );
}

/// What a chunk inside a resident area holds on the heap under each retention: the outputs
/// its holder keeps, summed, mean over the inner 3 × 3 of a 5 × 5 request.
fn print_resident(generator: &WorldGen) {
    let area = square((0, 0), 2);
    let inner = square((0, 0), 1);
    let held = |retention| {
        let mut s = Scheduler::new(Arc::new(World::new(generator.clone())));
        s.set_retention(retention);
        for p in &area {
            // A fresh scheduler takes any valid position.
            let _ = s.request(*p, ChunkStatus::Full, Priority::Soon);
        }
        s.run_inline(usize::MAX);
        let bytes: usize = inner
            .iter()
            .flat_map(|p| ChunkStatus::ALL.map(|st| s.output(*p, st)))
            .flatten()
            .map(|o| o.own_heap_bytes())
            .sum();
        bytes as f64 / inner.len() as f64 / 1024.0
    };
    println!(
        "resident chunk inside a requested area (heap of the outputs its holder keeps, mean of {}): every status {:.1} KiB, full chunks only {:.1} KiB",
        inner.len(),
        held(Retention::AllStatuses),
        held(Retention::FullChunks)
    );
}

/// Pregeneration of the same square into a fresh store against generation alone, at the same
/// thread count, measured in the same rounds.
fn store_report(runs: &[Measured], stored: &[PregenReport]) {
    println!("store     ms/chunk   chunks/s   vs generation   record KiB/chunk");
    for (m, r) in runs.iter().zip(stored) {
        let n = r.generated as f64;
        println!(
            "{:<9} {:>8.3} {:>10.1} {:>14.3}x {:>18.1}",
            format!("{}+store", m.threads),
            r.seconds * 1000.0 / n,
            n / r.seconds,
            m.seconds / r.seconds,
            r.record_bytes as f64 / n / 1024.0
        );
    }
}

fn keep_best(slot: &mut Option<Measured>, threads: usize, r: &Region) {
    if slot.as_ref().is_none_or(|m| r.seconds < m.seconds) {
        *slot = Some(Measured {
            threads,
            seconds: r.seconds,
            peak_holders: r.peak_holders,
            digest: r.digest(),
            status_seconds: r.status_seconds,
            status_tasks: r.status_tasks,
        });
    }
}

/// Prints the per-thread table and returns the machine-readable summary line, which the
/// caller prints last.
fn report(runs: &[Measured], chunks: usize, rss: f64) -> Result<String, CliError> {
    let inline = &runs[0];
    print_split(inline);
    let n = chunks as f64;
    println!("threads   ms/chunk   chunks/s   vs inline   body ms/chunk   busy   peak holders");
    for m in runs {
        let label = if m.threads == 0 {
            "inline".to_string()
        } else {
            m.threads.to_string()
        };
        // Body time summed over threads, and the share of the threads' wall time it fills:
        // below 100% the threads waited; body ms/chunk above inline's, bodies ran slower.
        let body: f64 = m.status_seconds.iter().sum();
        println!(
            "{:<9} {:>8.3} {:>10.1} {:>10.2}x {:>15.3} {:>5.0}% {:>14}",
            label,
            m.seconds * 1000.0 / n,
            n / m.seconds,
            inline.seconds / m.seconds,
            body * 1000.0 / n,
            100.0 * body / (m.seconds * m.threads.max(1) as f64),
            m.peak_holders,
        );
        if m.digest != inline.digest {
            return Err(usage(format!(
                "threads={}: region digest {:016x} differs from inline {:016x}",
                m.threads, m.digest, inline.digest
            )));
        }
    }
    println!("region digest {:016x}", inline.digest);
    println!(
        "memory (first run, inline): peak RSS {:.1} MiB, {} peak resident holders, {:.3} MiB per holder",
        rss,
        inline.peak_holders,
        rss / inline.peak_holders.max(1) as f64
    );
    let last = runs.last().unwrap_or(inline);
    Ok(format!(
        "bench threads={} chunks={} ms_per_chunk={:.3} chunks_per_s={:.1} peak_rss_mib={:.1} speedup_vs_inline={:.3}",
        last.threads,
        chunks,
        last.seconds * 1000.0 / n,
        n / last.seconds,
        rss,
        inline.seconds / last.seconds
    ))
}

/// Where the inline run's time went, per status.
fn print_split(m: &Measured) {
    let busy: f64 = m.status_seconds.iter().sum();
    println!("status                 tasks   ms/task   share   (inline run)");
    for s in ChunkStatus::ALL {
        let i = s.index();
        let k = m.status_tasks[i].max(1) as f64;
        println!(
            "{:<20} {:>7} {:>9.3} {:>6.1}%",
            s.name(),
            m.status_tasks[i],
            m.status_seconds[i] * 1000.0 / k,
            100.0 * m.status_seconds[i] / busy.max(1e-12)
        );
    }
}
