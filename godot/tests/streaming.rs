//! The streaming policy and the pool bridge, without Godot: a viewer moving 64 chunks in a
//! straight line with view distance 8, tasks run by std threads in random order. At every
//! frame the chunks holding a ticket stay within the documented bound; every chunk that
//! enters the view is loaded within a bounded number of frames; the loaded chunks' digests
//! equal the CLI's; shutting down leaves nothing running or held.
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use stratagen_cli::generate;
use stratagen_core::engine::{ChunkPos, ChunkStatus, Scheduler};
use stratagen_core::mesh::colour::vertex_colours;
use stratagen_core::mesh::{mesh_chunk, MeshOptions};
use stratagen_core::util::digest::Digest;
use stratagen_core::world::Neighbourhood;
use stratagen_core::world::{chunk_digest, World, WorldGen, WorldSettings};
use stratagen_godot::bridge::{FrameBudget, Job, StreamDriver, TaskPool};
use stratagen_godot::meshes::MeshQueue;
use stratagen_godot::stream::StreamSettings;

/// A pool of std threads that run a batch's tasks in a shuffled order (a different
/// permutation per batch, from a fixed seed).
struct TestPool {
    threads: usize,
    handles: Vec<JoinHandle<()>>,
    seed: u64,
}

impl TaskPool for TestPool {
    fn start(&mut self, batch: Arc<dyn Job>) {
        // A permutation of the indices from a xorshift sequence.
        let mut order: Vec<usize> = (0..batch.len()).collect();
        for i in (1..order.len()).rev() {
            self.seed ^= self.seed << 13;
            self.seed ^= self.seed >> 7;
            self.seed ^= self.seed << 17;
            order.swap(i, (self.seed % (i as u64 + 1)) as usize);
        }
        let order = Arc::new(order);
        let next = Arc::new(AtomicUsize::new(0));
        for _ in 0..self.threads {
            let (batch, order, next) = (batch.clone(), order.clone(), next.clone());
            self.handles.push(std::thread::spawn(move || loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                match order.get(k) {
                    Some(&i) => batch.run(i),
                    None => break,
                }
            }));
        }
    }
    /// A frame lasts until the batch is run: at 60 frames per second a frame's 16 ms cover a
    /// batch of 96 tasks (about 0.2 ms each) on three threads, so frame counts below are
    /// batch counts.
    fn is_done(&mut self) -> bool {
        self.wait();
        true
    }
    fn wait(&mut self) {
        for h in self.handles.drain(..) {
            h.join().unwrap();
        }
    }
}

fn in_view(viewer: ChunkPos, p: ChunkPos, r: i64) -> bool {
    let (dx, dz) = (i64::from(p.x - viewer.x), i64::from(p.z - viewer.z));
    dx * dx + dz * dz <= r * r
}

