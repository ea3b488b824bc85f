#!/usr/bin/env bash
# inx-chronicle's measurements (permanode.milestone_measurements) end to end: a generated
# Chrysalis ledger then a generated Stardust one in one database, ingested by the CLI on four
# connections, out of order (the Chrysalis ingest measures its milestones after its commits; the
# Stardust one, --no-measure, leaves them to `permanode analytics --fill`), each sampled milestone
# recomputed from the ledger tables (analytics_recompute.sql); then rows deleted, filled in part
# and resumed (it skips what is measured), and the same values back; a fill interrupted (SIGINT)
# after its batch in flight; a fill stopped by a gap.
# The routes, as the read-only login: the stored rows as JSON, and bad names and ranges refused.
# Usage: analytics_test.sh PERMANODE_CLI PERMANODE_SERVE      (PERMANODE_TEST_DSN: the test cluster)
set -euo pipefail
cli=$1
serve=$2
here=$(cd "$(dirname "$0")" && pwd)
: "${PERMANODE_TEST_DSN:?run the tests through tests/run}"
db=permanode_analytics_e2e
dsn="$PERMANODE_TEST_DSN dbname=$db"
work=$(mktemp -d)
. "$here/serve.sh"
trap 'stop_serve; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
q() { psql "$dsn" -X -qAt -v ON_ERROR_STOP=1 -c "$1"; }

psql "$PERMANODE_TEST_DSN" -X -q -v ON_ERROR_STOP=1 \
  -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
q "CREATE EXTENSION permanode CASCADE; SELECT permanode.init('iota')" >/dev/null
"$cli" generate --protocol chrysalis --milestones 30 --start-index 1 --seed 3 -o "$work/c.ndjson"
"$cli" generate --milestones 60 --start-index 31 --seed 4 --node-fields -o "$work/s.ndjson"
# Ingest measures what it loaded, once its connections have committed (out of order).
"$cli" ingest "$work/c.ndjson" --dsn "$dsn" --jobs 4 --no-progress >"$work/ingest.out"
[ "$(q "SELECT count(*) FROM permanode.milestone_measurements")" = 30 ] ||
  fail "ingest measured $(q "SELECT count(*) FROM permanode.milestone_measurements") of 30 milestones"
grep -q "^analytics: measured 30 milestones" "$work/ingest.out" || fail "ingest: $(cat "$work/ingest.out")"
# --no-measure leaves them to the fill.
"$cli" ingest "$work/s.ndjson" --dsn "$dsn" --jobs 4 --no-progress --no-measure >/dev/null
[ "$(q "SELECT count(*) FROM permanode.milestone_measurements")" = 30 ] || fail "ingest --no-measure measured"
"$cli" analytics --fill 1 90 --dsn "$dsn" >"$work/fill.out"
[ "$(q "SELECT count(*) FROM permanode.milestone_measurements")" = 90 ] || fail "fill left milestones unmeasured"
# The Stardust bundles' node field: the parameters in force from their first milestone on (the
# generator writes them once); what does not decode is refused.
[ "$(q "SELECT string_agg(milestone_index || ':' || (permanode.decode_protocol_parameters(params)
        ->'rentStructure'->>'vByteCost'), ',') FROM permanode.protocol_parameters")" = 31:100 ] ||
  fail "protocol parameters recorded: $(q "SELECT milestone_index FROM permanode.protocol_parameters")"
q "SELECT permanode.record_protocol_parameters(40, 2::smallint, '\\x0102')" 2>"$work/err" &&
  fail "record_protocol_parameters took bytes that are no parameters"
grep -q "could not decode protocol parameters" "$work/err" || fail "bad parameters: $(cat "$work/err")"

sample='{1,2,5,13,29,30,31,32,33,47,58,71,89,90}'
recompute() {
  PGOPTIONS="-c analytics.sample=$sample" psql "$dsn" -X -qAt -v ON_ERROR_STOP=1 \
    -f "$here/analytics_recompute.sql"
}
recompute
q "CREATE TABLE kept AS SELECT * FROM permanode.milestone_measurements" >/dev/null

# Delete from 20 on; fill part of it in batches (as a run stopped there), then resume past it.
# (The balances kept for the address buckets are at 90: measuring 20 rebuilds them as of 19.)
q "DELETE FROM permanode.milestone_measurements WHERE milestone_index >= 20" >/dev/null
"$cli" analytics --fill 20 50 --batch 10 --dsn "$dsn" >/dev/null
[ "$(q "SELECT count(*) FROM permanode.milestone_measurements")" = 50 ] || fail "partial fill"
"$cli" analytics --fill 1 90 --batch 25 --dsn "$dsn" >"$work/resume.out"
grep -q "^40 milestones measured" "$work/resume.out" || fail "resume: $(cat "$work/resume.out")"
[ "$(q "SELECT count(*) FROM permanode.milestone_measurements")" = 90 ] || fail "refill incomplete"
[ "$(q "SELECT count(*) FROM (SELECT * FROM kept EXCEPT SELECT * FROM permanode.milestone_measurements) d")" = 0 ] ||
  fail "refilled measurements differ"
