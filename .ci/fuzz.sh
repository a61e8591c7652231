#!/usr/bin/env bash
# Run each fuzz target for a fixed time, starting from its committed seeds (fuzz/seeds/),
# with libFuzzer, AddressSanitizer (leak detection on), debug assertions and overflow checks.
#   .ci/fuzz.sh SECONDS [TARGET...]      (default: 30 s each, every target)
# New inputs go to target/fuzz-corpus/<target>; a crash leaves its input in
# fuzz/artifacts/<target>/ and fails the script. Per-target summaries: target/fuzz-logs/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
targets=${*:-record edits definition noise c_api}
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
# cargo fuzz passes -Z flags to rustc; the machine's one toolchain is stable.
export RUSTC_BOOTSTRAP=1
mkdir -p target/fuzz-logs
for t in $targets; do
  corpus=target/fuzz-corpus/$t
  mkdir -p "$corpus"
  echo "fuzz $t: ${seconds}s"
  if ! cargo fuzz run "$t" "$corpus" "fuzz/seeds/$t" -- \
      -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
      > "target/fuzz-logs/$t.log" 2>&1; then
    # The failing input's Debug form can be megabytes: show the finding, not the input.
    grep -a -m1 -A12 -E "panicked at|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)" \
      "target/fuzz-logs/$t.log" | cut -c1-300
    echo "fuzz $t: FAILED (input in fuzz/artifacts/$t/)"
    exit 1
  fi
  grep -E "^#[0-9]+ +DONE|^stat::(number_of_executed_units|peak_rss_mb)" "target/fuzz-logs/$t.log" || true
done
