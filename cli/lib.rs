//! The library half of the `stratagen` command: a threaded driver for the scheduler, region
//! generation, map rendering and PNG output. The binary (`cli/main.rs`) parses arguments and
//! calls these; the tests call them directly.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{mpsc, Arc, Mutex};
use std::time::Instant;

use stratagen_core::engine::ladder::{ChunkPos, ChunkStatus};
use stratagen_core::engine::{BodyError, Finished, Pipeline, Priority, Scheduler, Task};
use stratagen_core::util::digest::Digest;
use stratagen_core::world::biome;
use stratagen_core::world::block;
use stratagen_core::world::{status_digest, ChunkData, World, WorldDef, WorldGen};

/// Run every task of `s` to completion on `threads` worker threads (0: inline on this
/// thread). The owner (this thread) takes tasks, workers run them, the owner finishes them.
/// `progress` is called on the owner thread after each finished task with the count so far.
pub fn drive<P: Pipeline>(
    s: &mut Scheduler<P>,
    threads: usize,
    progress: impl FnMut(usize),
) -> Result<usize, String> {
    drive_timed(s, threads, progress, &Mutex::new([0.0; ChunkStatus::COUNT]))
}

/// [`drive`], adding the seconds spent in each status body (summed over threads) to `times`.
pub fn drive_timed<P: Pipeline>(
    s: &mut Scheduler<P>,
    threads: usize,
    mut progress: impl FnMut(usize),
    times: &Mutex<[f64; ChunkStatus::COUNT]>,
) -> Result<usize, String> {
    let timed_run = |t: &Task<P>| {
        let t0 = Instant::now();
        let r = t.run();
        if let Ok(mut g) = times.lock() {
            g[t.status().index()] += t0.elapsed().as_secs_f64();
        }
        r
    };
    let mut done = 0usize;
    let check = |f: Finished| match f {
        Finished::Failed(e) => Err(e.to_string()),
        _ => Ok(()),
    };
    if threads == 0 {
        loop {
            let tasks = s.take_tasks(1);
            if tasks.is_empty() {
                return Ok(done);
            }
            for t in tasks {
                let r = timed_run(&t);
                check(s.finish(t, r).map_err(|e| e.to_string())?)?;
                done += 1;
                progress(done);
            }
        }
    }
    type Job<P> = (Task<P>, Result<<P as Pipeline>::Output, BodyError>);
    let (job_tx, job_rx) = mpsc::channel::<Task<P>>();
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (done_tx, done_rx) = mpsc::channel::<Job<P>>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let rx = job_rx.clone();
            let tx = done_tx.clone();
            let timed_run = &timed_run;
            scope.spawn(move || loop {
                let job = match rx.lock() {
                    Ok(g) => match g.recv() {
                        Ok(j) => j,
                        Err(_) => break,
                    },
                    Err(_) => break,
                };
                let r = timed_run(&job);
                let mut job = job;
                job.drop_inputs();
                if tx.send((job, r)).is_err() {
                    break;
                }
            });
        }
        drop(done_tx);
        let mut outstanding = 0usize;
        let result = loop {
            let want = (2 * threads).saturating_sub(outstanding);
            for t in s.take_tasks(want) {
                if job_tx.send(t).is_err() {
                    break;
                }
                outstanding += 1;
            }
            if outstanding == 0 {
                break Ok(done);
            }
            let (t, r) = match done_rx.recv() {
                Ok(x) => x,
                Err(_) => break Err("worker threads stopped".to_string()),
            };
            outstanding -= 1;
            let f = match s.finish(t, r) {
                Ok(f) => f,
                Err(e) => break Err(e.to_string()),
            };
            if let Err(e) = check(f) {
                break Err(e);
            }
            done += 1;
            progress(done);
        };
        drop(job_tx);
        result
    })
}

