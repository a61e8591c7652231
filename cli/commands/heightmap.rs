//! `stratagen heightmap`: one heightmap chunk as a 16-bit PNG or raw f32, and (`--mesh`) the
//! meshes of a rectangle of heightmap chunks as a glTF binary: a node per chunk, normals from
//! the apron so neighbouring chunks meet without a seam, optional skirts.

use std::path::PathBuf;

use clap::Args;
use stratagen_core::noise::NoiseDef;

use stratagen_core::engine::{ChunkPos, ChunkRect};
use stratagen_core::mesh::heightmap::{mesh_heightmap, HeightmapMeshOptions};
use stratagen_core::noise::Noise;
use stratagen_core::world::scatter::{scatter_heightmap, ScatterLayer};

use crate::args::{parse_pair, parse_rect, region_chunks, require_extension};
use crate::commands::scatter;
use crate::error::{usage, CliError};
use crate::files::{encode_png, write_atomic};
use crate::gltf::{Glb, InstanceTransform, Material, Primitive};
use crate::worlds::WorldArg;

/// Arguments of `stratagen heightmap`.
#[derive(Args)]
pub struct HeightmapArgs {
    /// Seed.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub seed: i64,
    /// Chunk X,Z.
    #[arg(long, default_value = "0,0", value_parser = parse_pair, allow_hyphen_values = true)]
    pub chunk: (i32, i32),
    /// Samples per side, 1..=4096.
    #[arg(long, default_value_t = 64)]
    pub res: usize,
    /// Output file (.png or .raw). Default heightmap.png, unless only --mesh is given.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also write the mesh of the heightmap chunks as a glTF binary (.glb).
    #[arg(long)]
    pub mesh: Option<PathBuf>,
    /// Chunks to mesh, inclusive X0,Z0,X1,Z1 (at most 1024). Default: --chunk alone.
    #[arg(long, value_parser = parse_rect, allow_hyphen_values = true, requires = "mesh")]
    pub region: Option<ChunkRect>,
    /// Skirt depth in blocks for the mesh (0: none).
    #[arg(long, default_value_t = 0.0, requires = "mesh")]
    pub skirt: f32,
    /// Also place the scatter layers of `--world` on the heightmap mesh (instanced nodes,
    /// as `stratagen scatter` writes them; biome and ground-block rules do not apply).
    #[arg(long, requires = "mesh")]
    pub scatter: bool,
    /// World definition whose `[[scatter]]` layers `--scatter` places.
    #[command(flatten)]
    pub world: WorldArg,
}

/// Most heightmap chunks one `--mesh` covers.
const MAX_MESH_CHUNKS: u64 = 1024;
/// Blocks per unit of noise value, and the height of value 0, in the mesh.
const HEIGHT_SCALE: f32 = 48.0;
const HEIGHT_OFFSET: f32 = 64.0;

/// A terrain colour by height in blocks (water, sand, grass, rock, snow), linear RGB bytes.
fn terrain_colour(y: f32) -> [u8; 4] {
    let t = (y - HEIGHT_OFFSET) / HEIGHT_SCALE;
    let rgb = if t < -0.25 {
        [10, 40, 110]
    } else if t < -0.15 {
        [180, 160, 100]
    } else if t < 0.35 {
        [40, 110, 30]
    } else if t < 0.6 {
        [90, 80, 70]
    } else {
        [230, 230, 235]
    };
    [rgb[0], rgb[1], rgb[2], 255]
}

