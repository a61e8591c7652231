#!/usr/bin/env bash
# Build every release artifact into dist/ (emptied first):
#   stratagen-VERSION-x86_64-linux.tar.gz   the C library installed by CMake (include/, lib/
#                                           with libstratagen.{a,so}, pkg-config, CMake package)
#   stratagen-VERSION-cp39-abi3-manylinux_*.whl   the Python wheel (maturin)
#   stratagen*-VERSION.crate                 the published crates (cargo package)
#   stratagen-VERSION.tgz                    the npm package (npm pack)
# Builds already made (target/ffi-build, target/release, js/dist) are reused: cargo and
# CMake rebuild only what is stale. The npm package needs js/dist (bash js/build.sh).
# Usage: .ci/release.sh [--no-verify]     (--no-verify: the crates are packaged without
#   building each one again from its package)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
# Artifacts without debug information (the release profile keeps line tables for profiling).
export CARGO_PROFILE_RELEASE_DEBUG=0
verify=(); [ "${1:-}" = --no-verify ] && verify=(--no-verify)
version=$(sed -n 's/^version = "\([0-9.]*\)"$/\1/p' Cargo.toml | head -1)
dist=$here/dist
rm -rf "$dist"; mkdir -p "$dist"
work=$here/target/release-work
rm -rf "$work"; mkdir -p "$work"

# The C library: CMake's install tree as a tarball.
name=stratagen-$version-$(uname -m)-linux
# The installed tree is relocatable, so the tarball unpacks anywhere.
cmake -S . -B "$work/cmake" -DCMAKE_BUILD_TYPE=Release \
  -DSTRATAGEN_CARGO_TARGET_DIR="$here/target/ffi-build" > "$work/cmake.log"
cmake --build "$work/cmake" >> "$work/cmake.log" 2>&1 || { tail -30 "$work/cmake.log"; exit 1; }
cmake --install "$work/cmake" --prefix "$work/stage/$name" >> "$work/cmake.log"
cp README.md LICENSE-MIT LICENSE-APACHE CHANGELOG.md "$work/stage/$name/"
tar -C "$work/stage" -czf "$dist/$name.tar.gz" "$name"

# The wheel, built by maturin from a virtual environment of its own, in the C library's build
# (the crates both link are compiled once).
venv=$work/venv
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check "maturin>=1.9.4,<2"
CARGO_TARGET_DIR="$here/target/ffi-build" "$venv/bin/maturin" build --release --strip --locked -m python/Cargo.toml -o "$dist" 2> "$work/maturin.log" ||
  { tail -30 "$work/maturin.log"; exit 1; }

# The crates: every one that is published, packaged together (they depend on each other).
crates=(stratagen-core stratagen-worldfile stratagen-store stratagen-host stratagen-ffi stratagen)
cargo package --locked "${verify[@]}" $(printf -- '-p %s ' "${crates[@]}") > "$work/package.log" 2>&1 ||
  { tail -30 "$work/package.log"; exit 1; }
for c in "${crates[@]}"; do cp "target/package/$c-$version.crate" "$dist/"; done

# The npm package.
[ -f js/dist/stratagen.wasm ] || { echo "js/dist/stratagen.wasm missing: run bash js/build.sh"; exit 1; }
(cd js && npm pack --silent --pack-destination "$dist" > /dev/null)

ls -l "$dist" | awk 'NR > 1 { printf "dist/%s %d bytes\n", $NF, $5 }'
expected=$((1 + 1 + ${#crates[@]} + 1))
[ "$(ls "$dist" | wc -l)" = "$expected" ] || { echo "dist/ holds $(ls "$dist" | wc -l) files, expected $expected"; exit 1; }
