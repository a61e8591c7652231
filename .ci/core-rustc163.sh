#!/usr/bin/env bash
# Build stratagen-core (with and without `alloc`) with Debian's rustc 1.63 (determinism
# rule 7 in ARCHITECTURE.md), calling rustc directly (ARCHITECTURE.md, "Parity across
# architectures"): libm from the cargo registry, then core.
# Usage: .ci/core-rustc163.sh RUSTC_DIR OUT_DIR [TARGET [extra rustc flags...]]
# CORE_VARIANTS="noalloc alloc" (the default) names the builds; "alloc" alone is what the
# parity harness links, and "noalloc" is checked, not compiled to code.
set -euo pipefail
deb=$(cd "$1" && pwd); out=$2; shift 2
target=${1:-x86_64-unknown-linux-gnu}; [ $# -gt 0 ] && shift
mkdir -p "$out"
here=$(cd "$(dirname "$0")/.." && pwd)
export LD_LIBRARY_PATH="$deb/usr/lib/x86_64-linux-gnu"
rustc=("$deb/usr/bin/rustc" --sysroot "$deb/usr" --edition 2021 -O --target "$target" "$@")
libm_src=$(cd "$here" && cargo metadata --format-version 1 --locked 2>/dev/null |
  python3 -c 'import json,sys; m=json.load(sys.stdin); print([p["manifest_path"] for p in m["packages"] if p["name"]=="libm"][0])')
libm_dir=$(dirname "$libm_src")
# libm's build script turns its default `arch` feature into `--cfg arch_enabled`; do the same.
"${rustc[@]}" --crate-type rlib --crate-name libm --cfg 'feature="arch"' --cfg 'feature="default"' \
  --cfg arch_enabled --cap-lints allow -o "$out/liblibm.rlib" "$libm_dir/src/lib.rs"
for variant in ${CORE_VARIANTS:-noalloc alloc}; do
  case $variant in
    # Nothing links core without `alloc`: checking it (types, borrows, lints) is the point,
    # so it stops before code generation.
    noalloc) flags=(--emit=metadata -o "$out/libstratagen_core_noalloc.rmeta") ;;
    alloc) flags=(--cfg 'feature="alloc"' -o "$out/libstratagen_core.rlib") ;;
    *) echo "unknown core variant: $variant"; exit 1 ;;
  esac
  "${rustc[@]}" --crate-type rlib --crate-name stratagen_core --extern libm="$out/liblibm.rlib" \
    -D warnings "${flags[@]}" "$here/core/src/lib.rs"
done
