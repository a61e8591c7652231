//! `--world PRESET|FILE`: which world definition a command generates (see
//! [`stratagen_worldfile::load`]).

use std::sync::Arc;

use clap::Args;
use stratagen_core::world::{Definition, WorldGen, WorldSettings};

use crate::error::CliError;

/// The `--world` flag every generating command takes.
#[derive(Args, Clone, Debug)]
pub struct WorldArg {
    /// World definition: a preset (default, archipelago, caverns) or a TOML/JSON file.
    #[arg(long = "world", default_value = "default", value_name = "PRESET|FILE")]
    pub world: String,
}

impl WorldArg {
    /// The definition, parsed and checked.
    pub fn definition(&self) -> Result<Arc<Definition>, CliError> {
        stratagen_worldfile::load(&self.world)
            .map(Arc::new)
            .map_err(|e| CliError::Definition(e.to_string()))
    }

    /// The generator of this world with settings `def`.
    pub fn generator(&self, def: WorldSettings) -> Result<WorldGen, CliError> {
        Ok(WorldGen::with_definition(def, self.definition()?)?)
    }
}
