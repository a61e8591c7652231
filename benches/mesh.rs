//! Chunk meshes against the `block-mesh` crate, in the same run on the same chunks: the 4 × 4
//! chunks around the origin of the default world (seed 0: plains, forest, a lake), each with
//! its eight neighbours. Ours includes gathering the padded volume from the chunks and
//! computes AO and light per vertex; block-mesh gets its padded 18 × 18 × 386 voxel array
//! ready-made and computes neither. Also the heightmap mesh of a 64² chunk with normals.
//!
//! Summary line: `mesh culled_us=... greedy_us=... bm_visible_us=... bm_greedy_us=...
//! culled_vs_bm_visible=... greedy_vs_bm_greedy=... quads_culled=... quads_greedy=...
//! quads_bm_visible=... quads_bm_greedy=... heightmap64_us=...` (medians over the chunks of
//! each chunk's best time).
use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use block_mesh::ndshape::{RuntimeShape, Shape};
use block_mesh::{
    greedy_quads, visible_block_faces, GreedyQuadsBuffer, MergeVoxel, UnitQuadBuffer, Voxel,
    VoxelVisibility, RIGHT_HANDED_Y_UP_CONFIG,
};
use criterion::Criterion;
use stratagen_cli::{generate, square};
use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::mesh::heightmap::{mesh_heightmap, HeightmapMeshOptions};
use stratagen_core::mesh::{mesh_chunk, MeshOptions, Mode};
use stratagen_core::noise::NoiseDef;
use stratagen_core::world::block::{self, Shape as BlockShape};
use stratagen_core::world::{ChunkData, Dims, FullChunk, Neighbourhood, Palette, WorldSettings};

/// A block id as block-mesh sees it: air empty, occluders opaque, everything else
/// translucent (drawn, lets light through), merged by id.
#[derive(Clone, Copy, PartialEq, Eq)]
struct BlockVoxel(u16);

impl Voxel for BlockVoxel {
    fn get_visibility(&self) -> VoxelVisibility {
        // The bench meshes the default world: its blocks are the built-in table.
        let p = block::BUILTIN[self.0 as usize].1;
        if p.shape == BlockShape::None {
            VoxelVisibility::Empty
        } else if p.is_occluder() {
            VoxelVisibility::Opaque
        } else {
            VoxelVisibility::Translucent
        }
    }
}

impl MergeVoxel for BlockVoxel {
    type MergeValue = u16;
    fn merge_value(&self) -> u16 {
        self.0
    }
}

struct Input {
    chunks: BTreeMap<ChunkPos, Arc<ChunkData>>,
    dims: Dims,
    palette: Palette,
    meshed: Vec<ChunkPos>,
}

fn input() -> Input {
    let positions = square((0, 0), 3);
    let r = generate(
        WorldSettings::default(),
        &positions,
        ChunkStatus::Full,
        2,
        |_, _| {},
    )
    .unwrap();
    let meshed = square((0, 0), 2)
        .into_iter()
        .filter(|p| p.x < 2 && p.z < 2)
        .collect();
    Input {
        dims: r.generator.dims(),
        palette: r.generator.definition().blocks.clone(),
        chunks: r.chunks,
        meshed,
    }
}

impl Input {
    fn full(&self, x: i32, z: i32) -> Option<&FullChunk> {
        self.chunks.get(&ChunkPos::new(x, z)).and_then(|d| d.full())
    }
    fn ours(&self, p: ChunkPos, mode: Mode) -> usize {
        let n = Neighbourhood::from_fn(|dx, dz| self.full(p.x + dx, p.z + dz));
        let o = MeshOptions {
            mode,
            ..MeshOptions::default()
        };
        mesh_chunk(&n, self.dims, &self.palette, &o)
            .unwrap()
            .quad_count()
    }
    /// The padded 18 × 18 × (height + 2) array, x fastest, then z, then y (block-mesh's
    /// shape is given as [x, z, y] to match), with bedrock below and air above.
    fn padded(&self, p: ChunkPos) -> Vec<BlockVoxel> {
        let ny = self.dims.height as usize;
        let mut v = vec![BlockVoxel(block::AIR); 18 * 18 * (ny + 2)];
        for z in 0..18i32 {
            for x in 0..18i32 {
                v[(z * 18 + x) as usize] = BlockVoxel(block::BEDROCK);
                let (wx, wz) = (p.x * 16 + x - 1, p.z * 16 + z - 1);
                let c = self.full(wx.div_euclid(16), wz.div_euclid(16)).unwrap();
                for y in 0..ny {
                    let i = (y * 16 + wz.rem_euclid(16) as usize) * 16 + wx.rem_euclid(16) as usize;
                    v[((y + 1) * 18 + z as usize) * 18 + x as usize] = BlockVoxel(c.blocks()[i]);
                }
            }
        }
        v
    }
}

fn shape(dims: Dims) -> RuntimeShape<u32, 3> {
    RuntimeShape::<u32, 3>::new([18, 18, dims.height + 2])
}

