#!/usr/bin/env bash
# An address's history across eras (#44 item 6). The ledger: the real legacy transactions, a
# generated Chrysalis ledger whose receipts migrate their bundles, and a generated Stardust
# ledger that continues it, with few addresses so that one is busy in both eras. The busiest
# address's history is read:
#   - a page of 100, first and the 50th by cursor (the cursor of the 49th page), by
#     permanode.address_history, against the same rows through one unpartitioned index: the
#     address's outputs of both eras in one table with one index in the history's order, each
#     page found where it was spent (and carried, and migrated from) by the same lookups as
#     address_history's. That is the held target: what partitions, eras and the cold tier cost.
#     Reported beside it, the same page read from the answer itself precomputed (spent-in and all
#     stored with each row): no store can keep that current without rewriting an output's row
#     when it is spent, which an archived range cannot be; pgbench, -M prepared, 1 client; hot,
#     then with both eras' ranges archived (cold);
#   - the whole history exported over HTTP (GET .../history/{address}?format=jsonl, curl)
#     against COPY (SELECT * FROM permanode.address_history(...)) TO STDOUT of the same rows, in
#     rows per second; and the server's peak resident memory over the export against before it
#     (VmHWM: an export held whole would add its size).
# Prints bench rows: metric <TAB> this <TAB> baseline <TAB> ratio <TAB> target.
# Environment: PERMANODE_BENCH_DSN (bench/run sets it), PERMANODE_BENCH_SECONDS (default 10 per
# pgbench run), PERMANODE_HISTORY_MILESTONES (default 400 per era).
set -euo pipefail
root=@PROJECT_SOURCE_DIR@
serve=@PERMANODE_SERVE@
cli=@PERMANODE_CLI@
pgbench=@PG_BINDIR@/pgbench
seconds=${PERMANODE_BENCH_SECONDS:-10}
milestones=${PERMANODE_HISTORY_MILESTONES:-400}
: "${PERMANODE_BENCH_DSN:?run through bench/run}"

db=permanode_history_bench
"$root/tests/e2e/http_load_legacy.sh" "$PERMANODE_BENCH_DSN" "$db" >&2
dsn="$PERMANODE_BENCH_DSN dbname=$db"
sql() { PGOPTIONS="-c search_path=permanode,public" psql "$dsn" -X -At -c "$1"; }
work=$(mktemp -d)
. "$root/tests/e2e/serve.sh"
trap 'stop_serve; rm -rf "$work"' EXIT

# Chrysalis from milestone 1000 (ranges of 100), Stardust from 100000: few addresses, many
# transactions with many outputs.
sql "SELECT count(*) FROM (SELECT set_chunk_size(table_name, 100) FROM ledger_tables) s" >/dev/null
sql "SELECT b.transaction_hash FROM legacy.bundles b WHERE b.current_index = 0
  AND EXISTS (SELECT 1 FROM legacy.bundles i WHERE i.bundle_hash = b.bundle_hash AND i.value < 0)
  ORDER BY b.issued_at, b.transaction_hash" >"$work/tails"
"$cli" generate --protocol chrysalis --milestones "$milestones" --start-index 1000 --seed 3 \
  --genesis-addresses 20 --blocks-per-milestone 100-150 --tx-share 0.6 \
  --outputs-per-transaction 4-8 --migration-tails "$work/tails" --end-model "$work/end" \
  -o "$work/chrysalis.ndjson" 2>/dev/null
"$cli" generate --milestones "$milestones" --start-index 100000 --seed 4 --carry "$work/end" \
  --chrysalis-addresses-seed 3 --genesis-addresses 20 --blocks-per-milestone 100-150 \
  --tx-share 0.6 --outputs-per-transaction 4-8 -o "$work/stardust.ndjson" 2>/dev/null
"$cli" ingest --dsn "$dsn" "$work/chrysalis.ndjson" >/dev/null
"$cli" ingest --dsn "$dsn" "$work/stardust.ndjson" >/dev/null

address=$(sql "SELECT address FROM (SELECT address FROM legacy_outputs UNION ALL
  SELECT address FROM basic_outputs) a GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
