//! Shards on the command line alone: `stratagen pregen --shard I/N` run as separate
//! processes, then `stratagen merge`, give the unsharded store's rows byte for byte, for
//! every shard count and tile size; a shard runs exactly the border its statuses need;
//! merging is idempotent; a conflicting duplicate and a store of another world are refused
//! with the output untouched.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use stratagen_core::engine::{ChunkPos, ChunkRect, ChunkStatus};
use stratagen_host::ShardPlan;
use stratagen_store::sqlite::{remove_store, ChunkStore};

const BIN: &str = env!("CARGO_BIN_EXE_stratagen");
const REGION: &str = "-4,-3,7,6";

fn temp(name: &str) -> PathBuf {
    // Inside the target directory (Cargo's scratch space for integration tests), so a run
    // leaves nothing in the system's temporary directory.
    let p = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("shards-{name}"));
    remove_store(&p).unwrap();
    p
}

fn succeeds(args: &[&str]) -> String {
    let o = Command::new(BIN).args(args).output().unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn fails(args: &[&str]) -> String {
    let o = Command::new(BIN).args(args).output().unwrap();
    assert!(!o.status.success(), "{args:?} succeeded");
    String::from_utf8(o.stderr).unwrap()
}

/// `stratagen pregen` of `REGION` into `out`; what it printed.
fn pregen(out: &Path, seed: &str, extra: &[&str]) -> String {
    let out = out.to_str().unwrap();
    let mut args = vec![
        "pregen",
        "--seed",
        seed,
        "--threads",
        "2",
        "--region",
        REGION,
    ];
    args.extend_from_slice(&["--out", out]);
    args.extend_from_slice(extra);
    succeeds(&args)
}

/// Every row of a store: position → (status, record bytes).
fn rows(path: &Path) -> BTreeMap<ChunkPos, Vec<u8>> {
    let s = ChunkStore::open_read_only(path).unwrap();
    s.positions(ChunkStatus::Empty)
        .unwrap()
        .into_iter()
        .map(|p| (p, s.get(p).unwrap().unwrap()))
        .collect()
}

/// The store of `REGION` generated as `n` shards of `tile`, each in its own process, merged.
fn sharded(name: &str, n: usize, tile: &str) -> PathBuf {
    let merged = temp(&format!("{name}-merged.sqlite"));
    let mut parts = Vec::new();
    for i in 0..n {
        let part = temp(&format!("{name}-{i}.sqlite"));
        pregen(
            &part,
            "11",
            &["--shard", &format!("{i}/{n}"), "--tile", tile],
        );
        parts.push(part);
    }
    let mut args = vec!["merge".to_string(), merged.display().to_string()];
    args.extend(parts.iter().map(|p| p.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    succeeds(&args);
    merged
}

#[test]
fn tiles_cover_the_region_once_in_row_major_order() {
    let plan = ShardPlan::new(ChunkRect::new(-4, -3, 7, 6).unwrap(), 5).unwrap();
    let tiles: Vec<_> = plan.tiles().iter().map(ChunkRect::bounds).collect();
    assert_eq!(tiles[0], (-4, -3, 0, 1));
    assert_eq!(tiles[2], (6, -3, 7, 1));
    assert_eq!(tiles.last(), Some(&(6, 2, 7, 6)));
    assert_eq!(tiles.len(), 6);
    let mut seen = BTreeMap::new();
    for (x0, z0, x1, z1) in &tiles {
        for z in *z0..=*z1 {
            for x in *x0..=*x1 {
                *seen.entry((x, z)).or_insert(0) += 1;
            }
        }
    }
    assert_eq!(seen.len(), 12 * 10);
    assert!(seen.values().all(|&n| n == 1));
    // Shards partition the tiles.
    let owned: usize = (0..4).map(|i| plan.shard(i, 4).unwrap().len()).sum();
    assert_eq!(owned, tiles.len());
    assert!(plan.shard(4, 4).is_err());
    assert!(ShardPlan::new(ChunkRect::new(0, 0, 0, 0).unwrap(), 0).is_err());
}

#[test]
fn shards_merged_equal_the_unsharded_store() {
    let whole = temp("whole.sqlite");
    pregen(&whole, "11", &[]);
    let want = rows(&whole);
    assert_eq!(want.len(), 12 * 10);

    let three = sharded("three", 3, "4");
    assert_eq!(rows(&three), want, "3 shards of 4 x 4 tiles");
    let one = sharded("one", 1, "64");
    let seven = sharded("seven", 7, "3");
    assert_eq!(rows(&one), rows(&seven), "1 shard and 7 shards");
    assert_eq!(rows(&seven), want);

    // The digest read from the merged store is the digest of the region generated afresh.
    let from = succeeds(&[
        "digest",
        "--region",
        REGION,
        "--from",
        three.to_str().unwrap(),
    ]);
    let fresh = succeeds(&["digest", "--seed", "11", "--region", REGION]);
    assert_eq!(from, fresh);

    // verify: every chunk there, a sample regenerated equal.
    let ok = succeeds(&[
        "verify",
        three.to_str().unwrap(),
        "--region",
        REGION,
        "--sample",
        "5",
    ]);
    assert!(
        ok.contains("120 of 120 chunks stored, 0 missing; 5 sampled, 0 differ"),
        "{ok}"
    );
    // Merging again copies nothing and changes nothing.
    let again = succeeds(&["merge", three.to_str().unwrap(), whole.to_str().unwrap()]);
    assert!(again.contains("0 chunks copied, 120 identical"), "{again}");
    assert_eq!(rows(&three), want);
}

/// How far past a rectangle each status must run, in chunks, for every chunk inside to reach
/// `full`: worked out by hand from the direct dependencies in DESIGN.md's step table (`full`,
/// `spawn`, `light` 0; `initialize_light` 1; `features` 2; `terrain` 3; `biomes` and
/// `structure_references` 4; `structure_starts` and `empty` 4 + 8, the references' reach).
const RING: [i64; 10] = [12, 12, 4, 4, 3, 2, 1, 0, 0, 0];

/// Tasks to bring a `w` × `h` rectangle of chunks to `full` with nothing generated around it.
fn tasks_for(w: i64, h: i64) -> i64 {
    RING.iter().map(|r| (w + 2 * r) * (h + 2 * r)).sum()
}

/// The task count a `pregen` run prints ("N tasks in ...").
fn tasks_run(stdout: &str) -> i64 {
    let line = stdout.lines().find(|l| l.contains(" tasks in ")).unwrap();
    line.split_whitespace().next().unwrap().parse().unwrap()
}

/// A shard runs exactly the border its statuses need, however it sits in the plan: the
/// corner, edge and middle tiles of the 3 × 3 plan of `REGION` in tiles of 4 all run the
/// tasks of one tile alone, and the unsharded region the tasks of one rectangle. The shard
/// overhead the distributed bench prints follows from these counts.
#[test]
fn a_shard_runs_the_border_its_statuses_need_and_no_more() {
    let whole = pregen(&temp("ring-whole.sqlite"), "11", &[]);
    assert_eq!(tasks_run(&whole), tasks_for(12, 10));
    for i in ["0", "1", "4"] {
        let shard = format!("{i}/9");
        let out = pregen(
            &temp(&format!("ring-{i}.sqlite")),
            "11",
            &["--shard", &shard, "--tile", "4"],
        );
        assert_eq!(tasks_run(&out), tasks_for(4, 4), "shard {shard}");
    }
}

#[test]
fn conflicts_and_foreign_worlds_are_refused_untouched() {
    let a = temp("a.sqlite");
    pregen(&a, "11", &["--shard", "0/2", "--tile", "6"]);
    let out = temp("out.sqlite");
    succeeds(&["merge", out.to_str().unwrap(), a.to_str().unwrap()]);
    let before = rows(&out);
    assert!(!before.is_empty());

    // A store holding one of the same chunks with other bytes.
    let damaged = temp("damaged.sqlite");
    std::fs::copy(&a, &damaged).unwrap();
    {
        let mut s = ChunkStore::open_existing(&damaged).unwrap();
        let (p, rec) = before.iter().next().unwrap();
        let mut bad = rec.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        s.put_batch(&[(*p, ChunkStatus::Full, bad)]).unwrap();
    }
    let err = fails(&["merge", out.to_str().unwrap(), damaged.to_str().unwrap()]);
    assert!(err.contains("stored in both with different bytes"), "{err}");
    assert_eq!(rows(&out), before);

    // The other shard, which the output lacks, carrying that same conflicting chunk: its new
    // chunks are not merged either.
    let mixed = temp("mixed.sqlite");
    pregen(&mixed, "11", &["--shard", "1/2", "--tile", "6"]);
    {
        let mut s = ChunkStore::open_existing(&mixed).unwrap();
        let (p, rec) = before.iter().next().unwrap();
        let mut bad = rec.clone();
        bad[0] ^= 1;
        s.put_batch(&[(*p, ChunkStatus::Full, bad)]).unwrap();
    }
    assert!(rows(&mixed).len() > 1);
    let err = fails(&["merge", out.to_str().unwrap(), mixed.to_str().unwrap()]);
    assert!(err.contains("stored in both with different bytes"), "{err}");
    assert_eq!(rows(&out), before);

    // verify finds the damaged record (shard 0 of 2 in tiles of 6 is the rectangle
    // -4,-3,1,6), and the chunks a lone shard lacks.
    let o = Command::new(BIN)
        .args(["verify", damaged.to_str().unwrap(), "--region", "-4,-3,1,6"])
        .args(["--sample", "1000"])
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success(), "{printed}");
    assert!(
        printed.contains("60 of 60 chunks stored, 0 missing; 60 sampled, 1 differ"),
        "{printed}"
    );
    assert!(printed.contains("checksum"), "{printed}");
    let o = Command::new(BIN)
        .args([
            "verify",
            a.to_str().unwrap(),
            "--region",
            REGION,
            "--sample",
            "2",
        ])
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success());
    assert!(
        printed.contains("60 of 120 chunks stored, 60 missing; 2 sampled, 0 differ"),
        "{printed}"
    );
    assert!(printed.contains("missing chunk (2, -3)"), "{printed}");

    // Another world's shard.
    let other = temp("other.sqlite");
    pregen(&other, "12", &["--shard", "1/2", "--tile", "6"]);
    let err = fails(&["merge", out.to_str().unwrap(), other.to_str().unwrap()]);
    assert!(err.contains("another world"), "{err}");
    assert_eq!(rows(&out), before);

    // Bad shard arguments.
    let err = fails(&[
        "pregen", "--region", REGION, "--out", "x.sqlite", "--shard", "2/2",
    ]);
    assert!(err.contains("I must be below N"), "{err}");
}

/// Every edit row of a store: position → record bytes.
fn edit_rows(path: &Path) -> BTreeMap<ChunkPos, Vec<u8>> {
    ChunkStore::open_read_only(path)
        .unwrap()
        .edits()
        .unwrap()
        .into_iter()
        .collect()
}

/// `stratagen edit` of `script` into `store`.
fn edit(store: &Path, name: &str, script: &str) {
    let file = temp(name);
    std::fs::write(&file, script).unwrap();
    succeeds(&[
        "edit",
        "--seed",
        "11",
        "--out",
        store.to_str().unwrap(),
        "--script",
        file.to_str().unwrap(),
    ]);
}

/// A store holds chunks and edits, and a merge carries both: the merged store reads as the
/// edited world (its digest is the input's, not the unedited region's), `verify` checks its
/// edit records, merging again finds them identical, and an input whose edits of a chunk
/// differ, or that holds a table no store has, is refused with the output untouched.
#[test]
fn merging_carries_edits_and_refuses_conflicting_ones() {
    let region = "0,0,1,1";
    let pregen_region = |out: &Path| {
        succeeds(&[
            "pregen",
            "--seed",
            "11",
            "--region",
            region,
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let digest = |from: &Path| {
        succeeds(&[
            "digest",
            "--region",
            region,
            "--from",
            from.to_str().unwrap(),
        ])
    };
    let a = temp("edited-a.sqlite");
    pregen_region(a.as_path());
    let unedited = digest(&a);
    // A box of glowstone across the four chunks' corner, and a few single blocks.
    edit(
        &a,
        "edits-a.txt",
        "fill 10 60 10 21 70 21 glowstone\nset 3 100 3 stone\nset 30 -60 30 air\n",
    );
    let edited = digest(&a);
    assert_ne!(edited, unedited, "the edits change the region");
    let want_edits = edit_rows(&a);
    assert_eq!(want_edits.len(), 4, "the box reaches all four chunks");

    let b = temp("edited-b.sqlite");
    let merged = succeeds(&["merge", b.to_str().unwrap(), a.to_str().unwrap()]);
    assert!(
        merged
            .contains("4 chunks copied, 0 identical already; 4 edited chunks copied, 0 identical"),
        "{merged}"
    );
    assert_eq!(edit_rows(&b), want_edits);
    assert_eq!(rows(&b), rows(&a));
    assert_eq!(
        digest(&b),
        edited,
        "the merged store reads as the edited world"
    );
    let checked = succeeds(&["verify", b.to_str().unwrap(), "--region", region]);
    assert!(
        checked.contains("edits: 4 edited chunks, 0 refused"),
        "{checked}"
    );
    let again = succeeds(&["merge", b.to_str().unwrap(), a.to_str().unwrap()]);
    assert!(
        again.contains("0 chunks copied, 4 identical already; 0 edited chunks copied, 4 identical"),
        "{again}"
    );

    // Other edits of one of the same chunks (with the same chunk rows): refused whole.
    let c = temp("edited-c.sqlite");
    pregen_region(c.as_path());
    edit(&c, "edits-c.txt", "set 1 100 1 dirt\nset 40 80 40 stone\n");
    let before = (rows(&b), edit_rows(&b));
    let err = fails(&["merge", b.to_str().unwrap(), c.to_str().unwrap()]);
    assert!(
        err.contains("chunk (0, 0) has different edits in both stores"),
        "{err}"
    );
    assert_eq!((rows(&b), edit_rows(&b)), before);

    // A table a merge would lose: refused, naming it.
    let d = temp("edited-d.sqlite");
    std::fs::copy(&a, &d).unwrap();
    rusqlite::Connection::open(&d)
        .unwrap()
        .execute_batch("CREATE TABLE bookmarks (name TEXT, x INTEGER, z INTEGER);")
        .unwrap();
    let err = fails(&["merge", b.to_str().unwrap(), d.to_str().unwrap()]);
    assert!(err.contains("\"bookmarks\""), "{err}");
    assert_eq!((rows(&b), edit_rows(&b)), before);

    // A damaged edit record: verify names it.
    let e = temp("edited-e.sqlite");
    std::fs::copy(&a, &e).unwrap();
    {
        let mut s = ChunkStore::open_existing(&e).unwrap();
        let (p, rec) = want_edits.iter().next().unwrap();
        let mut bad = rec.clone();
        bad[20] ^= 4;
        s.put_edits(&[(*p, bad)]).unwrap();
    }
    let o = Command::new(BIN)
        .args(["verify", e.to_str().unwrap(), "--region", region])
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success(), "{printed}");
    assert!(
        printed.contains("edits: 4 edited chunks, 1 refused"),
        "{printed}"
    );
}
