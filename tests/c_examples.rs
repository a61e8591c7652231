//! The C and C++ examples are tests: build the static library and the examples with
//! `-Wall -Wextra -Werror -pedantic`, run them, and compare their digests with the Rust API's;
//! run the misuse and guard-page tests; run the examples and both tests under valgrind, and
//! again built with AddressSanitizer and UndefinedBehaviorSanitizer.
#[path = "c_examples/checkers.rs"]
mod checkers;
mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;
use stratagen_cli::{generate, square};
use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::world::WorldSettings;
use stratagen_host::Region;

/// Build `libstratagen.a` (release, own target dir so it never waits on this test's build)
/// and the examples, once per test process.
fn examples() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = common::root();
        let target = root.join("target/ffi-build");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let o = Command::new(cargo)
            .args([
                "build",
                "-p",
                "stratagen-ffi",
                "--release",
                "--locked",
                "--target-dir",
            ])
            .arg(&target)
            .current_dir(&root)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = root.join("target/test-scratch/examples-c");
        std::fs::create_dir_all(&out).unwrap();
        let o = Command::new("make")
            .arg("-C")
            .arg(root.join("examples-c"))
            .arg(format!(
                "LIB={}",
                target.join("release/libstratagen.a").display()
            ))
            .arg(format!("OUT={}", out.display()))
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "make: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        out
    })
}

fn run(args: &[&str]) -> String {
    let exe = examples().join(args[0]);
    let o = Command::new(&exe).args(&args[1..]).output().unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn chunk_lines(s: &str) -> BTreeMap<ChunkPos, u64> {
    s.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 4 && f[0] == "chunk").then(|| {
                (
                    ChunkPos::new(f[1].parse().unwrap(), f[2].parse().unwrap()),
                    u64::from_str_radix(f[3], 16).unwrap(),
                )
            })
        })
        .collect()
}

/// `positions` generated to full by the Rust API, in the world of `seed`.
fn rust_region(seed: i64, positions: &[ChunkPos]) -> Region {
    generate(
        WorldSettings {
            seed,
            ..WorldSettings::default()
        },
        positions,
        ChunkStatus::Full,
        2,
        |_, _| {},
    )
    .unwrap()
}

fn rust_digests(seed: i64, positions: &[ChunkPos]) -> (BTreeMap<ChunkPos, u64>, u64) {
    let r = rust_region(seed, positions);
    (r.digests().into_iter().collect(), r.digest())
}

#[test]
fn c_pool_digests_equal_rust_for_1_2_4_threads() {
    let (want, region) = rust_digests(7, &square((0, 0), 2));
    for threads in ["1", "2", "4"] {
        let out = run(&["pool", "7", "2", threads]);
        assert_eq!(chunk_lines(&out), want, "{threads} threads");
        assert!(
            out.contains(&format!("region {region:016x}")),
            "{threads} threads: region digest"
        );
    }
}

#[test]
fn cpp_walk_digests_equal_rust() {
    let out = run(&["walk", "11", "8", "2"]);
    let got = chunk_lines(&out);
    assert_eq!(got.len(), 25);
    let positions: Vec<ChunkPos> = got.keys().copied().collect();
    let (want, _) = rust_digests(11, &positions);
    assert_eq!(got, want);
}

/// The C++ wrapper's chunks and mesh are the library's, and every check of `wrapper.cpp`
/// (exceptions with the C API's codes, copies equal to views, edit records) passed.
#[test]
fn cpp_wrapper_equals_rust() {
    use stratagen_core::mesh::{mesh_chunk, MeshOptions};
    use stratagen_core::world::{Neighbourhood, Palette};
    let out = run(&["wrapper", "5", "1"]);
    let got = chunk_lines(&out);
    let positions = square((0, 0), 1);
    assert_eq!(got.len(), positions.len());
    let r = rust_region(5, &positions);
    let want: BTreeMap<ChunkPos, u64> = r.digests().into_iter().collect();
    assert_eq!(got, want);
    let full = |x: i32, z: i32| r.chunks.get(&ChunkPos::new(x, z)).and_then(|d| d.full());
    let n = Neighbourhood::from_fn(full);
    let mesh = mesh_chunk(
        &n,
        r.generator.dims(),
        &Palette::builtin(),
        &MeshOptions::default(),
    )
    .unwrap();
    assert!(
        out.contains(&format!("mesh 0 0 {:016x}\n", mesh.digest())),
        "{out}"
    );
    assert_all_checks_passed("wrapper", &out);
}

