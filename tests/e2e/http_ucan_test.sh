#!/usr/bin/env bash
# UCAN-authorised access (#27) against the real server: loads the fixtures into a fresh database
# of the test cluster, starts permanode-serve --auth ucan as the read-only login (and a second
# one as another service, to replay tokens to), and runs tests/js/ucan/ucan_auth_test.js, which
# issues UCANs with @ucanto and fills the access stores.
# Usage: http_ucan_test.sh PERMANODE_SERVE NODE      (PERMANODE_TEST_DSN: the test cluster)
set -euo pipefail
serve=$1
node=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
: "${PERMANODE_TEST_DSN:?run the tests through tests/run}"
db=permanode_http_ucan
service_did=did:web:permanode.test
other_did=did:web:other.permanode.test
"$root/tests/e2e/http_load_fixtures.sh" "$PERMANODE_TEST_DSN" "$db"
"$root/tests/js/install.sh" "$root/tests/js/ucan" >/dev/null

. "$root/tests/e2e/serve.sh"
cleanup() {
  stop_serve
  if [ -n "${other_server:-}" ]; then server=$other_server serve_log=$other_log stop_serve; fi
}
trap cleanup EXIT
start_serve "$serve" "$PERMANODE_TEST_DSN dbname=$db user=permanode_http_test" --threads 1 \
  --auth ucan --service-did "$other_did"
other_server=$server other_port=$port other_log=$serve_log
start_serve "$serve" "$PERMANODE_TEST_DSN dbname=$db user=permanode_http_test" --threads 2 \
  --auth ucan --service-did "$service_did"
"$node" "$root/tests/js/ucan/ucan_auth_test.js" "http://127.0.0.1:$port" "$service_did" \
  "$PERMANODE_TEST_DSN dbname=$db" "http://127.0.0.1:$other_port" "$other_did"
