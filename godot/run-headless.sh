#!/usr/bin/env bash
# Run the demo's headless test with a Godot 4 binary (not available to this project's CI):
#   godot/run-headless.sh [path/to/godot]
# Builds the extension (debug), then runs godot/demo/test_world.gd headless.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
godot=${1:-godot}
cargo build -p stratagen-godot --manifest-path "$here/../Cargo.toml"
"$godot" --headless --path "$here/demo" --import >/dev/null 2>&1 || true
exec "$godot" --headless --path "$here/demo" --script res://test_world.gd
