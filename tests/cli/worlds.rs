//! World definitions and edit scripts on the command line: checked, printed, generated from
//! and applied to a store the edited world reads from.

use super::*;

/// `--world` and `stratagen world`: a printed preset parses to the same digest, `digest
/// --world FILE` equals the library's generation of that definition, a document with problems
/// is refused with its line:column and nothing written, `render --layer caves` draws, and a
/// store of one definition is refused under another.
#[test]
fn world_definitions_on_the_command_line() {
    let dir = common::scratch("cli-worlds");
    let printed = ok(&["world", "print", "archipelago"]);
    let d = stratagen_worldfile::parse(&printed).unwrap();
    assert_eq!(
        d.digest(),
        stratagen_worldfile::load("archipelago").unwrap().digest()
    );
    let json = ok(&["world", "print", "caverns", "--json"]);
    assert!(json.starts_with('{'));
    let file = dir.join("mine.json");
    std::fs::write(&file, &json).unwrap();
    let f = file.to_str().unwrap();
    assert!(ok(&["world", "check", f]).contains("ok, world \"caverns\""));
    // The canonical bytes of a file are the preset's it was printed from.
    let bin = dir.join("mine.bin");
    ok(&["world", "compile", f, "--out", bin.to_str().unwrap()]);
    assert_eq!(
        std::fs::read(&bin).unwrap(),
        stratagen_worldfile::load("caverns").unwrap().to_bytes()
    );

    // digest --world FILE equals the library with that definition.
    let lines = ok(&[
        "digest",
        "--world",
        f,
        "--seed",
        "4",
        "--region",
        "0,0,1,0",
        "--threads",
        "0",
    ]);
    let caverns = std::sync::Arc::new(stratagen_worldfile::load("caverns").unwrap());
    let gen_c = stratagen_core::world::WorldGen::with_definition(
        WorldSettings {
            seed: 4,
            ..WorldSettings::default()
        },
        caverns,
    )
    .unwrap();
    let r =
        stratagen_cli::generate_world(gen_c, &rect(0, 0, 1, 0), ChunkStatus::Full, 1, |_, _| {})
            .unwrap();
    assert!(
        lines.contains(&format!("region {:016x}", r.digest())),
        "{lines}"
    );

    // Problems: the exit is non-zero, every problem has its line:column, nothing is written.
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "format = 1\nname = \"b\"\nbase = \"default\"\n[terrain]\nstone = \"granite\"\nbedrock_layers = 9\n",
    )
    .unwrap();
    let o = run(&["world", "check", bad.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("5:9: terrain.stone: unknown block \"granite\""),
        "{err}"
    );
    assert!(
        err.contains("6:18: terrain.bedrock_layers: 9 is out of range 0..=8"),
        "{err}"
    );
    let never = dir.join("never.bin");
    let o = run(&[
        "world",
        "compile",
        bad.to_str().unwrap(),
        "--out",
        never.to_str().unwrap(),
    ]);
    assert!(!o.status.success() && !never.exists());
    let out = dir.join("never.png");
    let o = run(&[
        "render",
        "--world",
        bad.to_str().unwrap(),
        "--radius",
        "0",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success() && !out.exists());
    let o = run(&[
        "render",
        "--world",
        "moon",
        "--radius",
        "0",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success() && !out.exists());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("not a preset (default, archipelago, caverns)")
    );

    // The caves layer draws something other than black under the caverns' ceiling.
    let caves = dir.join("caves.png");
    ok(&[
        "render",
        "--world",
        "caverns",
        "--layer",
        "caves",
        "--radius",
        "1",
        "--threads",
        "0",
        "--out",
        caves.to_str().unwrap(),
    ]);
    let (_, _, _, _, px) = decode(&caves);
    assert!(px.chunks(3).filter(|p| p != &[0, 0, 0]).count() > px.len() / 3 / 4);

    // A store written under one definition is refused under another, and read under its own.
    let store = dir.join("w.sqlite");
    let s = store.to_str().unwrap();
    ok(&[
        "pregen",
        "--world",
        "archipelago",
        "--region",
        "0,0,0,0",
        "--threads",
        "0",
        "--out",
        s,
    ]);
    let o = run(&["digest", "--from", s, "--region", "0,0,0,0"]);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("another world: its definition is"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let from = ok(&[
        "digest",
        "--from",
        s,
        "--world",
        "archipelago",
        "--region",
        "0,0,0,0",
    ]);
    let generated = ok(&[
        "digest",
        "--world",
        "archipelago",
        "--region",
        "0,0,0,0",
        "--threads",
        "0",
    ]);
    assert_eq!(from, generated);
}

/// `stratagen edit` writes a script's edits to a store that holds nothing else; `digest
/// --from` and `render --from` then read the edited world, whose digests are the edit layer's
/// over a generated world; a second script adds to the first; a refused script writes
/// nothing.
#[test]
fn edit_scripts_make_a_store_the_edited_world_reads_from() {
    use std::collections::BTreeMap;
    use std::sync::Arc;
    use stratagen_core::engine::{ChunkPos, Priority, Scheduler};
    use stratagen_core::world::block;
    use stratagen_core::world::edit::{BlockEdit, EditLayer};
    use stratagen_core::world::{chunk_digest, World, WorldGen};

    let dir = common::scratch("cli-edit");
    let store = dir.join("save.sqlite");
    let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
    std::fs::write(
        &a,
        "# a pit\nfill -3 50 -3 3 80 3 air\nset 0 49 0 glowstone\n",
    )
    .unwrap();
    std::fs::write(
        &b,
        "set 17 70 -2 torch  # across the border\nset 0 49 0 37\n",
    )
    .unwrap();
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let out = ok(&[
        "edit",
        "--seed",
        "6",
        "--out",
        &s(&store),
        "--script",
        &s(&a),
    ]);
    assert!(out.starts_with("edits 1520 chunks 4 "), "{out}");
    ok(&[
        "edit",
        "--seed",
        "6",
        "--out",
        &s(&store),
        "--script",
        &s(&b),
    ]);
    let digests = ok(&["digest", "--from", &s(&store), "--region", "-1,-1,1,1"]);

    let g = WorldGen::new(WorldSettings {
        seed: 6,
        ..WorldSettings::default()
    })
    .unwrap();
    let mut sched = Scheduler::new(Arc::new(World::new(g.clone())));
    for p in square((0, 0), 1) {
        sched.request(p, ChunkStatus::Full, Priority::Soon).unwrap();
    }
    while sched.run_inline(usize::MAX) > 0 {}
    let mut layer = EditLayer::new(&g);
    for y in 50..=80 {
        for z in -3..=3 {
            for x in -3..=3 {
                layer
                    .set_block(BlockEdit {
                        x,
                        y,
                        z,
                        block: block::AIR,
                    })
                    .unwrap();
            }
        }
    }
    let glow = |block| BlockEdit {
        x: 0,
        y: 49,
        z: 0,
        block,
    };
    layer.set_block(glow(block::GLOWSTONE)).unwrap();
    layer
        .set_block(BlockEdit {
            x: 17,
            y: 70,
            z: -2,
            block: block::TORCH,
        })
        .unwrap();
    layer.set_block(glow(block::GLOWSTONE)).unwrap();
    let want: BTreeMap<ChunkPos, u64> = square((0, 0), 1)
        .into_iter()
        .map(|p| (p, chunk_digest(&layer.full(&sched, p).unwrap())))
        .collect();
    let got: BTreeMap<ChunkPos, u64> = digests
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0] == "chunk").then(|| {
                let n = |i: usize| f[i].parse::<i32>().unwrap();
                (
                    ChunkPos::new(n(1), n(2)),
                    u64::from_str_radix(f[3], 16).unwrap(),
                )
            })
        })
        .collect();
    assert_eq!(got, want);
    let plain = ok(&["digest", "--seed", "6", "--region", "-1,-1,1,1"]);
    assert_ne!(plain, digests, "the edits changed the world");
    ok(&[
        "render",
        "--from",
        &s(&store),
        "--radius",
        "1",
        "--out",
        &s(&dir.join("m.png")),
    ]);

    // Refused: every problem named by line and column, no store written.
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        "set 0 0 0 granite\nfill 0 0 0 1 1\nset 0 999 0 stone\n",
    )
    .unwrap();
    let fresh = dir.join("fresh.sqlite");
    let o = run(&["edit", "--out", &s(&fresh), "--script", &s(&bad)]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.txt:1:11: unknown block \"granite\""),
        "{err}"
    );
    assert!(
        err.contains("bad.txt:2:1: fill takes 7 values, found 5"),
        "{err}"
    );
    assert!(!fresh.exists());
    let range = dir.join("range.txt");
    std::fs::write(&range, "set 0 999 0 stone\n").unwrap();
    let o = run(&["edit", "--out", &s(&fresh), "--script", &s(&range)]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("range.txt:1: block (0, 999, 0) is outside the world"),
        "{err}"
    );
    assert!(!fresh.exists());
}
