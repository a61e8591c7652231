//! Edits: how fast edits are taken (no relighting: they are only recorded), and what a host
//! pays after one edit to show it — the edited chunk and every neighbour the edit reaches
//! relit over their edited neighbourhoods and remeshed (culled, with AO and light).
//!
//! Summary line: `edits set_random_meps=... set_fill_meps=... update_us=... changed=...
//! per_chunk_us=... relight_us=... mesh_us=...`: millions of edits per second for 1 M random
//! edits over 10 × 10 chunks and for a 64³ box filled in scan order (best of 5); the median
//! over the edits of the best of 10 rounds of the whole update after one edit at the middle
//! of a chunk (a glowstone placed or taken away at the surface), the chunks it changed, the
//! update per changed chunk, and for the edited chunk alone its relight and its remesh.
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::Criterion;
use stratagen_core::engine::{ChunkPos, ChunkStatus, Priority, Scheduler};
use stratagen_core::mesh::{mesh_chunk, MeshOptions};
use stratagen_core::util::random::Xoroshiro128PlusPlus;
use stratagen_core::world::block;
use stratagen_core::world::edit::{BlockEdit, EditLayer, Edits, Generated};
use stratagen_core::world::{ChunkData, Neighbourhood, World, WorldGen, WorldSettings};

fn random_edits(n: usize) -> Vec<BlockEdit> {
    let mut rng = Xoroshiro128PlusPlus::from_seed(1);
    (0..n)
        .map(|_| BlockEdit {
            x: rng.next_int_bounded(160) - 80,
            y: rng.next_int_bounded(384) - 64,
            z: rng.next_int_bounded(160) - 80,
            block: rng.next_int_bounded(40) as u16,
        })
        .collect()
}

fn box_fill() -> Vec<BlockEdit> {
    let mut v = Vec::with_capacity(64 * 64 * 64);
    for y in 0..64 {
        for z in 0..64 {
            for x in 0..64 {
                v.push(BlockEdit {
                    x,
                    y,
                    z,
                    block: block::STONE,
                });
            }
        }
    }
    v
}

fn set_all(g: &WorldGen, edits: &[BlockEdit]) -> u64 {
    let mut e = Edits::new(g.dims(), g.definition().blocks.len());
    for &x in edits {
        e.set_block(x).unwrap();
    }
    e.sequence()
}

/// Million edits per second, best of `rounds`.
fn best_meps(rounds: usize, g: &WorldGen, edits: &[BlockEdit]) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = Instant::now();
        black_box(set_all(g, edits));
        best = best.min(t.elapsed().as_secs_f64());
    }
    edits.len() as f64 / best / 1e6
}

fn world(g: &WorldGen, r: i32) -> Scheduler<World> {
    let mut sched = Scheduler::new(Arc::new(World::new(g.clone())));
    for z in -r..=r {
        for x in -r..=r {
            sched
                .request(ChunkPos::new(x, z), ChunkStatus::Full, Priority::Soon)
                .unwrap();
        }
    }
    while sched.run_inline(usize::MAX) > 0 {}
    sched
}

/// Relight `pos` through the layer and mesh it over its edited neighbourhood; quad count.
fn remesh(layer: &mut EditLayer, sched: &Scheduler<World>, g: &WorldGen, pos: ChunkPos) -> usize {
    let around = layer.full_neighbourhood(sched, pos);
    let n = Neighbourhood::from_fn(|dx, dz| {
        around[Neighbourhood::<()>::slot(dx, dz)]
            .as_deref()
            .and_then(ChunkData::full)
    });
    mesh_chunk(
        &n,
        g.dims(),
        &g.definition().blocks,
        &MeshOptions::default(),
    )
    .unwrap()
    .quad_count()
}

/// The host's update after the edit just made: every changed chunk relit and remeshed.
/// Returns how many chunks changed.
fn update(layer: &mut EditLayer, sched: &Scheduler<World>, g: &WorldGen) -> usize {
    let changed = layer.edits_mut().take_changed();
    for &p in &changed {
        black_box(remesh(layer, sched, g, p));
    }
    changed.len()
}

