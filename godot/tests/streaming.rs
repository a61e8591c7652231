//! The node's engine-free core without Godot: workers are std threads draining the feed.
//! A viewer walking 48 chunks is served within the documented resident bound and ends with
//! the CLI's chunks and the meshes of their final neighbourhoods; a viewer turning around
//! gets no task for an abandoned chunk after the next completed task; two viewers 40 chunks
//! apart are both served; edits made through the core survive a save and a load into a new
//! core, blocks and meshes alike.
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

use stratagen_cli::generate;
use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::mesh::colour::vertex_colours;
use stratagen_core::mesh::{mesh_chunk, MeshOptions};
use stratagen_core::util::digest::Digest;
use stratagen_core::world::edit::{BlockEdit, EditLayer};
use stratagen_core::world::{chunk_digest, Neighbourhood, WorldGen, WorldSettings};
use stratagen_godot::bridge::ThreadPool;
use stratagen_godot::feed::{ChunkMesh, Event};
use stratagen_godot::stream::{max_resident, StreamSettings, Viewer};
use stratagen_godot::streaming::Streaming;

/// A frame's worth of wall time: the workers run meanwhile, as they do between Godot frames.
const FRAME: Duration = Duration::from_millis(4);

fn in_view(viewer: ChunkPos, p: ChunkPos, r: i64) -> bool {
    let (dx, dz) = (i64::from(p.x - viewer.x), i64::from(p.z - viewer.z));
    dx * dx + dz * dz <= r * r
}

fn world(seed: i64) -> WorldGen {
    WorldGen::new(WorldSettings {
        seed,
        ..WorldSettings::default()
    })
    .unwrap()
}

/// Digest of a mesh and its per-surface vertex colours.
fn mesh_digest(m: &ChunkMesh) -> (u64, u64) {
    let mut d = Digest::new();
    for s in &m.colours {
        d.write_u64(s.len() as u64);
        for c in s.iter().flatten() {
            d.write_f32(*c);
        }
    }
    (m.mesh.digest(), d.finish())
}

/// Frames with `viewers` until the core is idle; the latest mesh of every chunk.
fn settle(
    core: &mut Streaming,
    pool: &mut ThreadPool,
    viewers: &[Viewer],
    latest: &mut BTreeMap<ChunkPos, (u64, u64)>,
) {
    for _ in 0..20_000 {
        let f = core.frame(viewers, pool).unwrap();
        for (p, m) in &f.meshes {
            latest.insert(*p, mesh_digest(m));
        }
        for p in &f.unloaded {
            latest.remove(p);
        }
        if f.requested.is_empty() && f.meshes.is_empty() && core.is_idle() {
            return;
        }
        std::thread::sleep(FRAME);
    }
    panic!("never settled");
}

/// What the meshes of `shown` chunks must be: built directly, from chunks the CLI generates
/// (each shown chunk with two rings of neighbours) read through an edit layer holding the
/// core's edits, with the glTF export's colours.
fn expected_meshes(core: &Streaming, shown: &[ChunkPos]) -> BTreeMap<ChunkPos, (u64, u64)> {
    let g = core.generator().clone();
    let mut layer = EditLayer::new(&g);
    for (_, bytes) in &core.edit_records() {
        stratagen_store::load_edits(&g, layer.edits_mut(), bytes).unwrap();
    }
    // Two rings: an edited neighbour's light reads its own neighbours' blocks.
    let around: BTreeSet<ChunkPos> = shown
        .iter()
        .flat_map(|p| (-2..=2).flat_map(move |dz| (-2..=2).map(move |dx| p.offset(dx, dz))))
        .collect();
    let around: Vec<ChunkPos> = around.into_iter().collect();
    let cli = generate(*g.settings(), &around, ChunkStatus::Full, 2, |_, _| {}).unwrap();
    shown
        .iter()
        .map(|&p| {
            let arcs = layer.full_neighbourhood(&cli.chunks, p);
            let n = Neighbourhood::from_array(
                arcs.each_ref().map(|d| d.as_deref().and_then(|d| d.full())),
            );
            let mesh = mesh_chunk(
                &n,
                g.dims(),
                &g.definition().blocks,
                &MeshOptions::default(),
            )
            .unwrap();
            let biomes = n.centre().unwrap().biomes;
            let colours = mesh
                .surfaces
                .each_ref()
                .map(|s| vertex_colours(s, g.definition(), &biomes));
            let built = ChunkMesh {
                mesh,
                colours,
                collision: Vec::new(),
                props: Vec::new(),
            };
            (p, mesh_digest(&built))
        })
        .collect()
}

