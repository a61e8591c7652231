// The parity corpus: digests of noise grids and of every status of a fixed set of chunks.
// Shared by the Rust test (tests/parity.rs, which pins them in a snapshot) and by the
// cross-architecture harness (harness.rs, built with Debian's rustc 1.63 and run under
// qemu-user), so both print exactly the same lines. Uses only `stratagen_core` and `std`,
// and Rust 1.63 syntax.

use std::sync::Arc;
use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::engine::{Priority, Scheduler};
use stratagen_core::mesh::heightmap::{mesh_heightmap, HeightmapMeshOptions};
use stratagen_core::mesh::{mesh_chunk, MeshOptions, MissingNeighbour, Mode};
use stratagen_core::noise::{FractalType, Grid2, Grid3, NoiseDef, NoiseType, Precision};
use stratagen_core::util::digest::Digest;
use stratagen_core::world::scatter::{is_ground, scatter_chunk, ScatterKind, ScatterLayer};
use stratagen_core::world::{
    status_digest, ChunkData, Definition, Neighbourhood, Palette, World, WorldGen, WorldSettings,
};

/// (label, seed, chunk x, chunk z): what each entry guards.
pub const CHUNKS: [(&str, i64, i32, i32); 9] = [
    ("origin", 0, 0, 0),
    ("negative", 0, -1, -1),
    ("deep-ocean", 0, 17, -19),
    ("mountains", 0, 58, -57),
    ("desert", 0, 21, -38),
    ("watchtower", 2024, -25, -43),
    ("dungeon", 2024, -30, -27),
    ("far-2^24-blocks", 7, 1_048_000, -1_048_000),
    ("other-seed", -123_456_789, 3, 5),
];

fn noise_lines(out: &mut Vec<String>) {
    noise_lines_in(Precision::F64, "noise", out);
    noise_lines_in(Precision::F32, "noise-f32", out);
}

fn noise_lines_in(precision: Precision, label: &str, out: &mut Vec<String>) {
    let types = [
        NoiseType::Value,
        NoiseType::Perlin,
        NoiseType::Simplex,
        NoiseType::Cellular,
    ];
    let fractals = [FractalType::Fbm, FractalType::Ridged, FractalType::Billow];
    for t in types.iter() {
        for f in fractals.iter() {
            for warp in [0.0, 7.5].iter() {
                let n = NoiseDef {
                    seed: 99,
                    noise_type: *t,
                    fractal: *f,
                    octaves: 4,
                    frequency: 0.043,
                    warp_amplitude: *warp,
                    precision,
                    ..NoiseDef::default()
                }
                .build()
                .expect("valid noise definition");
                let g = Grid2 {
                    x0: -33.5,
                    y0: 16_777_000.25,
                    dx: 0.75,
                    dy: 1.25,
                    width: 24,
                    height: 16,
                };
                let mut v = vec![0.0f64; 24 * 16];
                n.fill_2d(&g, &mut v).expect("grid fits");
                let mut h2 = Digest::new();
                h2.write_f64_slice(&v);
                let g3 = Grid3 {
                    origin: [5.0, -64.0, -9.0],
                    step: [1.0, 2.0, 1.0],
                    width: 8,
                    height: 12,
                    depth: 8,
                };
                let mut v3 = vec![0.0f64; 8 * 12 * 8];
                n.fill_3d(&g3, &mut v3).expect("grid fits");
                let mut h3 = Digest::new();
                h3.write_f64_slice(&v3);
                out.push(format!(
                    "{} {:?}-{:?}-warp{} 2d {:016x} 3d {:016x}",
                    label,
                    t,
                    f,
                    warp,
                    h2.finish(),
                    h3.finish()
                ));
            }
        }
    }
}

