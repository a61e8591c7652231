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
# cargo fuzz builds with one codegen unit: the fastest fuzzing, but LLVM then runs on one core.
# A short run (under a minute per target) is mostly build, so it builds with sixteen.
units=1
[ "$seconds" -lt 60 ] && units=16
# One build of every target (cargo links them side by side), then two targets at a time:
# libFuzzer runs on one core, so the second core runs the next target.
set -- $targets
[ $# -gt 1 ] && set --   # `cargo fuzz build` with no target builds them all
cargo fuzz build --codegen-units "$units" "$@" > target/fuzz-logs/build.log 2>&1 || { tail -30 target/fuzz-logs/build.log; exit 1; }
fuzz() { # target: runs it, prints its summary, fails with the finding
  local t=$1 corpus=target/fuzz-corpus/$1
  mkdir -p "$corpus"
  if ! cargo fuzz run --codegen-units "$units" "$t" "$corpus" "fuzz/seeds/$t" -- \
      -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
      > "target/fuzz-logs/$t.log" 2>&1; then
    # The failing input's Debug form can be megabytes: show the finding, not the input.
    { grep -a -m1 -A12 -E "panicked at|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)" \
        "target/fuzz-logs/$t.log" | cut -c1-300
      echo "fuzz $t: FAILED (input in fuzz/artifacts/$t/)"; } > "target/fuzz-logs/$t.summary"
    return 1
  fi
  { echo "fuzz $t: ${seconds}s"
    grep -E "^#[0-9]+ +DONE|^stat::(number_of_executed_units|peak_rss_mb)" "target/fuzz-logs/$t.log" || true
  } > "target/fuzz-logs/$t.summary"
}
set -- $targets
failed=0
while [ $# -gt 0 ]; do
  fuzz "$1" & first=$!
  second=
  if [ $# -gt 1 ]; then fuzz "$2" & second=$!; fi
  wait "$first" || failed=1
  [ -z "$second" ] || wait "$second" || failed=1
  cat "target/fuzz-logs/$1.summary"
  [ $# -lt 2 ] || cat "target/fuzz-logs/$2.summary"
  shift $(( $# > 1 ? 2 : 1 ))
done
exit $failed