#[test]
fn a_viewer_walking_48_chunks_is_served_within_bounds() {
    let settings = StreamSettings::default();
    let generator = world(11);
    let mut core = Streaming::new(generator, settings, MeshOptions::default(), 3);
    let mut pool = ThreadPool::default();
    let mut latest = BTreeMap::new();
    let r = i64::from(settings.view_distance);
    // The viewer moves one chunk east every 3 frames.
    for frame in 0..48 * 3 {
        let viewer = Viewer {
            chunk: ChunkPos::new(frame / 3, 0),
            view_distance: settings.view_distance,
        };
        let f = core.frame(&[viewer], &mut pool).unwrap();
        for (p, m) in &f.meshes {
            assert!(m
                .colours
                .iter()
                .zip(&m.mesh.surfaces)
                .all(|(c, s)| c.len() == s.vertex_count()));
            assert_eq!(m.collision.len() % 3, 0);
            latest.insert(*p, mesh_digest(m));
        }
        for p in &f.unloaded {
            assert!(
                !in_view(viewer.chunk, *p, r + 2),
                "{p:?} unloaded inside the ring"
            );
            latest.remove(p);
        }
        let bound = max_resident(&settings, &[viewer]);
        assert!(core.streamer().held_count() <= bound, "frame {frame}");
        std::thread::sleep(FRAME);
    }
    let viewer = Viewer {
        chunk: ChunkPos::new(47, 0),
        view_distance: settings.view_distance,
    };
    settle(&mut core, &mut pool, &[viewer], &mut latest);

    // Every chunk in view is shown (the disc of radius 8 has 197 chunks), nothing is shown
    // that is not held, and the shown chunks equal the CLI's.
    let shown = core.shown();
    let in_sight = shown
        .iter()
        .filter(|p| in_view(viewer.chunk, **p, r))
        .count();
    assert_eq!(in_sight, 197);
    assert!(shown.iter().all(|p| core.streamer().holds(*p)));
    let cli = generate(
        WorldSettings {
            seed: 11,
            ..WorldSettings::default()
        },
        &shown,
        ChunkStatus::Full,
        2,
        |_, _| {},
    )
    .unwrap();
    core.read(|sched, _| {
        for p in &shown {
            let ours = sched.output(*p, ChunkStatus::Full).unwrap();
            assert_eq!(chunk_digest(&ours), chunk_digest(&cli.chunks[p]), "{p:?}");
        }
    });
    // Every shown chunk's latest mesh is the mesh of its complete neighbourhood.
    let want = expected_meshes(&core, &shown);
    for p in &shown {
        assert_eq!(latest.get(p), want.get(p), "mesh of {p:?}");
    }
    core.shut_down(&mut pool).unwrap();
    assert_eq!(core.streamer().held_count(), 0);
    assert!(core.shown().is_empty());
    core.read(|sched, _| assert_eq!(sched.ticket_count(), 0));
}