#[test]
fn a_viewer_walking_64_chunks_is_served_within_bounds() {
    let settings = StreamSettings {
        view_distance: 8,
        hysteresis: 2,
        max_requests_per_frame: 16,
    };
    let budget = FrameBudget {
        batch_size: 96,
        max_loaded_per_frame: 12,
    };
    let def = WorldSettings {
        seed: 11,
        ..WorldSettings::default()
    };
    let generator = WorldGen::new(def).unwrap();
    let dims = generator.dims();
    let world = World::new(generator);
    let mut driver = StreamDriver::new(Scheduler::with_id(Arc::new(world), 1), settings, budget);
    let mut pool = TestPool {
        threads: 3,
        handles: Vec::new(),
        seed: 0x9e3779b97f4a7c15,
    };
    let mut mesh_pool = TestPool {
        threads: 2,
        handles: Vec::new(),
        seed: 0x2545f4914f6cdd1d,
    };
    let mut meshes = MeshQueue::new(MeshOptions::default(), 16);
    // Per chunk: the digest of its latest mesh and of that mesh's vertex colours.
    let mut latest: BTreeMap<ChunkPos, (u64, u64)> = BTreeMap::new();
    // The viewer moves one chunk east every 6 frames; then stands still until all is loaded.
    const FRAMES_PER_STEP: usize = 6;
    // Documented bound: a chunk entering the view is loaded within 90 frames (batches of 96
    // tasks), start-up included (the first 197 chunks and their neighbourhoods).
    const LOAD_BOUND: usize = 90;
    let mut entered: BTreeMap<ChunkPos, usize> = BTreeMap::new();
    let mut worst = 0;
    let mut frame = 0;
    let mut viewer = ChunkPos::new(0, 0);
    let mut settled = false;
    while !settled {
        let step = (frame / FRAMES_PER_STEP).min(64) as i32;
        viewer = ChunkPos::new(step, 0);
        let report = driver.frame(viewer, &mut pool).unwrap();
        let loaded_now = driver.loaded().clone();
        for (p, m) in meshes.frame(
            driver.scheduler(),
            dims,
            &loaded_now,
            &report,
            viewer,
            &mut mesh_pool,
        ) {
            assert!(m
                .colours
                .iter()
                .zip(&m.mesh.surfaces)
                .all(|(c, s)| c.len() == s.vertex_count()));
            latest.insert(p, (m.mesh.digest(), colour_digest(&m.colours)));
        }
        assert!(
            driver.streamer().held_count() <= settings.max_resident(),
            "frame {frame}: {} chunks held, bound {}",
            driver.streamer().held_count(),
            settings.max_resident()
        );
        // Every chunk in view since some frame; its wait so far.
        let r = i64::from(settings.view_distance);
        for z in -8..=8 {
            for x in viewer.x - 8..=viewer.x + 8 {
                let p = ChunkPos::new(x, z);
                if in_view(viewer, p, r) {
                    entered.entry(p).or_insert(frame);
                }
            }
        }
        entered.retain(|p, _| in_view(viewer, *p, r + 2));
        for (p, since) in &entered {
            if !driver.loaded().contains(p) {
                let waited = frame - since;
                worst = worst.max(waited);
                assert!(
                    waited <= LOAD_BOUND,
                    "frame {frame}: {p:?} waited {waited} frames"
                );
            }
        }
        for p in &report.unloaded {
            assert!(
                !in_view(viewer, *p, r + 2),
                "{p:?} unloaded inside the ring"
            );
        }
        settled = step == 64
            && entered.keys().all(|p| driver.loaded().contains(p))
            && meshes.pending() == 0;
        frame += 1;
        assert!(frame < 64 * FRAMES_PER_STEP + 400, "never settled");
    }
    println!(
        "frames {frame}, worst wait {worst} frames, held {}",
        driver.streamer().held_count()
    );

    // Every chunk in view is loaded (the disc of radius 8 has 197 chunks), and nothing is
    // loaded that is not held; the loaded chunks equal the CLI's.
    let loaded: Vec<ChunkPos> = driver.loaded().iter().copied().collect();
    let in_sight = loaded
        .iter()
        .filter(|p| in_view(viewer, **p, i64::from(settings.view_distance)))
        .count();
    assert_eq!(in_sight, 197);
    let held: Vec<ChunkPos> = driver.streamer().held().copied().collect();
    assert!(loaded.iter().all(|p| held.contains(p)));
    let cli = generate(def, &loaded, ChunkStatus::Full, 2, |_, _| {}).unwrap();
    for p in &loaded {
        let ours = driver.scheduler().output(*p, ChunkStatus::Full).unwrap();
        assert_eq!(chunk_digest(&ours), chunk_digest(&cli.chunks[p]), "{p:?}");
    }

    // Every loaded chunk's latest mesh is the mesh of its final neighbourhood (rebuilt when
    // a neighbour arrived), equal to what the C mesh API gives for the same chunks.
    let full = |p: ChunkPos| {
        driver
            .scheduler()
            .output(p, ChunkStatus::Full)
            .filter(|d| d.full().is_some())
    };
    for p in &loaded {
        let arcs = Neighbourhood::from_fn(|dx, dz| full(ChunkPos::new(p.x + dx, p.z + dz)));
        let n = Neighbourhood::from_fn(|dx, dz| arcs.get(dx, dz).as_deref().and_then(|d| d.full()));
        let palette = &cli.generator.definition().blocks;
        let mesh = mesh_chunk(&n, dims, palette, &MeshOptions::default()).unwrap();
        // The colours are those of the glTF export: `vertex_colours` in the chunk's biomes.
        let biomes = n.centre().map(|c| c.biomes).unwrap();
        let colours = mesh
            .surfaces
            .each_ref()
            .map(|s| vertex_colours(s, cli.generator.definition(), &biomes));
        let want = (mesh.digest(), colour_digest(&colours));
        assert_eq!(latest.get(p), Some(&want), "mesh of {p:?}");
    }
    meshes.shut_down(&mut mesh_pool);

    // Shutting down: nothing in flight, nothing held, the scheduler idle after its drain.
    driver.shut_down(&mut pool).unwrap();
    assert_eq!(driver.streamer().held_count(), 0);
    assert!(driver.loaded().is_empty());
    assert_eq!(driver.scheduler().ticket_count(), 0);
}

/// Digest of per-surface vertex colours (every component's bits, surface by surface).
fn colour_digest(colours: &[Vec<[f32; 4]>; 3]) -> u64 {
    let mut d = Digest::new();
    for s in colours {
        d.write_u64(s.len() as u64);
        for c in s.iter().flatten() {
            d.write_f32(*c);
        }
    }
    d.finish()
}
