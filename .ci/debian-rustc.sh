#!/usr/bin/env bash
# Fetch Debian's packaged rustc 1.63 (and, optionally, its std for foreign architectures)
# without installing it: the packages are downloaded and unpacked into one folder.
# Usage: .ci/debian-rustc.sh DEST [ARCH ...]     (ARCH: arm64 s390x i386 wasm32)
# wasm32 adds the std for wasm32-unknown-unknown and lld-14 (the linker `rust-lld` points at).
# Prints nothing on success; DEST/usr/bin/rustc is the compiler afterwards.
set -euo pipefail
dest=$1; shift
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
debs="$dest/debs"
mkdir -p "$debs"
if [ ! -x "$dest/usr/bin/rustc" ]; then
  (cd "$debs" && apt-get download -q rustc libstd-rust-1.63 libstd-rust-dev >/dev/null)
fi
for arch in "$@"; do
  if [ "$arch" = wasm32 ]; then
    [ -d "$dest/usr/lib/rustlib/wasm32-unknown-unknown" ] && [ -x "$dest/usr/lib/llvm-14/bin/lld" ] && continue
    (cd "$debs" && apt-get download -q libstd-rust-dev-wasm32 lld-14 libllvm14 >/dev/null)
    continue
  fi
  [ -d "$dest/usr/lib/rustlib/$(case $arch in arm64) echo aarch64-unknown-linux-gnu;; s390x) echo s390x-unknown-linux-gnu;; i386) echo i686-unknown-linux-gnu;; esac)" ] && continue
  lists="$dest/lists-$arch"
  mkdir -p "$lists/partial"
  # A failing secondary index (a mirror mid-sync) is not fatal: the packages come from main.
  for try in 1 2 3; do
    apt-get -q -oAPT::Architecture="$arch" -oAPT::Architectures="$arch" \
      -oDir::State::Lists="$lists" update >/dev/null 2>&1 && break
    sleep $((try * 5))
  done
  (cd "$debs" && apt-get -q -oAPT::Architecture="$arch" -oAPT::Architectures="$arch" \
    -oDir::State::Lists="$lists" download libstd-rust-dev:"$arch" libstd-rust-1.63:"$arch" >/dev/null)
done
for f in "$debs"/*.deb; do dpkg -x "$f" "$dest"; done
"$dest/usr/bin/rustc" --version >/dev/null 2>&1 || LD_LIBRARY_PATH="$dest/usr/lib/x86_64-linux-gnu" "$dest/usr/bin/rustc" --version >/dev/null
