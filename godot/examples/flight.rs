//! The streaming harness: the node's engine-free core flying a viewer in a straight line at
//! 20 blocks/s for 60 s of wall time at 60 frames/s, view distance 12, on a pool of 2 std
//! threads (what a 2-core machine's `WorkerThreadPool` has), and in the same run the
//! generator alone on 2 threads over `stratagen bench`'s default region and seed (what
//! `stratagen bench --threads 2` measures).
//!
//! `cargo run --release -p stratagen-godot --example flight [-- SECONDS]`
//!
//! Prints the CPU, then:
//! - generation chunks/s while work waited (wall time during which a generation task was
//!   ready or running), and the ratio to the generator alone's best fill;
//! - the time from a chunk entering view to its first mesh being handed to the main thread,
//!   p50/p95/max, for chunks that entered view after the start-up disc was shown (and for
//!   all chunks);
//! - the main thread's time per frame in the core (follow the viewers, collect meshes, start
//!   workers), p50/p99/max, and the longest the main thread waited for the workers' lock.
//!
//! Like a game, the main thread also reads the surface height under the viewer every frame
//! and digs a block there once a second (the edit relights and remeshes the chunks it
//! reaches).
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use stratagen_cli::{generate, rect};
use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::mesh::MeshOptions;
use stratagen_core::world::{Heightmap, WorldGen, WorldSettings};
use stratagen_godot::bridge::ThreadPool;
use stratagen_godot::stream::{StreamSettings, Viewer};
use stratagen_godot::streaming::Streaming;

/// Frames per second of the simulated game.
const FPS: f64 = 60.0;
/// The viewer's speed along +x, in blocks per second.
const SPEED: f64 = 20.0;
/// View distance in chunks.
const VIEW_DISTANCE: u32 = 12;
/// Pool threads.
const THREADS: usize = 2;
/// Blocks per chunk side.
const SIDE: f64 = 16.0;
/// Frames between the viewer's digs.
const DIG_EVERY: usize = 60;
/// Half the side of the square the generator alone fills, in chunks: `stratagen bench`'s
/// default `--radius 8`, 17 × 17 = 289 chunks.
const BENCH_RADIUS: i32 = 8;
/// Fills of the generator alone before and after the flight, the best counting:
/// `stratagen bench`'s default `--rounds 3`.
const BENCH_ROUNDS: usize = 3;
/// The world seed of the flight and of the generator alone (`stratagen bench`'s default).
const SEED: i64 = 0;

