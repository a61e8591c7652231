#!/usr/bin/env bash
# Regenerate docs/mesh.png: export a region with `stratagen mesh`, render it with three.js in
# headless Chromium (Debian's `chromium`, software GL), screenshot to docs/mesh.png.
# Usage: tools/mesh-picture/render.sh [SEED [X0,Z0,X1,Z1]]   (needs node/npm and chromium)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seed=${1:-0}
region=${2:--9,7,-4,12}
cd "$here"
[ -d node_modules/three ] || npm ci --no-audit --no-fund
cargo run --release --quiet --manifest-path "$root/Cargo.toml" -- \
  mesh --seed "$seed" --region "$region" --greedy --out "$here/region.glb"
port=$((20000 + RANDOM % 20000))
python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$here/region.glb"' EXIT
sleep 1
profile=$(mktemp -d)
chromium --headless --no-sandbox --disable-gpu --enable-unsafe-swiftshader --use-angle=swiftshader \
  --disable-background-networking --disable-component-update --disable-sync --no-first-run \
  --user-data-dir="$profile" --window-size=1200,700 --hide-scrollbars \
  --virtual-time-budget=60000 --screenshot="$root/docs/mesh.png" \
  "http://127.0.0.1:$port/index.html" 2>/dev/null
rm -rf "$profile"
echo "wrote $root/docs/mesh.png (seed $seed, region $region)"
