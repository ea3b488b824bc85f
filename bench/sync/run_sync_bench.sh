#!/usr/bin/env bash
# sync_bench (#42): `permanode sync --inx` from the test INX server on loopback against
# `permanode ingest` of the same ledger file into the same kind of fresh database, taken in turn
# (3 runs each, the order alternating); then a live run: the test server confirms a milestone
# every 5 s (~200 blocks each) and the sync follows it for PERMANODE_SYNC_LIVE_SECONDS (default
# 600), sampling each second how many milestones it is behind and its resident memory.
#
# The target is held on blocks per CPU second of permanode's own processes (the client and the
# PostgreSQL server). Blocks per second of wall time are reported, not held: on this 2-core
# machine the node shares the cores with the sync (a real node runs apart, or on cores of its
# own), and the test node is Python, whose gRPC costs about half the sync's own CPU; an ingest
# from a file has both cores to itself. Measured at 1500 milestones: ingest 9 s (both cores busy
# with PostgreSQL); sync 17 s, of which the node took 9.6 s CPU, the client 1.6-3 s and
# PostgreSQL 16-22 s (as much as for the ingest: the CPU of one run swings by a quarter here).
# The client's CPU is mostly system calls: each of its rows below says where the CPU went.
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

# CPU seconds (user + system) of the PostgreSQL server so far: the postmaster's, its children's
# that ended (backends of closed connections, reaped into its cutime and cstime) and its living
# children's (the background processes). The server is on this machine (bench/run's cluster).
postmaster=$(head -1 "$(psql -X -At "$PERMANODE_BENCH_DSN" -c "SHOW data_directory")/postmaster.pid")
ticks=$(getconf CLK_TCK)
server_cpu() {
  { awk '{print $14 + $15 + $16 + $17}' "/proc/$postmaster/stat"
    for child in $(pgrep -P "$postmaster"); do awk '{print $14 + $15}' "/proc/$child/stat" 2>/dev/null; done
  } | awk -v hz="$ticks" '{s += $1} END {printf "%.2f\n", s / hz}'
}
# FILE COMMAND...: runs the command; writes its CPU seconds (user + system) to FILE.
client_cpu() {
  perl -e 'my $file = shift; system(@ARGV) == 0 or exit 1; my @t = times;
           open(my $out, ">", $file) or die; printf $out "%.2f\n", $t[2] + $t[3]' -- "$@"
}
# One run: KIND DB COMMAND...: appends "blocks/s blocks-per-CPU-second client-CPU-s server-CPU-s"
# to $work/KIND.rows.
measure() {
  local kind=$1 db=$2; shift 2
  local t0 s0; t0=$(now); s0=$(server_cpu)
  client_cpu "$work/cpu" "$@" >/dev/null 2>"$work/$kind.err" || { cat "$work/$kind.err" >&2; exit 1; }
  local t1 cpu; t1=$(now); cpu=$(cat "$work/cpu")
  sleep 0.5 # the connections' backends end and are reaped
  echo "$(blocks_in "$db") $t0 $t1 $cpu $s0 $(server_cpu)" |
    awk '{printf "%.1f %.1f %.2f %.2f\n", $1 / ($3 - $2), $1 / ($4 + $6 - $5), $4, $6 - $5}' >>"$work/$kind.rows"
}
run_ingest() {
  fresh sync_bench_file
  measure ingest sync_bench_file "$cli" ingest "$ledger" \
    --dsn "$PERMANODE_BENCH_DSN dbname=sync_bench_file" --no-progress
}
run_sync() {
  fresh sync_bench_inx
  start_inx "$ledger"
  local n0; n0=$(node_cpu)
  measure sync sync_bench_inx "$cli" sync --inx "$inx_address" \
    --dsn "$PERMANODE_BENCH_DSN dbname=sync_bench_inx" --until-synced --no-progress
  echo "$(node_cpu) $n0" | awk '{printf "%.2f\n", $1 - $2}' >>"$work/node.cpu"
  stop_inx
}
node_cpu() { awk -v hz="$ticks" '{printf "%.2f\n", ($14 + $15) / hz}' "/proc/$inx_pid/stat"; }
for i in 1 2 3; do
  if [ $((i % 2)) = 1 ]; then run_sync; run_ingest; else run_ingest; run_sync; fi
done
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
column_of() { awk -v c="$1" '{print $c}' "$2"; }
sync_rate=$(column_of 1 "$work/sync.rows" | median)
file_rate=$(column_of 1 "$work/ingest.rows" | median)
sync_cpu_rate=$(column_of 2 "$work/sync.rows" | median)
file_cpu_rate=$(column_of 2 "$work/ingest.rows" | median)
node_seconds=$(median <"$work/node.cpu")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
row() { printf '%s\t%s\t%s\t%s\t%s\n' "$@"; }
row "sync --inx vs ingest of the same file: blocks per CPU second of the client and PostgreSQL (median of 3)" \
  "$sync_cpu_rate" "$file_cpu_rate" "$(ratio "$sync_cpu_rate" "$file_cpu_rate")" ">=0.8"
cpu_row() { # WHOSE COLUMN: the median CPU seconds of sync and ingest in that column
  local s f; s=$(column_of "$2" "$work/sync.rows" | median); f=$(column_of "$2" "$work/ingest.rows" | median)
  row "sync --inx vs ingest: CPU seconds of $1 (median of 3)" "$s" "$f" "$(ratio "$s" "$f")" "report"
}
cpu_row "the client" 3
cpu_row "PostgreSQL" 4
row "sync --inx vs ingest: blocks/s of wall time, the test node (Python) on the same 2 cores using ${node_seconds} CPU s a sync" \
  "$sync_rate" "$file_rate" "$(ratio "$sync_rate" "$file_rate")" "report"

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