/// Saved part-way through, loaded into a new world, finished: the digests of a run that
/// never stopped, and exactly the tasks the records did not hold.
#[test]
fn c_resume_from_records_equals_an_uninterrupted_run() {
    let (want, _) = rust_digests(3, &square((0, 0), 2));
    let full = run(&["resume", "3", "2", "100000000"]);
    let total: usize = tasks_ran(&full, "before");
    assert_eq!(chunk_lines(&full), want);
    assert_eq!(
        tasks_ran(&full, "after"),
        0,
        "everything was stored at full"
    );
    for stop in [1, total / 3, 2 * total / 3] {
        let out = run(&["resume", "3", "2", &stop.to_string()]);
        assert_eq!(
            chunk_lines(&out),
            want,
            "stop after {stop} of {total} tasks"
        );
        let (before, after) = (tasks_ran(&out, "before"), tasks_ran(&out, "after"));
        assert_eq!(before, stop);
        // Nothing stored runs again, nothing is lost.
        assert_eq!(
            after,
            total - stop,
            "tasks after a stop at {stop} of {total}"
        );
    }
}

/// The C example's edits, made through the Rust edit layer, give its digests; its reloaded
/// world equals its live one (it exits 1 otherwise); it lists the chunks to remesh.
#[test]
fn c_edits_equal_rust_and_survive_a_reload() {
    use stratagen_core::engine::{Priority, Scheduler};
    use stratagen_core::world::block;
    use stratagen_core::world::edit::{BlockEdit, EditLayer};
    use stratagen_core::world::{chunk_digest, World, WorldGen};
    let out = run(&["edit", "4"]);
    assert!(out.contains("reloaded equal"), "{out}");
    let g = WorldGen::new(WorldSettings {
        seed: 4,
        ..WorldSettings::default()
    })
    .unwrap();
    let mut sched = Scheduler::new(std::sync::Arc::new(World::new(g.clone())));
    let positions = square((0, 0), 1);
    for &p in &positions {
        sched.request(p, ChunkStatus::Full, Priority::Soon).unwrap();
    }
    while sched.run_inline(usize::MAX) > 0 {}
    let mut layer = EditLayer::new(&g);
    for y in 40..=90 {
        layer
            .set_block(BlockEdit {
                x: 5,
                y,
                z: 5,
                block: block::AIR,
            })
            .unwrap();
    }
    let kinds = [block::GLOWSTONE, block::TORCH, block::STONE];
    for i in 0..48 {
        layer
            .set_block(BlockEdit {
                x: (i * 5) % 16,
                y: 60 + i % 24,
                z: (i * 11) % 16,
                block: kinds[i as usize % 3],
            })
            .unwrap();
    }
    let want: BTreeMap<ChunkPos, u64> = positions
        .iter()
        .map(|&p| (p, chunk_digest(&layer.full(&sched, p).unwrap())))
        .collect();
    assert_eq!(chunk_lines(&out), want);
    let changed: Vec<String> = layer
        .edits_mut()
        .take_changed()
        .iter()
        .map(|p| format!("changed {} {}", p.x, p.z))
        .collect();
    let printed: Vec<&str> = out.lines().filter(|l| l.starts_with("changed")).collect();
    assert_eq!(printed, changed);
    assert!(changed.len() >= 5, "{out}");
}

/// The task count printed by `resume` "ran N tasks before" / "ran N after".
fn tasks_ran(out: &str, when: &str) -> usize {
    let line = out.lines().find(|l| l.starts_with("resumed:")).unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| *w == when)
        .expect("the resumed line");
    let n = if when == "before" { at - 2 } else { at - 1 };
    words[n].parse().unwrap()
}

/// A world made from a preset's text through the C API generates what the Rust API generates
/// for that preset; a bad document is refused with every problem in the error buffer.
#[test]
fn c_world_from_a_definition_equals_rust() {
    let out = run(&["definition", "caverns", "3", "1"]);
    let world = std::sync::Arc::new(stratagen_worldfile::load("caverns").unwrap());
    let generator = stratagen_core::world::WorldGen::with_definition(
        WorldSettings {
            seed: 3,
            ..WorldSettings::default()
        },
        world.clone(),
    )
    .unwrap();
    let positions = square((0, 0), 1);
    let r = stratagen_cli::generate_world(generator, &positions, ChunkStatus::Full, 2, |_, _| {})
        .unwrap();
    let want: BTreeMap<ChunkPos, u64> = r.digests().into_iter().collect();
    assert_eq!(chunk_lines(&out), want);
    assert!(
        out.contains(&format!("definition {:016x}", world.digest())),
        "{out}"
    );
    assert!(
        out.contains("glowstone 37 emission 15 name glowstone"),
        "{out}"
    );
    assert!(
        out.contains("5:9: terrain.stone: unknown block \"granite\""),
        "{out}"
    );
    assert!(
        out.contains("6:18: terrain.bedrock_layers: 9 is out of range 0..=8"),
        "{out}"
    );
}

