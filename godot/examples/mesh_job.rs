//! Where a streaming node's mesh job spends its time, beside `mesh_chunk` alone: the chunk
//! mesh, vertex colours, collision faces and scatter props of the 25 chunks (−2..=2)² of the
//! default world (seed 0), each part's best of ten rounds, warm, on one thread.
//!
//! `cargo run --release -p stratagen-godot --example mesh_job`

use std::time::Instant;

use stratagen_cli::{generate, square};
use stratagen_core::engine::{ChunkPos, ChunkStatus};
use stratagen_core::mesh::colour::vertex_colours;
use stratagen_core::mesh::{mesh_chunk, MeshOptions};
use stratagen_core::world::{Neighbourhood, WorldSettings};
use stratagen_godot::feed::{collision_faces, Mesher};

/// Rounds over the chunks; each part's fastest round counts.
const ROUNDS: usize = 10;
/// The meshed chunks: the square of this radius around the origin.
const RADIUS: i32 = 2;

fn main() {
    println!("cpu: {}", stratagen_cli::rss::cpu_model());
    let settings = WorldSettings::default();
    let around = square((0, 0), RADIUS + 1);
    let r = generate(settings, &around, ChunkStatus::Full, 2, |_, _| {}).unwrap();
    let definition = r.generator.definition_arc().clone();
    let mesher = Mesher {
        dims: r.generator.dims(),
        definition: definition.clone(),
        options: MeshOptions::default(),
        seed: settings.seed,
        props: true,
    };
    let full = |x: i32, z: i32| r.chunks.get(&ChunkPos::new(x, z)).and_then(|d| d.full());
    let meshed = square((0, 0), RADIUS);
    let parts = ["mesh_chunk", "vertex colours", "collision faces", "props"];
    let mut best = [f64::INFINITY; 4];
    for _ in 0..ROUNDS {
        let mut round = [0.0; 4];
        for p in &meshed {
            let n = Neighbourhood::from_fn(|dx, dz| full(p.x + dx, p.z + dz));
            let t0 = Instant::now();
            let mesh = mesh_chunk(&n, mesher.dims, &definition.blocks, &mesher.options).unwrap();
            let t1 = Instant::now();
            let biomes = n.centre().map_or([0; 16], |c| c.biomes);
            let colours = mesh
                .surfaces
                .each_ref()
                .map(|s| vertex_colours(s, &definition, &biomes));
            let t2 = Instant::now();
            let collision = collision_faces(&mesh);
            let t3 = Instant::now();
            let props = n.centre().map(|c| mesher.props_of(c));
            let t4 = Instant::now();
            std::hint::black_box((mesh, colours, collision, props));
            for (r, d) in round.iter_mut().zip([t1 - t0, t2 - t1, t3 - t2, t4 - t3]) {
                *r += d.as_secs_f64();
            }
        }
        for (b, r) in best.iter_mut().zip(round) {
            *b = b.min(r / meshed.len() as f64);
        }
    }
    let job: f64 = best.iter().sum();
    for (name, t) in parts.iter().zip(best) {
        println!(
            "{name:16} {:7.1} µs per mesh  {:4.1}%",
            t * 1e6,
            100.0 * t / job
        );
    }
    println!(
        "mesh job {:.1} µs per mesh, {:.2}x mesh_chunk alone ({} chunks, best of {ROUNDS} rounds per part)",
        job * 1e6,
        job / best[0],
        meshed.len()
    );
}
