#!/usr/bin/env bash
# Times examples-c/pool.c: an inline run (THREADS 0, sg_world_run_inline) against the pool
# with 1, 2 (and more if given) threads, on the same chunks, interleaved; the best of ROUNDS
# runs of each counts. usage: examples-c/bench-pool.sh [RADIUS [ROUNDS [THREADS...]]]
set -euo pipefail
cd "$(dirname "$0")/.."
radius=${1:-15}
rounds=${2:-3}
shift $(( $# > 2 ? 2 : $# ))
threads=("$@")
[ ${#threads[@]} -eq 0 ] && threads=(1 2)
cargo build --release --locked -p stratagen-ffi >/dev/null 2>&1
out=target/bench-pool
mkdir -p "$out"
cc -std=c11 -O2 -Wall -Wextra -Werror -pedantic -Iinclude examples-c/pool.c \
  target/release/libstratagen.a -lpthread -ldl -lm -o "$out/pool"
echo "cpu $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
declare -A best
configs=(0 "${threads[@]}")
for ((r = 0; r < rounds; r++)); do
  for t in "${configs[@]}"; do
    ms=$("$out/pool" 0 "$radius" "$t" 2>&1 >/dev/null | awk '/elapsed_ms/ {print $2}')
    if [ -z "${best[$t]:-}" ] || awk "BEGIN {exit !($ms < ${best[$t]})}"; then best[$t]=$ms; fi
  done
done
chunks=$(( (2 * radius + 1) * (2 * radius + 1) ))
for t in "${configs[@]}"; do
  label=$t; [ "$t" = 0 ] && label=inline
  awk -v l="$label" -v ms="${best[$t]}" -v base="${best[0]}" -v n="$chunks" \
    'BEGIN {printf "pool %-7s %9.1f ms  %6.3f ms/chunk  %5.2fx inline\n", l, ms, ms / n, base / ms}'
done
