#!/usr/bin/env bash
# The archives' count under HTTP load (#46): the soak's ledger of every era (bench/soak_lib,
# 1,500 Stardust milestones in ranges of 50) and its request mix (every route of the OpenAPI
# document with real keys, wrk, 16 connections), over the same ledger archived two ways, each in a
# database of its own with a server of its own:
#   per range   an archive per table and range, as maintain() archives a growing ledger (~340)
#   per table   every old range of a table in one archive (one permanode.archive() call)
# The two take turns in slices of PERMANODE_BENCH_SECONDS (default 10), three each. A backend
# used to keep 64 archives open at most and reopened a RocksDB database at nearly every read
# beyond that: per range served 49-92 requests/s where per table served ~1,000.
# Prints bench rows: metric <TAB> this <TAB> baseline <TAB> ratio <TAB> target
set -euo pipefail
root=@PROJECT_SOURCE_DIR@
serve=@PERMANODE_SERVE@
export cli=@PERMANODE_CLI@
seconds=${PERMANODE_BENCH_SECONDS:-10}
: "${PERMANODE_BENCH_DSN:?run through bench/run}"
command -v wrk >/dev/null || { echo "archives_bench: wrk is missing (apt-get install wrk)" >&2; exit 1; }
lib=$root/bench/soak_lib
. "$lib/ledger.sh"
. "$root/tests/e2e/serve.sh"

work=$(mktemp -d)
chmod 755 "$work"
servers=()
cleanup() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
sql() { psql "$1" -X -q -At -v ON_ERROR_STOP=1 -c "$2"; }

# make_ledger DB PER_RANGE: the soak's base ledger in DB, its ranges older than 100 milestones
# archived, Stardust's one range at a time first when PER_RANGE is set.
make_ledger() {
  local db=$1 per_range=$2 dsn range
  sql "$PERMANODE_BENCH_DSN" "DROP DATABASE IF EXISTS $db"
  sql "$PERMANODE_BENCH_DSN" "CREATE DATABASE $db"
  dsn="$PERMANODE_BENCH_DSN dbname=$db"
  sql "$dsn" "SET client_min_messages = warning; CREATE EXTENSION permanode CASCADE"
  sql "$dsn" "SELECT permanode.init('shimmer')" >/dev/null
  mkdir -p "$work/$db"
  make_base_ledger "$work/$db" "$dsn" 11 1510 1500 >"$work/$db/base.log" 2>&1 ||
    { cat "$work/$db/base.log" >&2; return 1; }
  if [ -n "$per_range" ]; then
    for range in $(seq 100 $((100 + 1500 / soak_chunk_size - 3))); do
      "$cli" archive --from-range "$range" --to-range $((range + 1)) --dsn "$dsn" >>"$work/$db/base.log"
    done
  fi
  "$cli" archive --older-than 100 --dsn "$dsn" >>"$work/$db/base.log"
  sql "$dsn" "VACUUM ANALYZE"
}

# start DB: serves DB, and writes its requests to $work/DB/requests.txt; sets url_DB.
start() {
  local db=$1 dsn="$PERMANODE_BENCH_DSN dbname=$1"
  start_serve "$serve" "$dsn" >&2
  servers+=("$server")
  server="" # stopped by cleanup, not by stop_serve
  printf -v "url_$db" 'http://127.0.0.1:%s' "$port"
  local url_var="url_$db"
  /usr/bin/python3 "$lib/load_requests.py" "$dsn" "${!url_var}" "$work/$db/requests.txt" \
    "$work/$db/keys.json" 11 >"$work/$db/requests.log"
}

# load DB: one wrk slice over DB's server; prints its requests/s.
load() {
  local url_var="url_$1"
  wrk -t2 -c16 -d"${seconds}s" --timeout 10s -s "$lib/load.lua" "${!url_var}" -- \
    "$work/$1/requests.txt" >"$work/$1/wrk.txt" 2>&1
  sed -nE 's/^Requests\/sec: *([0-9.]+)/\1/p' "$work/$1/wrk.txt"
}

echo "archives_bench: loading the ledger twice ..." >&2
make_ledger archives_per_range 1
make_ledger archives_per_table ""
count() { sql "$PERMANODE_BENCH_DSN dbname=$1" "SELECT count(*) FROM pg_foreign_table"; }
per_range_archives=$(count archives_per_range)
per_table_archives=$(count archives_per_table)
start archives_per_range
start archives_per_table
# a first slice each, not counted: connections, plans and caches
load archives_per_range >/dev/null
load archives_per_table >/dev/null
rates=$work/rates.txt # DB RATE per slice
for round in 1 2 3; do
  order=(archives_per_range archives_per_table)
  [ $((round % 2)) = 0 ] && order=(archives_per_table archives_per_range)
  for db in "${order[@]}"; do echo "$db $(load "$db")" >>"$rates"; done
done
awk -v range_archives="$per_range_archives" -v table_archives="$per_table_archives" '
  { sum[$1] += $2; n[$1]++ }
  END {
    r = sum["archives_per_range"] / n["archives_per_range"]
    t = sum["archives_per_table"] / n["archives_per_table"]
    printf "soak HTTP mix req/s: an archive per table and range (%d) vs per table (%d)\t%.0f\t%.0f\t%.2f\t>=0.5\n", range_archives, table_archives, r, t, r / t
  }' "$rates"
for db in archives_per_range archives_per_table; do
  sql "$PERMANODE_BENCH_DSN" "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
done
