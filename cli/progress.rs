//! Progress on stderr for the long commands (indicatif: drawn only when stderr is a
//! terminal, so pipes and tests see nothing).

use indicatif::{ProgressBar, ProgressStyle};
use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::world::WorldGen;

use crate::error::CliError;
use crate::region::{generate_world, Region};

/// [`generate_world`] with a spinner counting finished tasks and their rate.
pub fn generate_with_progress(
    generator: WorldGen,
    positions: &[ChunkPos],
    status: ChunkStatus,
    threads: usize,
) -> Result<Region, CliError> {
    let bar = ProgressBar::new_spinner();
    if let Ok(style) =
        ProgressStyle::with_template("{spinner} generating: {pos} tasks  {per_sec}  {elapsed}")
    {
        bar.set_style(style);
    }
    let r = generate_world(generator, positions, status, threads, |n, _| {
        bar.set_position(n as u64)
    });
    bar.finish_and_clear();
    Ok(r?)
}
