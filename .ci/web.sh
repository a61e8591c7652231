#!/usr/bin/env bash
# The web page (web/): its npm packages (three, playwright-core, and the package in js/, which
# .ci/js.sh built), the static site, and the browser tests in Debian's Chromium, headless, with
# SwiftShader for WebGL2 and WebGPU. STRATAGEN_CLI names the command line the studio's pixels
# are compared with.
# Usage: .ci/web.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v chromium >/dev/null; then
  apt-get update -q >/dev/null || true
  apt-get install -y -q --no-install-recommends chromium >/dev/null
fi
cd "$here/web"
npm ci --silent --no-audit --no-fund
npm test
