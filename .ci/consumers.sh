#!/usr/bin/env bash
# The library as its users install it, each consumer's chunk digests compared with
# `stratagen digest`:
#  - `cmake --install` into a prefix: the layout (headers, libstratagen.{a,so}, pkg-config
#    file, CMake package); a CMake project with find_package(Stratagen 0.3 REQUIRED) and
#    stratagen.hpp, linked static and shared; the examples built by CMake;
#  - a C program built with `pkg-config --cflags --libs stratagen`;
#  - the wheel in target/wheels installed into a fresh virtual environment with no Rust
#    toolchain on PATH (skipped when no wheel was built).
# Usage: .ci/consumers.sh STRATAGEN_CLI [WORK_DIR]     (WORK_DIR: target/consumers)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=${2:-$here/target/consumers}
rm -rf "$work"; mkdir -p "$work"; work=$(cd "$work" && pwd)
prefix=$work/prefix
seed=5 region=-1,-1,1,1
want=$("$cli" digest --seed "$seed" --region "$region" | grep '^chunk ')
[ "$(echo "$want" | wc -l)" = 9 ] || { echo "stratagen digest gave: $want"; exit 1; }
same() { # name output
  if [ "$2" = "$want" ]; then echo "$1: 9 chunk digests equal stratagen digest"; else
    echo "$1: digests differ"; diff <(echo "$want") <(echo "$2") | head; exit 1; fi
}

# The C examples' test builds the library in target/ffi-build: CMake reuses that build.
cmake -S "$here" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DSTRATAGEN_BUILD_EXAMPLES=ON \
  -DSTRATAGEN_CARGO_TARGET_DIR="$here/target/ffi-build" -DCMAKE_INSTALL_PREFIX="$prefix" > "$work/configure.log"
cmake --build "$work/build" -j 2 > "$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
cmake --install "$work/build" > "$work/install.log"
libdir=$(dirname "$(find "$prefix" -name libstratagen.a)")
for f in include/stratagen.h include/stratagen.hpp; do
  [ -f "$prefix/$f" ] || { echo "install: no $f"; exit 1; }
done
for f in libstratagen.a libstratagen.so pkgconfig/stratagen.pc cmake/Stratagen/StratagenConfig.cmake \
         cmake/Stratagen/StratagenConfigVersion.cmake; do
  [ -f "$libdir/$f" ] || { echo "install: no ${libdir#$prefix/}/$f"; exit 1; }
done
echo "cmake --install: headers, libstratagen.{a,so}, stratagen.pc and the CMake package in $(basename "$prefix")"
same "examples-c built by CMake (wrapper)" "$("$work/build/examples-c/wrapper" "$seed" 1 | grep '^chunk ')"

# The installed tree is relocatable: consumers use a copy in another directory.
moved=$work/moved
cp -a "$prefix" "$moved"
for kind in static shared; do
  shared=OFF; [ $kind = shared ] && shared=ON
  cmake -S "$here/tests/consumers/cmake" -B "$work/cmake-$kind" -DCMAKE_PREFIX_PATH="$moved" \
    -DSTRATAGEN_SHARED=$shared > "$work/cmake-$kind.log"
  cmake --build "$work/cmake-$kind" >> "$work/cmake-$kind.log" 2>&1 || { tail -30 "$work/cmake-$kind.log"; exit 1; }
  exe=$work/cmake-$kind/consumer
  if [ $kind = shared ]; then
    ldd "$exe" | grep -q "libstratagen.so => ${moved}/" || { echo "find_package shared: not linked to the installed .so"; ldd "$exe"; exit 1; }
  else
    ! ldd "$exe" | grep -q libstratagen || { echo "find_package static: linked to a shared libstratagen"; exit 1; }
  fi
  same "find_package(Stratagen 0.3) $kind, stratagen.hpp" "$("$exe" "$seed" ${region//,/ })"
done

export PKG_CONFIG_PATH="${moved}/${libdir#$prefix/}/pkgconfig"
pc_libdir=$(pkg-config --variable=libdir stratagen)
cc -std=c11 -Wall -Wextra -Werror -pedantic $(pkg-config --cflags stratagen) \
  "$here/tests/consumers/pkg-config/main.c" $(pkg-config --libs stratagen) -Wl,-rpath,"$pc_libdir" \
  -o "$work/pkg-config-consumer"
same "pkg-config --cflags --libs stratagen ($(pkg-config --modversion stratagen))" \
  "$("$work/pkg-config-consumer" "$seed" ${region//,/ })"

wheel=$(ls "$here"/target/wheels/stratagen-*-abi3-manylinux*.whl 2>/dev/null | head -1 || true)
if [ -z "$wheel" ]; then
  echo "wheel: none in target/wheels (python/test.sh builds it), not checked"
  exit 0
fi
python3 -m venv "$work/venv"
# PATH without cargo and rustc: the wheel must install from its binary alone.
clean_path=$work/venv/bin:/usr/local/bin:/usr/bin:/bin
env PATH="$clean_path" sh -c '! command -v cargo && ! command -v rustc' >/dev/null ||
  { echo "wheel: a Rust toolchain is on the clean PATH"; exit 1; }
env PATH="$clean_path" "$work/venv/bin/python" -m pip install -q --disable-pip-version-check "$wheel"
got=$(cd "$work" && env PATH="$clean_path" "$work/venv/bin/python" -c '
import sys, stratagen
w = stratagen.World(seed=int(sys.argv[1]))
for c in w.region(-1, -1, 1, 1):
    print(f"chunk {c.x} {c.z} {c.digest:016x}")
' "$seed")
same "wheel $(basename "$wheel") in a fresh venv" "$got"
