//! `stratagen`: render world maps and noise images, print digests, benchmark.
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;
use stratagen_cli::{encode_png, generate, render, square, write_atomic, Layer};
use stratagen_core::engine::ladder::{ChunkPos, ChunkStatus};
use stratagen_core::world::WorldDef;

#[derive(Parser)]
#[command(
    name = "stratagen",
    version,
    about = "Deterministic procedural worlds: maps, noise images, digests, benchmarks"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Clone, Copy, ValueEnum)]
enum LayerArg {
    Biomes,
    Height,
    Shaded,
    Structures,
    Light,
}

#[derive(Clone, Copy, ValueEnum)]
enum NoiseArg {
    Value,
    Perlin,
    Simplex,
    Cellular,
}

#[derive(Clone, Copy, ValueEnum)]
enum FractalArg {
    None,
    Fbm,
    Ridged,
    Billow,
}

#[derive(Clone, Copy, ValueEnum)]
enum StatusArg {
    Empty,
    StructureStarts,
    StructureReferences,
    Biomes,
    Terrain,
    Features,
    InitializeLight,
    Light,
    Spawn,
    Full,
}

#[derive(Subcommand)]
enum Cmd {
    /// Generate a square of chunks and write a PNG map; prints the region digest and speed.
    Render {
        /// World seed.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        seed: i64,
        /// Centre chunk as X,Z.
        #[arg(long, default_value = "0,0", value_parser = parse_pair, allow_hyphen_values = true)]
        center: (i32, i32),
        /// Radius in chunks (the map is 2R+1 chunks wide), 0..=256.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=256))]
        radius: u32,
        /// Output PNG.
        #[arg(long, default_value = "map.png")]
        out: PathBuf,
        /// What to draw.
        #[arg(long, value_enum, default_value = "shaded")]
        layer: LayerArg,
        /// Worker threads (0: run inline on the main thread). Default: available cores.
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Render a noise image (PNG).
    Noise {
        /// Base noise.
        #[arg(long = "type", value_enum, default_value = "perlin")]
        noise_type: NoiseArg,
        /// Fractal.
        #[arg(long, value_enum, default_value = "fbm")]
        fractal: FractalArg,
        /// Octaves, 1..=16.
        #[arg(long, default_value_t = 5)]
        octaves: u32,
        /// Frequency multiplier per octave (> 0).
        #[arg(long, default_value_t = 2.0)]
        lacunarity: f64,
        /// Amplitude multiplier per octave (>= 0).
        #[arg(long, default_value_t = 0.5)]
        persistence: f64,
        /// Feature size in pixels (frequency = 1 / scale), > 0.
        #[arg(long, default_value_t = 64.0)]
        scale: f64,
        /// Sampling offset in pixels, X,Y.
        #[arg(long, default_value = "0,0", value_parser = parse_fpair, allow_hyphen_values = true)]
        offset: (f64, f64),
        /// Seed.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        seed: i64,
        /// Contrast around mid-grey, 0..=10 (1: unchanged).
        #[arg(long, default_value_t = 1.0)]
        contrast: f64,
        /// Brightness shift, -1..=1.
        #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
        brightness: f64,
        /// Palette: gray, terrain, fire, ice, magma, or 2-6 colours "rrggbb,rrggbb,...".
        #[arg(long, default_value = "gray")]
        palette: String,
        /// Image size WxH, each side 1..=8192.
        #[arg(long, default_value = "256x256", value_parser = parse_size)]
        size: (usize, usize),
        /// Wrap seamlessly on both axes (value and perlin).
        #[arg(long)]
        tileable: bool,
        /// Output PNG.
        #[arg(long, default_value = "noise.png")]
        out: PathBuf,
    },
    /// Write one heightmap chunk as a 16-bit grey PNG (.png) or raw little-endian f32 (.raw).
    Heightmap {
        /// Seed.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        seed: i64,
        /// Chunk X,Z.
        #[arg(long, default_value = "0,0", value_parser = parse_pair, allow_hyphen_values = true)]
        chunk: (i32, i32),
        /// Samples per side, 1..=4096.
        #[arg(long, default_value_t = 64)]
        res: usize,
        /// Output file (.png or .raw).
        #[arg(long, default_value = "heightmap.png")]
        out: PathBuf,
    },
    /// Print one digest per chunk of a region and the region digest.
    Digest {
        /// World seed.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        seed: i64,
        /// Inclusive chunk rectangle X0,Z0,X1,Z1 (at most 65536 chunks).
        #[arg(long, value_parser = parse_rect, allow_hyphen_values = true)]
        region: (i32, i32, i32, i32),
        /// Status to digest.
        #[arg(long, value_enum, default_value = "full")]
        status: StatusArg,
        /// Worker threads (0: inline). Default: available cores.
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Cold fill of a square of chunks to full: chunks per second, per-status split, peak
    /// memory. The last line is machine-readable.
    Bench {
        /// World seed.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        seed: i64,
        /// Radius in chunks of the requested square (default 8: 17 x 17 chunks), 0..=64.
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=64))]
        radius: u32,
        /// Worker threads (0: inline). Default: available cores.
        #[arg(long)]
        threads: Option<usize>,
    },
}

