#!/usr/bin/env bash
# inx-chronicle's measurements (permanode.milestone_measurements) end to end: a generated
# Chrysalis ledger then a generated Stardust one in one database, ingested by the CLI (Chrysalis
# one milestone at a time: ingest measures every milestone; Stardust on four connections, out of
# order: what ingest leaves, `permanode analytics --fill` measures), each sampled milestone
# recomputed from the ledger tables (analytics_recompute.sql); then rows deleted, filled in part
# and resumed (it skips what is measured), and the same values back; a fill stopped by a gap.
# Usage: analytics_test.sh PERMANODE_CLI      (PERMANODE_TEST_DSN: the test cluster)
set -euo pipefail
cli=$1
here=$(cd "$(dirname "$0")" && pwd)
: "${PERMANODE_TEST_DSN:?run the tests through tests/run}"
db=permanode_analytics_e2e
dsn="$PERMANODE_TEST_DSN dbname=$db"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
q() { psql "$dsn" -X -qAt -v ON_ERROR_STOP=1 -c "$1"; }

psql "$PERMANODE_TEST_DSN" -X -q -v ON_ERROR_STOP=1 \
  -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
q "CREATE EXTENSION permanode CASCADE; SELECT permanode.init('iota')" >/dev/null
"$cli" generate --protocol chrysalis --milestones 30 --start-index 1 --seed 3 -o "$work/c.ndjson"
"$cli" generate --milestones 60 --start-index 31 --seed 4 -o "$work/s.ndjson"
"$cli" ingest "$work/c.ndjson" --dsn "$dsn" --jobs 1 --no-progress >/dev/null

# One connection, in order: ingest measured every Chrysalis milestone.
[ "$(q "SELECT count(*) FROM permanode.milestone_measurements")" = 30 ] ||
  fail "ingest measured $(q "SELECT count(*) FROM permanode.milestone_measurements") of 30"
"$cli" ingest "$work/s.ndjson" --dsn "$dsn" --jobs 4 --no-progress >/dev/null
"$cli" analytics --fill 1 90 --dsn "$dsn" >"$work/fill.out"
[ "$(q "SELECT count(*) FROM permanode.milestone_measurements")" = 90 ] || fail "fill left milestones unmeasured"

sample='{1,2,5,13,29,30,31,32,33,47,58,71,89,90}'
recompute() {
  PGOPTIONS="-c analytics.sample=$sample" psql "$dsn" -X -qAt -v ON_ERROR_STOP=1 \
    -f "$here/analytics_recompute.sql"
}
recompute
q "CREATE TABLE kept AS SELECT * FROM permanode.milestone_measurements" >/dev/null

# Delete from 20 on; fill part of it in batches (as a run stopped there), then resume past it.
q "DELETE FROM permanode.milestone_measurements WHERE milestone_index >= 20" >/dev/null
"$cli" analytics --fill 20 50 --batch 10 --dsn "$dsn" >/dev/null
[ "$(q "SELECT count(*) FROM permanode.milestone_measurements")" = 50 ] || fail "partial fill"
"$cli" analytics --fill 1 90 --batch 25 --dsn "$dsn" >"$work/resume.out"
grep -q "^40 milestones measured" "$work/resume.out" || fail "resume: $(cat "$work/resume.out")"
[ "$(q "SELECT count(*) FROM permanode.milestone_measurements")" = 90 ] || fail "refill incomplete"
[ "$(q "SELECT count(*) FROM (SELECT * FROM kept EXCEPT SELECT * FROM permanode.milestone_measurements) d")" = 0 ] ||
  fail "refilled measurements differ"
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
echo "analytics: ok"
