#!/usr/bin/env bash
# Build the WebAssembly modules of the npm package with Debian's rustc 1.63 (the one toolchain
# here with a std for wasm32-unknown-unknown), calling rustc directly as .ci/cross.sh does:
# libm and core as rlibs, then wasm/ as a cdylib, twice: stratagen.wasm (any engine with bulk
# memory) and stratagen-simd.wasm (SIMD128 as well, which the package loads where the engine
# has it), into js/dist/ with the presets' canonical bytes; and the parity corpus harness as a
# module of each kind (js/dist/parity*.wasm, tests only). Each kind also has a noise-only
# module, stratagen-noise*.wasm, which `stratagen/noise` loads.
# Edit records come from the store crate (without SQLite) over lz4_flex, and definition
# documents from the worldfile crate (trees, no text parsers), built likewise.
# Usage: .ci/wasm-build.sh RUSTC_DIR [OUT_DIR]     (OUT_DIR: js/dist)
set -euo pipefail
deb=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$here/js/dist}
mkdir -p "$out/presets"
out=$(cd "$out" && pwd)
work="$here/target/wasm32"
mkdir -p "$work"
export LD_LIBRARY_PATH="$deb/usr/lib/x86_64-linux-gnu:$deb/usr/lib/llvm-14/lib"
rustc=("$deb/usr/bin/rustc" --sysroot "$deb/usr" --edition 2021 --target wasm32-unknown-unknown
  -C opt-level=3)
# The registry sources of the crates besides ours the module links.
source_of() {
  (cd "$here" && cargo metadata --format-version 1 --locked 2>/dev/null |
    python3 -c 'import json,sys; m=json.load(sys.stdin); print([p["manifest_path"] for p in m["packages"] if p["name"]==sys.argv[1]][0])' "$1")
}
libm_src=$(source_of libm)
# lz4_flex (the edit records' compression) names `core::error::Error`, stable since Rust 1.81;
# with its `std` feature `std::error::Error` is the same trait, which 1.63 has. A copy with
# that one path changed builds; the source in the registry is left as it is.
lz4_src="$work/lz4_flex"
rm -rf "$lz4_src"
cp -r "$(dirname "$(source_of lz4_flex)")" "$lz4_src"
sed -i 's/^use core::{error::Error, fmt};$/use std::{error::Error, fmt};/' "$lz4_src/src/block/mod.rs"
grep -q '^use std::{error::Error, fmt};$' "$lz4_src/src/block/mod.rs"

# variant FEATURES SUFFIX: core and the modules built with the wasm features FEATURES, the
# modules named stratagen$SUFFIX.wasm and parity$SUFFIX.wasm. Bulk memory makes memset and
# memcpy one instruction each (a byte loop without it); SIMD128 lets the compiler vectorise
# core's portable loops, which keeps every bit (the parity corpus runs on both modules).
variant() {
  local features=$1 suffix=$2 dir="$work/build$2"
  mkdir -p "$dir"
  local rustc_v=("${rustc[@]}" -C target-feature="$features")
  # libm's build script turns its default `arch` feature into `--cfg arch_enabled`; do the same.
  "${rustc_v[@]}" --crate-type rlib --crate-name libm --cfg 'feature="arch"' \
    --cfg 'feature="default"' --cfg arch_enabled --cap-lints allow -o "$dir/liblibm.rlib" \
    "$(dirname "$libm_src")/src/lib.rs"
  "${rustc_v[@]}" --crate-type rlib --crate-name stratagen_core --extern libm="$dir/liblibm.rlib" \
    -D warnings --cfg 'feature="alloc"' -o "$dir/libstratagen_core.rlib" "$here/core/src/lib.rs"
  "${rustc_v[@]}" --crate-type rlib --crate-name lz4_flex --cfg 'feature="std"' \
    --cfg 'feature="safe-encode"' --cfg 'feature="safe-decode"' --cap-lints allow \
    -o "$dir/liblz4_flex.rlib" "$lz4_src/src/lib.rs"
  # The store crate without its `sqlite` feature: chunk and edit records only.
  "${rustc_v[@]}" --crate-type rlib --crate-name stratagen_store -D warnings -L "$dir" \
    --extern stratagen_core="$dir/libstratagen_core.rlib" --extern lz4_flex="$dir/liblz4_flex.rlib" \
    -o "$dir/libstratagen_store.rlib" "$here/store/src/lib.rs"
  # World definitions without their `text` feature: documents as trees, which the package
  # parses from TOML in JavaScript.
  "${rustc_v[@]}" --crate-type rlib --crate-name stratagen_worldfile -D warnings -L "$dir" \
    --extern stratagen_core="$dir/libstratagen_core.rlib" \
    -o "$dir/libstratagen_worldfile.rlib" "$here/worldfile/src/lib.rs"
  local module=(-C linker="$deb/usr/bin/rust-lld" --crate-type cdylib
    --extern stratagen_core="$dir/libstratagen_core.rlib"
    --extern stratagen_store="$dir/libstratagen_store.rlib"
    --extern stratagen_worldfile="$dir/libstratagen_worldfile.rlib" -L "$dir")
  # Whole-program optimisation and no symbol names: a third of the size, the same code.
  local shipped=(-C lto=fat -C codegen-units=1 -C strip=symbols -D warnings
    --crate-name stratagen_wasm "$here/wasm/src/lib.rs")
  "${rustc_v[@]}" "${module[@]}" --cfg 'feature="world"' -o "$out/stratagen$suffix.wasm" \
    "${shipped[@]}"
  # The noise-only module (`stratagen/noise`): the same crate without its worlds.
  "${rustc_v[@]}" "${module[@]}" -o "$out/stratagen-noise$suffix.wasm" "${shipped[@]}"
  # The corpus harness links core's optimised wasm32 code as it is: it checks the target's
  # arithmetic, and the package's own module is checked through its calls (js/test/).
  "${rustc_v[@]}" "${module[@]}" --crate-name parity -o "$out/parity$suffix.wasm" \
    "$here/tests/parity/wasm.rs"
}
variant +bulk-memory "" &
plain=$!
variant +bulk-memory,+simd128 -simd &
simd=$!
wait "$plain"
wait "$simd"
# The presets' canonical bytes (the `default` preset is the built-in world, no bytes), and
# their text, which documents with `base = "name"` stand on.
cp "$here"/tests/parity/presets/*.bin "$out/presets/"
cp "$here"/worldfile/presets/*.toml "$out/presets/"
for m in stratagen stratagen-simd stratagen-noise stratagen-noise-simd; do
  echo "wasm: $m.wasm $(wc -c < "$out/$m.wasm") bytes, $(gzip -9 -c "$out/$m.wasm" | wc -c) gzipped"
done