# Ctrl-C: the batch in flight (held back by a session that holds the measuring lock) commits, and
# the fill stops there with 130; a new one resumes after it.
q "DELETE FROM permanode.milestone_measurements WHERE milestone_index >= 70" >/dev/null
psql "$dsn" -X -qAt -c "SELECT pg_advisory_lock(hashtext('permanode.milestone_measurements'))" \
  -c "SELECT pg_sleep(3)" >/dev/null &
locker=$!
sleep 0.5
"$cli" analytics --fill 70 90 --batch 1 --dsn "$dsn" >"$work/interrupted.out" 2>&1 &
filler=$!
sleep 1
kill -INT $filler
wait $locker
set +e
wait $filler
rc=$?
set -e
[ $rc = 130 ] || fail "an interrupted fill exits 130, not $rc: $(cat "$work/interrupted.out")"
[ "$(q "SELECT count(*) FROM permanode.milestone_measurements")" = 70 ] ||
  fail "an interrupted fill kept $(q "SELECT count(*) FROM permanode.milestone_measurements") rows, not 70"
"$cli" analytics --fill 70 90 --dsn "$dsn" >"$work/resume2.out"
grep -q "^20 milestones measured" "$work/resume2.out" || fail "resume after Ctrl-C: $(cat "$work/resume2.out")"
q "DELETE FROM permanode.milestone_measurements WHERE milestone_index >= 40" >/dev/null
set +e
"$cli" analytics --fill 60 90 --dsn "$dsn" >"$work/blocked.out" 2>&1
rc=$?
set -e
[ $rc = 1 ] || fail "a fill after a gap exits 1, not $rc: $(cat "$work/blocked.out")"
grep -q "milestone 60: milestone 59 before it" "$work/blocked.out" || fail "blocked fill: $(cat "$work/blocked.out")"
"$cli" analytics --fill 40 90 --dsn "$dsn" >/dev/null
[ "$(q "SELECT count(*) FROM (SELECT * FROM kept EXCEPT SELECT * FROM permanode.milestone_measurements) d")" = 0 ] ||
  fail "resumed measurements differ"

# A run killed between its commits and its measuring (--no-measure stands in for it: 91-100) leaves
# them unmeasured; the next run (101-110) measures them first, then its own, without a hand.
"$cli" generate --milestones 80 --start-index 31 --seed 4 --node-fields -o "$work/s80.ndjson"
sed -n 61,70p "$work/s80.ndjson" | "$cli" ingest - --dsn "$dsn" --no-progress --no-measure >/dev/null
sed -n 71,80p "$work/s80.ndjson" | "$cli" ingest - --dsn "$dsn" --no-progress >"$work/after_kill.out"
[ "$(q "SELECT count(*) FROM permanode.milestone_measurements")" = 110 ] ||
  fail "after a run that did not measure: $(cat "$work/after_kill.out")"

# Active addresses per day, week and month: each the distinct owners of that period's outputs.
[ "$(q "SELECT count(*) FROM permanode.active_addresses WHERE period = 'day'")" -ge 1 ] || fail "no daily rows"
[ "$(q "SELECT count(*) FROM permanode.active_addresses a WHERE a.addresses <> (
        SELECT count(DISTINCT owner) FROM (
          SELECT o.address AS owner FROM permanode.basic_outputs o
          WHERE (o.ms_timestamp AT TIME ZONE 'UTC')::date >= a.period_start
            AND (o.ms_timestamp AT TIME ZONE 'UTC')::date < a.period_start + ('1 ' || a.period)::interval
          UNION ALL
          SELECT o.address FROM permanode.legacy_outputs o
          WHERE (o.ms_timestamp AT TIME ZONE 'UTC')::date >= a.period_start
            AND (o.ms_timestamp AT TIME ZONE 'UTC')::date < a.period_start + ('1 ' || a.period)::interval
          UNION ALL
          SELECT x.owner FROM permanode.outputs_consumed(0, 1000) x
          JOIN permanode.milestone_measurements mm ON mm.milestone_index = x.spent_milestone_index
          WHERE (mm.ms_timestamp AT TIME ZONE 'UTC')::date >= a.period_start
            AND (mm.ms_timestamp AT TIME ZONE 'UTC')::date < a.period_start + ('1 ' || a.period)::interval
          UNION ALL
          SELECT o.state_controller FROM permanode.alias_outputs o
          WHERE (o.ms_timestamp AT TIME ZONE 'UTC')::date >= a.period_start
            AND (o.ms_timestamp AT TIME ZONE 'UTC')::date < a.period_start + ('1 ' || a.period)::interval
          UNION ALL
          SELECT o.address FROM permanode.foundry_outputs o
          WHERE (o.ms_timestamp AT TIME ZONE 'UTC')::date >= a.period_start
            AND (o.ms_timestamp AT TIME ZONE 'UTC')::date < a.period_start + ('1 ' || a.period)::interval
          UNION ALL
          SELECT o.address FROM permanode.nft_outputs o
          WHERE (o.ms_timestamp AT TIME ZONE 'UTC')::date >= a.period_start
            AND (o.ms_timestamp AT TIME ZONE 'UTC')::date < a.period_start + ('1 ' || a.period)::interval) x)")" = 0 ] ||
  fail "active addresses differ"