/// The surface y of column (x, z) of a generated chunk.
fn surface(sched: &Scheduler<World>, x: i32, z: i32) -> i32 {
    let d = Generated::full(sched, ChunkPos::new(x.div_euclid(16), z.div_euclid(16))).unwrap();
    let f = d.full().unwrap();
    f.heightmaps()[stratagen_core::world::Heightmap::WorldSurface]
        [(z.rem_euclid(16) * 16 + x.rem_euclid(16)) as usize]
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    println!("cpu {}", stratagen_cli::cpu_model());
    let g = WorldGen::new(WorldSettings::default()).unwrap();
    let random = random_edits(1_000_000);
    let fill = box_fill();
    let sched = world(&g, 2);
    // Edits at the middle of the nine central chunks' surfaces, placed and taken away in turn.
    let sites: Vec<(i32, i32, i32)> = (-1..=1)
        .flat_map(|cz| (-1..=1).map(move |cx| (cx * 16 + 8, cz * 16 + 8)))
        .map(|(x, z)| (x, surface(&sched, x, z), z))
        .collect();

    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    c.bench_function("edits_set_block_1m_random", |b| {
        b.iter(|| set_all(&g, &random))
    });
    c.bench_function("edits_set_block_64cube_fill", |b| {
        b.iter(|| set_all(&g, &fill))
    });
    let mut layer = EditLayer::new(&g);
    let mut k = 0usize;
    c.bench_function("edits_update_after_one_edit", |b| {
        b.iter(|| {
            let (x, y, z) = sites[k % sites.len()];
            let block = if (k / sites.len()).is_multiple_of(2) {
                block::GLOWSTONE
            } else {
                block::AIR
            };
            k += 1;
            layer.set_block(BlockEdit { x, y, z, block }).unwrap();
            update(&mut layer, &sched, &g)
        })
    });

    // Summary.
    let set_random = best_meps(5, &g, &random);
    let set_fill = best_meps(5, &g, &fill);
    let (mut totals, mut counts, mut relights, mut meshes) = (vec![], vec![], vec![], vec![]);
    for &(x, y, z) in &sites {
        let pos = ChunkPos::new(x.div_euclid(16), z.div_euclid(16));
        let mut best = [f64::MAX; 3];
        let mut changed = 0;
        for round in 0..10u32 {
            let block = if round.is_multiple_of(2) {
                block::GLOWSTONE
            } else {
                block::AIR
            };
            let edit = BlockEdit { x, y, z, block };
            let mut layer = EditLayer::new(&g);
            layer.set_block(edit).unwrap();
            let t = Instant::now();
            changed = update(&mut layer, &sched, &g);
            best[0] = best[0].min(t.elapsed().as_secs_f64() * 1e6);
            // The edited chunk alone: its relight, then (with its neighbours' edited states
            // made first) its mesh.
            let mut alone = EditLayer::new(&g);
            alone.set_block(edit).unwrap();
            let t = Instant::now();
            black_box(alone.full(&sched, pos).unwrap());
            best[1] = best[1].min(t.elapsed().as_secs_f64() * 1e6);
            black_box(alone.full_neighbourhood(&sched, pos));
            let t = Instant::now();
            black_box(remesh(&mut alone, &sched, &g, pos));
            best[2] = best[2].min(t.elapsed().as_secs_f64() * 1e6);
        }
        totals.push(best[0]);
        counts.push(changed as f64);
        relights.push(best[1]);
        meshes.push(best[2]);
    }
    let per_chunk: Vec<f64> = totals.iter().zip(&counts).map(|(t, n)| t / n).collect();
    println!(
        "edits set_random_meps={:.1} set_fill_meps={:.1} update_us={:.0} changed={:.0} \
         per_chunk_us={:.0} relight_us={:.0} mesh_us={:.0}",
        set_random,
        set_fill,
        median(totals),
        median(counts),
        median(per_chunk),
        median(relights),
        median(meshes)
    );
}
