#!/usr/bin/env bash
# HTTP API benchmark: wrk against permanode-serve, and pgbench on the same SQL in the same run.
# Loads the real fixtures into a database of the bench cluster, serves it as the read-only
# login with the server's defaults (one event loop per two cores, 4 pipelined connections
# each), and measures two routes:
#   a block by ID          GET /api/core/v2/blocks/{id}
#   an address's outputs   GET /api/indexer/v1/outputs/basic?address=... (first page)
# pgbench (-M prepared, 2 threads) runs the statements those routes run (the indexer statement
# as its custom plan folds it: the unset filters removed), straight to the database and through
# PgBouncer (session pooling). The server stands between its clients and the database as a proxy
# does, and on two cores the load generator, the proxy and the backends share the CPU: at 16
# clients PgBouncer, which parses nothing, took pgbench from 22,836 to 17,002 transactions/s on
# the block statement and from 36,002 to 24,140 on the address one (with the server, wrk, the
# server and the backends took 15%, 37% and 43% of the CPU, 60% of the server's in sendto). So the
# rates at 16 clients are held against pgbench through PgBouncer, the same topology; pgbench
# alone is reported.
# Throughput is each side's best rate over a sweep of 4, 16 and 64 concurrent clients (wrk
# connections, pgbench clients). At 4, a closed loop of requests is bound by latency rather
# than capacity, and on a virtual machine whose idle cores halt, each wake-up on the way can
# cost more than the query: pgbench itself, at 1 client, waits for wake-ups most of each
# transaction. The rates at each level are printed too.
# Per level the two sides take turns in 2 s slices (5 each, the order alternating) rather than
# one 10 s run after the other: on a shared machine the load of other work changes from one
# 10 s window to the next. Rates are means over the slices; latency percentiles are the median
# of the slices'. Prints bench rows
#   metric <TAB> this <TAB> baseline <TAB> ratio <TAB> target
# Environment: PERMANODE_BENCH_DSN (bench/run sets it), PERMANODE_BENCH_SECONDS (default 10,
# per side and level).
set -euo pipefail
root=@PROJECT_SOURCE_DIR@
serve=@PERMANODE_SERVE@
pgbench=@PG_BINDIR@/pgbench
seconds=${PERMANODE_BENCH_SECONDS:-10}
: "${PERMANODE_BENCH_DSN:?run through bench/run}"
command -v wrk >/dev/null || { echo "http_bench: wrk is missing (apt-get install wrk)" >&2; exit 1; }
command -v pgbouncer >/dev/null ||
  { echo "http_bench: pgbouncer is missing (apt-get install pgbouncer)" >&2; exit 1; }

db=permanode_http_bench
"$root/tests/e2e/http_load_fixtures.sh" "$PERMANODE_BENCH_DSN" "$db" >&2
dsn="$PERMANODE_BENCH_DSN dbname=$db user=permanode_http_test"
work=$(mktemp -d)
. "$root/tests/e2e/serve.sh"
trap 'stop_serve; rm -rf "$work"' EXIT
start_serve "$serve" "$dsn" >&2

block=0xf2174f3af8c862ba7b099c9ce56ecb5146c200521a8dbba9b0389ae645b10f1d
address=smr1qr4602uf226wm0gz6zaceut585emfyvxd2s3ta7uajfmcp60usk9uqtllx7
cat >"$work/block.sql" <<SQL
SELECT message_id::text, message, coalesce(variant, ''), milestone_index, inclusion_state, conflict_reason, white_flag_index, coalesce(is_solid, false), should_promote, should_reattach, version FROM permanode.messages WHERE message_id = '$block' ORDER BY ms_range_id LIMIT 1;
SQL
cat >"$work/address.sql" <<SQL
SELECT o.output_id::text, 0, (extract(epoch FROM o.ms_timestamp) * 1000000)::bigint, o.milestone_index, (SELECT coalesce(max(milestone_index), 0) FROM permanode.sync) FROM permanode.unspent_outputs o WHERE o.output_kind = 'basic' AND o.address = '$address' ORDER BY o.ms_timestamp DESC, o.milestone_index DESC, o.output_id DESC LIMIT 101;
SQL

