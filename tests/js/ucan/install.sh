#!/bin/sh
# Installs the UCAN test's npm packages of package-lock.json, once (the lock and the marker as
# in tests/js/install.sh: ctest may run several tests that need them at once).
set -eu
cd "$(dirname "$0")"
exec 9>.install.lock
flock 9
marker=node_modules/.permanode-installed
if [ -f "$marker" ] && [ "$marker" -nt package-lock.json ]; then
  exit 0
fi
npm ci --no-audit --no-fund
touch "$marker"