/// A generated region: full chunks by position.
pub struct Region {
    /// The generator.
    pub gen: WorldGen,
    /// Finished chunks, row-major by (z, x) through the map's order.
    pub chunks: BTreeMap<ChunkPos, Arc<ChunkData>>,
    /// Tasks run.
    pub tasks: usize,
    /// Wall time in seconds.
    pub seconds: f64,
    /// Seconds spent in each status body, summed over threads.
    pub status_seconds: [f64; ChunkStatus::COUNT],
    /// Tasks run per status.
    pub status_tasks: [u64; ChunkStatus::COUNT],
    /// The structure starts referenced by the region's chunks.
    pub starts: Vec<stratagen_core::world::structure::StructureStart>,
    /// Most chunk holders resident at once.
    pub peak_holders: usize,
}

impl Region {
    /// Per-chunk digests (of the generated status; `chunk_digest` for full) in row-major
    /// order (z, then x).
    pub fn digests(&self) -> Vec<(ChunkPos, u64)> {
        let mut v: Vec<(ChunkPos, u64)> = self
            .chunks
            .iter()
            .map(|(p, d)| (*p, status_digest(d)))
            .collect();
        v.sort_by_key(|(p, _)| (p.z, p.x));
        v
    }

    /// The region digest: XXH64 over the per-chunk digests (`u64` LE) in row-major order.
    pub fn digest(&self) -> u64 {
        let mut h = Digest::new();
        for (_, d) in self.digests() {
            h.write_u64(d);
        }
        h.finish()
    }
}

/// Generate `positions` to `status` on `threads` threads (0: inline), requesting them in the
/// given order.
pub fn generate(
    def: WorldDef,
    positions: &[ChunkPos],
    status: ChunkStatus,
    threads: usize,
    mut progress: impl FnMut(usize, usize),
) -> Result<Region, String> {
    let gen = WorldGen::new(def).map_err(|e| e.to_string())?;
    let mut s = Scheduler::with_id(Arc::new(World::new(gen.clone())), 1);
    for p in positions {
        s.request(*p, status, Priority::Soon)
            .map_err(|e| e.to_string())?;
    }
    let expected = s.ready_count();
    let t0 = Instant::now();
    let times = Mutex::new([0.0; ChunkStatus::COUNT]);
    let tasks = drive_timed(&mut s, threads, |n| progress(n, expected), &times)?;
    let seconds = t0.elapsed().as_secs_f64();
    let status_seconds = *times
        .lock()
        .map_err(|_| "timing lock poisoned".to_string())?;
    let status_tasks = s.stats().done;
    let mut starts = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for p in positions {
        if let Some(f) = s
            .output(*p, status)
            .as_deref()
            .and_then(|d| d.full().cloned())
        {
            for r in &f.structures {
                if seen.insert((r.start, r.kind)) {
                    if let Some(d) = s.output(r.start, ChunkStatus::StructureStarts) {
                        if let ChunkData::StructureStarts(v) = &*d {
                            starts.extend(v.iter().filter(|x| x.kind == r.kind).cloned());
                        }
                    }
                }
            }
        }
    }
    let mut chunks = BTreeMap::new();
    for p in positions {
        let d = s
            .output(*p, status)
            .ok_or_else(|| format!("chunk ({}, {}) did not reach {}", p.x, p.z, status.name()))?;
        chunks.insert(*p, d);
    }
    Ok(Region {
        gen,
        chunks,
        tasks,
        seconds,
        status_seconds,
        status_tasks,
        starts,
        peak_holders: s.stats().peak_holders,
    })
}

/// The square of chunks within `radius` of `center`, row-major.
pub fn square(center: (i32, i32), radius: i32) -> Vec<ChunkPos> {
    let mut v = Vec::new();
    for z in -radius..=radius {
        for x in -radius..=radius {
            v.push(ChunkPos::new(center.0 + x, center.1 + z));
        }
    }
    v
}

/// What a map shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// Biome colours.
    Biomes,
    /// Surface height in grey.
    Height,
    /// Surface colours with hill shading and water depth, structure outlines.
    Shaded,
    /// Structures outlined on a faded surface map.
    Structures,
    /// Sky light at the surface (block light shows where it is brighter).
    Light,
}