#[test]
fn turning_around_starts_no_task_for_an_abandoned_chunk_after_the_next_completion() {
    let settings = StreamSettings {
        view_distance: 6,
        ..StreamSettings::default()
    };
    let mut core = Streaming::new(world(5), settings, MeshOptions::default(), 2);
    let mut pool = ThreadPool::default();
    let reach = core.read(|s, _| s.table().accumulated_radius(ChunkStatus::Full)) as i32;
    core.record_events(true);
    // East at one chunk per frame for 16 frames (faster than the workers keep up with, so
    // work for chunks ahead is pending), then west at the same speed.
    let path: Vec<i32> = (0..16).chain((0..16).rev()).collect();
    // Positions no held chunk needs any more, and whether a task completed since.
    let mut abandoned: BTreeMap<ChunkPos, bool> = BTreeMap::new();
    let mut checked = 0;
    for &x in &path {
        let viewer = Viewer {
            chunk: ChunkPos::new(x, 0),
            view_distance: settings.view_distance,
        };
        core.frame(&[viewer], &mut pool).unwrap();
        let held: BTreeSet<ChunkPos> = core.streamer().held().copied().collect();
        let needed = |q: ChunkPos| {
            held.iter()
                .any(|h| (h.x - q.x).abs() <= reach && (h.z - q.z).abs() <= reach)
        };
        for e in core.take_events() {
            match e {
                Event::Released(p) => {
                    for dz in -reach..=reach {
                        for dx in -reach..=reach {
                            let q = p.offset(dx, dz);
                            if !needed(q) {
                                abandoned.entry(q).or_insert(false);
                            }
                        }
                    }
                }
                // Needed again (the viewer came back): tasks for it are wanted.
                Event::Requested(p) => {
                    abandoned.retain(|q, _| (p.x - q.x).abs() > reach || (p.z - q.z).abs() > reach)
                }
                Event::Finished(..) => abandoned.values_mut().for_each(|armed| *armed = true),
                Event::Started(q, s) => {
                    assert!(
                        !abandoned.get(&q).copied().unwrap_or(false),
                        "{s:?} of abandoned {q:?} started after a completion"
                    );
                    checked += 1;
                }
                Event::Meshing(_) => {}
            }
        }
        std::thread::sleep(FRAME);
    }
    assert!(!abandoned.is_empty(), "turning around abandoned nothing");
    assert!(checked > 0);
    core.shut_down(&mut pool).unwrap();
}

