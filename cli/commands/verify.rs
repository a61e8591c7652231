//! `stratagen verify STORE --region ...`: which chunks a store is missing, and whether a
//! sample of the stored ones is what generation gives.

use std::path::PathBuf;

use clap::Args;
use stratagen_core::engine::ChunkRect;
use stratagen_host::shard::verify;

use crate::args::{parse_rect, region_chunks, threads_or_default};
use crate::error::{usage, CliError};
use crate::worlds::WorldArg;

/// Most chunks one `verify` covers.
const MAX_REGION_CHUNKS: u64 = 1 << 24;
/// Missing chunks listed by position before the rest are only counted.
const LISTED_MISSING: usize = 10;

/// Arguments of `stratagen verify`.
#[derive(Args)]
pub struct VerifyArgs {
    /// The store to check.
    pub store: PathBuf,
    /// World definition the store was written with.
    #[command(flatten)]
    pub world: WorldArg,
    /// Inclusive chunk rectangle X0,Z0,X1,Z1 the store should hold.
    #[arg(long, value_parser = parse_rect, allow_hyphen_values = true)]
    pub region: ChunkRect,
    /// Stored chunks to regenerate and compare, spread evenly over the region.
    #[arg(long, default_value_t = 16)]
    pub sample: usize,
    /// Threads that regenerate the sample (0: inline). Default: available cores.
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Run `stratagen verify`: exits non-zero when a chunk is missing or a sampled one differs.
pub fn run(a: VerifyArgs) -> Result<(), CliError> {
    region_chunks(a.region, MAX_REGION_CHUNKS)?;
    let threads = threads_or_default(a.threads);
    let r = verify(&a.store, a.region, a.world.definition()?, a.sample, threads)?;
    println!(
        "verify {}: {} of {} chunks stored, {} missing; {} sampled, {} differ",
        a.store.display(),
        r.stored,
        r.expected,
        r.missing.len(),
        r.sampled,
        r.mismatched.len()
    );
    for p in r.missing.iter().take(LISTED_MISSING) {
        println!("missing chunk ({}, {})", p.x, p.z);
    }
    for (p, why) in &r.mismatched {
        println!("differs chunk ({}, {}): {why}", p.x, p.z);
    }
    println!(
        "edits: {} edited chunks, {} refused",
        r.edited,
        r.bad_edits.len()
    );
    for (p, why) in &r.bad_edits {
        println!("refused edits of chunk ({}, {}): {why}", p.x, p.z);
    }
    if r.ok() {
        Ok(())
    } else {
        Err(usage(format!(
            "{} does not hold the region as generation gives it",
            a.store.display()
        )))
    }
}
