//! Robustness: documents made by damaging the default preset, or a short document on
//! `base = "default"` (lines dropped, duplicated or swapped, numbers replaced by extreme
//! values, keys renamed) never panic. Each is refused with problems that each have a position
//! and are listed once, or accepted as a definition that builds a world whose terrain
//! generates.

use std::sync::Arc;

use stratagen_core::engine::ChunkPos;
use stratagen_core::world::{WorldGen, WorldSettings};
use stratagen_worldfile::{parse, preset};

/// A small deterministic generator (64-bit LCG, high bits).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

const EXTREMES: [&str; 10] = [
    "0",
    "-1",
    "1e308",
    "-1e308",
    "nan",
    "inf",
    "9223372036854775807",
    "0.0",
    "65535",
    "\"x\"",
];

/// A document on the default preset that changes a little of everything.
const ON_BASE: &str = r#"format = 1
name = "mine"
base = "default"

[[blocks]]
name = "stone"
colour = [120, 120, 120]

[[blocks]]
name = "marble"
colour = [240, 240, 235]
solid = true
shape = "cube"

[[biomes]]
name = "plains"
colour = [100, 200, 90]
surface = [{ top = "marble", under = "dirt", depth = 3 }]

[terrain]
stone = "marble"
bedrock_layers = 3

[climate]
stretch = 1.5
"#;

#[test]
fn damaged_documents_never_panic() {
    damage(preset("default").unwrap(), 400, 20261130, (100, 20));
}

#[test]
fn damaged_documents_on_a_base_never_panic() {
    damage(ON_BASE, 400, 20261202, (100, 20));
}

/// `rounds` damaged copies of `text`; at least `min.0` refused and `min.1` accepted.
fn damage(text: &str, rounds: usize, seed: u64, min: (usize, usize)) {
    let base: Vec<&str> = text.lines().collect();
    let mut rng = Lcg(seed);
    let (mut refused, mut accepted) = (0, 0);
    for round in 0..rounds {
        let mut lines: Vec<String> = base.iter().map(|s| s.to_string()).collect();
        for _ in 0..1 + rng.next(3) {
            let i = rng.next(lines.len());
            match rng.next(5) {
                0 => {
                    lines.remove(i);
                }
                1 => {
                    let l = lines[i].clone();
                    lines.insert(i, l);
                }
                2 => {
                    let j = rng.next(lines.len());
                    lines.swap(i, j);
                }
                3 => {
                    if let Some((k, _)) = lines[i].split_once(" = ") {
                        let v = EXTREMES[rng.next(EXTREMES.len())];
                        lines[i] = format!("{k} = {v}");
                    }
                }
                _ => {
                    if let Some((k, v)) = lines[i].split_once(" = ") {
                        lines[i] = format!("{k}x = {v}");
                    }
                }
            }
        }
        let text = lines.join("\n");
        match parse(&text) {
            Err(p) => {
                refused += 1;
                assert!(
                    !p.list.is_empty(),
                    "round {round}: refused without a problem"
                );
                let mut seen = std::collections::BTreeSet::new();
                for q in &p.list {
                    assert!(!q.message.is_empty());
                    assert!(q.at.is_some(), "round {round}: no position: {q}\n{text}");
                    assert!(
                        seen.insert(q.to_string()),
                        "round {round}: twice: {q}\n{text}"
                    );
                }
            }
            Ok(d) => {
                accepted += 1;
                if accepted <= 12 {
                    let generator =
                        WorldGen::with_definition(WorldSettings::default(), Arc::new(d))
                            .unwrap_or_else(|e| panic!("round {round}: accepted but refused: {e}"));
                    let pos = ChunkPos::new((round % 7) as i32, -3);
                    let t = generator.terrain(pos, &generator.biomes(pos));
                    assert_eq!(t.blocks.len(), generator.dims().volume());
                }
            }
        }
    }
    println!("{refused} refused, {accepted} accepted");
    assert!(
        refused > min.0 && accepted > min.1,
        "{refused} refused, {accepted} accepted"
    );
}