#[test]
fn two_viewers_40_chunks_apart_are_both_served() {
    let settings = StreamSettings::default();
    let mut core = Streaming::new(world(3), settings, MeshOptions::default(), 2);
    let mut pool = ThreadPool::default();
    let viewers = [
        Viewer {
            chunk: ChunkPos::new(0, 0),
            view_distance: 4,
        },
        Viewer {
            chunk: ChunkPos::new(40, 0),
            view_distance: 3,
        },
    ];
    let mut latest = BTreeMap::new();
    settle(&mut core, &mut pool, &viewers, &mut latest);
    let shown: BTreeSet<ChunkPos> = core.shown().into_iter().collect();
    // Lattice points in discs of radius 4 and 3: 49 and 29.
    for (v, count) in viewers.iter().zip([49, 29]) {
        let near: Vec<ChunkPos> = shown
            .iter()
            .filter(|p| in_view(v.chunk, **p, i64::from(v.view_distance)))
            .copied()
            .collect();
        assert_eq!(near.len(), count, "viewer at {:?}", v.chunk);
        assert!(near.iter().all(|p| latest.contains_key(p)), "meshes");
    }
    assert_eq!(shown.len(), 49 + 29);
    assert!(core.streamer().held_count() <= max_resident(&settings, &viewers));
    core.shut_down(&mut pool).unwrap();
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("godot-streaming");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

#[test]
fn edits_survive_save_and_load_into_a_new_core() {
    let settings = StreamSettings {
        view_distance: 3,
        ..StreamSettings::default()
    };
    let viewers = [Viewer {
        chunk: ChunkPos::new(0, 0),
        view_distance: 3,
    }];
    let generator = world(21);
    let blocks = &generator.definition().blocks;
    let (air, stone) = (
        blocks.by_name("air").unwrap(),
        blocks.by_name("stone").unwrap(),
    );
    let mut a = Streaming::new(generator.clone(), settings, MeshOptions::default(), 2);
    let mut pool = ThreadPool::default();
    let mut latest_a = BTreeMap::new();
    settle(&mut a, &mut pool, &viewers, &mut latest_a);
    // A pit across the corner of four chunks and a stone pillar beside it.
    let mut edits = Vec::new();
    for x in -4..4 {
        for z in -4..4 {
            for y in 40..80 {
                edits.push(BlockEdit {
                    x,
                    y,
                    z,
                    block: air,
                });
            }
        }
    }
    for y in 60..120 {
        edits.push(BlockEdit {
            x: 9,
            y,
            z: 9,
            block: stone,
        });
    }
    a.set_blocks(&edits).unwrap();
    assert_eq!(a.block(0, 50, 0), Ok(air));
    assert_eq!(a.block(9, 100, 9), Ok(stone));
    assert!(a.set_block(0, 10_000, 0, stone).is_err());
    settle(&mut a, &mut pool, &viewers, &mut latest_a);
    let shown = a.shown();
    let want = expected_meshes(&a, &shown);
    for p in &shown {
        assert_eq!(latest_a.get(p), want.get(p), "edited mesh of {p:?}");
    }
    let path = scratch("edits.sqlite");
    // The pit's four chunks; the pillar stands in one of them.
    assert_eq!(a.save(&path).unwrap(), 4);
    a.shut_down(&mut pool).unwrap();

    let mut b = Streaming::new(generator.clone(), settings, MeshOptions::default(), 2);
    assert_eq!(b.load(&path).unwrap(), 4);
    let mut latest_b = BTreeMap::new();
    settle(&mut b, &mut pool, &viewers, &mut latest_b);
    for e in &edits {
        assert_eq!(b.block(e.x, e.y, e.z), Ok(e.block));
    }
    assert_eq!(b.shown(), shown);
    assert_eq!(latest_b, latest_a);
    // A store of another world is refused and changes nothing.
    let mut other = Streaming::new(world(22), settings, MeshOptions::default(), 1);
    assert!(other.load(&path).is_err());
    assert!(other.edit_records().is_empty());
    b.shut_down(&mut pool).unwrap();
}

#[test]
fn props_come_with_each_mesh_and_are_the_library_instances() {
    use stratagen_core::world::scatter::{is_ground, scatter_chunk};
    let settings = StreamSettings {
        view_distance: 3,
        ..StreamSettings::default()
    };
    let generator = world(8);
    let mut core = Streaming::new(generator.clone(), settings, MeshOptions::default(), 2);
    let mut pool = ThreadPool::default();
    let viewers = [Viewer {
        chunk: ChunkPos::new(0, 0),
        view_distance: 3,
    }];
    let mut props = BTreeMap::new();
    for _ in 0..20_000 {
        let f = core.frame(&viewers, &mut pool).unwrap();
        for (p, m) in f.meshes {
            props.insert(p, m.props);
        }
        if f.requested.is_empty() && core.is_idle() {
            break;
        }
        std::thread::sleep(FRAME);
    }
    let shown = core.shown();
    assert_eq!(props.keys().copied().collect::<Vec<_>>(), shown);
    let world = generator.definition();
    let mut total = 0;
    core.read(|sched, _| {
        for p in &shown {
            let d = sched.output(*p, ChunkStatus::Full).unwrap();
            let full = d.full().unwrap();
            for (li, layer) in world.scatter.iter().enumerate() {
                let ground = |b| is_ground(&world.blocks, b);
                let want = scatter_chunk(8, &generator.dims(), layer, full, ground);
                for (k, _) in layer.kinds.iter().enumerate() {
                    let of_kind: Vec<_> = want
                        .iter()
                        .filter(|i| usize::from(i.kind) == k)
                        .map(|i| (i.position, i.rotation(), i.scale))
                        .collect();
                    let got = props[p]
                        .iter()
                        .find(|s| usize::from(s.layer) == li && usize::from(s.kind) == k);
                    match got {
                        Some(set) => assert_eq!(set.instances, of_kind, "{p:?} {li} {k}"),
                        None => assert!(of_kind.is_empty(), "{p:?} {li} {k}"),
                    }
                    total += of_kind.len();
                }
            }
        }
    });
    assert!(total > 50, "{total} props");
    core.shut_down(&mut pool).unwrap();
}

/// The main thread's calls — frames with a moving viewer, edits, edited reads, relit chunks,
/// edit records taken and loaded back — mixed with four workers generating and meshing, for
/// a few seconds, under a watchdog: nothing hangs, every edit reads back at once, and once
/// settled every shown mesh is the library's mesh of the edited world.
#[test]
fn main_thread_calls_mixed_with_busy_workers_never_hang() {
    let (done, result) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(main_thread_mix);
        let _ = done.send(r);
    });
    match result.recv_timeout(Duration::from_secs(240)) {
        Ok(Ok(wait)) => println!(
            "longest main-thread wait for the feed: {:.3} ms",
            wait * 1e3
        ),
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(_) => panic!("the main thread's calls and the workers hung"),
    }
}