fn bm_visible(v: &[BlockVoxel], s: &RuntimeShape<u32, 3>, buf: &mut UnitQuadBuffer) -> usize {
    let [x, z, y] = s.as_array();
    buf.reset();
    visible_block_faces(
        v,
        s,
        [0; 3],
        [x - 1, z - 1, y - 1],
        &RIGHT_HANDED_Y_UP_CONFIG.faces,
        buf,
    );
    buf.num_quads()
}

fn bm_greedy(v: &[BlockVoxel], s: &RuntimeShape<u32, 3>, buf: &mut GreedyQuadsBuffer) -> usize {
    let [x, z, y] = s.as_array();
    buf.reset(v.len());
    greedy_quads(
        v,
        s,
        [0; 3],
        [x - 1, z - 1, y - 1],
        &RIGHT_HANDED_Y_UP_CONFIG.faces,
        buf,
    );
    buf.quads.num_quads()
}

/// Best time of `f` over `rounds`, in µs.
fn best_us(rounds: usize, mut f: impl FnMut() -> usize) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = Instant::now();
        black_box(f());
        best = best.min(t.elapsed().as_secs_f64() * 1e6);
    }
    best
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() {
    println!("cpu {}", stratagen_cli::cpu_model());
    let inp = input();
    let s = shape(inp.dims);
    let padded: Vec<Vec<BlockVoxel>> = inp.meshed.iter().map(|&p| inp.padded(p)).collect();
    let mut unit = UnitQuadBuffer::new();
    let mut greedy = GreedyQuadsBuffer::new(padded[0].len());
    let hm_noise = NoiseDef {
        octaves: 6,
        frequency: 1.0 / 256.0,
        ..NoiseDef::default()
    }
    .build()
    .unwrap();
    let mut hm_samples = vec![0f32; 67 * 67];
    hm_noise
        .heightmap_apron(3, -2, 64, &mut hm_samples)
        .unwrap();
    let hm_options = HeightmapMeshOptions::default();

    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    c.bench_function("mesh_16_chunks_culled", |b| {
        b.iter(|| {
            inp.meshed
                .iter()
                .map(|&p| inp.ours(p, Mode::Culled))
                .sum::<usize>()
        })
    });
    c.bench_function("mesh_16_chunks_greedy", |b| {
        b.iter(|| {
            inp.meshed
                .iter()
                .map(|&p| inp.ours(p, Mode::Greedy))
                .sum::<usize>()
        })
    });
    c.bench_function("block_mesh_16_chunks_visible_block_faces", |b| {
        b.iter(|| {
            padded
                .iter()
                .map(|v| bm_visible(v, &s, &mut unit))
                .sum::<usize>()
        })
    });
    c.bench_function("block_mesh_16_chunks_greedy_quads", |b| {
        b.iter(|| {
            padded
                .iter()
                .map(|v| bm_greedy(v, &s, &mut greedy))
                .sum::<usize>()
        })
    });
    c.bench_function("heightmap_mesh_64", |b| {
        b.iter(|| {
            mesh_heightmap(&hm_samples, &hm_options)
                .unwrap()
                .indices
                .len()
        })
    });

    // Summary: per chunk, the best of 30 rounds of each mesher, interleaved; medians over
    // the chunks.
    let rounds = 30;
    let mut t = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
    let mut quads = [0usize; 4];
    for (k, &p) in inp.meshed.iter().enumerate() {
        t[0].push(best_us(rounds, || inp.ours(p, Mode::Culled)));
        t[1].push(best_us(rounds, || inp.ours(p, Mode::Greedy)));
        t[2].push(best_us(rounds, || bm_visible(&padded[k], &s, &mut unit)));
        t[3].push(best_us(rounds, || bm_greedy(&padded[k], &s, &mut greedy)));
        quads[0] += inp.ours(p, Mode::Culled);
        quads[1] += inp.ours(p, Mode::Greedy);
        quads[2] += bm_visible(&padded[k], &s, &mut unit);
        quads[3] += bm_greedy(&padded[k], &s, &mut greedy);
    }
    let hm = best_us(200, || {
        mesh_heightmap(&hm_samples, &hm_options)
            .unwrap()
            .indices
            .len()
    });
    let m: Vec<f64> = t.into_iter().map(median).collect();
    let n = inp.meshed.len();
    println!(
        "mesh culled_us={:.1} greedy_us={:.1} bm_visible_us={:.1} bm_greedy_us={:.1} \
         culled_vs_bm_visible={:.2} greedy_vs_bm_greedy={:.2} quads_culled={} quads_greedy={} \
         quads_bm_visible={} quads_bm_greedy={} heightmap64_us={:.1}",
        m[0],
        m[1],
        m[2],
        m[3],
        m[0] / m[2],
        m[1] / m[3],
        quads[0] / n,
        quads[1] / n,
        quads[2] / n,
        quads[3] / n,
        hm
    );
}
