//! The `stratagen` command: each subcommand on small inputs, the files it writes, its digests
//! against the library's, and clear errors (exit code != 0, no partial file) on bad input.
mod common;
#[path = "cli/worlds.rs"]
mod worlds;

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
