//! `stratagen edit`: apply the edits of a script to a store (created if missing). The store
//! then holds the world's edits beside any chunks it has; `render`, `digest` and `mesh` with
//! `--from` read the edited world.
//!
//! Script: one command per line, `#` starts a comment; coordinates are world blocks, a block
//! is a name of the world's palette or its id.
//!
//! ```text
//! set X Y Z BLOCK
//! fill X0 Y0 Z0 X1 Y1 Z1 BLOCK    # the inclusive box, at most 2^24 blocks
//! ```
//!
//! Every problem of the script is reported with its line and column, and then nothing is
//! written. The chunks the script edits are written in one transaction: a kill leaves the
//! store as it was before or with every edit.

use std::collections::BTreeSet;
use std::path::PathBuf;

use clap::Args;
use stratagen_core::world::block::BlockId;
use stratagen_core::world::edit::{BlockEdit, Edits};
use stratagen_core::world::{Palette, WorldGen, WorldSettings};
use stratagen_host::error::at;
use stratagen_host::stored::load_store_edits;
use stratagen_store::edits::save_edits;
use stratagen_store::sqlite::ChunkStore;
use stratagen_store::WorldIdentity;

use crate::error::{usage, CliError};
use crate::worlds::WorldArg;

/// Most blocks one `fill` line may cover.
const MAX_FILL_BLOCKS: i64 = 1 << 24;

/// Arguments of `stratagen edit`.
#[derive(Args)]
pub struct EditArgs {
    /// World seed (a store that exists must be of this world).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub seed: i64,
    /// World definition.
    #[command(flatten)]
    pub world: WorldArg,
    /// The SQLite store to add the edits to (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// The edit script.
    #[arg(long)]
    pub script: PathBuf,
}

/// One edit of the script and the line it came from.
struct Line {
    edits: Vec<BlockEdit>,
    line: usize,
}

/// The edits of `text`, or every problem as `NAME:LINE:COLUMN: what`.
fn parse(name: &str, text: &str, palette: &Palette) -> Result<Vec<Line>, Vec<String>> {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let body = raw.split('#').next().unwrap_or("");
        // Words with their 1-based columns.
        let mut words = Vec::new();
        let mut col = 0;
        for w in body.split(' ') {
            if !w.trim().is_empty() {
                words.push((w.trim(), col + 1));
            }
            col += w.len() + 1;
        }
        if words.is_empty() {
            continue;
        }
        let at = |c: usize, what: String| format!("{name}:{}:{c}: {what}", k + 1);
        let (cmd, c0) = words[0];
        let want = match cmd {
            "set" => 5,
            "fill" => 8,
            _ => {
                problems.push(at(c0, format!("unknown command {cmd:?} (set, fill)")));
                continue;
            }
        };
        if words.len() != want {
            problems.push(at(
                c0,
                format!("{cmd} takes {} values, found {}", want - 1, words.len() - 1),
            ));
            continue;
        }
        let mut nums = Vec::new();
        for &(w, c) in &words[1..want - 1] {
            match w.parse::<i32>() {
                Ok(v) => nums.push(v),
                Err(_) => problems.push(at(c, format!("{w:?} is not a whole number"))),
            }
        }
        let (bw, bc) = words[want - 1];
        let block: Option<BlockId> = palette.by_name(bw).or_else(|| {
            bw.parse::<BlockId>()
                .ok()
                .filter(|&b| palette.get(b).is_some())
        });
        if block.is_none() {
            problems.push(at(bc, format!("unknown block {bw:?}")));
        }
        let (Some(block), true) = (block, nums.len() == want - 2) else {
            continue;
        };
        let edits = if cmd == "set" {
            vec![BlockEdit {
                x: nums[0],
                y: nums[1],
                z: nums[2],
                block,
            }]
        } else {
            let (lo, hi) = (
                [
                    nums[0].min(nums[3]),
                    nums[1].min(nums[4]),
                    nums[2].min(nums[5]),
                ],
                [
                    nums[0].max(nums[3]),
                    nums[1].max(nums[4]),
                    nums[2].max(nums[5]),
                ],
            );
            let count: i64 = (0..3)
                .map(|i| i64::from(hi[i]) - i64::from(lo[i]) + 1)
                .product();
            if count > MAX_FILL_BLOCKS {
                problems.push(at(
                    c0,
                    format!("fill of {count} blocks; at most {MAX_FILL_BLOCKS}"),
                ));
                continue;
            }
            let mut v = Vec::with_capacity(count as usize);
            for y in lo[1]..=hi[1] {
                for z in lo[2]..=hi[2] {
                    for x in lo[0]..=hi[0] {
                        v.push(BlockEdit { x, y, z, block });
                    }
                }
            }
            v
        };
        out.push(Line { edits, line: k + 1 });
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// Run `stratagen edit`.
pub fn run(a: EditArgs) -> Result<(), CliError> {
    let generator: WorldGen = a.world.generator(WorldSettings {
        seed: a.seed,
        ..WorldSettings::default()
    })?;
    let name = a.script.display().to_string();
    let text =
        std::fs::read_to_string(&a.script).map_err(|e| usage(format!("--script {name}: {e}")))?;
    let lines =
        parse(&name, &text, &generator.definition().blocks).map_err(|p| usage(p.join("\n")))?;

    let mut edits = Edits::new(generator.dims(), generator.definition().blocks.len());
    // Every edit checked before the store is touched: a refused script changes nothing.
    let mut problems = Vec::new();
    for l in &lines {
        if let Some(e) = l.edits.iter().find_map(|e| edits.check(e).err()) {
            problems.push(format!("{name}:{}: {e}", l.line));
        }
    }
    if !problems.is_empty() {
        return Err(usage(problems.join("\n")));
    }
    let mut store = ChunkStore::open(&a.out, &WorldIdentity::of(&generator)).map_err(at(&a.out))?;
    load_store_edits(&store, &a.out, &generator, &mut edits)?;
    let mut touched = BTreeSet::new();
    let mut count = 0usize;
    for l in &lines {
        for &e in &l.edits {
            let site = edits.check(&e).map_err(|e| usage(e.to_string()))?;
            edits.set_block(e).map_err(|e| usage(e.to_string()))?;
            touched.insert(site.chunk);
            count += 1;
        }
    }
    let records: Vec<_> = touched
        .iter()
        .map(|&p| (p, save_edits(&generator, &mut edits, p)))
        .collect();
    let bytes: usize = records.iter().map(|(_, r)| r.len()).sum();
    store.put_edits(&records).map_err(at(&a.out))?;
    println!(
        "edits {count} chunks {} record_bytes {bytes} store {}",
        records.len(),
        a.out.display()
    );
    Ok(())
}
