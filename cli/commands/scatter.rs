//! `stratagen scatter`: generate a rectangle of chunks, place every scatter layer of the
//! world's definition on them, and write one glTF binary with a node per layer and kind, its
//! instances drawn through `EXT_mesh_gpu_instancing`. Each kind's mesh is a stand-in (a
//! coloured pyramid, shaped after common prop names) for the model a host draws; the
//! transforms are what matters.

use std::path::PathBuf;

use clap::Args;
use stratagen_core::engine::{ChunkPos, ChunkRect, ChunkStatus};
use stratagen_core::util::digest::Digest;
use stratagen_core::world::scatter::{instances_digest, is_ground, scatter_chunk, Instance};
use stratagen_core::world::WorldSettings;

use crate::args::{parse_rect, region_chunks, require_extension, threads_or_default};
use crate::error::{usage, CliError};
use crate::files::write_atomic;
use crate::gltf::{Glb, InstanceTransform, Material, Primitive};
use crate::progress::generate_with_progress;
use crate::stored::read_region;
use crate::worlds::WorldArg;

/// Most chunks one `scatter` call covers.
const MAX_SCATTER_CHUNKS: u64 = 4096;

/// Arguments of `stratagen scatter`.
#[derive(Args)]
pub struct ScatterArgs {
    /// World seed.
    #[arg(
        long,
        default_value_t = 0,
        allow_negative_numbers = true,
        conflicts_with = "from"
    )]
    pub seed: i64,
    /// World definition (its `[[scatter]]` layers are placed).
    #[command(flatten)]
    pub world: WorldArg,
    /// Inclusive chunk rectangle X0,Z0,X1,Z1 (at most 4096 chunks).
    #[arg(long, value_parser = parse_rect, allow_hyphen_values = true)]
    pub region: ChunkRect,
    /// Output file (.glb).
    #[arg(long)]
    pub out: PathBuf,
    /// Threads for generation (0: inline). Default: available cores.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Read the chunks and edits from this store instead of generating them.
    #[arg(long)]
    pub from: Option<PathBuf>,
}

/// What a kind's stand-in looks like: (width, height in blocks, sRGB colour). Common prop
/// names get a recognisable shape (tall green for trees, low grey for rocks, small green for
/// plants); other kinds a mid-sized marker in a colour hashed from their names.
pub(crate) struct StandIn {
    width: f32,
    height: f32,
    colour: [u8; 4],
}

/// The stand-in of kind `kind` of layer `layer`.
pub(crate) fn stand_in(layer: &str, kind: &str) -> StandIn {
    let has = |words: &[&str]| words.iter().any(|w| kind.contains(w) || layer.contains(w));
    let (width, height, colour) = if has(&["tree", "conifer", "broadleaf", "pine", "oak"]) {
        (3.0, 7.0, [46, 110, 48, 255])
    } else if has(&["rock", "boulder", "pebble", "stone"]) {
        (2.0, 1.2, [128, 126, 120, 255])
    } else if has(&["grass", "tuft", "flower", "bush", "fern"]) {
        (0.6, 0.8, [96, 150, 60, 255])
    } else {
        let mut d = Digest::new();
        d.write_bytes(layer.as_bytes());
        d.write_u8(0);
        d.write_bytes(kind.as_bytes());
        let h = d.finish().to_le_bytes();
        // Mid-range colours: visible on both dark and light ground.
        (1.0, 2.0, [64 + h[0] / 2, 64 + h[1] / 2, 64 + h[2] / 2, 255])
    };
    StandIn {
        width,
        height,
        colour,
    }
}

/// A stand-in marker standing on its origin: a four-sided pyramid of the stand-in's width
/// and height, flat-shaded.
pub(crate) fn marker(look: StandIn) -> Primitive {
    let (w, colour) = (look.width * 0.5, look.colour);
    let apex = [0.0, look.height, 0.0];
    let base = [[-w, 0.0, -w], [w, 0.0, -w], [w, 0.0, w], [-w, 0.0, w]];
    let mut positions = Vec::new();
    let mut normals = Vec::new();
    let mut indices = Vec::new();
    let mut tri = |a: [f32; 3], b: [f32; 3], c: [f32; 3]| {
        let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
        let n = [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ];
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        let k = positions.len() as u32;
        for p in [a, b, c] {
            positions.push(p);
            normals.push([n[0] / len, n[1] / len, n[2] / len]);
        }
        indices.extend([k, k + 1, k + 2]);
    };
    // Sides, counter-clockwise seen from outside (glTF's front faces).
    for i in 0..4 {
        tri(base[i], apex, base[(i + 1) % 4]);
    }
    tri(base[0], base[1], base[2]);
    tri(base[0], base[2], base[3]);
    let n = positions.len();
    Primitive {
        positions,
        normals,
        colours: vec![colour; n],
        uvs: Vec::new(),
        indices,
        material: Material::Opaque,
    }
}

/// An instance's glTF transform: the chunk's place plus its position, its rotation
/// ([`Instance::rotation`]) and its uniform scale.
pub(crate) fn transform(chunk: ChunkPos, origin: (i32, i32), i: &Instance) -> InstanceTransform {
    InstanceTransform {
        translation: [
            ((chunk.x - origin.0) * 16) as f32 + i.position[0],
            i.position[1],
            ((chunk.z - origin.1) * 16) as f32 + i.position[2],
        ],
        rotation: i.rotation(),
        scale: [i.scale; 3],
    }
}

/// Run `stratagen scatter`.
pub fn run(a: ScatterArgs) -> Result<(), CliError> {
    let (x0, z0, x1, z1) = a.region.bounds();
    let count = region_chunks(a.region, MAX_SCATTER_CHUNKS)?;
    require_extension(&a.out, "glb")?;
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
            threads_or_default(a.threads),
        )?,
    };
    let g = &region.generator;
    let world = g.definition();
    if world.scatter.is_empty() {
        return Err(usage(format!(
            "world {:?} has no [[scatter]] layers",
            world.name
        )));
    }
    let seed = g.settings().seed;
    let ground = |b| is_ground(&world.blocks, b);
    let mut glb = Glb::default();
    let mut digest = Digest::new();
    let mut lines = Vec::new();
    for layer in &world.scatter {
        let mut per_kind: Vec<Vec<InstanceTransform>> = vec![Vec::new(); layer.kinds.len()];
        for z in z0..=z1 {
            for x in x0..=x1 {
                let pos = ChunkPos::new(x, z);
                let full =
                    region
                        .chunks
                        .get(&pos)
                        .and_then(|d| d.full())
                        .ok_or(CliError::NotReached {
                            pos,
                            status: ChunkStatus::Full,
                        })?;
                let v = scatter_chunk(seed, &g.dims(), layer, full, ground);
                instances_digest(&mut digest, &v);
                for i in &v {
                    if let Some(k) = per_kind.get_mut(usize::from(i.kind)) {
                        k.push(transform(pos, (x0, z0), i));
                    }
                }
            }
        }
        for (kind, instances) in layer.kinds.iter().zip(&per_kind) {
            let name = format!("{} {}", layer.name, kind.name);
            glb.instanced_node(
                &name,
                &[marker(stand_in(&layer.name, &kind.name))],
                instances,
            );
            lines.push(format!("{name} {}", instances.len()));
        }
    }
    let bytes = glb.finish();
    write_atomic(&a.out, &bytes)?;
    println!(
        "wrote {}: {count} chunks, {} bytes; scatter digest {:016x}",
        a.out.display(),
        bytes.len(),
        digest.finish()
    );
    for l in lines {
        println!("  {l}");
    }
    Ok(())
}