/// An RGB image.
pub struct Image {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// Row-major RGB bytes.
    pub rgb: Vec<u8>,
}

fn block_colour(b: u16, biome_id: u8) -> [u8; 3] {
    match b {
        block::GRASS_BLOCK | block::SHORT_GRASS | block::FERN => biome::info(biome_id).color,
        block::OAK_LEAVES | block::BIRCH_LEAVES | block::JUNGLE_LEAVES | block::ACACIA_LEAVES => {
            [60, 120, 40]
        }
        block::SPRUCE_LEAVES => [40, 80, 50],
        block::DANDELION => [230, 210, 60],
        block::POPPY => [200, 40, 40],
        block::CACTUS => [80, 140, 60],
        block::MOSSY_COBBLESTONE => [100, 120, 100],
        block::SAND => [219, 207, 163],
        block::SANDSTONE => [200, 185, 140],
        block::GRAVEL => [136, 126, 126],
        block::CLAY => [160, 166, 179],
        block::SNOW | block::SNOW_BLOCK => [248, 250, 252],
        block::ICE => [160, 190, 250],
        block::STONE | block::COBBLESTONE => [125, 125, 125],
        block::DEEPSLATE => [80, 80, 85],
        block::DIRT | block::DIRT_PATH => [134, 96, 67],
        block::LAVA => [230, 90, 20],
        _ => [110, 110, 110],
    }
}

/// Render a region as a map, one pixel per block column, north up.
pub fn render(region: &Region, layer: Layer) -> Image {
    let xs: Vec<i32> = region.chunks.keys().map(|p| p.x).collect();
    let zs: Vec<i32> = region.chunks.keys().map(|p| p.z).collect();
    let (x0, x1) = (
        *xs.iter().min().unwrap_or(&0),
        *xs.iter().max().unwrap_or(&0),
    );
    let (z0, z1) = (
        *zs.iter().min().unwrap_or(&0),
        *zs.iter().max().unwrap_or(&0),
    );
    let width = ((x1 - x0 + 1) * 16) as usize;
    let height = ((z1 - z0 + 1) * 16) as usize;
    let dims = region.gen.dims();
    let mut surface = vec![dims.min_y; width * height];
    let mut top = vec![block::AIR; width * height];
    let mut floor = vec![dims.min_y; width * height];
    let mut biomes = vec![0u8; width * height];
    for (p, d) in &region.chunks {
        let (blocks, ws_map, of_map) = match d.surface() {
            Some(t) => t,
            None => continue,
        };
        let ox = ((p.x - x0) * 16) as usize;
        let oz = ((p.z - z0) * 16) as usize;
        for z in 0..16 {
            for x in 0..16 {
                let i = (oz + z) * width + ox + x;
                let ws = ws_map[z * 16 + x];
                surface[i] = ws;
                floor[i] = of_map[z * 16 + x];
                top[i] = if ws > dims.min_y {
                    blocks[dims.index(x, ws - 1, z)]
                } else {
                    block::AIR
                };
                biomes[i] = region
                    .gen
                    .biome_at(p.block_x() + x as i32, p.block_z() + z as i32);
            }
        }
    }
    let mut rgb = vec![0u8; width * height * 3];
    for zz in 0..height {
        for xx in 0..width {
            let i = zz * width + xx;
            let c: [u8; 3] = match layer {
                Layer::Biomes => biome::info(biomes[i]).color,
                Layer::Height => {
                    let v = ((surface[i] - dims.min_y) as f64 / dims.height as f64 * 255.0)
                        .clamp(0.0, 255.0) as u8;
                    [v, v, v]
                }
                Layer::Shaded | Layer::Structures | Layer::Light => {
                    let nw = if xx > 0 && zz > 0 {
                        surface[i - width - 1]
                    } else {
                        surface[i]
                    };
                    let shade = (1.0 + (surface[i] - nw) as f64 * 0.08).clamp(0.55, 1.35);
                    if top[i] == block::WATER {
                        let depth = (surface[i] - floor[i]).max(0) as f64;
                        let k = (1.0 - depth / 40.0).clamp(0.25, 1.0);
                        [
                            (40.0 * k) as u8,
                            (90.0 * k + 20.0) as u8,
                            (200.0 * k + 40.0) as u8,
                        ]
                    } else {
                        let b = block_colour(top[i], biomes[i]);
                        [
                            (b[0] as f64 * shade).min(255.0) as u8,
                            (b[1] as f64 * shade).min(255.0) as u8,
                            (b[2] as f64 * shade).min(255.0) as u8,
                        ]
                    }
                }
            };
            rgb[i * 3..i * 3 + 3].copy_from_slice(&c);
        }
    }
    if layer == Layer::Structures {
        for v in rgb.iter_mut() {
            *v = (*v / 2).saturating_add(96);
        }
    }
    if layer == Layer::Light {
        light_overlay(region, &mut rgb, width, x0, z0);
    }
    if matches!(layer, Layer::Shaded | Layer::Structures) {
        outline_structures(region, &mut rgb, width, height, x0, z0);
    }
    Image { width, height, rgb }
}

