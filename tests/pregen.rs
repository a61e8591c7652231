//! `stratagen pregen` survives being killed: started on a region, killed with SIGKILL at
//! three random moments (restarted each time), then let finish. The store then passes
//! SQLite's integrity check, holds every chunk of the region once and nothing else, later
//! runs resumed (skipped what was stored), and the region digest read from the store equals
//! `stratagen digest` of the same region generated afresh.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use stratagen_core::engine::{ChunkRect, ChunkStatus};
use stratagen_store::sqlite::{remove_store, ChunkStore};

const BIN: &str = env!("CARGO_BIN_EXE_stratagen");
const REGION: &str = "-8,-8,23,23";
const CHUNKS: u64 = 32 * 32;

fn temp(name: &str) -> PathBuf {
    // Inside the target directory (Cargo's scratch space for integration tests), so a run
    // leaves nothing in the system's temporary directory.
    let p = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("pregen-{name}"));
    remove_store(&p).unwrap();
    p
}

fn pregen(out: &Path) -> Command {
    let mut c = Command::new(BIN);
    c.args([
        "pregen",
        "--seed",
        "5",
        "--threads",
        "2",
        "--region",
        REGION,
        "--out",
    ])
    .arg(out);
    c
}

/// Rows committed so far (0 while the store does not exist yet or is being created).
fn committed(path: &Path) -> u64 {
    ChunkStore::open_existing(path)
        .and_then(|s| s.count())
        .unwrap_or(0)
}

/// Run `stratagen` with `args`, then `store` as the last argument.
fn stratagen(args: &[&str], store: &Path) -> std::process::Output {
    Command::new(BIN).args(args).arg(store).output().unwrap()
}

/// [`stratagen`], which must succeed; its stdout.
fn succeeds(args: &[&str], store: &Path) -> Vec<u8> {
    let out = stratagen(args, store);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn region_digest(out: &[u8]) -> String {
    String::from_utf8_lossy(out)
        .lines()
        .find_map(|l| l.strip_prefix("region ").map(str::to_string))
        .expect("a region digest line")
}

#[test]
fn pregen_killed_three_times_then_finished_equals_a_fresh_digest() {
    let store = temp("crash.sqlite");
    // A seed from the clock, printed, so a failure can be replayed.
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    eprintln!("kill-moment seed {seed}");
    let mut rng = stratagen_core::util::random::JavaRandom::new(seed as i64);
    let mut kills = 0;
    let mut last = 0;
    for round in 0..3 {
        // Kill once the store holds between 10% and 80% of the region beyond what the last
        // run left, plus 0..40 ms, so the kill lands anywhere: inside a commit, during
        // generation, while loading stored neighbours.
        let target = last + (CHUNKS - last) * (10 + rng.next_int_bounded(70) as u64) / 100;
        let extra = Duration::from_millis(rng.next_int_bounded(40) as u64);
        let mut child = pregen(&store)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let t0 = Instant::now();
        let finished = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break Some(status);
            }
            if committed(&store) >= target {
                std::thread::sleep(extra);
                break None;
            }
            assert!(t0.elapsed() < Duration::from_secs(600), "pregen hangs");
            std::thread::sleep(Duration::from_millis(3));
        };
        match finished {
            Some(status) => eprintln!("round {round}: finished ({status}) before the kill"),
            None => {
                child.kill().unwrap(); // SIGKILL
                child.wait().unwrap();
                kills += 1;
            }
        }
        last = committed(&store);
        eprintln!("round {round}: {last} chunks stored");
    }
    assert!(kills >= 2, "only {kills} runs were killed mid-way");

    let out = pregen(&store).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("{last} already stored")),
        "the final run resumed: {text}"
    );

    let s = ChunkStore::open_existing(&store).unwrap();
    assert_eq!(s.integrity_check().unwrap(), "ok");
    assert_eq!(s.count().unwrap(), CHUNKS, "every chunk once, nothing else");
    let region = ChunkRect::new(-8, -8, 23, 23).unwrap();
    assert_eq!(
        s.positions_in(region, ChunkStatus::Full).unwrap().len() as u64,
        CHUNKS
    );
    drop(s);

    let from = succeeds(&["digest", "--region", REGION, "--from"], &store);
    let fresh = Command::new(BIN)
        .args([
            "digest",
            "--seed",
            "5",
            "--threads",
            "2",
            "--region",
            REGION,
        ])
        .output()
        .unwrap();
    assert!(fresh.status.success());
    assert_eq!(region_digest(&from), region_digest(&fresh.stdout));
    // Per-chunk lines too, not only the region line.
    assert_eq!(from, fresh.stdout);
}

#[test]
fn store_of_another_world_is_refused_untouched() {
    let store = temp("other.sqlite");
    succeeds(
        &["pregen", "--seed", "5", "--region", "0,0,1,1", "--out"],
        &store,
    );
    let before = std::fs::read(&store).unwrap();
    let other = stratagen(
        &["pregen", "--seed", "6", "--region", "0,0,1,1", "--out"],
        &store,
    );
    assert!(!other.status.success());
    let err = String::from_utf8_lossy(&other.stderr);
    assert!(
        err.contains("another world") && err.contains("seed"),
        "{err}"
    );
    assert_eq!(std::fs::read(&store).unwrap(), before);
    let digest = stratagen(&["digest", "--region", "0,0,2,2", "--from"], &store);
    assert!(!digest.status.success());
    assert!(String::from_utf8_lossy(&digest.stderr).contains("is not in"));
}