fn percentile(v: &mut [f64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let k = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[k]
}

fn in_view(v: ChunkPos, p: ChunkPos, r: u32) -> bool {
    let (dx, dz) = (i64::from(p.x - v.x), i64::from(p.z - v.z));
    dx * dx + dz * dz <= i64::from(r) * i64::from(r)
}

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(60.0);
    let settings = WorldSettings {
        seed: SEED,
        ..WorldSettings::default()
    };
    println!("cpu: {}", stratagen_cli::rss::cpu_model());

    // The generator alone, 2 threads, before and after the flight (the machine may drift),
    // measured as `stratagen bench` measures it: several fills, the best one counts.
    let region = rect(-BENCH_RADIUS, -BENCH_RADIUS, BENCH_RADIUS, BENCH_RADIUS);
    let fill = || {
        let t = Instant::now();
        generate(settings, &region, ChunkStatus::Full, THREADS, |_, _| {}).unwrap();
        region.len() as f64 / t.elapsed().as_secs_f64()
    };
    let alone = |label: &str| {
        let rates: Vec<f64> = (0..BENCH_ROUNDS).map(|_| fill()).collect();
        let best = rates.iter().copied().fold(0.0, f64::max);
        let listed: Vec<String> = rates.iter().map(|r| format!("{r:.1}")).collect();
        println!(
            "generator alone ({label}): {} chunks, {THREADS} threads, best {best:.1} chunks/s of {}",
            region.len(),
            listed.join(", ")
        );
        best
    };
    // The first fill of a process pays for its page faults and allocator growth; `stratagen
    // bench` reaches its 2-thread run warm, so the comparison runs are warm too.
    fill();
    let before = alone("before");

    let generator = WorldGen::new(settings).unwrap();
    let stream = StreamSettings {
        view_distance: VIEW_DISTANCE,
        ..StreamSettings::default()
    };
    let mut core = Streaming::new(generator, stream, MeshOptions::default(), THREADS);
    let mut pool = ThreadPool::default();
    let frames = (seconds * FPS) as usize;
    let frame_time = Duration::from_secs_f64(1.0 / FPS);
    let start = Instant::now();
    let mut entered: BTreeMap<ChunkPos, f64> = BTreeMap::new();
    let mut meshed: BTreeSet<ChunkPos> = BTreeSet::new();
    let mut latency_all = Vec::new();
    let mut latency_flying = Vec::new();
    let mut main_ms = Vec::new();
    // The time the start-up disc was first fully shown.
    let mut started_up: Option<f64> = None;
    for k in 0..frames {
        let now = start.elapsed().as_secs_f64();
        let viewer = Viewer {
            chunk: ChunkPos::new((SPEED * now / SIDE).floor() as i32, 0),
            view_distance: VIEW_DISTANCE,
        };
        let r = VIEW_DISTANCE as i32;
        for dz in -r..=r {
            for dx in -r..=r {
                let p = viewer.chunk.offset(dx, dz);
                if in_view(viewer.chunk, p, VIEW_DISTANCE) && !meshed.contains(&p) {
                    entered.entry(p).or_insert(now);
                }
            }
        }
        let t0 = Instant::now();
        let f = core.frame(&[viewer], &mut pool).unwrap();
        main_ms.push(t0.elapsed().as_secs_f64() * 1000.0);
        // The surface under the viewer, as a player controller reads it, and a dig there.
        let (bx, bz) = ((SPEED * now).floor() as i32, 8);
        if let Ok(d) = core.full(ChunkPos::new(bx.div_euclid(16), 0)) {
            if let Some(top) = d.full().map(|c| {
                c.heightmaps()[Heightmap::WorldSurface][(bz * 16 + bx.rem_euclid(16)) as usize]
            }) {
                if k.is_multiple_of(DIG_EVERY) {
                    core.set_block(bx, top - 1, bz, 0).unwrap();
                }
            }
        }
        let got = start.elapsed().as_secs_f64();
        for (p, _) in &f.meshes {
            meshed.insert(*p);
            if let Some(t) = entered.remove(p) {
                latency_all.push((got - t) * 1000.0);
                if started_up.is_some_and(|s| t > s) {
                    latency_flying.push((got - t) * 1000.0);
                }
            }
        }
        if started_up.is_none()
            && !entered
                .keys()
                .any(|p| in_view(viewer.chunk, *p, VIEW_DISTANCE))
        {
            started_up = Some(got);
        }
        // Chunks that left view before their mesh came are not waited for; released ones
        // may enter again.
        entered.retain(|p, _| in_view(viewer.chunk, *p, VIEW_DISTANCE));
        for p in &f.unloaded {
            meshed.remove(p);
        }
        // Pace to 60 frames per second.
        let next = start + frame_time * (k as u32 + 1);
        if let Some(wait) = next.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
    }
    let stats = core.stats();
    let main_wait_ms = stats.main_wait_max * 1000.0;
    let (busy_full, busy_seconds) = (stats.full, stats.busy_seconds);
    core.shut_down(&mut pool).unwrap();
    let after = alone("after");
    let rate = busy_full as f64 / busy_seconds.max(f64::MIN_POSITIVE);
    println!(
        "flight: {seconds:.0} s at {FPS:.0} frames/s, {SPEED:.0} blocks/s, view distance {VIEW_DISTANCE}, {THREADS} pool threads"
    );
    println!(
        "generation while work waited: {busy_full} chunks in {busy_seconds:.2} s busy, {rate:.1} chunks/s, {:.2}x the generator alone (its best fill, before or after)",
        rate / before.max(after)
    );
    println!(
        "work: {} generation tasks ({:.2} s of bodies), {} meshes ({:.2} s); workers filled {:.0}% of the busy time",
        stats.tasks,
        stats.body_seconds,
        stats.meshes,
        stats.mesh_seconds,
        100.0 * (stats.body_seconds + stats.mesh_seconds) / (busy_seconds * THREADS as f64)
    );
    println!(
        "start-up disc shown after {:.2} s",
        started_up.unwrap_or(f64::NAN)
    );
    let n_fly = latency_flying.len();
    println!(
        "enter view to mesh, after start-up ({n_fly} chunks): p50 {:.0} ms, p95 {:.0} ms, max {:.0} ms",
        percentile(&mut latency_flying, 0.5),
        percentile(&mut latency_flying, 0.95),
        percentile(&mut latency_flying, 1.0)
    );
    let n_all = latency_all.len();
    println!(
        "enter view to mesh, all ({n_all} chunks): p50 {:.0} ms, p95 {:.0} ms, max {:.0} ms",
        percentile(&mut latency_all, 0.5),
        percentile(&mut latency_all, 0.95),
        percentile(&mut latency_all, 1.0)
    );
    println!(
        "main thread per frame (core): p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms; longest wait for the workers' lock {main_wait_ms:.3} ms",
        percentile(&mut main_ms, 0.5),
        percentile(&mut main_ms, 0.99),
        percentile(&mut main_ms, 1.0)
    );
}
