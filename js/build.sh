#!/usr/bin/env bash
# Build the package's WebAssembly module into js/dist/: fetch Debian's rustc 1.63 with its
# wasm32 std and lld-14 (once, unpacked into target/deb-rustc, nothing installed), then
# compile with .ci/wasm-build.sh. Run from anywhere: `bash js/build.sh` or `npm run build`.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
deb=${STRATAGEN_DEB_RUSTC:-$here/target/deb-rustc}
# A machine whose package lists were never fetched has nothing to download from.
if ! apt-cache show lld-14 >/dev/null 2>&1; then apt-get update -q >/dev/null; fi
"$here/.ci/debian-rustc.sh" "$deb" wasm32
"$here/.ci/wasm-build.sh" "$deb" "$here/js/dist"