/// Mesh digests: the origin chunk of seed 0 with its eight neighbours (culled and greedy),
/// then each corpus chunk alone (neighbours missing, emitted and culled), then a heightmap
/// mesh with skirts.
fn mesh_lines(out: &mut Vec<String>) {
    let generator = WorldGen::new(WorldSettings::default()).expect("valid world");
    let dims = generator.dims();
    let mut s = Scheduler::with_id(Arc::new(World::new(generator)), 1);
    for z in -1..=1 {
        for x in -1..=1 {
            s.request(ChunkPos::new(x, z), ChunkStatus::Full, Priority::Soon)
                .expect("in range");
        }
    }
    s.run_inline(usize::MAX);
    let outputs: Vec<_> = Neighbourhood::<()>::OFFSETS
        .iter()
        .map(|&(x, z)| s.output(ChunkPos::new(x, z), ChunkStatus::Full))
        .collect();
    let n = Neighbourhood::from_fn(|dx, dz| {
        outputs[Neighbourhood::<()>::slot(dx, dz)]
            .as_ref()
            .and_then(|d| d.full())
    });
    for (name, mode) in [("culled", Mode::Culled), ("greedy", Mode::Greedy)].iter() {
        let o = MeshOptions {
            mode: *mode,
            missing: MissingNeighbour::Emit,
        };
        let m = mesh_chunk(&n, dims, &Palette::builtin(), &o).expect("full chunks");
        out.push(format!(
            "mesh origin seed 0 (0, 0) {} quads {} {:016x}",
            name,
            m.quad_count(),
            m.digest()
        ));
    }
    let hn = NoiseDef {
        seed: 5,
        octaves: 5,
        frequency: 1.0 / 200.0,
        ..NoiseDef::default()
    }
    .build()
    .expect("valid noise");
    let res = 24;
    let mut samples = vec![0f32; (res + 3) * (res + 3)];
    hn.heightmap_apron(-7, 3, res, &mut samples)
        .expect("buffer fits");
    let o = HeightmapMeshOptions {
        res,
        skirt_depth: 3.5,
        ..HeightmapMeshOptions::default()
    };
    let m = mesh_heightmap(&samples, &o).expect("valid samples");
    out.push(format!(
        "mesh heightmap seed 5 (-7, 3) res 24 {:016x}",
        m.digest()
    ));
}

/// A preset's name, its canonical bytes and its corpus chunks (seed, x, z).
pub type Preset = (&'static str, &'static [u8], [(i64, i32, i32); 2]);

/// The presets other than `default`, in the canonical encoding (`Definition::to_bytes`;
/// tests/parity.rs checks they are current), with the chunks each guards: (seed, x, z).
pub const PRESETS: [Preset; 2] = [
    (
        "archipelago",
        include_bytes!("presets/archipelago.bin"),
        [(0, 0, 0), (0, -14, -4)],
    ),
    (
        "caverns",
        include_bytes!("presets/caverns.bin"),
        [(0, 0, 0), (11, 7, -9)],
    ),
];

/// Each preset's digest, every status of its chunks, and each chunk's greedy mesh alone.
fn preset_lines(out: &mut Vec<String>) {
    for (name, bytes, chunks) in PRESETS.iter() {
        let world = Arc::new(Definition::from_bytes(bytes).expect("a valid preset"));
        out.push(format!("preset {} digest {:016x}", name, world.digest()));
        for (seed, x, z) in chunks.iter() {
            let def = WorldSettings {
                seed: *seed,
                ..WorldSettings::default()
            };
            let generator = WorldGen::with_definition(def, world.clone()).expect("valid world");
            let dims = generator.dims();
            let mut s = Scheduler::with_id(Arc::new(World::new(generator)), 1);
            let p = ChunkPos::new(*x, *z);
            s.request(p, ChunkStatus::Full, Priority::Soon)
                .expect("in range");
            s.run_inline(usize::MAX);
            for st in ChunkStatus::ALL.iter() {
                let d = s.output(p, *st).map_or(0, |d| status_digest(&d));
                out.push(format!(
                    "preset {} seed {} ({}, {}) {} {:016x}",
                    name,
                    seed,
                    x,
                    z,
                    st.name(),
                    d
                ));
            }
            if let Some(d) = s.output(p, ChunkStatus::Full) {
                let alone =
                    Neighbourhood::from_fn(
                        |dx, dz| if (dx, dz) == (0, 0) { d.full() } else { None },
                    );
                let o = MeshOptions {
                    mode: Mode::Greedy,
                    missing: MissingNeighbour::Emit,
                };
                let m = mesh_chunk(&alone, dims, &world.blocks, &o).expect("full chunk");
                out.push(format!(
                    "preset {} seed {} ({}, {}) mesh alone {:016x}",
                    name,
                    seed,
                    x,
                    z,
                    m.digest()
                ));
            }
        }
    }
}