q "DO \$\$BEGIN CREATE ROLE permanode_http_test LOGIN IN ROLE permanode_reader;
   EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END\$\$"
start_serve "$serve" "$dsn user=permanode_http_test" --threads 1
get() { curl -s -o "$work/body" -w '%{http_code}' "http://127.0.0.1:$port/api/analytics/v2/$1"; }
[ "$(get 'measurements/ledger-outputs?from=29&to=32')" = 200 ] || fail "ledger-outputs: $(cat "$work/body")"
[ "$(jq -c '[.items[] | [.milestoneIndex, .basic.count, .dustAllowance.count, .nft.count]]' "$work/body")" = \
  "$(q "SELECT json_agg(json_build_array(milestone_index, basic_count, dust_allowance_count, nft_count)
        ORDER BY milestone_index) FROM permanode.milestone_measurements WHERE milestone_index BETWEEN 29 AND 32" | jq -c .)" ] ||
  fail "ledger-outputs answer: $(cat "$work/body")"
[ "$(get 'measurements/address-balance?from=50&pageSize=2')" = 200 ] || fail "address-balance"
[ "$(jq -c '[.next, .items[0].addressesWithBalance, ([.items[0].distribution[].addresses] | add)]' "$work/body")" = \
  "$(q "SELECT json_build_array(52, addresses_with_balance, (SELECT sum(x) FROM unnest(balance_bucket_addresses) x))
        FROM permanode.milestone_measurements WHERE milestone_index = 50" | jq -c .)" ] ||
  fail "address-balance answer: $(cat "$work/body")"
# The parameters in force, and the ledger's storage deposit they weigh (TIP-19: the rent
# structure's byte cost times the key and data bytes weighted); none before they are known.
[ "$(get 'measurements/protocol-parameters?from=30&to=31')" = 200 ] || fail "protocol-parameters"
[ "$(jq -c '[.items[] | [.milestoneIndex, .parameters.rentStructure.vByteCost]]' "$work/body")" = \
  '[[30,null],[31,100]]' ] || fail "protocol-parameters answer: $(cat "$work/body")"
[ "$(jq -r '.items[1].parameters.networkName' "$work/body")" = \
  "$(q "SELECT permanode.decode_protocol_parameters(params)->>'networkName' FROM permanode.protocol_parameters")" ] ||
  fail "protocol-parameters network: $(cat "$work/body")"
[ "$(get 'measurements/ledger-size?from=30&to=31')" = 200 ] || fail "ledger-size"
[ "$(jq -c '[.items[] | .totalStorageDepositAmount]' "$work/body")" = \
  "$(q "SELECT json_build_array(NULL, ((m.key_bytes * (r->>'vByteFactorKey')::int
          + m.data_bytes * (r->>'vByteFactorData')::int) * (r->>'vByteCost')::int)::text)
        FROM permanode.milestone_measurements m,
             (SELECT permanode.decode_protocol_parameters(params)->'rentStructure' AS r
              FROM permanode.protocol_parameters) p WHERE m.milestone_index = 31" | jq -c .)" ] ||
  fail "ledger-size storage deposit: $(cat "$work/body")"
# The newest of a range (an explorer chart's window): oldest first, nothing newer to page to.
[ "$(get 'measurements/ledger-size?to=50&last=3')" = 200 ] || fail "ledger-size last: $(cat "$work/body")"
[ "$(jq -c '[.next, [.items[] | .milestoneIndex]]' "$work/body")" = '[null,[48,49,50]]' ] ||
  fail "ledger-size last answer: $(cat "$work/body")"
[ "$(get 'active-addresses/monthly')" = 200 ] || fail "active-addresses"
[ "$(jq -c '[.items[] | .addresses]' "$work/body")" = \
  "$(q "SELECT json_agg(addresses ORDER BY period_start) FROM permanode.active_addresses WHERE period = 'month'" | jq -c .)" ] ||
  fail "active-addresses answer: $(cat "$work/body")"
[ "$(get 'measurements/bogus')" = 400 ] || fail "an unknown measurement is not refused"
[ "$(get 'measurements/ledger-size?from=5&to=3')" = 400 ] || fail "a reversed range is not refused"
[ "$(get 'active-addresses/yearly')" = 400 ] || fail "an unknown period is not refused"
curl -s "http://127.0.0.1:$port/api/openapi.json" >"$work/openapi.json"
[ "$(jq -c '[.paths["/api/analytics/v2/measurements/{name}"].get.parameters[].name,
             .paths["/api/analytics/v2/active-addresses/{period}"].get.parameters[].name]' \
      "$work/openapi.json")" = '["name","from","to","pageSize","last","period","from","to"]' ] ||
  fail "the OpenAPI document lacks the routes or their parameters"
echo "analytics: ok"
