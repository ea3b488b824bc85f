#!/usr/bin/env bash
# The explorer's overview (#28) on a ledger of every era: GET /api/analytics/v2/overview and
# /tiers through permanode-serve against pgbench running the very statements those routes run
# (taken from client/http/routes/analytics_routes.cpp), at one client, in 2 s slices taken in
# turn (5 each, the order alternating; see run_http_bench.sh). The ledger: a generated legacy era
# (import-dmp), a Chrysalis era and a Stardust era of 10,800 milestones (ingest) over two days,
# over 5M outputs, its finished days rolled up by maintain() (the newest day is counted from
# metrics_cache, as between two maintain runs). Building it takes minutes:
# PERMANODE_BENCH_KEEP_LEDGER=1 keeps the database and uses it again when it is there.
# Prints bench rows: metric <TAB> this <TAB> baseline <TAB> ratio <TAB> target
# Environment: PERMANODE_BENCH_DSN (bench/run sets it), PERMANODE_BENCH_SECONDS (default 10).
set -euo pipefail
root=@PROJECT_SOURCE_DIR@
serve=@PERMANODE_SERVE@
cli=@PERMANODE_CLI@
pgbench=@PG_BINDIR@/pgbench
seconds=${PERMANODE_BENCH_SECONDS:-10}
: "${PERMANODE_BENCH_DSN:?run through bench/run}"
command -v wrk >/dev/null || { echo "http_overview_bench: wrk is missing (apt-get install wrk)" >&2; exit 1; }

db=permanode_overview_bench
admin="$PERMANODE_BENCH_DSN dbname=$db"
work=$(mktemp -d)
. "$root/tests/e2e/serve.sh"
trap 'stop_serve; rm -rf "$work"' EXIT

build_ledger() {
  psql "$PERMANODE_BENCH_DSN" -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" \
    -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
  psql "$admin" -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" \
    -c "CREATE EXTENSION permanode CASCADE" -c "SELECT permanode.init('iota')" >/dev/null
  "$cli" generate --protocol legacy --milestones 2000 --snapshot "$work/snapshot.txt" \
    -o "$work/legacy.dmp" 2>"$work/legacy.log"
  coordinator=$(sed -nE 's/.*coordinator ([A-Z9]{81}).*/\1/p' "$work/legacy.log" | head -1)
  "$cli" import-dmp --dsn "$admin" --snapshot "$work/snapshot.txt" --coordinator "$coordinator" \
    "$work/legacy.dmp" >&2
  "$cli" generate --protocol chrysalis --milestones 300 --start-index 1 -o "$work/chrysalis.ndjson"
  "$cli" ingest --dsn "$admin" "$work/chrysalis.ndjson" >&2
  # Stardust, right after: 10,800 milestones every 5 s from noon (2023-01-01 12:00 to 01-02
  # 03:00: a finished day, rolled up, and the newest), three quarters of the blocks
  # transactions of 8-14 outputs.
  "$cli" generate --milestones 10800 --start-index 301 --start-timestamp 1672574400 \
    --blocks-per-milestone 90-150 --outputs-per-transaction 8-14 --tx-share 0.75 --seed 5 \
    -o "$work/stardust.ndjson"
  "$cli" ingest --dsn "$admin" "$work/stardust.ndjson" >&2
  rm -f "$work"/*.ndjson "$work"/*.dmp
  psql "$admin" -X -q -c "SELECT task, done FROM permanode.maintain()" -c "ANALYZE" >&2
}
if [ "${PERMANODE_BENCH_KEEP_LEDGER:-}" != 1 ] ||
  ! psql "$admin" -X -At -c "SELECT count(*) FROM permanode.sync" >/dev/null 2>&1; then
  build_ledger
fi
outputs=$(psql "$admin" -X -At -c "SELECT sum(rows) FROM permanode.status
  WHERE table_name::text ~ '(basic|alias|foundry|nft)_outputs'")
legacy_transactions=$(psql "$admin" -X -At -c "SELECT count(*) FROM legacy.transactions")

dsn="$admin user=permanode_http_test"
psql "$admin" -X -q -c "DO \$\$ BEGIN CREATE ROLE permanode_http_test LOGIN IN ROLE permanode_reader;
  EXCEPTION WHEN duplicate_object THEN NULL; END \$\$" >/dev/null
start_serve "$serve" "$dsn" >&2

# The routes' statements, as the server runs them (the overview's $1: its 400 points).
statement() { # NAME: the raw string kNAME = R"sql(...)sql" of analytics_routes.cpp
  sed -n "/k$1Sql = R\"sql(/,/^)sql\";/p" "$root/client/http/routes/analytics_routes.cpp" | sed '1d;$d'
}
{ statement Overview | sed 's/\$1::numeric/400::numeric/'; echo ";"; } >"$work/overview.sql"
{ statement Tiers; echo ";"; } >"$work/tiers.sql"

mean() { awk '{s += $1} END {printf "%.3f", s / NR}'; }
run_wrk() { # NAME PATH SECONDS: appends the slice's mean latency (ms) to $work/NAME.wrk.rows
  wrk -t1 -c1 -d"$3s" "http://127.0.0.1:$port$2" >"$work/$1.wrk"
  errors=$(awk '/Non-2xx/ {print $NF}' "$work/$1.wrk")
  [ -z "$errors" ] || { echo "http_overview_bench: $1 had $errors non-2xx responses" >&2; exit 1; }
  awk '/^Requests\/sec/ {printf "%.3f\n", 1000 / $2}' "$work/$1.wrk" >>"$work/$1.wrk.rows"
}
run_pgbench() { # NAME SECONDS: appends the slice's mean latency (ms) to $work/NAME.pgbench.rows
  "$pgbench" -n -f "$work/$1.sql" -T "$2" -c 1 -M prepared "$dsn" >"$work/$1.pgbench" 2>&1
  tps=$(sed -nE 's/^tps = ([0-9.]+).*/\1/p' "$work/$1.pgbench" | head -1)
  [ -n "$tps" ] || { cat "$work/$1.pgbench" >&2; exit 1; }
  awk -v t="$tps" 'BEGIN {printf "%.3f\n", 1000 / t}' >>"$work/$1.pgbench.rows"
}
row() { printf '%s\t%s\t%s\t%s\t%s\n' "$@"; }

slices=5
slice=$(( (seconds + slices - 1) / slices ))
for name in overview tiers; do
  path=/api/analytics/v2/$name
  curl -sf "http://127.0.0.1:$port$path" >"$work/$name.json" ||
    { echo "http_overview_bench: $path failed" >&2; exit 1; }
  for i in $(seq 1 $slices); do
    if [ $((i % 2)) = 1 ]; then
      run_wrk $name $path $slice; run_pgbench $name $slice
    else
      run_pgbench $name $slice; run_wrk $name $path $slice
    fi
  done
  http=$(mean <"$work/$name.wrk.rows")
  sql=$(mean <"$work/$name.pgbench.rows")
  target="report"
  [ $name = overview ] && target="< 2"
  row "GET $path ms at 1 client ($outputs outputs, $legacy_transactions legacy transactions; vs its SQL in pgbench)" \
    "$http" "$sql" "$(awk -v a="$http" -v b="$sql" 'BEGIN {printf "%.2f", a / b}')" "$target"
done
# What the overview held: every era.
eras=$(grep -o '"era":"[a-z]*"' "$work/overview.json" | sort -u | tr '\n' ' ')
echo "http_overview_bench: overview eras: $eras" >&2
