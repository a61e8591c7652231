//! Checking large definition documents on `base = "default"`: a server that loads definitions
//! from users must not be stalled by one. Three documents of about 1 MB each: distinct
//! unknown top-level keys, distinct unknown keys in one table that merges with the base, and
//! thousands of new named blocks (a list that merges by name). Summary line:
//! `definitions top_keys_ms=... table_keys_ms=... new_blocks_ms=... bytes=...`.
use criterion::{black_box, Criterion};
use std::time::{Duration, Instant};

/// About `bytes` of `format`, `name` and `base = "default"` followed by `line(i)` for
/// i = 0, 1, ... after `head`.
fn document(bytes: usize, head: &str, line: impl Fn(usize) -> String) -> String {
    let mut doc = format!("format = 1\nname = \"big\"\nbase = \"default\"\n{head}");
    let mut i = 0;
    while doc.len() < bytes {
        doc.push_str(&line(i));
        i += 1;
    }
    doc
}

fn check(doc: &str) -> usize {
    match stratagen_worldfile::parse(doc) {
        Ok(d) => d.blocks.len(),
        Err(p) => p.list.len() + p.more,
    }
}

fn main() {
    const MB: usize = 1 << 20;
    let docs = [
        (
            "top_keys",
            document(MB, "", |i| format!("key_{i:07} = {i}\n")),
        ),
        (
            "table_keys",
            document(MB, "[terrain]\n", |i| format!("key_{i:07} = {i}\n")),
        ),
        (
            "new_blocks",
            document(MB, "", |i| {
                format!("[[blocks]]\nname = \"block_{i:06}\"\ncolour = [1, 2, 3]\n")
            }),
        ),
    ];
    println!("cpu {}", stratagen_cli::cpu_model());
    let mut c = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    for (name, doc) in &docs {
        c.bench_function(&format!("definition_check_1mb_{name}"), |b| {
            b.iter(|| black_box(check(doc)))
        });
    }
    // One timed pass each for the summary line (criterion's estimates are above).
    let ms: Vec<String> = docs
        .iter()
        .map(|(name, doc)| {
            let t = Instant::now();
            black_box(check(doc));
            format!("{name}_ms={:.1}", t.elapsed().as_secs_f64() * 1e3)
        })
        .collect();
    println!("definitions {} bytes={}", ms.join(" "), docs[0].1.len());
}
