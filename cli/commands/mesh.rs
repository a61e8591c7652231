//! `stratagen mesh`: generate a rectangle of chunks, mesh every chunk (culled or greedy) and
//! write one glTF binary: a node per chunk, one primitive per surface, vertex colours from
//! the palette (grass and leaves tinted by biome, as on the map) with ambient occlusion and
//! light baked in. Chunks outside the rectangle count as missing, with their faces emitted,
//! so the region stands as a block with walls.

use std::path::PathBuf;

use clap::Args;
use stratagen_core::engine::{ChunkPos, ChunkRect, ChunkStatus};
use stratagen_core::mesh::colour::vertex_colours;
use stratagen_core::mesh::{mesh_chunk, Face, MeshOptions, Mode, SurfaceMesh};
use stratagen_core::util::digest::Digest;
use stratagen_core::world::block::Surface;
use stratagen_core::world::{Definition, FullChunk, Neighbourhood, WorldSettings};

use crate::args::{parse_rect, region_chunks, require_extension, threads_or_default};
use crate::error::{usage, CliError};
use crate::files::write_atomic;
use crate::gltf::{Glb, Material, Primitive};
use crate::progress::generate_with_progress;
use crate::stored::read_region;
use crate::worlds::WorldArg;

/// Most chunks one `mesh` call exports (about 250 KB of glTF each).
const MAX_MESH_CHUNKS: u64 = 1024;

/// Arguments of `stratagen mesh`.
#[derive(Args)]
pub struct MeshArgs {
    /// World seed.
    #[arg(
        long,
        default_value_t = 0,
        allow_negative_numbers = true,
        conflicts_with = "from"
    )]
    pub seed: i64,
    /// World definition.
    #[command(flatten)]
    pub world: WorldArg,
    /// Inclusive chunk rectangle X0,Z0,X1,Z1 (at most 1024 chunks).
    #[arg(long, value_parser = parse_rect, allow_hyphen_values = true)]
    pub region: ChunkRect,
    /// Output file (.glb).
    #[arg(long)]
    pub out: PathBuf,
    /// Greedy quads instead of one quad per face.
    #[arg(long)]
    pub greedy: bool,
    /// Threads for generation (0: inline). Default: available cores.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Read the chunks and edits from this store (written by `stratagen pregen` or
    /// `stratagen edit`) instead of generating them; its world is the store's.
    #[arg(long)]
    pub from: Option<PathBuf>,
}

/// A surface mesh as a glTF primitive with baked vertex colours.
fn primitive(
    world: &Definition,
    s: &SurfaceMesh,
    chunk: &FullChunk,
    material: Material,
) -> Primitive {
    // glTF vertex colours are linear; alpha is the palette's byte.
    let byte = |x: f32| (x * 255.0).round().clamp(0.0, 255.0) as u8;
    let colours = vertex_colours(s, world, &chunk.biomes)
        .into_iter()
        .map(|c| [byte(c[0]), byte(c[1]), byte(c[2]), byte(c[3])])
        .collect();
    Primitive {
        positions: s.positions.clone(),
        normals: s
            .faces
            .iter()
            .map(|&f| Face::from_index(f).map_or([0.0, 1.0, 0.0], Face::normal))
            .collect(),
        colours,
        uvs: s.uvs.clone(),
        indices: s.indices.clone(),
        material,
    }
}

/// Run `stratagen mesh`.
pub fn run(a: MeshArgs) -> Result<(), CliError> {
    let (x0, z0, x1, z1) = a.region.bounds();
    let count = region_chunks(a.region, MAX_MESH_CHUNKS)?;
    require_extension(&a.out, "glb")?;
    let threads = threads_or_default(a.threads);
    let def = WorldSettings {
        seed: a.seed,
        ..WorldSettings::default()
    };
    let region = match &a.from {
        Some(path) => read_region(path, a.region, a.world.definition()?)?,
        None => generate_with_progress(
            a.world.generator(def)?,
            &a.region.positions().collect::<Vec<_>>(),
            ChunkStatus::Full,
            threads,
        )?,
    };
    let dims = region.generator.dims();
    let world = region.generator.definition();
    let full = |x: i32, z: i32| {
        region
            .chunks
            .get(&ChunkPos::new(x, z))
            .and_then(|d| d.full())
    };
    let options = MeshOptions {
        mode: if a.greedy { Mode::Greedy } else { Mode::Culled },
        ..MeshOptions::default()
    };
    let mut glb = Glb::default();
    let (mut quads, mut digest) = (0usize, Digest::new());
    for z in z0..=z1 {
        for x in x0..=x1 {
            let n = Neighbourhood::from_fn(|dx, dz| full(x + dx, z + dz));
            let chunk = (*n.centre()).ok_or(CliError::NotReached {
                pos: ChunkPos::new(x, z),
                status: ChunkStatus::Full,
            })?;
            let m =
                mesh_chunk(&n, dims, &world.blocks, &options).map_err(|e| usage(e.to_string()))?;
            quads += m.quad_count();
            digest.write_u64(m.digest());
            let prims = [
                (Surface::Opaque, Material::Opaque),
                (Surface::Cutout, Material::Cutout),
                (Surface::Translucent, Material::Translucent),
            ]
            .map(|(s, mat)| primitive(world, m.surface(s), chunk, mat));
            // Chunk-local positions: the node carries the chunk's place (x east, z south).
            let at = [(x - x0) as f32 * 16.0, 0.0, (z - z0) as f32 * 16.0];
            glb.node(&format!("chunk {x},{z}"), at, &prims);
        }
    }
    let bytes = glb.finish();
    write_atomic(&a.out, &bytes)?;
    println!(
        "wrote {}: {count} chunks, {quads} quads ({} triangles), {} bytes, {}; mesh digest {:016x}",
        a.out.display(),
        2 * quads,
        bytes.len(),
        if a.greedy { "greedy" } else { "culled" },
        digest.finish()
    );
    Ok(())
}