/// The body of the test above; the longest main-thread wait for the feed's lock (seconds).
fn main_thread_mix() -> f64 {
    let settings = StreamSettings {
        view_distance: 3,
        ..StreamSettings::default()
    };
    let generator = world(31);
    let blocks = &generator.definition().blocks;
    let (air, stone) = (
        blocks.by_name("air").unwrap(),
        blocks.by_name("stone").unwrap(),
    );
    let mut core = Streaming::new(generator.clone(), settings, MeshOptions::default(), 4);
    let mut pool = ThreadPool::default();
    let viewer_at = |i: usize| Viewer {
        chunk: ChunkPos::new(((i / 40) % 6) as i32, 0),
        view_distance: 3,
    };
    let stop = std::time::Instant::now() + Duration::from_secs(3);
    let mut i = 0usize;
    let mut latest = BTreeMap::new();
    while std::time::Instant::now() < stop {
        let f = core.frame(&[viewer_at(i)], &mut pool).unwrap();
        for (p, m) in &f.meshes {
            latest.insert(*p, mesh_digest(m));
        }
        for p in &f.unloaded {
            latest.remove(p);
        }
        let (x, block) = (
            (i % 96) as i32,
            if i.is_multiple_of(2) { stone } else { air },
        );
        core.set_block(x, 80, 5, block).unwrap();
        assert_eq!(
            core.block(x, 80, 5),
            Ok(block),
            "an edit reads back at once"
        );
        if let Some(p) = core.shown().first() {
            let d = core.full(*p).unwrap();
            assert!(d.full().is_some());
        }
        if i.is_multiple_of(25) {
            let records = core.edit_records();
            core.load_edit_records(&records).unwrap();
        }
        let _ = core.stats();
        i += 1;
        std::thread::sleep(Duration::from_millis(1));
    }
    let last = [viewer_at(i)];
    settle(&mut core, &mut pool, &last, &mut latest);
    let shown = core.shown();
    let want = expected_meshes(&core, &shown);
    for p in &shown {
        assert_eq!(latest.get(p), want.get(p), "mesh of {p:?} after the mix");
    }
    let wait = core.stats().main_wait_max;
    core.shut_down(&mut pool).unwrap();
    wait
}

/// A shown chunk keeps its neighbours resident while it is held, even once their tickets
/// are released (its own request counts them), so an edit remeshes it with its whole
/// neighbourhood: the viewer moves until chunk (3, 0) is kept but its neighbour (4, 0)
/// released, a block of (3, 0) is edited, and every mesh shown is the library's mesh of the
/// edited world, before and after the viewer comes back.
#[test]
fn a_shown_chunk_remeshes_with_a_neighbour_whose_ticket_was_released() {
    let settings = StreamSettings {
        view_distance: 3,
        ..StreamSettings::default()
    };
    let at = |x: i32| {
        [Viewer {
            chunk: ChunkPos::new(x, 0),
            view_distance: 3,
        }]
    };
    let generator = world(33);
    let stone = generator.definition().blocks.by_name("stone").unwrap();
    let mut core = Streaming::new(generator, settings, MeshOptions::default(), 2);
    let mut pool = ThreadPool::default();
    let mut latest = BTreeMap::new();
    settle(&mut core, &mut pool, &at(0), &mut latest);
    let (x, n) = (ChunkPos::new(3, 0), ChunkPos::new(4, 0));
    assert!(core.shown().contains(&x));
    settle(&mut core, &mut pool, &at(-3), &mut latest);
    assert!(!core.streamer().holds(n), "(4, 0) released");
    assert!(core.streamer().holds(x), "(3, 0) kept");
    assert!(core.shown().contains(&x), "(3, 0) stays in the scene");
    core.set_block(56, 70, 8, stone).unwrap();
    settle(&mut core, &mut pool, &at(-3), &mut latest);
    let shown = core.shown();
    let want = expected_meshes(&core, &shown);
    for p in &shown {
        assert_eq!(latest.get(p), want.get(p), "mesh of {p:?} after the edit");
    }
    settle(&mut core, &mut pool, &at(0), &mut latest);
    let shown = core.shown();
    assert!(shown.contains(&x));
    let want = expected_meshes(&core, &shown);
    for p in &shown {
        assert_eq!(latest.get(p), want.get(p), "mesh of {p:?} back in view");
    }
    core.shut_down(&mut pool).unwrap();
}
