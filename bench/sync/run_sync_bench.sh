#!/usr/bin/env bash
# sync_bench (#42): blocks/s of `permanode sync --inx` from the test INX server on loopback
# against `permanode ingest` of the same ledger file into the same kind of fresh database, taken
# in turn (3 runs each, the order alternating); then a live run: the test server confirms a
# milestone every 5 s (~200 blocks each) and the sync follows it for PERMANODE_SYNC_LIVE_SECONDS
# (default 600), sampling each second how many milestones it is behind and its resident memory.
# Prints bench rows: metric <TAB> this <TAB> baseline <TAB> ratio <TAB> target
# Environment: PERMANODE_BENCH_DSN (bench/run sets it), PERMANODE_BENCH_CACHE (ledger files).
set -euo pipefail
root=@PROJECT_SOURCE_DIR@
cli=@PERMANODE_CLI@
live_seconds=${PERMANODE_SYNC_LIVE_SECONDS:-600}
: "${PERMANODE_BENCH_DSN:?run through bench/run}"
cache=${PERMANODE_BENCH_CACHE:-/tmp/permanode-bench-cache}
mkdir -p "$cache"
ledger=$cache/sync_bench_1500.ndjson
[ -s "$ledger" ] || "$cli" generate --milestones 1500 --node-fields --seed 17 -o "$ledger"
live=$cache/sync_bench_live.ndjson
[ -s "$live" ] || "$cli" generate --milestones 400 --blocks-per-milestone 180-220 --node-fields \
  --seed 18 -o "$live"

work=$(mktemp -d)
inx_pid=
trap '[ -n "$inx_pid" ] && kill "$inx_pid" 2>/dev/null; rm -rf "$work"' EXIT
fresh() { # DB: an empty permanode database
  psql -X -q "$PERMANODE_BENCH_DSN" -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1"
  psql -X -q "$PERMANODE_BENCH_DSN dbname=$1" -c "SET client_min_messages = warning" \
    -c "CREATE EXTENSION permanode CASCADE"
}
start_inx() { # LEDGER OPTION...: starts the test INX server, sets inx_address
  python3 "$root/tests/inx/inx_server.py" --port 0 "$@" >"$work/inx.out" 2>/dev/null &
  inx_pid=$!
  for _ in $(seq 1 200); do
    inx_address=$(sed -n 's/^INX listening on //p' "$work/inx.out")
    [ -n "$inx_address" ] && return 0
    sleep 0.1
  done
  echo "sync_bench: the INX server did not start" >&2; exit 1
}
stop_inx() { kill "$inx_pid"; wait "$inx_pid" 2>/dev/null || true; inx_pid=; }
now() { date +%s.%N; }
blocks_in() { psql -X -At "$PERMANODE_BENCH_DSN dbname=$1" -c "SELECT count(*) FROM permanode.messages"; }

run_ingest() {
  fresh sync_bench_file
  local t0; t0=$(now)
  "$cli" ingest "$ledger" --dsn "$PERMANODE_BENCH_DSN dbname=sync_bench_file" --no-progress >/dev/null
  echo "$(blocks_in sync_bench_file) $(now) $t0" | awk '{printf "%.1f\n", $1 / ($2 - $3)}' >>"$work/ingest.rows"
}
run_sync() {
  fresh sync_bench_inx
  start_inx "$ledger"
  local t0; t0=$(now)
  "$cli" sync --inx "$inx_address" --dsn "$PERMANODE_BENCH_DSN dbname=sync_bench_inx" \
    --until-synced --no-progress 2>"$work/sync.err" || { cat "$work/sync.err" >&2; exit 1; }
  echo "$(blocks_in sync_bench_inx) $(now) $t0" | awk '{printf "%.1f\n", $1 / ($2 - $3)}' >>"$work/sync.rows"
  stop_inx
}
for i in 1 2 3; do
  if [ $((i % 2)) = 1 ]; then run_sync; run_ingest; else run_ingest; run_sync; fi
done
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
sync_rate=$(median <"$work/sync.rows")
file_rate=$(median <"$work/ingest.rows")
row() { printf '%s\t%s\t%s\t%s\t%s\n' "$@"; }
row "sync --inx from the test node on loopback (blocks/s, median of 3) vs ingest of the same file" \
  "$sync_rate" "$file_rate" "$(awk -v a="$sync_rate" -v b="$file_rate" 'BEGIN {printf "%.2f", a / b}')" ">=0.8"

# The live run: 20 milestones confirmed at the start, then one every 5 s.
fresh sync_bench_live
start_inx "$live" --confirmed 20 --confirm-every 5
"$cli" sync --inx "$inx_address" --dsn "$PERMANODE_BENCH_DSN dbname=sync_bench_live" --no-progress \
  2>"$work/live.err" &
sync_pid=$!
t0=$(date +%s)
worst=0 rss_first= rss_max=0 rss_last=0 samples=0
while [ $(( $(date +%s) - t0 )) -lt "$live_seconds" ]; do
  sleep 1
  elapsed=$(( $(date +%s) - t0 ))
  confirmed=$(( 20 + elapsed / 5 ))
  archived=$(psql -X -At "$PERMANODE_BENCH_DSN dbname=sync_bench_live" -c "SELECT coalesce(max(milestone_index), 0) FROM permanode.sync")
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$sync_pid/status")
  samples=$((samples + 1))
  # the first 10 s catch up on the 20 milestones already confirmed
  if [ "$elapsed" -gt 10 ]; then
    behind=$(( confirmed - archived ))
    [ "$behind" -gt "$worst" ] && worst=$behind
    [ -z "$rss_first" ] && rss_first=$rss
    [ "$rss" -gt "$rss_max" ] && rss_max=$rss
    rss_last=$rss
  fi
done
kill -TERM "$sync_pid"; wait "$sync_pid" 2>/dev/null || true
stop_inx
row "live sync, a milestone every 5 s (~200 blocks) for ${live_seconds} s: most milestones behind (sampled each second)" \
  "$worst" "1" "$(awk -v a="$worst" 'BEGIN {printf "%.2f", a / 1}')" "<=1"
row "live sync: resident memory at the end vs after catching up (kB; most: $rss_max)" \
  "$rss_last" "$rss_first" "$(awk -v a="$rss_last" -v b="$rss_first" 'BEGIN {printf "%.2f", a / b}')" "report"