fn light_overlay(region: &Region, rgb: &mut [u8], width: usize, x0: i32, z0: i32) {
    let dims = region.gen.dims();
    for (p, d) in &region.chunks {
        let f = match d.full() {
            Some(f) => f,
            None => continue,
        };
        for z in 0..16 {
            for x in 0..16 {
                // Light of the block above the ground (where a player stands).
                let y =
                    f.heightmaps()[stratagen_core::world::Heightmap::MotionBlocking][z * 16 + x];
                if y > dims.max_y() {
                    continue;
                }
                let i = dims.index(x, y, z);
                let l = f.light().sky_at(i).max(f.light().block_at(i)) as u32;
                let px = (((p.z - z0) * 16) as usize + z) * width + ((p.x - x0) * 16) as usize + x;
                for c in &mut rgb[px * 3..px * 3 + 3] {
                    *c = ((*c as u32) * (l + 3) / 18) as u8;
                }
            }
        }
    }
}

fn outline_structures(
    region: &Region,
    rgb: &mut [u8],
    width: usize,
    height: usize,
    x0: i32,
    z0: i32,
) {
    use stratagen_core::world::structure::PieceKind;
    let mut plot = |x: i32, z: i32, c: [u8; 3]| {
        let (px, pz) = (x - x0 * 16, z - z0 * 16);
        if px >= 0 && pz >= 0 && (px as usize) < width && (pz as usize) < height {
            let i = (pz as usize * width + px as usize) * 3;
            rgb[i..i + 3].copy_from_slice(&c);
        }
    };
    for s in &region.starts {
        let a = match &s.assembled {
            Some(a) => a,
            None => continue,
        };
        for p in &a.pieces {
            let b = p.bbox;
            let colour = match p.kind {
                PieceKind::Room | PieceKind::Corridor => [200, 40, 200],
                PieceKind::Tower => [230, 30, 30],
                PieceKind::Hut => [250, 140, 20],
                PieceKind::Path => [250, 230, 60],
            };
            if p.kind == PieceKind::Path {
                let [ax, az, hx, hz] = p.ends;
                for x in ax.min(hx)..=ax.max(hx) {
                    plot(x, az, colour);
                }
                for z in az.min(hz)..=az.max(hz) {
                    plot(hx, z, colour);
                }
                continue;
            }
            for x in b.min[0]..=b.max[0] {
                plot(x, b.min[2], colour);
                plot(x, b.max[2], colour);
            }
            for z in b.min[2]..=b.max[2] {
                plot(b.min[0], z, colour);
                plot(b.max[0], z, colour);
            }
        }
    }
}

