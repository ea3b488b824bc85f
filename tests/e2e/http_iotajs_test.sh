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

. "$root/tests/e2e/serve.sh"
trap stop_serve EXIT
start_serve "$serve" "$PERMANODE_TEST_DSN dbname=$db user=permanode_http_test" --threads 4
"$node" "$root/tests/js/http_client_test.js" "http://127.0.0.1:$port"
