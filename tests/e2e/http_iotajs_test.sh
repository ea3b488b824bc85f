#!/usr/bin/env bash
# @iota/iota.js against the real server: loads the fixtures into a fresh database of the test
# cluster, starts permanode-serve on a free loopback port as the read-only login, runs
# tests/js/http_client_test.js, and stops the server.
# Usage: http_iotajs_test.sh PERMANODE_SERVE NODE      (PERMANODE_TEST_DSN: the test cluster)
set -euo pipefail
serve=$1
node=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
: "${PERMANODE_TEST_DSN:?run the tests through tests/run}"
db=permanode_http_js
"$root/tests/e2e/http_load_fixtures.sh" "$PERMANODE_TEST_DSN" "$db"
"$root/tests/js/install.sh" >/dev/null

log=$(mktemp)
"$serve" --dsn "$PERMANODE_TEST_DSN dbname=$db user=permanode_http_test" --port 0 --threads 4 \
  2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -f "$log"' EXIT
port=""
for _ in $(seq 1 100); do
  port=$(sed -nE 's|.*listening on http://127\.0\.0\.1:([0-9]+).*|\1|p' "$log")
  [ -n "$port" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$log"; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { echo "permanode-serve did not start"; cat "$log"; exit 1; }
"$node" "$root/tests/js/http_client_test.js" "http://127.0.0.1:$port"
