#!/usr/bin/env bash
# Build the WebAssembly module of the npm package with Debian's rustc 1.63 (the one toolchain
# here with a std for wasm32-unknown-unknown), calling rustc directly as .ci/cross.sh does:
# libm and core as rlibs, then wasm/ as a cdylib, into js/dist/ with the presets' canonical
# bytes; and the parity corpus harness as its own module (js/dist/parity.wasm, tests only).
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
libm_src=$(cd "$here" && cargo metadata --format-version 1 --locked 2>/dev/null |
  python3 -c 'import json,sys; m=json.load(sys.stdin); print([p["manifest_path"] for p in m["packages"] if p["name"]=="libm"][0])')
# libm's build script turns its default `arch` feature into `--cfg arch_enabled`; do the same.
"${rustc[@]}" --crate-type rlib --crate-name libm --cfg 'feature="arch"' --cfg 'feature="default"' \
  --cfg arch_enabled --cap-lints allow -o "$work/liblibm.rlib" "$(dirname "$libm_src")/src/lib.rs"
"${rustc[@]}" --crate-type rlib --crate-name stratagen_core --extern libm="$work/liblibm.rlib" \
  -D warnings --cfg 'feature="alloc"' -o "$work/libstratagen_core.rlib" "$here/core/src/lib.rs"
# Whole-program optimisation and no symbol names: a third of the size, the same code.
module=(-C lto=fat -C codegen-units=1 -C strip=symbols -C linker="$deb/usr/bin/rust-lld"
  --crate-type cdylib --extern stratagen_core="$work/libstratagen_core.rlib" -L "$work")
"${rustc[@]}" "${module[@]}" -D warnings --crate-name stratagen_wasm -o "$out/stratagen.wasm" \
  "$here/wasm/src/lib.rs"
"${rustc[@]}" "${module[@]}" --crate-name parity -o "$out/parity.wasm" "$here/tests/parity/wasm.rs"
# The presets' canonical bytes (the `default` preset is the built-in world, no bytes).
cp "$here"/tests/parity/presets/*.bin "$out/presets/"
echo "wasm: $(wc -c < "$out/stratagen.wasm") bytes, $(gzip -9 -c "$out/stratagen.wasm" | wc -c) gzipped"
