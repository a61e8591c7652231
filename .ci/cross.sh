#!/usr/bin/env bash
# Parity on other architectures: build the corpus harness (tests/parity/) from
# core with Debian's rustc 1.63 for x86_64 (plain and -C target-cpu=native), aarch64, s390x
# (big-endian) and i686 with SSE2, run the foreign ones under qemu-user, and compare every
# line with the x86_64 snapshot tests/snapshots/parity__parity_corpus.snap.
# Then the honest negative: i686 without SSE2 (x87) must refuse to compile.
# Usage: .ci/cross.sh RUSTC_DIR OUT_DIR [X86_64_CORE_DIR]
# X86_64_CORE_DIR: a plain x86_64 build by .ci/core-rustc163.sh to reuse instead of building
# it again. Only the `alloc` core is built per architecture: the harness links nothing else,
# and the no-alloc build is checked on x86_64.
set -euo pipefail
deb=$(cd "$1" && pwd); out=$2; reuse=${3:-}
[ -z "$reuse" ] || reuse=$(cd "$reuse" && pwd)
export CORE_VARIANTS=alloc
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
expected="$out/expected.txt"
# The snapshot body: everything after the second '---' line.
awk 'n >= 2 { print } /^---$/ { n++ }' "$here/tests/snapshots/parity__parity_corpus.snap" > "$expected"
[ -s "$expected" ] || { echo "empty expected corpus"; exit 1; }

build() { # triple linker extra-flags...
  local triple=$1 linker=$2; shift 2
  local dir="$out/$triple$SUFFIX"
  if [ -n "${CORE_DIR:-}" ]; then
    mkdir -p "$dir"; cp "$CORE_DIR/liblibm.rlib" "$CORE_DIR/libstratagen_core.rlib" "$dir/"
  else
    "$here/.ci/core-rustc163.sh" "$deb" "$dir" "$triple" "$@"
  fi
  LD_LIBRARY_PATH="$deb/usr/lib/x86_64-linux-gnu" "$deb/usr/bin/rustc" --sysroot "$deb/usr" \
    --edition 2021 -O --target "$triple" "$@" --crate-type bin --crate-name harness \
    --extern stratagen_core="$dir/libstratagen_core.rlib" -L "$dir" -C linker="$linker" \
    -o "$dir/harness" "$here/tests/parity/harness.rs"
}

check() { # name command...
  local name=$1; shift
  local t0=$SECONDS
  "$@" > "$out/$name.txt"
  if diff -u "$expected" "$out/$name.txt" > "$out/$name.diff"; then
    echo "parity $name: $(wc -l < "$expected") lines identical ($((SECONDS - t0)) s)"
  else
    echo "parity $name: DIFFERS"; head -20 "$out/$name.diff"; exit 1
  fi
}

# Two builds at a time, and each corpus checked while the next builds: rustc's front end runs
# on one core, so a second build (or qemu) fills the other.
started() { # name: the build's log when it fails
  "${@:2}" > "$out/$1.build.log" 2>&1 &
  eval "pid_$1=$!"
}
built() { # name
  local pid; eval "pid=\$pid_$1"
  wait "$pid" || { echo "build $1 failed:"; tail -30 "$out/$1.build.log"; exit 1; }
}
CORE_DIR=$reuse SUFFIX= build x86_64-unknown-linux-gnu cc
check x86_64-rustc163 "$out/x86_64-unknown-linux-gnu/harness"
SUFFIX=-native started native build x86_64-unknown-linux-gnu cc -C target-cpu=native
SUFFIX= started aarch64 build aarch64-unknown-linux-gnu aarch64-linux-gnu-gcc
built native
check x86_64-native "$out/x86_64-unknown-linux-gnu-native/harness"
SUFFIX= started s390x build s390x-unknown-linux-gnu s390x-linux-gnu-gcc
built aarch64
check aarch64 qemu-aarch64 -L /usr/aarch64-linux-gnu "$out/aarch64-unknown-linux-gnu/harness"
SUFFIX=-sse2 started i686 build i686-unknown-linux-gnu i686-linux-gnu-gcc -C target-cpu=pentium4
built s390x
check s390x qemu-s390x -L /usr/s390x-linux-gnu "$out/s390x-unknown-linux-gnu/harness"
built i686
check i686-sse2 qemu-i386 -L /usr/i686-linux-gnu "$out/i686-unknown-linux-gnu-sse2/harness"

# x87 (no SSE2) must not build: the compile_error! in core/src/lib.rs.
if "$here/.ci/core-rustc163.sh" "$deb" "$out/i686-x87" i686-unknown-linux-gnu > "$out/x87.log" 2>&1; then
  echo "i686 without SSE2 built, but must refuse"; exit 1
fi
grep -q "needs IEEE binary64 arithmetic" "$out/x87.log" || { echo "x87 build failed for another reason:"; cat "$out/x87.log"; exit 1; }
echo "i686 without SSE2: refused to compile, as it must"
