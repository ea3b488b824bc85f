#!/usr/bin/env bash
# @iota/iota.js 1.8.6 against the real server's REST API v1: a fresh database of the test cluster
# (network iota) gets the real Chrysalis messages as the two testnet7 milestones they form and a
# generated Chrysalis ledger (permanode generate --protocol chrysalis) before them, through
# permanode ingest; permanode-serve serves it on a free loopback port as the read-only login, and
# tests/js/http_chrysalis_client_test.js checks every route SingleNodeClient calls against what the
# bundles say.
# Usage: http_iotajs_chrysalis_test.sh PERMANODE_CLI PERMANODE_SERVE NODE
#        (PERMANODE_TEST_DSN: the test cluster; PERMANODE_FIXTURES: the Shimmer fixtures, whose
#        sibling chrysalis/ holds the Chrysalis ones)
set -euo pipefail
cli=$1
serve=$2
node=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
: "${PERMANODE_TEST_DSN:?run the tests through tests/run}"
fixtures=${PERMANODE_FIXTURES:-$root/../shared/fixtures/shimmer}
chrysalis=${PERMANODE_CHRYSALIS_FIXTURES:-$(dirname "$fixtures")/chrysalis}
db=permanode_http_js_chrysalis
dsn="$PERMANODE_TEST_DSN dbname=$db"
"$root/tests/js/install.sh" >/dev/null

work=$(mktemp -d "${TMPDIR:-/tmp}/permanode-iotajs-chrysalis.XXXXXX")
. "$root/tests/e2e/serve.sh"
cleanup() {
  stop_serve
  rm -rf "$work"
}
trap cleanup EXIT

psql "$PERMANODE_TEST_DSN" -X -q -v ON_ERROR_STOP=1 \
  -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
"$cli" init --dsn "$dsn" --network iota >/dev/null
psql "$dsn" -X -q -v ON_ERROR_STOP=1 \
  -c "DO \$\$BEGIN CREATE ROLE permanode_http_test LOGIN IN ROLE permanode_reader;
      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END\$\$" >/dev/null

# A generated ledger of 30 milestones (1000-1029, with receipts) below the fixtures' 16241-16242.
bundles=()
"$cli" generate --protocol chrysalis --milestones 30 --start-index 1000 \
  --start-timestamp 1617000000 --seed 11 \
  -o "$work/generated.ndjson" >/dev/null
bundles+=("$work/generated.ndjson")
"$node" "$root/tests/js/http_chrysalis_client_test.js" --fixture-bundle "$chrysalis" \
  "$work/fixtures.ndjson"
bundles+=("$work/fixtures.ndjson")
for bundle in "${bundles[@]}"; do
  "$cli" ingest --no-measure --dsn "$dsn" "$bundle" >/dev/null
done

start_serve "$serve" "$dsn user=permanode_http_test" --threads 2
"$node" "$root/tests/js/http_chrysalis_client_test.js" "http://127.0.0.1:$port" "${bundles[@]}"