/// Every check of `misuse.c` ran and passed: the summary line counts as many passed checks
/// as the source has `expect(...)` call sites (none sits in a loop or a branch), and none
/// failed.
#[test]
fn c_misuse_gives_documented_errors() {
    let source = std::fs::read_to_string(common::root().join("examples-c/misuse.c")).unwrap();
    let sites = source.matches("expect(").count() - 1;
    assert!(sites >= 100, "{sites} checks in misuse.c");
    assert_all_checks_passed("misuse", &run(&["misuse"]));
}

/// The summary line `name: N passed, 0 failed` with N the number of `expect(...)` call sites
/// of the program's source (none sits in a loop or a branch).
fn assert_all_checks_passed(name: &str, out: &str) {
    let dir = common::root().join("examples-c");
    let c = dir.join(format!("{name}.c"));
    let source = std::fs::read_to_string(if c.exists() {
        c
    } else {
        dir.join(format!("{name}.cpp"))
    })
    .unwrap();
    let sites = source.matches("expect(").count() - 1; // less the definition
    let summary = out
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name}: ")))
        .unwrap_or_else(|| panic!("no summary line: {out}"));
    assert_eq!(summary, format!("{sites} passed, 0 failed"), "{out}");
}

/// Versioned structs cut to their `struct_size` field at the end of a readable page are
/// refused by every export that takes one, without a read past the field.
#[test]
fn c_short_structs_at_a_guard_page_are_refused() {
    assert_all_checks_passed("guard_page", &run(&["guard_page"]));
}

/// The C scatter calls list the definition's layers and kinds and give, per chunk and layer,
/// the library's instances bit for bit.
#[test]
fn c_scatter_equals_rust() {
    use stratagen_core::world::scatter::{is_ground, scatter_chunk};
    use stratagen_core::world::WorldGen;
    let out = run(&["scatter", "6"]);
    let g = WorldGen::new(WorldSettings {
        seed: 6,
        ..WorldSettings::default()
    })
    .unwrap();
    let world = g.definition();
    let r = rust_region(6, &square((0, 0), 2));
    let mut want = Vec::new();
    for l in &world.scatter {
        want.push(format!(
            "layer {} {:.3} {}",
            l.name,
            l.radius,
            l.kinds.len()
        ));
        for k in &l.kinds {
            want.push(format!("kind {} {}", l.name, k.name));
        }
    }
    let mut instances = 0;
    for z in -1..=1 {
        for x in -1..=1 {
            let full = r.chunks[&ChunkPos::new(x, z)].full().unwrap();
            for (li, l) in world.scatter.iter().enumerate() {
                let ground = |b| is_ground(&world.blocks, b);
                let v = scatter_chunk(6, &g.dims(), l, full, ground);
                want.push(format!("scatter {x} {z} {li} {}", v.len()));
                for i in &v {
                    let f: Vec<String> = i
                        .position
                        .iter()
                        .chain([i.yaw, i.scale].iter())
                        .chain(i.up.iter())
                        .map(|v| format!("{:08x}", v.to_bits()))
                        .collect();
                    want.push(format!("instance {} {}", i.kind, f.join(" ")));
                }
                instances += v.len();
            }
        }
    }
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got, want);
    assert!(instances > 20, "{instances} instances");
}

/// The examples and the misuse and guard-page tests built with `-fsanitize=address,undefined`
/// (and LeakSanitizer, on with ASan) run clean against the library.
/// `make TARGET` in `examples-c` against the library the examples link; the examples'
/// output folder.
fn make_examples(target: &str) -> &'static PathBuf {
    let out = examples();
    let o = Command::new("make")
        .arg("-C")
        .arg(common::root().join("examples-c"))
        .arg(format!(
            "LIB={}",
            common::root()
                .join("target/ffi-build/release/libstratagen.a")
                .display()
        ))
        .arg(format!("OUT={}", out.display()))
        .arg(target)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "make {target}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