/// Write `data` to `path` through a temporary file in the same directory and a rename, so a
/// failure never leaves a partial file at `path`.
pub fn write_atomic(path: &Path, data: &[u8]) -> Result<(), String> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| format!("{}: not a file path", path.display()))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let res = std::fs::write(&tmp, data).and_then(|_| std::fs::rename(&tmp, path));
    if let Err(e) = res {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("cannot write {}: {}", path.display(), e));
    }
    Ok(())
}

/// Encode an 8-bit RGB or grey PNG.
pub fn encode_png(
    width: usize,
    height: usize,
    channels: usize,
    bit16: bool,
    data: &[u8],
) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width as u32, height as u32);
        enc.set_color(if channels == 3 {
            png::ColorType::Rgb
        } else {
            png::ColorType::Grayscale
        });
        enc.set_depth(if bit16 {
            png::BitDepth::Sixteen
        } else {
            png::BitDepth::Eight
        });
        let mut w = enc.write_header().map_err(|e| e.to_string())?;
        w.write_image_data(data).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// Peak resident memory of this process in MiB (Linux `VmHWM`; 0 where unavailable).
pub fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// A colour palette of 2 to 6 stops, interpolated linearly.
pub fn palette(name: &str) -> Result<Vec<[u8; 3]>, String> {
    let named: &[[u8; 3]] = match name {
        "gray" | "grey" => &[[0, 0, 0], [255, 255, 255]],
        "terrain" => &[
            [20, 40, 120],
            [40, 90, 200],
            [230, 220, 160],
            [70, 150, 60],
            [120, 100, 80],
            [250, 250, 250],
        ],
        "fire" => &[
            [0, 0, 0],
            [150, 20, 0],
            [240, 120, 0],
            [255, 220, 60],
            [255, 255, 230],
        ],
        "ice" => &[[10, 20, 60], [40, 140, 200], [200, 240, 255]],
        "magma" => &[
            [0, 0, 4],
            [80, 18, 123],
            [183, 55, 121],
            [252, 137, 97],
            [252, 253, 191],
        ],
        _ => &[],
    };
    if !named.is_empty() {
        return Ok(named.to_vec());
    }
    let stops: Result<Vec<[u8; 3]>, String> = name
        .split(',')
        .map(|h| {
            let h = h.trim().trim_start_matches('#');
            if h.len() != 6 {
                return Err(format!("palette colour {h:?}: expected rrggbb"));
            }
            let v = u32::from_str_radix(h, 16)
                .map_err(|_| format!("palette colour {h:?}: not hexadecimal"))?;
            Ok([(v >> 16) as u8, (v >> 8) as u8, v as u8])
        })
        .collect();
    let stops = stops.map_err(|e| format!("{e} (or use gray, terrain, fire, ice, magma)"))?;
    if !(2..=6).contains(&stops.len()) {
        return Err(format!(
            "palette {name:?}: 2 to 6 colours, or gray, terrain, fire, ice, magma"
        ));
    }
    Ok(stops)
}

fn shade(stops: &[[u8; 3]], t: f64) -> [u8; 3] {
    let t = t.clamp(0.0, 1.0) * (stops.len() - 1) as f64;
    let i = (t.floor() as usize).min(stops.len() - 2);
    let f = t - i as f64;
    let mut c = [0u8; 3];
    for k in 0..3 {
        c[k] =
            (stops[i][k] as f64 + (stops[i + 1][k] as f64 - stops[i][k] as f64) * f).round() as u8;
    }
    c
}

/// Settings of a noise image.
#[derive(Clone, Debug)]
pub struct NoiseImage {
    /// Base noise and fractal settings (frequency = 1 / scale, offset in pixels).
    pub def: stratagen_core::noise::NoiseDef,
    /// Contrast multiplier around mid-grey, 0..=10 (1: unchanged).
    pub contrast: f64,
    /// Brightness shift, -1..=1 (0: unchanged).
    pub brightness: f64,
    /// Colour stops.
    pub palette: Vec<[u8; 3]>,
    /// Image size.
    pub width: usize,
    /// Image size.
    pub height: usize,
    /// Wrap on both axes by sampling a 4D torus (value and Perlin only).
    pub tileable: bool,
}

