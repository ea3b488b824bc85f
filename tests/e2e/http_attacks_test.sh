#!/usr/bin/env bash
# Attacks on the HTTP API (#45 item 4): a fresh database of the test cluster holding all three
# eras (http_load_chrysalis.sh, then http_load_legacy.sh --existing) logs every statement
# (log_statement = all, set on the database before permanode-serve connects, so that its
# connections take it); permanode-serve serves it as the read-only login, at most 256 clients at
# once, and tests/e2e/http_attacks_test.py attacks it. The server must still run at the end.
# Usage: http_attacks_test.sh PERMANODE_SERVE
#        (PERMANODE_TEST_DSN: the test cluster; PERMANODE_TEST_SERVER_LOG: its log, as tests/run
#         sets them; PERMANODE_ATTACKS_LONG=1: every attack in every encoding)
set -euo pipefail
serve=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
: "${PERMANODE_TEST_DSN:?run the tests through tests/run}"
: "${PERMANODE_TEST_SERVER_LOG:?run the tests through tests/run}"
db=permanode_http_attacks
max_clients=256
"$root/tests/e2e/http_load_chrysalis.sh" "$PERMANODE_TEST_DSN" "$db"
"$root/tests/e2e/http_load_legacy.sh" "$PERMANODE_TEST_DSN" "$db" --existing
psql "$PERMANODE_TEST_DSN dbname=$db" -X -q -v ON_ERROR_STOP=1 \
  -c "ALTER DATABASE $db SET log_statement = 'all'"

. "$root/tests/e2e/serve.sh"
trap stop_serve EXIT
start_serve "$serve" "$PERMANODE_TEST_DSN dbname=$db user=permanode_http_test" --threads 2 \
  --max-clients "$max_clients"
/usr/bin/python3 "$root/tests/e2e/http_attacks_test.py" "http://127.0.0.1:$port" \
  "$PERMANODE_TEST_DSN dbname=$db" permanode_http_test "$max_clients" "$PERMANODE_TEST_SERVER_LOG"
kill -0 "$server" || { echo "permanode-serve is gone"; cat "$serve_log"; exit 1; }