# wrk: a slice's requests/s and --latency percentiles (converted to milliseconds).
to_ms() { awk '{v=$1; if (v ~ /us$/) {sub(/us$/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v*=1000}; printf "%.3f", v}'; }
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
mean() { awk '{s += $1} END {printf "%.2f", s / NR}'; }
run_wrk() { # NAME PATH SECONDS CLIENTS: appends "req/s p50 p99" to $work/NAME.wrk.rows
  wrk -t2 -c"$4" -d"$3s" --latency "http://127.0.0.1:$port$2" >"$work/$1.wrk"
  errors=$(awk '/Non-2xx/ {print $NF}' "$work/$1.wrk")
  [ -z "$errors" ] || { echo "http_bench: $1 had $errors non-2xx responses" >&2; exit 1; }
  # A request that timed out or lost its connection is not counted by wrk: the rate would hide it.
  socket_errors=$(sed -nE 's/^ *Socket errors: //p' "$work/$1.wrk")
  [ -z "$socket_errors" ] || { echo "http_bench: $1 had socket errors ($socket_errors)" >&2; exit 1; }
  echo "$(awk '/^Requests\/sec/ {print $2}' "$work/$1.wrk")" \
    "$(awk '$1 == "50%" {print $2}' "$work/$1.wrk" | to_ms)" \
    "$(awk '$1 == "99%" {print $2}' "$work/$1.wrk" | to_ms)" >>"$work/$1.wrk.rows"
}
run_pgbench() { # NAME SQL SECONDS CLIENTS: appends the slice's tps to $work/NAME.pgbench.rows
  PGOPTIONS="-c plan_cache_mode=force_custom_plan -c search_path=public,permanode" \
    "$pgbench" -n -f "$work/$2.sql" -T "$3" -c "$4" -j 2 -M prepared "$dsn" >"$work/$1.pgbench" 2>&1
  tps=$(sed -nE 's/^tps = ([0-9.]+).*/\1/p' "$work/$1.pgbench" | head -1)
  [ -n "$tps" ] || { cat "$work/$1.pgbench" >&2; exit 1; }
  echo "$tps" >>"$work/$1.pgbench.rows"
}
# The same pgbench through PgBouncer (session pooling: a server connection per client, so the
# baseline keeps pgbench's prepared statements): a proxy between the clients and the database,
# where permanode-serve stands, on the same two cores. Started for each slice and stopped after
# it, its server connections gone, so that they do not count against max_connections while
# pgbench runs without it.
bouncer_dir=$(mktemp -d)
bouncer_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
db_host=$(sed -nE 's/.*host=([^ ]+).*/\1/p' <<<"$PERMANODE_BENCH_DSN")
db_port=$(sed -nE 's/.*port=([^ ]+).*/\1/p' <<<"$PERMANODE_BENCH_DSN")
cat >"$bouncer_dir/pgbouncer.ini" <<INI
[databases]
$db = host=$db_host port=$db_port dbname=$db user=permanode_http_test application_name=http_bench_bouncer connect_query='SET plan_cache_mode = force_custom_plan; SET search_path = public, permanode'
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $bouncer_port
unix_socket_dir =
auth_type = any
pool_mode = session
max_client_conn = 200
default_pool_size = 100
logfile = $bouncer_dir/pgbouncer.log
pidfile = $bouncer_dir/pgbouncer.pid
INI
bouncer_user=()
[ "$(id -u)" = 0 ] && { chown -R permanode "$bouncer_dir"; bouncer_user=(runuser -u permanode --); }
trap 'stop_serve; stop_bouncer; rm -rf "$work" "$bouncer_dir"' EXIT
bouncer_dsn="host=127.0.0.1 port=$bouncer_port dbname=$db user=permanode_http_test"
stop_bouncer() {
  local pid
  pid=$(cat "$bouncer_dir/pgbouncer.pid" 2>/dev/null) || return 0
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do
    if ! kill -0 "$pid" 2>/dev/null && [ "$(@PG_BINDIR@/psql -X -At "$PERMANODE_BENCH_DSN" -c \
      "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'http_bench_bouncer'")" = 0 ]; then
      rm -f "$bouncer_dir/pgbouncer.pid"
      return 0
    fi
    sleep 0.1
  done
  echo "http_bench: PgBouncer's connections did not end" >&2
  return 1
}
run_bouncer() { # NAME SQL SECONDS CLIENTS: appends the slice's tps to $work/NAME.bouncer.rows
  "${bouncer_user[@]}" pgbouncer -d "$bouncer_dir/pgbouncer.ini" >&2
  "$pgbench" -n -f "$work/$2.sql" -T "$3" -c "$4" -j 2 -M prepared "$bouncer_dsn" >"$work/$1.bouncer" 2>&1
  stop_bouncer
  tps=$(sed -nE 's/^tps = ([0-9.]+).*/\1/p' "$work/$1.bouncer" | head -1)
  [ -n "$tps" ] || { cat "$work/$1.bouncer" >&2; exit 1; }
  echo "$tps" >>"$work/$1.bouncer.rows"
}
row() { printf '%s\t%s\t%s\t%s\t%s\n' "$@"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

levels=(4 16 64)
level_names=$(IFS=/; echo "${levels[*]}")
slices=5
slice=$(( (seconds + slices - 1) / slices ))
for name in block address; do
  if [ $name = block ]; then path=/api/core/v2/blocks/$block; else path="/api/indexer/v1/outputs/basic?address=$address"; fi
  curl -sf "http://127.0.0.1:$port$path" >/dev/null || { echo "http_bench: $path failed" >&2; exit 1; }
  best_rps=0 best_tps=0 best_level=0
  for clients in "${levels[@]}"; do
    run=$name.$clients
    for i in $(seq 1 $slices); do
      if [ $((i % 2)) = 1 ]; then
        run_wrk $run "$path" $slice $clients; run_pgbench $run $name $slice $clients
        run_bouncer $run $name $slice $clients
      else
        run_bouncer $run $name $slice $clients
        run_pgbench $run $name $slice $clients; run_wrk $run "$path" $slice $clients
      fi
    done
    # Slices last equally long on both sides: their mean rates are the rates over all of them.
    rps=$(awk '{print $1}' "$work/$run.wrk.rows" | mean)
    tps=$(mean <"$work/$run.pgbench.rows")
    bouncer_tps=$(mean <"$work/$run.bouncer.rows")
    echo "$rps $tps $bouncer_tps" >"$work/$run.rates"
    awk -v a="$rps" -v b="$best_rps" 'BEGIN {exit !(a > b)}' && { best_rps=$rps; best_level=$clients; }
    awk -v a="$tps" -v b="$best_tps" 'BEGIN {exit !(a > b)}' && best_tps=$tps
  done
  row "http $name req/s, best of $level_names clients (vs pgbench's best, same SQL)" \
    "$best_rps" "$best_tps" "$(ratio "$best_rps" "$best_tps")" ">= 0.6"
  for clients in "${levels[@]}"; do
    read -r rps tps bouncer_tps <"$work/$name.$clients.rates"
    # Issue #46 holds 16 clients, where pgbench peaks on 2 cores, against pgbench through
    # PgBouncer: on two cores shared by the load, a proxy, and the database, the hop between the
    # clients and the database costs CPU that pgbench alone does not spend (PgBouncer, which only
    # forwards, took 26-33% off pgbench's rate at 16 clients; see the header). pgbench alone is
    # printed beside it.
    target=report
    [ "$clients" = 16 ] && target=">= 1.0"
    row "http $name req/s at $clients clients (vs pgbench at $clients)" "$rps" "$tps" "$(ratio "$rps" "$tps")" "report"
    row "http $name req/s at $clients clients (vs pgbench through PgBouncer at $clients)" "$rps" "$bouncer_tps" "$(ratio "$rps" "$bouncer_tps")" "$target"
  done
  for clients in $(printf '%s\n' "${levels[0]}" "$best_level" | sort -un); do
    p50=$(awk '{print $2}' "$work/$name.$clients.wrk.rows" | median)
    p99=$(awk '{print $3}' "$work/$name.$clients.wrk.rows" | median)
    row "http $name p50 latency ms at $clients clients" "$p50" "-" "-" "report"
    row "http $name p99 latency ms at $clients clients" "$p99" "-" "-" "report"
  done
done
