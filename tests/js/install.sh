#!/bin/sh
# Installs the test-only JavaScript packages of package-lock.json, once: this folder's, or those
# of the folder given (tests/js/ucan keeps its own). Several tests need them and ctest runs tests
# in parallel, so the install holds a lock, and it counts as done only by a marker written after
# `npm ci` succeeded: a node_modules that merely exists may be half-written, or being replaced by
# another `npm ci`.
# Usage: install.sh [DIR]
set -eu
cd "${1:-$(dirname "$0")}"
exec 9>.install.lock
flock 9
marker=node_modules/.permanode-installed
if [ -f "$marker" ] && [ "$marker" -nt package-lock.json ]; then
  exit 0
fi
# puppeteer-core drives Debian's chromium (tests/js/web_browser_test.js): never download one.
PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund
touch "$marker"
