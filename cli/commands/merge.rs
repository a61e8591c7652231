//! `stratagen merge OUT IN...`: join shard stores into one.

use std::path::PathBuf;

use clap::Args;
use stratagen_host::shard::merge;

use crate::error::CliError;

/// Arguments of `stratagen merge`: chunk rows and edits are merged; an input whose chunk or
/// edits of a chunk differ from the output's, or that holds a table no store has, is
/// refused whole.
#[derive(Args)]
pub struct MergeArgs {
    /// The store to merge into (created with the first input's world if missing).
    pub out: PathBuf,
    /// The stores to merge, one transaction each.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
}

/// Run `stratagen merge`.
pub fn run(a: MergeArgs) -> Result<(), CliError> {
    let reports = merge(&a.out, &a.inputs)?;
    for (input, r) in a.inputs.iter().zip(&reports) {
        println!(
            "merged {}: {} chunks copied, {} identical already; {} edited chunks copied, {} identical",
            input.display(),
            r.copied,
            r.identical,
            r.edits_copied,
            r.edits_identical
        );
    }
    Ok(())
}
