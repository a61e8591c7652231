//! The `stratagen` command: each subcommand on small inputs, the files it writes, its digests
//! against the library's, and clear errors (exit code != 0, no partial file) on bad input.
mod common;

use std::path::Path;
use std::process::{Command, Output};
use stratagen_cli::{generate, rect, square};
use stratagen_core::engine::ChunkStatus;
use stratagen_core::world::WorldSettings;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stratagen"))
        .args(args)
        .output()
        .unwrap()
}

fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn decode(path: &Path) -> (u32, u32, png::ColorType, png::BitDepth, Vec<u8>) {
    let dec = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (
        info.width,
        info.height,
        info.color_type,
        info.bit_depth,
        buf,
    )
}

#[test]
fn render_writes_a_map_and_the_library_digest() {
    let dir = common::scratch("cli_render");
    let out = dir.join("map.png");
    let s = ok(&[
        "render",
        "--seed",
        "3",
        "--radius",
        "1",
        "--threads",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (w, h, ..) = decode(&out);
    assert_eq!((w, h), (48, 48));
    let r = generate(
        WorldSettings {
            seed: 3,
            ..WorldSettings::default()
        },
        &square((0, 0), 1),
        ChunkStatus::Full,
        1,
        |_, _| {},
    )
    .unwrap();
    assert!(
        s.contains(&format!("region digest {:016x}", r.digest())),
        "{s}"
    );
    assert!(s.contains("chunks/s"));
    for layer in ["biomes", "height", "structures", "light"] {
        let out = dir.join(format!("{layer}.png"));
        ok(&[
            "render",
            "--radius",
            "0",
            "--layer",
            layer,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(decode(&out).0, 16);
    }
}

#[test]
fn digest_lines_equal_the_library() {
    let s = ok(&[
        "digest",
        "--seed",
        "-4",
        "--region",
        "-1,2,0,3",
        "--status",
        "terrain",
        "--threads",
        "1",
    ]);
    let pos = rect(-1, 2, 0, 3);
    let r = generate(
        WorldSettings {
            seed: -4,
            ..WorldSettings::default()
        },
        &pos,
        ChunkStatus::Terrain,
        2,
        |_, _| {},
    )
    .unwrap();
    let mut want = String::new();
    for (p, d) in r.digests() {
        want.push_str(&format!("chunk {} {} {:016x}\n", p.x, p.z, d));
    }
    want.push_str(&format!("region {:016x}\n", r.digest()));
    assert_eq!(s, want);
}

#[test]
fn noise_images_and_tileable_edges() {
    let dir = common::scratch("cli_noise");
    for t in ["value", "perlin", "simplex", "cellular"] {
        for f in ["none", "fbm", "ridged", "billow"] {
            let out = dir.join(format!("{t}-{f}.png"));
            ok(&[
                "noise",
                "--type",
                t,
                "--fractal",
                f,
                "--size",
                "40x24",
                "--palette",
                "terrain",
                "--out",
                out.to_str().unwrap(),
            ]);
            let (w, h, c, ..) = decode(&out);
            assert_eq!((w, h, c), (40, 24, png::ColorType::Rgb));
        }
    }
    // Tileable: the last column continues into the first (and the last row into the first)
    // as smoothly as neighbouring columns do inside the image.
    let out = dir.join("tile.png");
    ok(&[
        "noise",
        "--type",
        "perlin",
        "--tileable",
        "--size",
        "128x96",
        "--scale",
        "20",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (w, h, _, _, px) = decode(&out);
    let (w, h) = (w as usize, h as usize);
    let g = |x: usize, y: usize| i32::from(px[(y * w + x) * 3]);
    let mut inside = 0;
    for y in 0..h {
        for x in 0..w - 1 {
            inside = inside.max((g(x, y) - g(x + 1, y)).abs());
        }
    }
    for x in 0..w {
        for y in 0..h - 1 {
            inside = inside.max((g(x, y) - g(x, y + 1)).abs());
        }
    }
    let mut wrap = 0;
    for y in 0..h {
        wrap = wrap.max((g(w - 1, y) - g(0, y)).abs());
    }
    for x in 0..w {
        wrap = wrap.max((g(x, h - 1) - g(x, 0)).abs());
    }
    assert!(
        inside > 0 && wrap <= inside,
        "wrap jump {wrap} > inside jump {inside}"
    );
    // Custom palette and contrast/brightness.
    let out = dir.join("custom.png");
    ok(&[
        "noise",
        "--palette",
        "000000,ff0000,ffffff",
        "--contrast",
        "2",
        "--brightness",
        "-0.2",
        "--size",
        "8x8",
        "--out",
        out.to_str().unwrap(),
    ]);
}

#[test]
fn heightmap_png_and_raw() {
    let dir = common::scratch("cli_heightmap");
    let png_out = dir.join("h.png");
    // The same heightmap; the output's extension picks the format.
    let heightmap = |out: &Path| {
        ok(&[
            "heightmap",
            "--seed",
            "2",
            "--chunk",
            "-3,4",
            "--res",
            "32",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    heightmap(&png_out);
    let (w, h, c, d, px) = decode(&png_out);
    assert_eq!(
        (w, h, c, d),
        (32, 32, png::ColorType::Grayscale, png::BitDepth::Sixteen)
    );
    let raw = dir.join("h.raw");
    heightmap(&raw);
    let bytes = std::fs::read(&raw).unwrap();
    assert_eq!(bytes.len(), 32 * 32 * 4);
    let v0 = f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    let p0 = u16::from_be_bytes([px[0], px[1]]);
    assert_eq!(
        p0,
        ((((v0 as f64) + 1.0) * 0.5).clamp(0.0, 1.0) * 65535.0).round() as u16
    );
}

#[test]
fn bench_prints_a_machine_readable_last_line() {
    for extra in [&[][..], &["--store"][..]] {
        let mut args = vec!["bench", "--radius", "0", "--threads", "1"];
        args.extend_from_slice(extra);
        let s = ok(&args);
        let last = s.lines().last().unwrap();
        assert!(
            last.starts_with("bench threads=1 chunks=1 ms_per_chunk="),
            "{args:?}: {last}"
        );
        for key in ["chunks_per_s=", "peak_rss_mib="] {
            assert!(last.contains(key), "{args:?}: {last}");
        }
    }
}

#[test]
fn bad_input_is_a_clear_error_and_leaves_no_file() {
    let dir = common::scratch("cli_bad");
    let out = dir.join("x.png");
    let o = out.to_str().unwrap();
    let glb = dir.join("x.glb");
    let g = glb.to_str().unwrap();
    for args in [
        vec!["render", "--bogus"],
        vec!["render", "--radius", "abc", "--out", o],
        vec!["render", "--radius", "9999", "--out", o],
        vec!["render", "--center", "1", "--out", o],
        vec!["noise", "--scale", "NaN", "--out", o],
        vec!["noise", "--scale", "0", "--out", o],
        vec!["noise", "--size", "0x10", "--out", o],
        vec!["noise", "--size", "100000x10", "--out", o],
        vec!["noise", "--octaves", "0", "--out", o],
        vec!["noise", "--contrast", "inf", "--out", o],
        vec!["noise", "--palette", "123", "--out", o],
        vec!["noise", "--tileable", "--type", "simplex", "--out", o],
        vec!["heightmap", "--res", "0", "--out", o],
        vec!["heightmap", "--out", dir.join("h.txt").to_str().unwrap()],
        vec!["digest", "--region", "0,0,-1,0"],
        vec!["digest", "--region", "0,0,1000,1000"],
        vec!["noise", "--out", "/nonexistent-dir/x.png"],
        vec!["mesh", "--region", "0,0,-1,0", "--out", g],
        vec!["mesh", "--region", "0,0,40,40", "--out", g],
        vec!["mesh", "--region", "0,0,0,0", "--out", o],
        vec!["mesh", "--region", "0,0", "--out", g],
        vec!["heightmap", "--mesh", g, "--skirt", "-1"],
        vec!["heightmap", "--mesh", g, "--skirt", "NaN"],
        vec!["heightmap", "--mesh", g, "--region", "0,0,99,99"],
        vec!["heightmap", "--mesh", o],
        vec!["heightmap", "--region", "0,0,1,1"],
    ] {
        let r = run(&args);
        assert!(!r.status.success(), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(!err.trim().is_empty(), "{args:?}: no message");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} left a file");
        assert!(!glb.exists(), "{args:?} left a file");
    }
    // No temporary files left behind either.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

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

/// `stratagen shader` prints the library's shader source: from flags, and from a world's
/// named noise (an `f32` one, seeded as the world seeds it); refusals are clear errors.
#[test]
fn shader_source_from_flags_and_from_a_world() {
    use stratagen_core::noise::{FractalType, NoiseDef, NoiseType, Precision, ShaderLanguage};
    use stratagen_core::world::biome::world_noise;
    use stratagen_core::world::Definition;
    use stratagen_worldfile::{print, Format};

    let got = ok(&[
        "shader",
        "--type",
        "simplex",
        "--fractal",
        "ridged",
        "--octaves",
        "3",
        "--frequency",
        "0.02",
        "--seed",
        "-9",
        "--dims",
        "3",
        "--lang",
        "glsl",
    ]);
    let want = NoiseDef {
        seed: -9,
        noise_type: NoiseType::Simplex,
        fractal: FractalType::Ridged,
        octaves: 3,
        frequency: 0.02,
        precision: Precision::F32,
        ..NoiseDef::default()
    }
    .build()
    .unwrap()
    .shader_3d(ShaderLanguage::Glsl)
    .unwrap();
    assert_eq!(got, want);

    let dir = common::scratch("cli-shader");
    let mut def = Definition::builtin();
    def.climate.noises[0].precision = Precision::F32;
    let world = dir.join("f32-climate.toml");
    std::fs::write(&world, print(&def, Format::Toml)).unwrap();
    let world = world.to_str().unwrap();
    let got = ok(&[
        "shader",
        "--world",
        world,
        "--noise",
        "climate.temperature",
        "--seed",
        "42",
    ]);
    let want = world_noise(42, &def.climate.noises[0])
        .unwrap()
        .shader_2d(ShaderLanguage::Wgsl)
        .unwrap();
    assert_eq!(got, want);

    for (args, says) in [
        (vec!["shader", "--octaves", "0"], "octaves"),
        (vec!["shader", "--dims", "4"], "--dims"),
        (
            vec!["shader", "--noise", "climate.humidity", "--world", world],
            "f32",
        ),
        (
            vec!["shader", "--noise", "terrain.nope"],
            "climate.temperature",
        ),
    ] {
        let o = run(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains(says), "{args:?}: {err}");
    }
}

/// `stratagen noise --out x.raw` writes the samples themselves: the library's `f32` fill of
/// the same grid, byte for byte.
#[test]
fn noise_raw_samples_are_the_librarys_fill() {
    use stratagen_core::noise::{Grid2, NoiseDef, NoiseType, Precision};
    let dir = common::scratch("cli-noise-raw");
    let out = dir.join("h.raw");
    ok(&[
        "noise",
        "--type",
        "value",
        "--octaves",
        "3",
        "--scale",
        "32",
        "--seed",
        "4",
        "--precision",
        "f32",
        "--size",
        "9x5",
        "--out",
        out.to_str().unwrap(),
    ]);
    let grid = Grid2 {
        x0: 0.0,
        y0: 0.0,
        dx: 1.0,
        dy: 1.0,
        width: 9,
        height: 5,
    };
    let mut want = vec![0f32; 45];
    NoiseDef {
        seed: 4,
        noise_type: NoiseType::Value,
        octaves: 3,
        frequency: 1.0 / 32.0,
        precision: Precision::F32,
        ..NoiseDef::default()
    }
    .build()
    .unwrap()
    .fill_2d_f32(&grid, &mut want)
    .unwrap();
    let want: Vec<u8> = want.iter().flat_map(|v| v.to_le_bytes()).collect();
    assert_eq!(std::fs::read(&out).unwrap(), want);
    let tiled = run(&["noise", "--tileable", "--out", out.to_str().unwrap()]);
    assert!(!tiled.status.success());
}
