//! `stratagen digest`: one digest per chunk of a region and the region digest.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use stratagen_core::engine::{ChunkRect, ChunkStatus};
use stratagen_core::world::WorldSettings;

use crate::args::{parse_rect, region_chunks, threads_or_default};
use crate::error::{usage, CliError};
use crate::progress::generate_with_progress;
use crate::stored::read_region;
use crate::worlds::WorldArg;

/// Status names.
#[derive(Clone, Copy, ValueEnum)]
pub enum StatusArg {
    /// `empty`.
    Empty,
    /// `structure_starts`.
    StructureStarts,
    /// `structure_references`.
    StructureReferences,
    /// `biomes`.
    Biomes,
    /// `terrain`.
    Terrain,
    /// `features`.
    Features,
    /// `initialize_light`.
    InitializeLight,
    /// `light`.
    Light,
    /// `spawn`.
    Spawn,
    /// `full`.
    Full,
}

/// Most chunks one `digest` call covers.
const MAX_REGION_CHUNKS: u64 = 65536;

/// Arguments of `stratagen digest`.
#[derive(Args)]
pub struct DigestArgs {
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
    /// Inclusive chunk rectangle X0,Z0,X1,Z1 (at most 65536 chunks).
    #[arg(long, value_parser = parse_rect, allow_hyphen_values = true)]
    pub region: ChunkRect,
    /// Status to digest.
    #[arg(long, value_enum, default_value = "full")]
    pub status: StatusArg,
    /// Worker threads (0: inline). Default: available cores.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Read the chunks and edits from this store (`stratagen pregen`, `stratagen edit`)
    /// instead of generating them; its world is the store's. Only `--status full`.
    #[arg(long)]
    pub from: Option<PathBuf>,
}

/// Run `stratagen digest`.
pub fn run(a: DigestArgs) -> Result<(), CliError> {
    region_chunks(a.region, MAX_REGION_CHUNKS)?;
    let positions: Vec<_> = a.region.positions().collect();
    let status = ChunkStatus::from_index(a.status as usize).ok_or_else(|| usage("bad status"))?;
    let def = WorldSettings {
        seed: a.seed,
        ..WorldSettings::default()
    };
    let region = match &a.from {
        Some(path) => {
            if status != ChunkStatus::Full {
                return Err(usage("--from: stores hold full chunks; use --status full"));
            }
            read_region(path, a.region, a.world.definition()?)?
        }
        None => generate_with_progress(
            a.world.generator(def)?,
            &positions,
            status,
            threads_or_default(a.threads),
        )?,
    };
    for (p, d) in region.digests() {
        println!("chunk {} {} {:016x}", p.x, p.z, d);
    }
    println!("region {:016x}", region.digest());
    Ok(())
}
