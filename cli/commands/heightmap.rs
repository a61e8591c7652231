//! `stratagen heightmap`: one heightmap chunk as a 16-bit PNG or raw f32.

use std::path::PathBuf;

use clap::Args;
use stratagen_core::noise::{FillStrategy, NoiseDef};

use crate::args::parse_pair;
use crate::error::{usage, CliError};
use crate::files::{encode_png, write_atomic};

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
    /// Output file (.png or .raw).
    #[arg(long, default_value = "heightmap.png")]
    pub out: PathBuf,
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
    let ext = a.out.extension().and_then(|e| e.to_str()).unwrap_or("");
    if ext != "png" && ext != "raw" {
        return Err(usage(format!(
            "{}: the extension must be .png or .raw",
            a.out.display()
        )));
    }
    let noise = NoiseDef {
        seed: a.seed,
        octaves: 6,
        frequency: 1.0 / 256.0,
        // A 256-block wavelength over a 16-block chunk: samples share cells.
        fill: FillStrategy::Adaptive,
        ..NoiseDef::default()
    }
    .build()?;
    let mut h = vec![0f32; res * res];
    noise.heightmap_chunk(a.chunk.0, a.chunk.1, res, &mut h)?;
    let bytes = if ext == "raw" {
        h.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()
    } else {
        let px: Vec<u8> = h.iter().flat_map(|&v| grey16(v)).collect();
        encode_png(res, res, 1, true, &px)?
    };
    write_atomic(&a.out, &bytes)?;
    println!(
        "wrote {} ({res}x{res} samples of chunk {},{})",
        a.out.display(),
        a.chunk.0,
        a.chunk.1
    );
    Ok(())
}
