#!/usr/bin/env bash
# Regenerate docs/mesh.png (a voxel region from `stratagen mesh`), docs/props.png (a
# heightmap region with the default world's scatter props, `stratagen heightmap --mesh
# --scatter`) or docs/shader.png (an f32 noise as generated GLSL displacing a grid beside
# the mesh of the CPU's samples, `stratagen shader` and `stratagen noise --out .raw`):
# render with three.js in headless Chromium (Debian's `chromium`, software GL) and
# screenshot it.
# Usage: tools/mesh-picture/render.sh [mesh|props|shader] [SEED [X0,Z0,X1,Z1]]
# (needs node/npm, chromium)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
what=mesh
case "${1:-}" in mesh|props|shader) what=$1; shift ;; esac
seed=${1:-0}
cd "$here"
[ -d node_modules/three ] || npm ci --no-audit --no-fund
run() { cargo run --release --quiet --manifest-path "$root/Cargo.toml" -- "$@"; }
page=index.html
if [ "$what" = mesh ]; then
  region=${2:--9,7,-4,12}
  run mesh --seed "$seed" --region "$region" --greedy --out "$here/region.glb"
elif [ "$what" = props ]; then
  region=${2:--3,-2,2,2}
  run heightmap --seed "$seed" --res 32 --region "$region" --mesh "$here/region.glb" --scatter
else
  # One noise both ways: Perlin fBm, 5 octaves, frequency 1/64, single precision.
  region="0,0 to 128,128 blocks"
  page=shader.html
  run shader --lang glsl --type perlin --fractal fbm --octaves 5 --frequency 0.015625 \
    --seed "$seed" --out "$here/noise.glsl"
  run noise --type perlin --fractal fbm --octaves 5 --scale 64 --seed "$seed" --precision f32 \
    --size 129x129 --out "$here/heights.raw"
fi
port=$((20000 + RANDOM % 20000))
python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$here/region.glb" "$here/noise.glsl" "$here/heights.raw"' EXIT
sleep 1
profile=$(mktemp -d)
chromium --headless --no-sandbox --disable-gpu --enable-unsafe-swiftshader --use-angle=swiftshader \
  --disable-background-networking --disable-component-update --disable-sync --no-first-run \
  --user-data-dir="$profile" --window-size=1200,700 --hide-scrollbars \
  --virtual-time-budget=60000 --screenshot="$root/docs/$what.png" \
  "http://127.0.0.1:$port/$page" 2>/dev/null
rm -rf "$profile"
echo "wrote $root/docs/$what.png (seed $seed, region $region)"
