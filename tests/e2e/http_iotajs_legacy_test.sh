#!/usr/bin/env bash
# @iota/core 1.0.0-beta.30 (composeAPI) against the real server's legacy node API: the real legacy
# transactions go into a fresh database of the test cluster as tests/e2e/http_legacy_ledger.json
# confirms them (http_load_legacy.sh), permanode-serve serves it on a free loopback port as the
# read-only login, and tests/js/http_legacy_client_test.js checks what composeAPI's calls get.
# Usage: http_iotajs_legacy_test.sh PERMANODE_SERVE NODE
#        (PERMANODE_TEST_DSN: the test cluster; PERMANODE_LEGACY_FIXTURES, else the sibling
#        legacy/ of PERMANODE_FIXTURES: the legacy fixtures)
set -euo pipefail
serve=$1
node=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
: "${PERMANODE_TEST_DSN:?run the tests through tests/run}"
fixtures=${PERMANODE_FIXTURES:-$root/../shared/fixtures/shimmer}
legacy=${PERMANODE_LEGACY_FIXTURES:-$(dirname "$fixtures")/legacy}
db=permanode_http_js_legacy
"$root/tests/e2e/http_load_legacy.sh" "$PERMANODE_TEST_DSN" "$db"
"$root/tests/js/install.sh" >/dev/null

. "$root/tests/e2e/serve.sh"
trap stop_serve EXIT
start_serve "$serve" "$PERMANODE_TEST_DSN dbname=$db user=permanode_http_test" --threads 2
"$node" "$root/tests/js/http_legacy_client_test.js" "http://127.0.0.1:$port" \
  "$root/tests/e2e/http_legacy_ledger.json" "$legacy"
