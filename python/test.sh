#!/usr/bin/env bash
# Build the `stratagen` wheel with maturin and run the Python tests against it, in a virtual
# environment of their own (target/python-venv; packages from PyPI). Extra arguments go to
# pytest. Usage: python/test.sh [-k PATTERN]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
venv=${STRATAGEN_VENV:-$root/target/python-venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check "maturin>=1.9.4,<2" numpy pytest distributed
wheels="$root/target/wheels"
rm -rf "$wheels"
"$venv/bin/maturin" build --release --locked -m "$here/Cargo.toml" -o "$wheels"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheels"/stratagen-*.whl
# From the checkout's root, so `import stratagen` is the installed wheel.
cd "$root"
"$venv/bin/python" -m pytest -q -p no:cacheprovider python/tests "$@"
