//! Helpers shared by the cross-crate tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh scratch directory under the target directory, named for the test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = root().join("target").join("test-scratch").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Compile C sources into an executable with the system C compiler (`$CC`, else `cc`), with
/// warnings as errors. Panics with the compiler's output on failure.
pub fn compile_c(sources: &[&Path], out: &Path, extra: &[&str]) -> PathBuf {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let mut cmd = Command::new(cc);
    cmd.args([
        "-std=c11",
        "-O2",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
    ]);
    cmd.args(sources).arg("-o").arg(out).args(extra);
    let o = cmd.output().expect("run the C compiler");
    assert!(
        o.status.success(),
        "C compile failed:\n{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    out.to_path_buf()
}

/// `v` in a seeded Fisher–Yates order (xoroshiro128++), the same for a seed on every run.
pub fn shuffled<T: Clone>(v: &[T], seed: i64) -> Vec<T> {
    let mut v = v.to_vec();
    let mut r = stratagen_core::util::random::Xoroshiro128PlusPlus::from_seed(seed);
    for i in (1..v.len()).rev() {
        let j = r.next_int_bounded(i as i32 + 1) as usize;
        v.swap(i, j);
    }
    v
}

/// Min, max, mean and standard deviation of `f` over 10^6 draws from a fixed generator (every
/// value must be finite).
pub fn noise_stats(
    mut f: impl FnMut(&mut stratagen_core::util::random::Xoroshiro128PlusPlus) -> f64,
) -> [f64; 4] {
    let mut r = stratagen_core::util::random::Xoroshiro128PlusPlus::from_seed(2024);
    let (mut min, mut max, mut sum, mut sq) = (f64::MAX, f64::MIN, 0.0, 0.0);
    let n = 1_000_000;
    for _ in 0..n {
        let v = f(&mut r);
        assert!(v.is_finite());
        min = min.min(v);
        max = max.max(v);
        sum += v;
        sq += v * v;
    }
    let mean = sum / n as f64;
    [min, max, mean, (sq / n as f64 - mean * mean).sqrt()]
}

/// Whether a test that needs an optional system tool may run: `true` when `present`. Without
/// it, a machine with `CI` set (`.ci/run` sets it) fails the test, so CI checks everything;
/// any other machine skips it with one line on the terminal naming what to install (written
/// to the process's stderr, which the test harness does not capture).
pub fn tool_present(test: &str, tool: &str, present: bool, install: &str) -> bool {
    if present {
        return true;
    }
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false");
    assert!(!ci, "{test}: {tool} is required when CI is set ({install})");
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "skipped {test}: no {tool} (install {install}; CI requires it)"
    );
    false
}

/// Whether `program --version` runs.
pub fn runs(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}