entries=$(sql "SELECT count(*) FROM address_history('$address', 100000000)")
# The floor: the same rows, precomputed, in one table with one index in the history's order.
sql "DROP TABLE IF EXISTS public.history_floor;
  CREATE TABLE public.history_floor AS SELECT '$address'::address AS address, h.*
  FROM address_history('$address', 100000000) h;
  CREATE INDEX ON public.history_floor
    (address, ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC);
  ANALYZE public.history_floor" >/dev/null
# The fair baseline: the address's outputs of both eras in one table, one index, each row's
# details looked up by address_history's own permanode.history_item.
sql "DROP TABLE IF EXISTS public.history_outputs;
  CREATE TABLE public.history_outputs AS
  SELECT c.address, 'chrysalis'::text AS era, c.output_id, 'legacy'::text AS retired_kind,
         CASE c.output_type WHEN 0 THEN 'sig_locked_single' ELSE 'sig_locked_dust_allowance' END
           AS output_kind, c.milestone_index, c.ms_timestamp, c.ms_range_id, c.amount, c.message_id
  FROM legacy_outputs c WHERE c.address = '$address' AND NOT c.is_used
  UNION ALL
  SELECT c.address, 'stardust', c.output_id, 'basic', 'basic', c.milestone_index, c.ms_timestamp,
         c.ms_range_id, c.amount, c.message_id FROM basic_outputs c WHERE c.address = '$address'
  UNION ALL
  SELECT c.address, 'stardust', c.output_id, 'nft', 'nft', c.milestone_index, c.ms_timestamp,
         c.ms_range_id, c.amount, c.message_id FROM nft_outputs c WHERE c.address = '$address';
  CREATE INDEX ON public.history_outputs
    (address, ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC);
  ANALYZE public.history_outputs" >/dev/null
sql "CREATE OR REPLACE FUNCTION public.history_one_index(k address, n int, r int, t timestamptz,
    m int, o output_id)
  RETURNS TABLE (era text, output_id output_id, output_kind text, milestone_index int,
                 ms_timestamp timestamptz, ms_range_id int, amount bigint, message_id block_id,
                 spent_milestone_index int, carried_to_stardust_at int, migrated_tail trytes81,
                 migrated_bundle trytes81, migrated_from trytes81[])
  LANGUAGE plpgsql STABLE
  SET plan_cache_mode = force_generic_plan SET search_path = permanode, pg_catalog AS \$f\$
  #variable_conflict use_column
  BEGIN
    RETURN QUERY
    WITH page AS (
        SELECT * FROM public.history_outputs c
        WHERE c.address = k AND (r IS NULL OR (c.ms_range_id, c.ms_timestamp, c.milestone_index,
                                              c.output_id) < (r, t, m, o))
        ORDER BY c.ms_range_id DESC, c.ms_timestamp DESC, c.milestone_index DESC,
                 c.output_id DESC LIMIT n)
    SELECT p.era, p.output_id, p.output_kind, p.milestone_index, p.ms_timestamp, p.ms_range_id,
           p.amount, p.message_id, d.*
    FROM page p
    CROSS JOIN LATERAL history_item(p.era, p.retired_kind, p.output_id, p.milestone_index) d
    ORDER BY p.ms_range_id DESC, p.ms_timestamp DESC, p.milestone_index DESC, p.output_id DESC;
  END \$f\$" >/dev/null
[ "$(sql "SELECT count(*) FROM (SELECT * FROM address_history('$address', 100000000) EXCEPT ALL
  SELECT * FROM public.history_one_index('$address', 100000000, NULL, NULL, NULL, NULL)) d")" = 0 ] ||
  { echo "history_bench: the one-index baseline's rows differ" >&2; exit 1; }
