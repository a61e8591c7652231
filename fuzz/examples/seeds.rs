//! Writes the seed corpora the fuzz targets start from (`fuzz/seeds/<target>/`): records of
//! the small world at every status, in both input forms of the `record` target, edit records
//! in both forms of the `edits` target, and the
//! built-in presets in TOML and JSON for `definition`. Run from `fuzz/`:
//! `cargo run --example seeds`.

use std::path::Path;

use stratagen_core::engine::{ChunkPos, Priority, Scheduler};
use stratagen_fuzz::{body_of, small_pipeline, small_world, statuses};
use stratagen_store::edits::encode_edits;
use stratagen_store::record::save_chunk;
use stratagen_worldfile::{load, print, Format, PRESETS};

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join(name), bytes).unwrap();
}

fn main() {
    let seeds = Path::new("seeds");
    let records = seeds.join("record");
    for status in statuses() {
        let mut sched = Scheduler::new(small_pipeline().clone());
        let pos = ChunkPos::new(1, -2);
        sched.request(pos, status, Priority::Immediate).unwrap();
        while sched.run_inline(64) > 0 {}
        let record = save_chunk(&sched, pos).unwrap();
        let name = format!("{status:?}").to_lowercase();
        write(
            &records,
            &format!("{name}.record"),
            &[&[0u8][..], &record].concat(),
        );
        {
            let body = body_of(&record).unwrap();
            let framed = [&[1u8, status as u8, 1, (-2i8) as u8][..], &body].concat();
            write(&records, &format!("{name}.body"), &framed);
        }
    }
    // Edit records of the chunk at the origin: none, a few, and many over the whole height.
    let edits = seeds.join("edits");
    let identity = stratagen_store::WorldIdentity::of(small_world());
    let volume = small_world().dims().volume() as u32;
    for (name, entries) in [
        ("none", vec![]),
        ("few", vec![(0u32, 1u16), (17, 37), (300, 0)]),
        (
            "many",
            (0..volume)
                .step_by(7)
                .map(|i| (i, (i % 40) as u16))
                .collect(),
        ),
    ] {
        let record = encode_edits(&identity, ChunkPos::new(0, 0), &entries);
        write(
            &edits,
            &format!("{name}.record"),
            &[&[0u8][..], &record].concat(),
        );
        let body = body_of(&record).unwrap();
        write(
            &edits,
            &format!("{name}.body"),
            &[&[1u8, 0, 0][..], &body].concat(),
        );
    }
    let definitions = seeds.join("definition");
    for name in PRESETS {
        let d = load(name).unwrap();
        write(
            &definitions,
            &format!("{name}.toml"),
            stratagen_worldfile::preset(name).unwrap().as_bytes(),
        );
        write(
            &definitions,
            &format!("{name}.json"),
            print(&d, Format::Json).as_bytes(),
        );
    }
    write(
        &definitions,
        "on_base.toml",
        b"format = 1\nname = \"mine\"\nbase = \"default\"\n\n[[blocks]]\nname = \"marble\"\ncolour = [240, 240, 235]\n\n[terrain]\nstone = \"marble\"\n",
    );
    write(
        &definitions,
        "typo.toml",
        b"format = 1\nname = \"mine\"\nbase = \"default\"\n[[blocks]]\nname = 3\n",
    );
}
