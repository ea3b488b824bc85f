#!/usr/bin/env bash
# UCAN-authorised requests (#27): wrk against permanode-serve --auth ucan with a bearer UCAN (a
# chain of one stored delegation, issued by @ucanto: tests/js/ucan/issue_token.js), against the
# same requests to a second permanode-serve with auth off, on the same database, in 2 s slices
# taken in turn (5 each, the order alternating; see run_http_bench.sh). Verified chains are
# cached by token, so after its first request an authorised request costs a cache lookup and a
# count. Prints bench rows: metric <TAB> this <TAB> baseline <TAB> ratio <TAB> target
# Environment: PERMANODE_BENCH_DSN (bench/run sets it), PERMANODE_BENCH_SECONDS (default 10).
set -euo pipefail
root=@PROJECT_SOURCE_DIR@
serve=@PERMANODE_SERVE@
seconds=${PERMANODE_BENCH_SECONDS:-10}
: "${PERMANODE_BENCH_DSN:?run through bench/run}"
command -v wrk >/dev/null || { echo "http_ucan_bench: wrk is missing (apt-get install wrk)" >&2; exit 1; }
node=$(command -v node || command -v nodejs) || { echo "http_ucan_bench: node is missing" >&2; exit 1; }

db=permanode_http_ucan_bench
service_did=did:web:permanode.bench
"$root/tests/e2e/http_load_fixtures.sh" "$PERMANODE_BENCH_DSN" "$db" >&2
"$root/tests/js/install.sh" "$root/tests/js/ucan" >/dev/null
dsn="$PERMANODE_BENCH_DSN dbname=$db user=permanode_http_test"
token=$("$node" "$root/tests/js/ucan/issue_token.js" "$service_did" "$PERMANODE_BENCH_DSN dbname=$db")

work=$(mktemp -d)
servers=()
trap 'for s in "${servers[@]}"; do kill "$s" 2>/dev/null; wait "$s" 2>/dev/null; done; rm -rf "$work"' EXIT
start() { # NAME OPTION...: starts a server, sets port_NAME
  local name=$1
  shift
  "$serve" --dsn "$dsn" --port 0 "$@" 2>"$work/$name.log" &
  servers+=($!)
  for _ in $(seq 1 100); do
    port=$(sed -nE 's|.*listening on http://127\.0\.0\.1:([0-9]+).*|\1|p' "$work/$name.log")
    [ -n "$port" ] && { eval "port_$name=$port"; return 0; }
    sleep 0.1
  done
  echo "http_ucan_bench: permanode-serve ($name) did not start" >&2; cat "$work/$name.log" >&2; exit 1
}
start open
start ucan --auth ucan --service-did "$service_did"

path=/api/core/v2/milestones/by-index/17340
curl -sf "http://127.0.0.1:$port_open$path" >/dev/null || { echo "http_ucan_bench: $path failed" >&2; exit 1; }
curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$port_ucan$path" >/dev/null ||
  { echo "http_ucan_bench: $path with the UCAN failed" >&2; curl -s -H "Authorization: Bearer $token" "http://127.0.0.1:$port_ucan$path" >&2; exit 1; }
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port_ucan$path")" = 401 ] ||
  { echo "http_ucan_bench: a request without a UCAN was not refused" >&2; exit 1; }

run_wrk() { # NAME PORT SECONDS CLIENTS [HEADER]: appends the slice's requests/s to $work/NAME.rows
  local name=$1 port=$2 s=$3 clients=$4
  shift 4
  wrk -t2 -c"$clients" -d"${s}s" "$@" "http://127.0.0.1:$port$path" >"$work/$name.wrk"
  errors=$(awk '/Non-2xx/ {print $NF}' "$work/$name.wrk")
  [ -z "$errors" ] || { echo "http_ucan_bench: $name had $errors non-2xx responses" >&2; exit 1; }
  awk '/^Requests\/sec/ {print $2}' "$work/$name.wrk" >>"$work/$name.rows"
}
mean() { awk '{s += $1} END {printf "%.2f", s / NR}'; }
row() { printf '%s\t%s\t%s\t%s\t%s\n' "$@"; }
slices=5
slice=$(( (seconds + slices - 1) / slices ))
clients=16
for i in $(seq 1 $slices); do
  if [ $((i % 2)) = 1 ]; then
    run_wrk ucan "$port_ucan" $slice $clients -H "Authorization: Bearer $token"
    run_wrk open "$port_open" $slice $clients
  else
    run_wrk open "$port_open" $slice $clients
    run_wrk ucan "$port_ucan" $slice $clients -H "Authorization: Bearer $token"
  fi
done
ucan=$(mean <"$work/ucan.rows")
open=$(mean <"$work/open.rows")
row "http UCAN-authorised req/s at $clients clients (vs auth off)" "$ucan" "$open" \
  "$(awk -v a="$ucan" -v b="$open" 'BEGIN {printf "%.2f", a / b}')" ">= 0.8"