# The 49th page's last row: where the 50th starts.
cursor=$(sql "SELECT ms_range_id || '|' || ms_timestamp || '|' || milestone_index || '|' ||
  output_id FROM address_history('$address', 4900) ORDER BY ms_range_id, ms_timestamp,
  milestone_index, output_id LIMIT 1")
IFS='|' read -r r t m o <<<"$cursor"
cat >"$work/first.sql" <<SQL
SELECT * FROM permanode.address_history('$address', 100);
SQL
cat >"$work/first_floor.sql" <<SQL
SELECT * FROM public.history_floor WHERE address = '$address' ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 100;
SQL
cat >"$work/first_one_index.sql" <<SQL
SELECT * FROM public.history_one_index('$address', 100, NULL, NULL, NULL, NULL);
SQL
cat >"$work/fiftieth_one_index.sql" <<SQL
SELECT * FROM public.history_one_index('$address', 100, $r, '$t', $m, '$o');
SQL
cat >"$work/fiftieth.sql" <<SQL
SELECT * FROM permanode.address_history('$address', 100, $r, '$t', $m, '$o');
SQL
cat >"$work/fiftieth_floor.sql" <<SQL
SELECT * FROM public.history_floor WHERE address = '$address' AND (ms_range_id, ms_timestamp, milestone_index, output_id) < ($r, '$t', $m, '$o') ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 100;
SQL

tps() { # SQL-FILE: transactions per second, one client, prepared
  PGOPTIONS="-c search_path=public,permanode" "$pgbench" -n -f "$work/$1" -T "$seconds" -c 1 \
    -M prepared "$dsn" 2>&1 | sed -nE 's/^tps = ([0-9.]+).*/\1/p' | head -1
}
row() { printf '%s\t%s\t%s\t%s\t%s\n' "$@"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
pages() { # TIER
  for page in first fiftieth; do
    this=$(tps $page.sql)
    one=$(tps ${page}_one_index.sql)
    floor=$(tps ${page}_floor.sql)
    row "history $page page of 100 per s, $1 ($entries outputs, both eras; vs one index)" \
      "$this" "$one" "$(ratio "$this" "$one")" ">= 0.5"
    row "history $page page of 100 per s, $1 (vs the answer precomputed in one index)" \
      "$this" "$floor" "$(ratio "$this" "$floor")" "report"
  done
}
pages hot
# Every range but the newest (ingest may still write it) goes cold: both eras' pages read archives.
"$cli" archive --from-range 0 --to-range "$(sql "SELECT max(ms_range_id) FROM sync")" \
  --dsn "$dsn" >/dev/null
pages cold

# The export: HTTP against COPY of the same rows, and the server's memory.
start_serve "$serve" "$dsn user=permanode_http_test" >&2
hwm() { awk '/VmHWM/ {print $2}' "/proc/$server/status"; }
curl -sf "http://127.0.0.1:$port/api/explorer/v2/history/$address?pageSize=1" >/dev/null
before=$(hwm)
start=$(date +%s.%N)
curl -sf "http://127.0.0.1:$port/api/explorer/v2/history/$address?format=jsonl" -o "$work/export"
http_s=$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN {print a - b}')
lines=$(wc -l <"$work/export")
size_kb=$(($(stat -c %s "$work/export") / 1024))
after=$(hwm)
[ "$lines" = "$entries" ] || { echo "history_bench: exported $lines of $entries" >&2; exit 1; }
start=$(date +%s.%N)
copied=$(PGOPTIONS="-c search_path=permanode,public" psql "$dsn" -X -c \
  "COPY (SELECT * FROM address_history('$address', 100000000)) TO STDOUT" | wc -l)
copy_s=$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN {print a - b}')
[ "$copied" = "$entries" ] || { echo "history_bench: copied $copied of $entries" >&2; exit 1; }
http_rate=$(awk -v n="$entries" -v s="$http_s" 'BEGIN {printf "%.0f", n / s}')
copy_rate=$(awk -v n="$entries" -v s="$copy_s" 'BEGIN {printf "%.0f", n / s}')
row "history export rows/s over HTTP, jsonl (vs COPY of address_history)" "$http_rate" \
  "$copy_rate" "$(ratio "$http_rate" "$copy_rate")" ">= 0.5"
row "history export: server peak RSS kB, after vs before (an export of ${size_kb} kB)" \
  "$after" "$before" "$(ratio "$after" "$before")" "report"
