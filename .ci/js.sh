#!/usr/bin/env bash
# The npm package: build its WebAssembly module with Debian's rustc 1.63 (js/build.sh), run
# its tests (node's test runner: the parity corpus in wasm32 among them), then pack it and
# install the tarball into a fresh project that imports it, generates a chunk, reads a
# definition written as TOML (its dependency, the TOML parser, installed from npm) and fills
# a noise through `stratagen/noise`.
# Usage: .ci/js.sh [RUSTC_DIR]     (the Debian toolchain folder; default target/deb-rustc)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
export STRATAGEN_DEB_RUSTC=${1:-$here/target/deb-rustc}
bash "$here/js/build.sh"
# The dev dependencies: three for stratagen/three's tests (and the bench's peers).
(cd "$here/js" && npm ci --silent --no-audit --no-fund && npm test)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
(cd "$here/js" && npm pack --silent --pack-destination "$scratch" >/dev/null)
cd "$scratch"
npm init -y >/dev/null
npm install --silent --no-audit --no-fund ./stratagen-*.tgz
cat > check.mjs <<'JS'
import { readFileSync } from 'node:fs';
import { init, World, compileDefinition } from 'stratagen';
await init();
const text = readFileSync('node_modules/stratagen/dist/presets/caverns.toml', 'utf8');
if (compileDefinition(text).digest !== new World({ world: 'caverns' }).definitionDigest) {
  throw new Error('the caverns preset read as TOML is not the caverns preset');
}
const chunk = new World({ seed: 0 }).chunk(0, 0);
console.log(chunk.digest.toString(16).padStart(16, '0'));
JS
want=$(awk '/^chunk origin seed 0 \(0, 0\) full / { print $NF }' "$here/tests/snapshots/parity__parity_corpus.snap")
got=$(node check.mjs)
[ "$got" = "$want" ] || { echo "the packed package gave $got, the corpus says $want"; exit 1; }
# The noise-only entry point resolves through the package's exports and loads its module.
cat > noise.mjs <<'JS'
import { init, Noise, moduleKind } from 'stratagen/noise';
await init();
const n = new Noise({ type: 'perlin', seed: 1 });
if (n.fill2d(0, 0, 1, 1, 4, 4)[5] !== n.sample2d(1, 1)) throw new Error('fill and sample differ');
console.log(moduleKind());
JS
node noise.mjs >/dev/null
echo "npm pack: $(ls stratagen-*.tgz) installs in a fresh project and gives the corpus digest $got"