/// Mesh the heightmap chunks of `rect` into a glTF binary at `path`.
fn write_mesh(
    noise: &Noise,
    res: usize,
    rect: ChunkRect,
    skirt: f32,
    path: &std::path::Path,
    (seed, layers): (i64, &[ScatterLayer]),
) -> Result<(), CliError> {
    let (x0, z0, x1, z1) = rect.bounds();
    let count = region_chunks(rect, MAX_MESH_CHUNKS)?;
    if !skirt.is_finite() || skirt < 0.0 {
        return Err(usage(format!("--skirt {skirt}: must be finite and >= 0")));
    }
    require_extension(path, "glb")?;
    let options = HeightmapMeshOptions {
        res,
        height_scale: HEIGHT_SCALE,
        height_offset: HEIGHT_OFFSET,
        skirt_depth: skirt,
    };
    let mut samples = vec![0f32; (res + 3) * (res + 3)];
    let mut glb = Glb::default();
    let mut triangles = 0;
    for z in z0..=z1 {
        for x in x0..=x1 {
            noise.heightmap_apron(x, z, res, &mut samples)?;
            let m = mesh_heightmap(&samples, &options).map_err(|e| usage(e.to_string()))?;
            triangles += m.indices.len() / 3;
            let prim = Primitive {
                colours: m.positions.iter().map(|p| terrain_colour(p[1])).collect(),
                positions: m.positions,
                normals: m.normals,
                uvs: m.uvs,
                indices: m.indices,
                material: Material::Terrain,
            };
            let at = [(x - x0) as f32 * 16.0, 0.0, (z - z0) as f32 * 16.0];
            glb.node(&format!("heightmap {x},{z}"), at, &[prim]);
        }
    }
    // Props stand at the noise's height at their exact position, the surface the mesh
    // samples.
    let height = |x: f64, z: f64| noise.sample_2d(x, z) as f32 * HEIGHT_SCALE + HEIGHT_OFFSET;
    let mut props = 0;
    for layer in layers {
        let mut per_kind: Vec<Vec<InstanceTransform>> = vec![Vec::new(); layer.kinds.len()];
        for z in z0..=z1 {
            for x in x0..=x1 {
                let pos = ChunkPos::new(x, z);
                for i in scatter_heightmap(seed, layer, pos, height) {
                    if let Some(k) = per_kind.get_mut(usize::from(i.kind)) {
                        k.push(scatter::transform(pos, (x0, z0), &i));
                    }
                }
            }
        }
        for (kind, instances) in layer.kinds.iter().zip(&per_kind) {
            let name = format!("{} {}", layer.name, kind.name);
            let marker = scatter::marker(scatter::stand_in(&layer.name, &kind.name));
            glb.instanced_node(&name, &[marker], instances);
            props += instances.len();
        }
    }
    let bytes = glb.finish();
    write_atomic(path, &bytes)?;
    println!(
        "wrote {}: {count} heightmap chunks, {triangles} triangles, {props} props, {} bytes",
        path.display(),
        bytes.len()
    );
    Ok(())
}

/// A sample in `[-1, 1]` as a 16-bit grey level (big-endian, as PNG stores it).
fn grey16(v: f32) -> [u8; 2] {
    let t = ((f64::from(v) + 1.0) * 0.5).clamp(0.0, 1.0);
    ((t * 65535.0).round().min(65535.0) as u16).to_be_bytes()
}

/// Run `stratagen heightmap`.
pub fn run(a: HeightmapArgs) -> Result<(), CliError> {
    let res = a.res;
    if !(1..=4096).contains(&res) {
        return Err(usage(format!("--res {res}: must be 1..=4096")));
    }
    let out = match (&a.out, &a.mesh) {
        (Some(o), _) => Some(o.clone()),
        (None, Some(_)) => None,
        (None, None) => Some(PathBuf::from("heightmap.png")),
    };
    let ext: Option<String> = out.as_ref().map(|o| {
        o.extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_string()
    });
    if let (Some(o), Some(ext)) = (&out, ext.as_deref()) {
        if ext != "png" && ext != "raw" {
            return Err(usage(format!(
                "{}: the extension must be .png or .raw",
                o.display()
            )));
        }
    }
    let noise = NoiseDef {
        seed: a.seed,
        octaves: 6,
        frequency: 1.0 / 256.0,
        ..NoiseDef::default()
    }
    .build()?;
    if let Some(path) = &a.mesh {
        let rect = match a.region {
            Some(r) => r,
            None => ChunkRect::of(ChunkPos::new(a.chunk.0, a.chunk.1))
                .map_err(|e| usage(format!("--chunk: {e}")))?,
        };
        let layers = if a.scatter {
            a.world.definition()?.scatter.clone()
        } else {
            Vec::new()
        };
        write_mesh(&noise, res, rect, a.skirt, path, (a.seed, &layers))?;
    }
    let Some(out) = out else {
        return Ok(());
    };
    let mut h = vec![0f32; res * res];
    noise.heightmap_chunk(a.chunk.0, a.chunk.1, res, &mut h)?;
    let bytes = if ext.as_deref() == Some("raw") {
        h.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()
    } else {
        let px: Vec<u8> = h.iter().flat_map(|&v| grey16(v)).collect();
        encode_png(res, res, 1, true, &px)?
    };
    write_atomic(&out, &bytes)?;
    println!(
        "wrote {} ({res}x{res} samples of chunk {},{})",
        out.display(),
        a.chunk.0,
        a.chunk.1
    );
    Ok(())
}