/// Render a noise image. Each sample `v` in `[-1, 1]` maps to `t = (v + 1) / 2`, then
/// `t' = clamp((t − 0.5) · contrast + 0.5 + brightness, 0, 1)`, then the palette.
pub fn noise_image(n: &NoiseImage) -> Result<Image, String> {
    use stratagen_core::noise::{FractalType, Grid2, NoiseType};
    if !(1..=8192).contains(&n.width) || !(1..=8192).contains(&n.height) {
        return Err(format!(
            "size {}x{}: each side must be 1..=8192",
            n.width, n.height
        ));
    }
    if !(n.contrast.is_finite() && (0.0..=10.0).contains(&n.contrast)) {
        return Err(format!("contrast {}: must be in 0..=10", n.contrast));
    }
    if !(n.brightness.is_finite() && (-1.0..=1.0).contains(&n.brightness)) {
        return Err(format!("brightness {}: must be in -1..=1", n.brightness));
    }
    let noise = n.def.build().map_err(|e| e.to_string())?;
    let mut vals = vec![0.0f64; n.width * n.height];
    if n.tileable {
        if !matches!(n.def.noise_type, NoiseType::Perlin | NoiseType::Value) {
            return Err("--tileable supports --type perlin and value".into());
        }
        // Sample a torus in 4D: each image axis is a circle whose circumference is the image
        // side in noise cells, so both axes wrap exactly.
        let tau = std::f64::consts::TAU;
        let f0 = n.def.frequency;
        let (rx, ry) = (n.width as f64 * f0 / tau, n.height as f64 * f0 / tau);
        let octaves = if n.def.fractal == FractalType::None {
            1
        } else {
            n.def.octaves
        };
        let (mut amp, mut total) = (1.0, 0.0);
        let mut weights = Vec::new();
        for _ in 0..octaves {
            weights.push(amp);
            total += amp;
            amp *= n.def.gain;
        }
        for j in 0..n.height {
            let phi = tau * (j as f64 + n.def.offset[1]) / n.height as f64;
            for i in 0..n.width {
                let th = tau * (i as f64 + n.def.offset[0]) / n.width as f64;
                let mut acc = 0.0;
                let mut scale = 1.0;
                for (o, w) in weights.iter().enumerate() {
                    let seed = stratagen_core::util::random::mix_stafford13(
                        n.def.seed as u64 ^ (o as u64 + 1),
                    );
                    let p = [
                        rx * th.cos() * scale,
                        rx * th.sin() * scale,
                        ry * phi.cos() * scale,
                        ry * phi.sin() * scale,
                    ];
                    let v = stratagen_core::noise::perlin4(seed, p[0], p[1], p[2], p[3]);
                    let v = match n.def.fractal {
                        FractalType::Ridged => 1.0 - 2.0 * v.abs(),
                        FractalType::Billow => 2.0 * v.abs() - 1.0,
                        _ => v,
                    };
                    acc += v * w;
                    scale *= n.def.lacunarity;
                }
                vals[j * n.width + i] = acc / total;
            }
        }
    } else {
        let g = Grid2 {
            x0: 0.0,
            y0: 0.0,
            dx: 1.0,
            dy: 1.0,
            width: n.width,
            height: n.height,
        };
        noise.fill_2d(&g, &mut vals).map_err(|e| e.to_string())?;
    }
    let mut rgb = vec![0u8; vals.len() * 3];
    for (k, v) in vals.iter().enumerate() {
        let t = ((v + 1.0) * 0.5 - 0.5) * n.contrast + 0.5 + n.brightness;
        rgb[k * 3..k * 3 + 3].copy_from_slice(&shade(&n.palette, t));
    }
    Ok(Image {
        width: n.width,
        height: n.height,
        rgb,
    })
}
