#!/usr/bin/env bash
# Regenerate docs/mesh.png (a voxel region from `stratagen mesh`) or docs/props.png (a
# heightmap region with the default world's scatter props, `stratagen heightmap --mesh
# --scatter`): render the glTF with three.js in headless Chromium (Debian's `chromium`,
# software GL) and screenshot it.
# Usage: tools/mesh-picture/render.sh [mesh|props] [SEED [X0,Z0,X1,Z1]]   (needs node/npm, chromium)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
what=mesh
if [ "${1:-}" = mesh ] || [ "${1:-}" = props ]; then what=$1; shift; fi
seed=${1:-0}
cd "$here"
[ -d node_modules/three ] || npm ci --no-audit --no-fund
run() { cargo run --release --quiet --manifest-path "$root/Cargo.toml" -- "$@"; }
if [ "$what" = mesh ]; then
  region=${2:--9,7,-4,12}
  run mesh --seed "$seed" --region "$region" --greedy --out "$here/region.glb"
else
  region=${2:--3,-2,2,2}
  run heightmap --seed "$seed" --res 32 --region "$region" --mesh "$here/region.glb" --scatter
fi
port=$((20000 + RANDOM % 20000))
python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$here/region.glb"' EXIT
sleep 1
profile=$(mktemp -d)
chromium --headless --no-sandbox --disable-gpu --enable-unsafe-swiftshader --use-angle=swiftshader \
  --disable-background-networking --disable-component-update --disable-sync --no-first-run \
  --user-data-dir="$profile" --window-size=1200,700 --hide-scrollbars \
  --virtual-time-budget=60000 --screenshot="$root/docs/$what.png" \
  "http://127.0.0.1:$port/index.html" 2>/dev/null
rm -rf "$profile"
echo "wrote $root/docs/$what.png (seed $seed, region $region)"