#[test]
fn c_heightmap_writes_a_pgm() {
    let path = examples().join("h.pgm");
    run(&["heightmap", path.to_str().unwrap(), "3"]);
    let data = std::fs::read(&path).unwrap();
    assert!(data.starts_with(b"P5\n256 256\n255\n"));
    let pixels = &data[15..];
    assert_eq!(pixels.len(), 256 * 256);
    // The first pixel is the library's heightmap sample at block (0, 0), mapped to 0..255.
    let def = stratagen_core::noise::NoiseDef {
        seed: 3,
        octaves: 6,
        frequency: 1.0 / 24.0,
        ..Default::default()
    };
    let mut tile = vec![0f32; 64 * 64];
    def.build()
        .unwrap()
        .heightmap_chunk(0, 0, 64, &mut tile)
        .unwrap();
    assert_eq!(pixels[0], ((tile[0] + 1.0) * 127.5) as u8);
    assert!(pixels.iter().any(|&p| p != pixels[0]));
}

/// The C pool host generates each parity-corpus chunk; its full digest equals the corpus line.
#[test]
fn c_pool_reproduces_the_parity_corpus() {
    #[allow(dead_code)]
    #[path = "parity/corpus.rs"]
    mod corpus;
    let snap =
        std::fs::read_to_string(common::root().join("tests/snapshots/parity__parity_corpus.snap"))
            .unwrap();
    for (label, seed, x, z) in corpus::CHUNKS {
        let out = run(&[
            "pool",
            &seed.to_string(),
            "0",
            "2",
            &x.to_string(),
            &z.to_string(),
        ]);
        let d = chunk_lines(&out)[&ChunkPos::new(x, z)];
        let want = format!("chunk {label} seed {seed} ({x}, {z}) full {d:016x}");
        assert!(snap.contains(&want), "{want}");
    }
}

/// The C mesh example builds meshes on 1, 2 and 4 pthreads from mesh sources; every digest
/// equals the Rust mesher's on the same chunks, and the size-query copy path agrees with the
/// counts.
#[test]
fn c_mesh_digests_equal_rust_for_1_2_4_threads() {
    use stratagen_core::mesh::{mesh_chunk, MeshOptions, Mode};
    use stratagen_core::world::{Neighbourhood, Palette};
    let r = rust_region(0, &square((0, 0), 2));
    let dims = r.generator.dims();
    let full = |x: i32, z: i32| r.chunks.get(&ChunkPos::new(x, z)).and_then(|d| d.full());
    let mut want = Vec::new();
    for z in -1..=1 {
        for x in -1..=1 {
            let n = Neighbourhood::from_fn(|dx, dz| full(x + dx, z + dz));
            let digest = |mode| {
                let o = MeshOptions {
                    mode,
                    ..MeshOptions::default()
                };
                mesh_chunk(&n, dims, &Palette::builtin(), &o).unwrap()
            };
            let (c, g) = (digest(Mode::Culled), digest(Mode::Greedy));
            want.push(format!(
                "mesh {x} {z} culled {:016x} greedy {:016x} quads {}",
                c.digest(),
                g.digest(),
                c.quad_count()
            ));
        }
    }
    for threads in ["1", "2", "4"] {
        let out = run(&["mesh", "0", "2", threads]);
        let got: Vec<String> = out
            .lines()
            .filter(|l| l.starts_with("mesh "))
            .map(String::from)
            .collect();
        assert_eq!(got, want, "{threads} threads");
        assert_eq!(out.lines().filter(|l| l.starts_with("surface ")).count(), 3);
    }
}

/// `stress` (every call the C API allows from several threads, at once, under a watchdog)
/// reports no failure, exercised every kind of call, and the chunks it generates afterwards
/// are the library's; built with ThreadSanitizer (against the shared library, whose own
/// locking TSan cannot see and `tsan.supp` leaves out), its host side of every hand-off is
/// race-free.
#[test]
fn c_calls_from_many_threads_never_hang_and_agree() {
    let check = |out: &str| {
        let calls = out.lines().next().unwrap_or("");
        assert!(calls.ends_with(" failures=0"), "{out}");
        for counter in ["tasks", "meshes", "fills", "wrong_thread"] {
            let n: u64 = calls
                .split_whitespace()
                .find_map(|w| w.strip_prefix(&format!("{counter}=")))
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            assert!(n > 0, "no {counter} in {calls}");
        }
        let (want, _) = rust_digests(5, &stratagen_cli::rect(38, 38, 42, 42));
        assert_eq!(chunk_lines(out), want);
    };
    check(&run(&["stress", "5", "3", "4"]));

    let out = make_examples("tsan");
    let o = Command::new(out.join("tsan/stress"))
        .args(["5", "3", "4"])
        .env(
            "TSAN_OPTIONS",
            format!(
                "halt_on_error=1:exitcode=97:suppressions={}",
                common::root().join("examples-c/tsan.supp").display()
            ),
        )
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "stress under ThreadSanitizer: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    check(&String::from_utf8_lossy(&o.stdout));
}
