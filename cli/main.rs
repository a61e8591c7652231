//! `stratagen`: render world maps and noise images, print digests, benchmark.

use std::process::ExitCode;

use clap::Parser;
use stratagen_cli::args::Cli;

fn main() -> ExitCode {
    stratagen_cli::allocator::keep_freed_memory();
    match stratagen_cli::commands::run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("stratagen: error: {e}");
            ExitCode::FAILURE
        }
    }
}
