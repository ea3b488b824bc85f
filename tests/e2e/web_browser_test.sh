#!/usr/bin/env bash
# The explorer's pages in a real browser: a fresh database of the test cluster gets the real
# Shimmer fixtures (tests/e2e/http_load_fixtures.sh) and a generated Stardust ledger in three
# pieces on three days (permanode generate, ingest) and a generated Chrysalis ledger (an address
# of that era only); the fixtures' range is archived (so the
# tiers chart shows hot and cold); the real legacy (ternary) transactions join them
# (http_load_legacy.sh --existing). permanode-serve serves it as the read-only login, a second
# one with --auth ucan (a token issued with @ucanto, tests/js/ucan/issue_token.js), and
# tests/js/web_browser_test.js drives Debian's chromium headless through puppeteer-core. The
# Chrysalis ledger and the fixtures' first milestones are measured (permanode analytics --fill)
# for the analytics page, whose charts the test holds against the tables.
# Screenshots go to $PERMANODE_WEB_ARTEFACTS (default: the build's Testing/web/).
# Usage: web_browser_test.sh PERMANODE_CLI PERMANODE_SERVE NODE CHROMIUM ARTEFACTS_DIR
#        (PERMANODE_TEST_DSN: the test cluster)
set -euo pipefail
cli=$1
serve=$2
node=$3
chromium=$4
artefacts=$5
root=$(cd "$(dirname "$0")/../.." && pwd)
: "${PERMANODE_TEST_DSN:?run the tests through tests/run}"
db=permanode_web
dsn="$PERMANODE_TEST_DSN dbname=$db"
"$root/tests/e2e/http_load_fixtures.sh" "$PERMANODE_TEST_DSN" "$db"
"$root/tests/e2e/http_load_legacy.sh" "$PERMANODE_TEST_DSN" "$db" --existing
"$root/tests/js/install.sh" >/dev/null
"$root/tests/js/install.sh" "$root/tests/js/ucan" >/dev/null
service_did=did:web:permanode.test

