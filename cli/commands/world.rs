//! `stratagen world`: print a preset or definition as a full document, check definition
//! files, write a definition's canonical bytes, list the presets.

use clap::{Args, Subcommand};
use stratagen_worldfile::{Format, PRESETS};

use crate::error::CliError;

/// Arguments of `stratagen world`.
#[derive(Args)]
pub struct WorldArgs {
    #[command(subcommand)]
    pub cmd: WorldCmd,
}

/// The `world` subcommands.
#[derive(Subcommand)]
pub enum WorldCmd {
    /// Print a preset or definition file as a full document (every value, no `base`), TOML
    /// unless --json; its digest goes to stderr.
    Print {
        /// A preset (default, archipelago, caverns) or a TOML/JSON file.
        world: String,
        /// Print JSON instead of TOML.
        #[arg(long)]
        json: bool,
    },
    /// Check definition files: every problem with its path and line:column, or the digest.
    Check {
        /// TOML/JSON files (or preset names).
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Write a preset's or definition file's canonical bytes (the encoding its digest is
    /// over), which hosts without a text parser load: the npm package's
    /// `new World({ world: bytes })`.
    Compile {
        /// A preset (default, archipelago, caverns) or a TOML/JSON file.
        world: String,
        /// The file to write.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// List the presets with their digests.
    List,
}

/// Run `stratagen world`.
pub fn run(a: WorldArgs) -> Result<(), CliError> {
    let load = |spec: &str| {
        stratagen_worldfile::load(spec).map_err(|e| CliError::Definition(e.to_string()))
    };
    match a.cmd {
        WorldCmd::Print { world, json } => {
            let d = load(&world)?;
            let format = if json { Format::Json } else { Format::Toml };
            print!("{}", stratagen_worldfile::print(&d, format));
            eprintln!("definition {} digest {:016x}", d.name, d.digest());
        }
        WorldCmd::Check { files } => {
            let mut bad = 0;
            for f in &files {
                match stratagen_worldfile::load(f) {
                    Ok(d) => println!(
                        "{f}: ok, world {:?}, {} blocks, {} biomes, {} features, digest {:016x}",
                        d.name,
                        d.blocks.len(),
                        d.biomes.len(),
                        d.features.len(),
                        d.digest()
                    ),
                    Err(e) => {
                        bad += 1;
                        eprintln!("{e}");
                    }
                }
            }
            if bad > 0 {
                return Err(CliError::Definition(format!(
                    "{bad} of {} definitions have problems",
                    files.len()
                )));
            }
        }
        WorldCmd::Compile { world, out } => {
            let d = load(&world)?;
            crate::files::write_atomic(&out, &d.to_bytes())?;
            eprintln!(
                "definition {} digest {:016x} -> {}",
                d.name,
                d.digest(),
                out.display()
            );
        }
        WorldCmd::List => {
            for name in PRESETS {
                let d = load(name)?;
                println!("{name:<12} digest {:016x}", d.digest());
            }
        }
    }
    Ok(())
}