fn parse_pair(s: &str) -> Result<(i32, i32), String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("expected X,Z, got {s:?}"))?;
    let p = |t: &str| t.trim().parse::<i32>().map_err(|e| format!("{t:?}: {e}"));
    Ok((p(a)?, p(b)?))
}

fn parse_fpair(s: &str) -> Result<(f64, f64), String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("expected X,Y, got {s:?}"))?;
    let p = |t: &str| match t.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(v) => Err(format!("{v} is not finite")),
        Err(e) => Err(format!("{t:?}: {e}")),
    };
    Ok((p(a)?, p(b)?))
}

fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let (a, b) = s
        .split_once('x')
        .ok_or_else(|| format!("expected WxH, got {s:?}"))?;
    let p = |t: &str| t.trim().parse::<usize>().map_err(|e| format!("{t:?}: {e}"));
    Ok((p(a)?, p(b)?))
}

fn parse_rect(s: &str) -> Result<(i32, i32, i32, i32), String> {
    let v: Vec<&str> = s.split(',').collect();
    if v.len() != 4 {
        return Err(format!("expected X0,Z0,X1,Z1, got {s:?}"));
    }
    let p = |t: &str| t.trim().parse::<i32>().map_err(|e| format!("{t:?}: {e}"));
    Ok((p(v[0])?, p(v[1])?, p(v[2])?, p(v[3])?))
}

fn finite(name: &str, v: f64) -> Result<f64, String> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(format!("--{name} {v}: must be a finite number"))
    }
}

fn threads_or_default(t: Option<usize>) -> usize {
    t.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.cmd {
        Cmd::Render {
            seed,
            center,
            radius,
            out,
            layer,
            threads,
        } => {
            let threads = threads_or_default(threads);
            if threads > 256 {
                return Err(format!("--threads {threads}: at most 256"));
            }
            let positions = square(center, radius as i32);
            let total = positions.len();
            let mut last = std::time::Instant::now();
            let region = generate(
                WorldDef {
                    seed,
                    ..WorldDef::default()
                },
                &positions,
                ChunkStatus::Full,
                threads,
                |n, _| {
                    if last.elapsed().as_secs_f64() > 0.5 {
                        eprint!("\rgenerating: {n} tasks done");
                        last = std::time::Instant::now();
                    }
                },
            )?;
            eprint!("\r");
            let layer = match layer {
                LayerArg::Biomes => Layer::Biomes,
                LayerArg::Height => Layer::Height,
                LayerArg::Shaded => Layer::Shaded,
                LayerArg::Structures => Layer::Structures,
                LayerArg::Light => Layer::Light,
            };
            let img = render(&region, layer);
            write_atomic(
                &out,
                &encode_png(img.width, img.height, 3, false, &img.rgb)?,
            )?;
            println!(
                "wrote {} ({}x{} px, {} chunks)",
                out.display(),
                img.width,
                img.height,
                total
            );
            println!("region digest {:016x}", region.digest());
            println!(
                "generated {} chunks ({} tasks) in {:.2} s on {} threads: {:.1} chunks/s, {:.2} ms per requested chunk",
                total,
                region.tasks,
                region.seconds,
                threads,
                total as f64 / region.seconds,
                region.seconds * 1000.0 / total as f64
            );
            Ok(())
        }
        Cmd::Noise {
            noise_type,
            fractal,
            octaves,
            lacunarity,
            persistence,
            scale,
            offset,
            seed,
            contrast,
            brightness,
            palette,
            size,
            tileable,
            out,
        } => {
            use stratagen_core::noise::{FillStrategy, FractalType, NoiseDef, NoiseType};
            let scale = finite("scale", scale)?;
            if scale <= 0.0 {
                return Err(format!("--scale {scale}: must be > 0"));
            }
            let def = NoiseDef {
                seed,
                noise_type: match noise_type {
                    NoiseArg::Value => NoiseType::Value,
                    NoiseArg::Perlin => NoiseType::Perlin,
                    NoiseArg::Simplex => NoiseType::Simplex,
                    NoiseArg::Cellular => NoiseType::Cellular,
                },
                fractal: match fractal {
                    FractalArg::None => FractalType::None,
                    FractalArg::Fbm => FractalType::Fbm,
                    FractalArg::Ridged => FractalType::Ridged,
                    FractalArg::Billow => FractalType::Billow,
                },
                octaves,
                lacunarity: finite("lacunarity", lacunarity)?,
                gain: finite("persistence", persistence)?,
                frequency: 1.0 / scale,
                offset: [offset.0, offset.1, 0.0],
                // Images are usually many pixels per lattice cell; the bits are the same.
                fill: FillStrategy::Adaptive,
                ..NoiseDef::default()
            };
            let img = stratagen_cli::noise_image(&stratagen_cli::NoiseImage {
                def,
                contrast: finite("contrast", contrast)?,
                brightness: finite("brightness", brightness)?,
                palette: stratagen_cli::palette(&palette)?,
                width: size.0,
                height: size.1,
                tileable,
            })?;
            write_atomic(
                &out,
                &encode_png(img.width, img.height, 3, false, &img.rgb)?,
            )?;
            println!("wrote {} ({}x{} px)", out.display(), img.width, img.height);
            Ok(())
        }
        Cmd::Heightmap {
            seed,
            chunk,
            res,
            out,
        } => {
            use stratagen_core::noise::{FillStrategy, NoiseDef};
            if !(1..=4096).contains(&res) {
                return Err(format!("--res {res}: must be 1..=4096"));
            }
            let ext = out
                .extension()
                .and_then(|e| e.to_str())
                .unwrap_or("")
                .to_string();
            if ext != "png" && ext != "raw" {
                return Err(format!(
                    "{}: the extension must be .png or .raw",
                    out.display()
                ));
            }
            let noise = NoiseDef {
                seed,
                octaves: 6,
                frequency: 1.0 / 256.0,
                // A 256-block wavelength over a 16-block chunk: samples share cells.
                fill: FillStrategy::Adaptive,
                ..NoiseDef::default()
            }
            .build()
            .map_err(|e| e.to_string())?;
            let mut h = vec![0f32; res * res];
            noise
                .heightmap_chunk(chunk.0, chunk.1, res, &mut h)
                .map_err(|e| e.to_string())?;
            let bytes = if ext == "raw" {
                h.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()
            } else {
                let px: Vec<u8> = h
                    .iter()
                    .flat_map(|v| {
                        (((((*v as f64) + 1.0) * 0.5).clamp(0.0, 1.0) * 65535.0)
                            .round()
                            .min(65535.0) as u16)
                            .to_be_bytes()
                    })
                    .collect();
                encode_png(res, res, 1, true, &px)?
            };
            write_atomic(&out, &bytes)?;
            println!(
                "wrote {} ({res}x{res} samples of chunk {},{})",
                out.display(),
                chunk.0,
                chunk.1
            );
            Ok(())
        }
        Cmd::Digest {
            seed,
            region,
            status,
            threads,
        } => {
            let (x0, z0, x1, z1) = region;
            if x1 < x0 || z1 < z0 {
                return Err("--region: X1 >= X0 and Z1 >= Z0 required".into());
            }
            let count = (i64::from(x1) - i64::from(x0) + 1) * (i64::from(z1) - i64::from(z0) + 1);
            if count > 65536 {
                return Err(format!("--region covers {count} chunks; at most 65536"));
            }
            let mut positions = Vec::new();
            for z in z0..=z1 {
                for x in x0..=x1 {
                    positions.push(ChunkPos::new(x, z));
                }
            }
            let status = ChunkStatus::from_index(status as usize).ok_or("bad status")?;
            let def = WorldDef {
                seed,
                ..WorldDef::default()
            };
            let region = generate(
                def,
                &positions,
                status,
                threads_or_default(threads),
                |_, _| {},
            )?;
            for (p, d) in region.digests() {
                println!("chunk {} {} {:016x}", p.x, p.z, d);
            }
            println!("region {:016x}", region.digest());
            Ok(())
        }
        Cmd::Bench {
            seed,
            radius,
            threads,
        } => {
            let threads = threads_or_default(threads);
            if threads > 256 {
                return Err(format!("--threads {threads}: at most 256"));
            }
            bench(seed, radius, threads)
        }
    }
}

