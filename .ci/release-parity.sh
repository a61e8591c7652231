#!/usr/bin/env bash
# Release parity (the determinism rules in ARCHITECTURE.md): the corpus harness
# (tests/parity/) built with the current toolchain's release profile must print the same
# lines as the snapshot, which the test profile (debug assertions, opt-level 2) checks in
# `cargo test`. Built from core's release
# rlib directly, so CI does not compile every dev-dependency a second time in release.
# Usage: .ci/release-parity.sh OUT_DIR [CARGO_TARGET_DIR]
# CARGO_TARGET_DIR (default OUT_DIR/target): a release build that already holds core (the
# wheel's, in CI) is reused; the harness names its core rlib, and rustc matches the libm that
# rlib was built against by hash.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=$1; mkdir -p "$out"; out=$(cd "$out" && pwd)
target=${2:-$out/target}; mkdir -p "$target"
export CARGO_TARGET_DIR=$(cd "$target" && pwd)
cd "$here"
cargo build --release --locked -p stratagen-core --features alloc
rel="$CARGO_TARGET_DIR/release"
rustc --edition 2021 -C opt-level=3 --crate-type bin --crate-name harness \
  --extern stratagen_core="$rel/libstratagen_core.rlib" -L dependency="$rel/deps" \
  -o "$out/harness" tests/parity/harness.rs
awk 'n >= 2 { print } /^---$/ { n++ }' tests/snapshots/parity__parity_corpus.snap > "$out/expected.txt"
[ -s "$out/expected.txt" ] || { echo "empty expected corpus"; exit 1; }
"$out/harness" > "$out/release.txt"
if diff -u "$out/expected.txt" "$out/release.txt" > "$out/release.diff"; then
  echo "parity release: $(wc -l < "$out/expected.txt") lines identical"
else
  echo "parity release: DIFFERS"; head -20 "$out/release.diff"; exit 1
fi