work=$(mktemp -d "${TMPDIR:-/tmp}/permanode-web.XXXXXX")
. "$root/tests/e2e/serve.sh"
cleanup() {
  stop_serve
  # the first server (open), when the second was started
  if [ -n "${open_server:-}" ]; then server=$open_server serve_log=$open_log stop_serve; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Three pieces of 40 milestones, a day apart (2023-03-01..03), between the fixtures' 17341 and
# 2418187; few genesis addresses, so that some address has pages of outputs.
day=86400
for piece in 0 1 2; do
  "$cli" generate --milestones 40 --start-index $((20000 + piece * 40)) \
    --start-timestamp $((1677628800 + piece * day)) --genesis-addresses 5 \
    --blocks-per-milestone 20-40 --tx-share 0.3 --seed $((7 + piece)) \
    -o "$work/piece$piece.ndjson" >/dev/null
  "$cli" ingest --dsn "$dsn" "$work/piece$piece.ndjson" >/dev/null
done
# A generated Chrysalis ledger before them (milestones 1000-1029): an address of that era only,
# whose receipts migrate the legacy value bundles held (their tail transactions, in order).
psql "$dsn" -X -At -c "SELECT b.transaction_hash FROM legacy.bundles b WHERE b.current_index = 0
  AND EXISTS (SELECT 1 FROM legacy.bundles i WHERE i.bundle_hash = b.bundle_hash AND i.value < 0)
  ORDER BY b.issued_at, b.transaction_hash" >"$work/tails"
"$cli" generate --protocol chrysalis --milestones 30 --start-index 1000 --seed 11 \
  --migration-tails "$work/tails" -o "$work/chrysalis.ndjson" >/dev/null
"$cli" ingest --dsn "$dsn" "$work/chrysalis.ndjson" >/dev/null
# inx-chronicle's measurements of the Chrysalis ledger and of the fixtures' first Stardust
# milestones (each its protocol's first held: measurable from nothing; the later Stardust ones
# follow a gap), for the analytics page.
"$cli" analytics --fill 1000 1029 --dsn "$dsn" >/dev/null
"$cli" analytics --fill 17339 17341 --dsn "$dsn" >/dev/null
# The fixtures' range 1 (milestones 17339-17341) goes cold.
"$cli" archive --from-range 1 --to-range 2 --dsn "$dsn" >/dev/null

# What the pages should lead to: the address with the most outputs, and a milestone of it.
busy=$(psql "$dsn" -X -At -c "SELECT address FROM permanode.basic_outputs
  WHERE milestone_index >= 20000 GROUP BY address ORDER BY count(*) DESC, address LIMIT 1")

# The legacy address with the largest balance and a transaction of it that moves value; the
# address with the most transactions (its page has pages).
read -r legacy_tx legacy_address < <(psql "$dsn" -X -At -F ' ' -c "
  WITH richest AS (SELECT address FROM legacy.transactions GROUP BY address
                   ORDER BY legacy.balance(address) DESC, address LIMIT 1)
  SELECT t.hash, t.address FROM legacy.transactions t JOIN richest USING (address)
  WHERE t.value <> 0 ORDER BY t.hash LIMIT 1")
# The Chrysalis address with migrated funds and the most outputs; a legacy address whose funds a
# receipt migrated (none when no receipt's tail transaction is held: the page says none).
chrysalis=$(psql "$dsn" -X -At -c "SELECT c.address FROM permanode.legacy_outputs c
  WHERE NOT c.is_used GROUP BY c.address
  ORDER BY bool_or(c.output_id IN (SELECT output_id FROM permanode.migrated_funds)) DESC,
           count(*) DESC, c.address LIMIT 1")
migrated_legacy=$(psql "$dsn" -X -At -c "SELECT e.address FROM permanode.migrated_funds mf
  JOIN legacy.bundles b ON b.transaction_hash = mf.tail_transaction_hash AND b.current_index = 0
  JOIN legacy.edges e ON e.bundle_hash = b.bundle_hash AND e.edge = 'address' AND e.value < 0
  ORDER BY e.address LIMIT 1")
legacy_busy=$(psql "$dsn" -X -At -c "SELECT address FROM legacy.transactions
  GROUP BY address ORDER BY count(*) DESC, address LIMIT 1")

# What the analytics page should chart: the measured milestones, oldest first, and the active
# addresses rolled up.
measured=$(psql "$dsn" -X -At -c "WITH m AS (SELECT * FROM permanode.milestone_measurements),
  newest AS (SELECT * FROM m ORDER BY milestone_index DESC LIMIT 1),
  a AS (SELECT * FROM permanode.active_addresses)
  SELECT json_build_object(
    'milestones', (SELECT json_agg(milestone_index ORDER BY milestone_index) FROM m),
    'blocks', (SELECT json_agg(blocks_no_payload + blocks_tagged_data + blocks_transaction
                               + blocks_milestone + blocks_treasury ORDER BY milestone_index) FROM m),
    'transferred', (SELECT json_agg(transferred_amount::text ORDER BY milestone_index) FROM m),
    'basic', (SELECT json_agg(basic_count ORDER BY milestone_index) FROM m),
    'keyBytes', (SELECT json_agg(key_bytes ORDER BY milestone_index) FROM m),
    'unclaimed', (SELECT json_agg(unclaimed_count ORDER BY milestone_index) FROM m),
    'withBalance', (SELECT addresses_with_balance FROM newest),
    'buckets', (SELECT to_json(balance_bucket_addresses) FROM newest),
    'daily', (SELECT json_agg(json_build_object('start', period_start::text, 'addresses', addresses)
                              ORDER BY period_start) FROM a WHERE period = 'day'),
    'latestDay', (SELECT json_build_object('start', period_start::text, 'addresses', addresses)
                  FROM a WHERE period = 'day' ORDER BY period_start DESC LIMIT 1),
    'weekly', (SELECT json_agg(addresses ORDER BY period_start) FROM a WHERE period = 'week'))")

mkdir -p "$artefacts"
start_serve "$serve" "$dsn user=permanode_http_test" --threads 2
open_server=$server open_port=$port open_log=$serve_log
start_serve "$serve" "$dsn user=permanode_http_test" --threads 2 \
  --auth ucan --service-did "$service_did"
token=$("$node" "$root/tests/js/ucan/issue_token.js" "$service_did" "$dsn")
PERMANODE_CHROMIUM="$chromium" "$node" "$root/tests/js/web_browser_test.js" \
  "http://127.0.0.1:$open_port" "$artefacts" "$busy" "$legacy_tx" "$legacy_address" "$legacy_busy" \
  "http://127.0.0.1:$port" "$token" "$chrysalis" "$migrated_legacy" "$measured"