fn bench(seed: i64, radius: u32, threads: usize) -> Result<(), String> {
    let positions = square((0, 0), radius as i32);
    let region = generate(
        WorldDef {
            seed,
            ..WorldDef::default()
        },
        &positions,
        ChunkStatus::Full,
        threads,
        |_, _| {},
    )?;
    let n = positions.len() as f64;
    let busy: f64 = region.status_seconds.iter().sum();
    println!("status                 tasks   ms/task   share");
    for s in ChunkStatus::ALL {
        let i = s.index();
        let k = region.status_tasks[i].max(1) as f64;
        println!(
            "{:<20} {:>7} {:>9.3} {:>6.1}%",
            s.name(),
            region.status_tasks[i],
            region.status_seconds[i] * 1000.0 / k,
            100.0 * region.status_seconds[i] / busy.max(1e-12)
        );
    }
    println!("region digest {:016x}", region.digest());
    let rss = stratagen_cli::peak_rss_mib();
    println!(
        "scheduler and driver overhead {:.1}% of wall time (threads={}); peak resident holders {}, {:.2} MiB per holder",
        100.0 * (1.0 - busy / (region.seconds * threads.max(1) as f64)).max(0.0),
        threads,
        region.peak_holders,
        rss / region.peak_holders.max(1) as f64
    );
    println!(
        "bench threads={} chunks={} ms_per_chunk={:.3} chunks_per_s={:.1} peak_rss_mib={:.1}",
        threads,
        positions.len(),
        region.seconds * 1000.0 / n,
        n / region.seconds,
        stratagen_cli::peak_rss_mib()
    );
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("stratagen: error: {e}");
            ExitCode::FAILURE
        }
    }
}
