//! One file per command; [`run`] dispatches.

pub mod bench;
pub mod digest;
pub mod edit;
pub mod heightmap;
pub mod merge;
pub mod mesh;
pub mod noise;
pub mod pregen;
pub mod render;
pub mod scatter;
pub mod shader;
pub mod verify;
pub mod world;

use crate::args::{Cli, Cmd};
use crate::error::CliError;

/// Run the parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.cmd {
        Cmd::Render(a) => render::run(a),
        Cmd::Noise(a) => noise::run(a),
        Cmd::Heightmap(a) => heightmap::run(a),
        Cmd::Mesh(a) => mesh::run(a),
        Cmd::Scatter(a) => scatter::run(a),
        Cmd::Shader(a) => shader::run(a),
        Cmd::Digest(a) => digest::run(a),
        Cmd::Edit(a) => edit::run(a),
        Cmd::Bench(a) => bench::run(a),
        Cmd::Pregen(a) => pregen::run(a),
        Cmd::Merge(a) => merge::run(a),
        Cmd::Verify(a) => verify::run(a),
        Cmd::World(a) => world::run(a),
    }
}