/// `stratagen edit` killed with SIGKILL at random moments of a large script: each time the
/// store passes SQLite's integrity check and holds all of the script's edits or none; a run
/// let finish then holds exactly the records of an uninterrupted run.
#[test]
fn edit_killed_keeps_all_of_a_script_or_none() {
    let script = temp("big-edit.txt");
    std::fs::write(
        &script,
        "fill -64 0 -64 191 47 191 stone\nfill -64 48 -64 191 60 191 glowstone\n",
    )
    .unwrap();
    let edit = |out: &Path| {
        let mut c = Command::new(BIN);
        c.args(["edit", "--seed", "5", "--script"])
            .arg(&script)
            .arg("--out")
            .arg(out);
        c
    };
    let clean = temp("edit-clean.sqlite");
    let t0 = Instant::now();
    let out = edit(&clean).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let full_run = t0.elapsed();
    let want = ChunkStore::open_existing(&clean).unwrap().edits().unwrap();
    assert_eq!(want.len(), 16 * 16);

    let store = temp("edit-crash.sqlite");
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    eprintln!("kill-moment seed {seed}");
    let mut rng = stratagen_core::util::random::JavaRandom::new(seed as i64);
    for round in 0..3 {
        remove_store(&store).unwrap();
        let at = full_run.mul_f64(f64::from(rng.next_int_bounded(100)) / 100.0);
        let mut child = edit(&store)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(at);
        let _ = child.kill(); // SIGKILL, unless it finished
        child.wait().unwrap();
        if let Ok(s) = ChunkStore::open_existing(&store) {
            assert_eq!(s.integrity_check().unwrap(), "ok");
            let held = s.edits().unwrap();
            assert!(
                held.is_empty() || held == want,
                "round {round}: {} of {} edit records",
                held.len(),
                want.len()
            );
            eprintln!("round {round}: killed at {at:?}, {} records", held.len());
        }
    }
    let out = edit(&store).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        ChunkStore::open_existing(&store).unwrap().edits().unwrap(),
        want
    );
}

/// A run its progress callback stops ends with `Stopped`, having committed every chunk it
/// reported stored and nothing else; a rerun stores the rest, and the store reads as the
/// region generated afresh.
#[test]
fn a_stopped_run_keeps_what_it_stored_and_a_rerun_resumes() {
    use std::ops::ControlFlow;
    use stratagen_core::world::{WorldGen, WorldSettings};
    use stratagen_host::{pregen, HostError};

    let path = temp("stopped.sqlite");
    let generator = WorldGen::new(WorldSettings {
        seed: 5,
        ..WorldSettings::default()
    })
    .unwrap();
    let region = ChunkRect::new(0, 0, 7, 3).unwrap();
    let stopped = pregen(generator.clone(), region, &path, 2, |done, _| {
        if done >= 5 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert!(
        matches!(
            stopped,
            Err(HostError::Stopped {
                stored: 5,
                total: 32
            })
        ),
        "{stopped:?}"
    );
    assert_eq!(committed(&path), 5);
    let again = pregen(
        generator,
        region,
        &path,
        2,
        |_, _| ControlFlow::Continue(()),
    )
    .unwrap();
    assert_eq!((again.skipped, again.generated), (5, 27));
    let from = succeeds(&["digest", "--region", "0,0,7,3", "--from"], &path);
    let fresh = Command::new(BIN)
        .args(["digest", "--seed", "5", "--region", "0,0,7,3"])
        .output()
        .unwrap();
    assert_eq!(region_digest(&from), region_digest(&fresh.stdout));
}

/// When the disk fills up mid-run, the command reports SQLite's reason (the record writer's
/// own error), not only that the writer stopped. The disk is a 1 MiB tmpfs mounted in a user
/// namespace of the test's own (`unshare -rm`).
#[test]
fn a_full_disk_reports_sqlite_s_error() {
    let usable = Command::new("unshare")
        .args(["-rm", "true"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !usable {
        assert!(
            std::env::var_os("CI").is_none(),
            "`unshare -rm` (util-linux, user namespaces) is needed under CI"
        );
        eprintln!("skipped: needs `unshare -rm` to mount a small tmpfs (util-linux)");
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pregen-small-disk");
    std::fs::create_dir_all(&dir).unwrap();
    let script = format!(
        "mount -t tmpfs -o size=1m tmpfs '{d}' && '{BIN}' pregen --seed 5 --threads 2 \
         --region 0,0,15,15 --out '{d}/w.sqlite'",
        d = dir.display()
    );
    let o = Command::new("unshare")
        .args(["-rm", "sh", "-c", &script])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "a 1 MiB disk held 256 chunks: {err}");
    assert!(err.contains("database or disk is full"), "{err}");
    assert!(!err.contains("writer"), "{err}");
}

/// Regions that hold no chunk or reach past the supported range are refused by every
/// command before anything is generated or written.
#[test]
fn empty_and_out_of_range_regions_are_refused() {
    let out = temp("never.sqlite");
    for (region, says) in [
        ("1,0,0,0", "holds no chunk"),
        ("0,1,0,0", "holds no chunk"),
        ("0,0,2097152,0", "outside the supported range"),
        ("-2097152,0,0,0", "outside the supported range"),
    ] {
        for cmd in ["pregen", "digest", "verify"] {
            let mut c = Command::new(BIN);
            c.arg(cmd);
            if cmd == "verify" {
                c.arg(&out);
            }
            c.args(["--region", region]);
            if cmd == "pregen" {
                c.arg("--out").arg(&out);
            }
            let o = c.output().unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(!o.status.success(), "{cmd} --region {region}");
            assert!(err.contains(says), "{cmd} --region {region}: {err}");
        }
    }
    assert!(!out.exists());
}
