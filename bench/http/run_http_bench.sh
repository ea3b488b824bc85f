#!/usr/bin/env bash
# HTTP API benchmark: wrk against permanode-serve, and pgbench on the same SQL in the same run.
# Loads the real fixtures into a database of the bench cluster, serves it as the read-only
# login with the server's defaults (one event loop per two cores, 4 pipelined connections
# each), and measures two routes for 10 s each (per side):
#   a block by ID          GET /api/core/v2/blocks/{id}
#   an address's outputs   GET /api/indexer/v1/outputs/basic?address=... (first page)
# pgbench (-M prepared, 4 clients, 2 threads) runs the statements those routes run (the indexer
# statement as its custom plan folds it: the unset filters removed). The two sides take turns in
# 2 s slices (5 each, the order alternating) rather than one 10 s run after the other: on a
# shared machine the load of other work changes from one 10 s window to the next, and then the
# ratio measured the neighbours more than the HTTP layer. Rates are means over the slices;
# latency percentiles are the median of the slices'. Prints bench rows
#   metric <TAB> this <TAB> baseline <TAB> ratio <TAB> target
# Environment: PERMANODE_BENCH_DSN (bench/run sets it), PERMANODE_BENCH_SECONDS (default 10).
set -euo pipefail
root=@PROJECT_SOURCE_DIR@
serve=@PERMANODE_SERVE@
pgbench=@PG_BINDIR@/pgbench
seconds=${PERMANODE_BENCH_SECONDS:-10}
: "${PERMANODE_BENCH_DSN:?run through bench/run}"
command -v wrk >/dev/null || { echo "http_bench: wrk is missing (apt-get install wrk)" >&2; exit 1; }

db=permanode_http_bench
"$root/tests/e2e/http_load_fixtures.sh" "$PERMANODE_BENCH_DSN" "$db" >&2
dsn="$PERMANODE_BENCH_DSN dbname=$db user=permanode_http_test"
work=$(mktemp -d)
"$serve" --dsn "$dsn" --port 0 2>"$work/serve.log" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$work"' EXIT
port=""
for _ in $(seq 1 100); do
  port=$(sed -nE 's|.*listening on http://127\.0\.0\.1:([0-9]+).*|\1|p' "$work/serve.log")
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "http_bench: permanode-serve did not start" >&2; cat "$work/serve.log" >&2; exit 1; }

block=0xf2174f3af8c862ba7b099c9ce56ecb5146c200521a8dbba9b0389ae645b10f1d
address=smr1qr4602uf226wm0gz6zaceut585emfyvxd2s3ta7uajfmcp60usk9uqtllx7
cat >"$work/block.sql" <<SQL
SELECT message_id::text, message, coalesce(variant, ''), milestone_index, inclusion_state, conflict_reason, white_flag_index, coalesce(is_solid, false), should_promote, should_reattach FROM permanode.messages WHERE message_id = '$block' ORDER BY ms_range_id LIMIT 1;
SQL
cat >"$work/address.sql" <<SQL
SELECT o.output_id::text, 0, (extract(epoch FROM o.ms_timestamp) * 1000000)::bigint, o.milestone_index, (SELECT coalesce(max(milestone_index), 0) FROM permanode.sync) FROM permanode.unspent_outputs o WHERE o.output_kind = 'basic' AND o.address = '$address' ORDER BY o.ms_timestamp DESC, o.milestone_index DESC, o.output_id DESC LIMIT 101;
SQL

# wrk: a slice's requests/s and --latency percentiles (converted to milliseconds).
to_ms() { awk '{v=$1; if (v ~ /us$/) {sub(/us$/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v*=1000}; printf "%.3f", v}'; }
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
run_wrk() { # NAME PATH SECONDS: appends "req/s p50 p99" to $work/NAME.wrk.rows
  wrk -t2 -c4 -d"$3s" --latency "http://127.0.0.1:$port$2" >"$work/$1.wrk"
  errors=$(awk '/Non-2xx/ {print $NF}' "$work/$1.wrk")
  [ -z "$errors" ] || { echo "http_bench: $1 had $errors non-2xx responses" >&2; exit 1; }
  echo "$(awk '/^Requests\/sec/ {print $2}' "$work/$1.wrk")" \
    "$(awk '$1 == "50%" {print $2}' "$work/$1.wrk" | to_ms)" \
    "$(awk '$1 == "99%" {print $2}' "$work/$1.wrk" | to_ms)" >>"$work/$1.wrk.rows"
}
run_pgbench() { # NAME SECONDS: appends the slice's tps to $work/NAME.pgbench.rows
  PGOPTIONS="-c plan_cache_mode=force_custom_plan -c search_path=public,permanode" \
    "$pgbench" -n -f "$work/$1.sql" -T "$2" -c 4 -j 2 -M prepared "$dsn" >"$work/$1.pgbench" 2>&1
  tps=$(sed -nE 's/^tps = ([0-9.]+).*/\1/p' "$work/$1.pgbench" | head -1)
  [ -n "$tps" ] || { cat "$work/$1.pgbench" >&2; exit 1; }
  echo "$tps" >>"$work/$1.pgbench.rows"
}
row() { printf '%s\t%s\t%s\t%s\t%s\n' "$@"; }

slices=5
slice=$(( (seconds + slices - 1) / slices ))
for name in block address; do
  if [ $name = block ]; then path=/api/core/v2/blocks/$block; else path="/api/indexer/v1/outputs/basic?address=$address"; fi
  curl -sf "http://127.0.0.1:$port$path" >/dev/null || { echo "http_bench: $path failed" >&2; exit 1; }
  for i in $(seq 1 $slices); do
    if [ $((i % 2)) = 1 ]; then
      run_wrk $name "$path" $slice; run_pgbench $name $slice
    else
      run_pgbench $name $slice; run_wrk $name "$path" $slice
    fi
  done
  # Slices last equally long on both sides: their mean rates are the rates over all of them.
  rps=$(awk '{s += $1} END {printf "%.2f", s / NR}' "$work/$name.wrk.rows")
  tps=$(awk '{s += $1} END {printf "%.2f", s / NR}' "$work/$name.pgbench.rows")
  p50=$(awk '{print $2}' "$work/$name.wrk.rows" | median)
  p99=$(awk '{print $3}' "$work/$name.wrk.rows" | median)
  ratio=$(awk -v a="$rps" -v b="$tps" 'BEGIN {printf "%.2f", a / b}')
  row "http $name req/s (vs pgbench tps, same SQL)" "$rps" "$tps" "$ratio" ">= 0.6"
  row "http $name p50 latency ms" "$p50" "-" "-" "-"
  row "http $name p99 latency ms" "$p99" "-" "-" "-"
done