/// The built-in world's scatter layers on a finished chunk: per layer, the instance count and
/// the digest of every field's bits.
fn scatter_lines(out: &mut Vec<String>, label: &str, seed: i64, p: ChunkPos, d: &ChunkData) {
    let world = Definition::builtin();
    let dims = WorldGen::new(WorldSettings {
        seed,
        ..WorldSettings::default()
    })
    .expect("valid world")
    .dims();
    let full = match d.full() {
        Some(f) => f,
        None => return,
    };
    // Besides the built-in layers (rules read from the chunk), one that places every point
    // tilted to the ground, at many scales and two kinds: the float work of every instance.
    let mut everywhere = ScatterLayer::new("corpus", 2.0);
    everywhere.align_to_normal = true;
    everywhere.scale = (0.5, 2.0);
    everywhere.kinds.push(ScatterKind {
        name: "second".into(),
        weight: 3,
    });
    let layers: Vec<(&ScatterLayer, bool)> = world
        .scatter
        .iter()
        .map(|l| (l, false))
        .chain(core::iter::once((&everywhere, true)))
        .collect();
    for (layer, anywhere) in layers {
        let ground = |b| anywhere || is_ground(&world.blocks, b);
        let v = scatter_chunk(seed, &dims, layer, full, ground);
        let mut h = Digest::new();
        for i in &v {
            h.write_u16(i.kind);
            for c in i.position.iter().chain(&[i.yaw, i.scale]).chain(&i.up) {
                h.write_u32(c.to_bits());
            }
        }
        out.push(format!(
            "scatter {} seed {} ({}, {}) {} {} {:016x}",
            label,
            seed,
            p.x,
            p.z,
            layer.name,
            v.len(),
            h.finish()
        ));
    }
}

/// Every corpus line, in a fixed order.
pub fn lines() -> Vec<String> {
    let mut out = Vec::new();
    noise_lines(&mut out);
    mesh_lines(&mut out);
    for (label, seed, x, z) in CHUNKS.iter() {
        let generator = WorldGen::new(WorldSettings {
            seed: *seed,
            ..WorldSettings::default()
        })
        .expect("valid world");
        let mut s = Scheduler::with_id(Arc::new(World::new(generator)), 1);
        let p = ChunkPos::new(*x, *z);
        s.request(p, ChunkStatus::Full, Priority::Soon)
            .expect("in range");
        s.run_inline(usize::MAX);
        if let Some(d) = s.output(p, ChunkStatus::Full) {
            let dims = WorldGen::new(WorldSettings {
                seed: *seed,
                ..WorldSettings::default()
            })
            .expect("valid world")
            .dims();
            let alone =
                Neighbourhood::from_fn(|dx, dz| if (dx, dz) == (0, 0) { d.full() } else { None });
            for (name, missing) in [
                ("emit", MissingNeighbour::Emit),
                ("cull", MissingNeighbour::Cull),
            ]
            .iter()
            {
                let o = MeshOptions {
                    mode: Mode::Greedy,
                    missing: *missing,
                };
                let m = mesh_chunk(&alone, dims, &Palette::builtin(), &o).expect("full chunk");
                out.push(format!(
                    "mesh {} seed {} ({}, {}) alone {} {:016x}",
                    label,
                    seed,
                    x,
                    z,
                    name,
                    m.digest()
                ));
            }
        }
        if let Some(d) = s.output(p, ChunkStatus::Full) {
            scatter_lines(&mut out, label, *seed, p, &d);
        }
        for st in ChunkStatus::ALL.iter() {
            let d = match s.output(p, *st) {
                Some(d) => status_digest(&d),
                None => 0,
            };
            out.push(format!(
                "chunk {} seed {} ({}, {}) {} {:016x}",
                label,
                seed,
                x,
                z,
                st.name(),
                d
            ));
        }
    }
    preset_lines(&mut out);
    out
}
