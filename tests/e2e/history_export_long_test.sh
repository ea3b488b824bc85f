#!/usr/bin/env bash
# A long test (ctest label long, outside CI: `tests/run --long`): the export of a busy address's
# whole history, at least 100,000 outputs of both eras, over HTTP in JSON lines and CSV and by
# `permanode export`, equals permanode.address_history read whole in SQL, item by item; and the
# server's resident memory stays flat while it streams (sampled every 20 ms while a client reads
# the export slowly; an export held whole would add its size, tens of MB).
# The ledger: a generated Chrysalis ledger and a Stardust one that continues it (its genesis
# carries the Chrysalis outputs left unspent, its addresses are the Chrysalis ones), few addresses
# and many outputs per transaction, so that one address is busy in both eras; the older ranges
# archived, so that the export reads both tiers.
# Usage: history_export_long_test.sh PERMANODE_CLI PERMANODE_SERVE
#        (PERMANODE_TEST_DSN: the test cluster; PERMANODE_LONG_MILESTONES: per era, default 1700)
set -euo pipefail
cli=$1
serve=$2
here=$(cd "$(dirname "$0")" && pwd)
: "${PERMANODE_TEST_DSN:?run the tests through tests/run --long}"
milestones=${PERMANODE_LONG_MILESTONES:-1700}
db=permanode_history_export_long
dsn="$PERMANODE_TEST_DSN dbname=$db"
work=$(mktemp -d)
. "$here/serve.sh"
trap 'stop_serve; rm -rf "$work"' EXIT
sql() { psql "$dsn" -X -qAt -v ON_ERROR_STOP=1 -c "$1"; }

psql "$PERMANODE_TEST_DSN" -X -q -v ON_ERROR_STOP=1 \
  -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
sql "SET client_min_messages = warning; CREATE EXTENSION permanode CASCADE;
  SELECT count(*) FROM (SELECT permanode.set_chunk_size(table_name, 200)
                        FROM permanode.ledger_tables) s;
  DO \$\$ BEGIN CREATE ROLE permanode_http_test LOGIN; EXCEPTION WHEN duplicate_object THEN END \$\$;
  GRANT permanode_reader TO permanode_http_test" >/dev/null
"$cli" generate --protocol chrysalis --milestones "$milestones" --start-index 1000 --seed 3 \
  --genesis-addresses 8 --blocks-per-milestone 100-150 --tx-share 0.6 \
  --outputs-per-transaction 4-8 --end-model "$work/end" -o "$work/chrysalis.ndjson" 2>/dev/null
"$cli" generate --milestones "$milestones" --start-index 100000 --seed 4 --carry "$work/end" \
  --chrysalis-addresses-seed 3 --genesis-addresses 8 --blocks-per-milestone 100-150 \
  --tx-share 0.6 --outputs-per-transaction 4-8 -o "$work/stardust.ndjson" 2>/dev/null
"$cli" ingest --dsn "$dsn" --no-measure --no-progress "$work/chrysalis.ndjson" >/dev/null
"$cli" ingest --dsn "$dsn" --no-measure --no-progress "$work/stardust.ndjson" >/dev/null
newest=$(sql "SELECT max(ms_range_id) FROM permanode.sync")
"$cli" archive --from-range 0 --to-range $((newest - 2)) --dsn "$dsn" >/dev/null

address=$(sql "SELECT address FROM (SELECT address FROM permanode.legacy_outputs WHERE NOT is_used
  UNION ALL SELECT address FROM permanode.basic_outputs) a GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
sql "SELECT json_build_object('era', h.era, 'outputId', h.output_id::text,
    'kind', h.output_kind, 'milestoneIndex', h.milestone_index,
    'milestoneTimestamp', extract(epoch FROM h.ms_timestamp)::bigint,
    'amount', h.amount::text, 'blockId', h.message_id::text,
    'spent', h.spent_milestone_index, 'carried', h.carried_to_stardust_at)
  FROM permanode.address_history('$address', 100000000) h" >"$work/sql.jsonl"
entries=$(wc -l <"$work/sql.jsonl")
[ "$entries" -ge 100000 ] || { echo "FAIL: the busiest address has $entries outputs, not 100,000"; exit 1; }

start_serve "$serve" "$dsn user=permanode_http_test"
url="http://127.0.0.1:$port/api/explorer/v2/history/$address"
rss() { awk '/^VmRSS/ {print $2}' "/proc/$server/status"; }
curl -sS -f "$url?pageSize=1000" -o /dev/null # the server's pools and caches in use
before=$(rss)
# A slow client: the export takes seconds, sampled all along.
curl -sS -f --limit-rate 4M "$url?format=jsonl" -o "$work/http.jsonl" &
reader=$!
peak=$before
samples=0
while kill -0 "$reader" 2>/dev/null; do
  now=$(rss)
  [ "$now" -gt "$peak" ] && peak=$now
  samples=$((samples + 1))
  sleep 0.02
done
wait "$reader"
size_kb=$(($(stat -c %s "$work/http.jsonl") / 1024))
echo "export of $entries outputs, $size_kb kB: server RSS $before kB before, $peak kB at most ($samples samples)"
[ "$samples" -ge 20 ] || { echo "FAIL: the export ended before it could be watched ($samples samples)"; exit 1; }
# Flat: the growth is a fraction of the export (one page of 1,000 rows in flight at a time).
[ $((peak - before)) -le $((size_kb / 8)) ] ||
  { echo "FAIL: the server grew by $((peak - before)) kB over an export of $size_kb kB"; exit 1; }
curl -sS -f "$url?format=csv" -o "$work/http.csv"
"$cli" export --dsn "$dsn" --address "$address" --format jsonl -o "$work/cli.jsonl" 2>/dev/null
cmp "$work/http.jsonl" "$work/cli.jsonl"

python3 - "$work" <<'PY'
import csv, json, sys
work = sys.argv[1]
sql = [json.loads(line) for line in open(f"{work}/sql.jsonl")]
lines = [json.loads(line) for line in open(f"{work}/http.jsonl")]
assert len(lines) == len(sql), (len(lines), len(sql))
assert {row["era"] for row in sql} == {"chrysalis", "stardust"}
for item, row in zip(lines, sql):
    spent = item["spent"]["milestoneIndex"] if item["spent"] else None
    assert (item["era"], item["outputId"], item["kind"], item["milestoneIndex"],
            item["milestoneTimestamp"], item["amount"], item["blockId"], spent,
            item.get("carriedToStardustAt")) == (
            row["era"], row["outputId"], row["kind"], row["milestoneIndex"],
            row["milestoneTimestamp"], row["amount"], row["blockId"], row["spent"],
            row["carried"]), (item, row)
with open(f"{work}/http.csv", newline="") as f:
    rows = list(csv.DictReader(f))
assert len(rows) == len(sql)
for r, row in zip(rows, sql):
    assert (r["era"], r["output_id"], int(r["milestone_index"]), r["amount"]) == (
        row["era"], row["outputId"], row["milestoneIndex"], row["amount"]), (r, row)
print(f"{len(sql)} outputs: JSON lines, CSV and permanode export equal SQL")
PY
