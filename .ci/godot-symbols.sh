#!/usr/bin/env bash
# The Godot extension without Godot: build the cdylib and check that it exports the entry
# symbol named in godot/demo/stratagen.gdextension, and that the library paths there name the
# files Cargo builds on each platform.
# Usage: .ci/godot-symbols.sh [PROFILE]   (release, the default, or test: target/debug, which
# reuses what `cargo test` built)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
ext="$here/godot/demo/stratagen.gdextension"
profile=${1:-release}
dir=release; [ "$profile" = test ] && dir=debug
cargo build -p stratagen-godot --profile "$profile" --locked
lib="$here/target/$dir/libstratagen_godot.so"
entry=$(sed -n 's/^entry_symbol = "\(.*\)"$/\1/p' "$ext")
[ -n "$entry" ] || { echo "no entry_symbol in $ext"; exit 1; }
if nm -D --defined-only "$lib" | awk '{print $3}' | grep -qx "$entry"; then
  echo "godot: $lib exports $entry"
else
  echo "godot: $lib does not export $entry"; exit 1
fi
# Cargo's cdylib names: lib<name>.so, <name>.dll, lib<name>.dylib, in target/<profile>/.
for want in "linux.debug.x86_64 = \"res://../../target/debug/libstratagen_godot.so\"" \
            "linux.release.x86_64 = \"res://../../target/release/libstratagen_godot.so\"" \
            "windows.release.x86_64 = \"res://../../target/release/stratagen_godot.dll\"" \
            "macos.release = \"res://../../target/release/libstratagen_godot.dylib\""; do
  grep -qxF "$want" "$ext" || { echo "godot: $ext lacks: $want"; exit 1; }
done
# And the relative path really reaches the built library from the demo project.
[ -f "$here/godot/demo/../../target/$dir/libstratagen_godot.so" ] || { echo "godot: library path does not resolve"; exit 1; }
echo "godot: library paths match the built file names"
