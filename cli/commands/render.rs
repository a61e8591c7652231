//! `stratagen render`: generate a square of chunks and write a map.

use std::path::PathBuf;

use clap::Args;
use stratagen_core::engine::{ChunkPos, ChunkRect, ChunkStatus};
use stratagen_core::world::WorldSettings;

use crate::args::{parse_pair, threads_or_default};
use crate::error::{usage, CliError};
use crate::files::{encode_png, write_atomic};
use crate::map::{render, Layer};
use crate::progress::generate_with_progress;
use crate::stored::read_region;
use crate::worlds::WorldArg;

/// Arguments of `stratagen render`.
#[derive(Args)]
pub struct RenderArgs {
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
    /// Centre chunk as X,Z.
    #[arg(long, default_value = "0,0", value_parser = parse_pair, allow_hyphen_values = true)]
    pub center: (i32, i32),
    /// Radius in chunks (the map is 2R+1 chunks wide), 0..=256.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=256))]
    pub radius: u32,
    /// Output PNG.
    #[arg(long, default_value = "map.png")]
    pub out: PathBuf,
    /// What to draw.
    #[arg(long, value_enum, default_value = "shaded")]
    pub layer: Layer,
    /// Worker threads (0: run inline on the main thread). Default: available cores.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Read the chunks and edits from this store (`stratagen pregen`, `stratagen edit`)
    /// instead of generating them; its world is the store's.
    #[arg(long)]
    pub from: Option<PathBuf>,
}

/// Run `stratagen render`.
pub fn run(a: RenderArgs) -> Result<(), CliError> {
    let threads = threads_or_default(a.threads);
    if threads > 256 {
        return Err(usage(format!("--threads {threads}: at most 256")));
    }
    let area = ChunkRect::square(ChunkPos::new(a.center.0, a.center.1), a.radius as i32)
        .map_err(|e| usage(e.to_string()))?;
    let positions: Vec<_> = area.positions().collect();
    let total = positions.len();
    let def = WorldSettings {
        seed: a.seed,
        ..WorldSettings::default()
    };
    let region = match &a.from {
        Some(path) => read_region(path, area, a.world.definition()?)?,
        None => generate_with_progress(
            a.world.generator(def)?,
            &positions,
            ChunkStatus::Full,
            threads,
        )?,
    };
    let img = render(&region, a.layer);
    write_atomic(
        &a.out,
        &encode_png(img.width, img.height, 3, false, &img.rgb)?,
    )?;
    println!(
        "wrote {} ({}x{} px, {} chunks)",
        a.out.display(),
        img.width,
        img.height,
        total
    );
    println!("region digest {:016x}", region.digest());
    match &a.from {
        Some(path) => println!(
            "read {} chunks from {} in {:.2} s",
            total,
            path.display(),
            region.seconds
        ),
        None => println!(
            "generated {} chunks ({} tasks) in {:.2} s on {} threads: {:.1} chunks/s, {:.2} ms per requested chunk",
            total,
            region.tasks,
            region.seconds,
            threads,
            total as f64 / region.seconds,
            region.seconds * 1000.0 / total as f64
        ),
    }
    Ok(())
}
