//! Command-line parsing: the commands and the value parsers they share.

use clap::{Parser, Subcommand};
use stratagen_core::engine::ChunkRect;

use crate::commands::{
    bench, digest, edit, heightmap, merge, mesh, noise, pregen, render, scatter, shader, verify,
    world,
};
use crate::error::{usage, CliError};

/// The `stratagen` command line.
#[derive(Parser)]
#[command(
    name = "stratagen",
    version,
    about = "Deterministic procedural worlds: maps, noise images, meshes, digests, benchmarks"
)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub cmd: Cmd,
}

/// The commands.
#[derive(Subcommand)]
pub enum Cmd {
    /// Generate a square of chunks and write a PNG map; prints the region digest and speed.
    Render(render::RenderArgs),
    /// Render a noise image (PNG).
    Noise(noise::NoiseArgs),
    /// Write one heightmap chunk as a 16-bit grey PNG (.png) or raw little-endian f32 (.raw).
    Heightmap(heightmap::HeightmapArgs),
    /// Mesh a rectangle of chunks and write a glTF binary (.glb): a node per chunk, opaque,
    /// cutout and water surfaces, vertex colours with ambient occlusion and light.
    Mesh(mesh::MeshArgs),
    /// Place the world's `[[scatter]]` layers on a rectangle of chunks and write a glTF
    /// binary (.glb): a node per layer and kind, instanced (EXT_mesh_gpu_instancing).
    Scatter(scatter::ScatterArgs),
    /// Print an `f32` noise as GPU shader source (WGSL, GLSL ES 3.0, Godot): one function
    /// `sg_noise_2d`/`sg_noise_3d` that gives the CPU's samples.
    Shader(shader::ShaderArgs),
    /// Print one digest per chunk of a region and the region digest.
    Digest(digest::DigestArgs),
    /// Apply an edit script (`set X Y Z BLOCK`, `fill X0 Y0 Z0 X1 Y1 Z1 BLOCK`) to a store;
    /// `render`, `digest` and `mesh` with `--from` read the edited world.
    Edit(edit::EditArgs),
    /// Cold fill of a square of chunks to full: chunks per second, per-status split, peak
    /// memory. The last line is machine-readable.
    Bench(bench::BenchArgs),
    /// Generate a rectangle of chunks into a SQLite store (one row per full chunk), with a
    /// progress bar; a rerun (after a kill, too) skips what is stored.
    Pregen(pregen::PregenArgs),
    /// Merge shard stores into one: identities checked, one transaction per input, a chunk
    /// held twice must be identical byte for byte; a rerun after a kill is safe.
    Merge(merge::MergeArgs),
    /// Check a store against a region: the chunks missing, and a sample of the stored ones
    /// regenerated and compared by digest. Exits non-zero if anything is off.
    Verify(verify::VerifyArgs),
    /// World definitions: print a preset or file as a full document, check files, list the
    /// presets.
    World(world::WorldArgs),
}

/// Parse `X,Z`.
pub fn parse_pair(s: &str) -> Result<(i32, i32), String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("expected X,Z, got {s:?}"))?;
    let p = |t: &str| t.trim().parse::<i32>().map_err(|e| format!("{t:?}: {e}"));
    Ok((p(a)?, p(b)?))
}

/// Parse `X,Y` (finite floats).
pub fn parse_fpair(s: &str) -> Result<(f64, f64), String> {
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

/// Parse `WxH`.
pub fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let (a, b) = s
        .split_once('x')
        .ok_or_else(|| format!("expected WxH, got {s:?}"))?;
    let p = |t: &str| t.trim().parse::<usize>().map_err(|e| format!("{t:?}: {e}"));
    Ok((p(a)?, p(b)?))
}

/// Parse `X0,Z0,X1,Z1` into a checked region (not inverted, inside the supported range).
pub fn parse_rect(s: &str) -> Result<ChunkRect, String> {
    let v: Vec<&str> = s.split(',').collect();
    if v.len() != 4 {
        return Err(format!("expected X0,Z0,X1,Z1, got {s:?}"));
    }
    let p = |t: &str| t.trim().parse::<i32>().map_err(|e| format!("{t:?}: {e}"));
    ChunkRect::new(p(v[0])?, p(v[1])?, p(v[2])?, p(v[3])?).map_err(|e| e.to_string())
}

/// Refuse a `--region` of more than `max` chunks; its chunk count.
pub fn region_chunks(rect: ChunkRect, max: u64) -> Result<u64, CliError> {
    let count = rect.count();
    if count > max {
        return Err(usage(format!(
            "--region covers {count} chunks; at most {max}"
        )));
    }
    Ok(count)
}

/// Check that an output path ends in `.ext`.
pub fn require_extension(path: &std::path::Path, ext: &str) -> Result<(), CliError> {
    if path.extension().and_then(|e| e.to_str()) == Some(ext) {
        Ok(())
    } else {
        Err(usage(format!(
            "{}: the extension must be .{ext}",
            path.display()
        )))
    }
}

/// A finite value of flag `--name`.
pub fn finite(name: &str, v: f64) -> Result<f64, CliError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(usage(format!("--{name} {v}: must be a finite number")))
    }
}

/// The thread count, or the available cores.
pub fn threads_or_default(t: Option<usize>) -> usize {
    t.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}
