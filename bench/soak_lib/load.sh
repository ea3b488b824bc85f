#!/usr/bin/env bash
# The soak's HTTP load: wrk slices of SLICE seconds back to back until the deadline, 16
# connections over the requests of REQUESTS (load.lua; the file is read again for each slice, as
# it grows with the ledger). One CSV line per slice:
#   start,end,requests,requests_per_s,p50_ms,p99_ms,2xx,4xx,5xx,connect_errors,read_errors,
#   write_errors,timeouts
# A slice's wrk output is kept in LOGDIR when it had errors (answers not 2xx, socket errors).
# Usage: load.sh DEADLINE URL REQUESTS SLICE SLICES_CSV LOGDIR
set -uo pipefail
deadline=$1 url=$2 requests=$3 slice=$4 csv=$5 logdir=$6
here=$(cd "$(dirname "$0")" && pwd)

# wrk's latencies (e.g. 812.00us, 3.21ms, 1.02s) in milliseconds.
to_ms() { awk '{v=$1; if (v ~ /us$/) {sub(/us$/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /m$/) {sub(/m$/,"",v); v*=60000} else if (v ~ /s$/) {sub(/s$/,"",v); v*=1000}; printf "%.2f", v}'; }
field() { sed -nE "s|^$1||p" "$out" | head -1; }

out=$(mktemp)
trap 'rm -f "$out"' EXIT
while [ $(($(date +%s) + slice)) -le "$deadline" ]; do
  began=$(date +%s.%N)
  # --timeout bounds each request; timeout(1) bounds wrk itself.
  timeout $((slice + 30)) wrk -t2 -c16 -d"${slice}s" --timeout 10s --latency \
    -s "$here/load.lua" "$url" -- "$requests" >"$out" 2>&1
  ended=$(date +%s.%N)
  [ -n "$(field 'Requests/sec: *')" ] || grep -q "^unable to connect" "$out" || cat "$out" >&2
  count=$(sed -nE 's/^ *([0-9]+) requests in .*/\1/p' "$out")
  rate=$(field 'Requests/sec: *')
  p50=$(awk '$1 == "50%" {print $2}' "$out" | to_ms)
  p99=$(awk '$1 == "99%" {print $2}' "$out" | to_ms)
  read -r ok client server < <(sed -nE 's/^statuses 2xx=([0-9]+) 3xx=[0-9]+ 4xx=([0-9]+) 5xx=([0-9]+)/\1 \2 \3/p' "$out")
  read -r connect readerr writeerr timeouts < <(sed -nE 's/^ *Socket errors: connect ([0-9]+), read ([0-9]+), write ([0-9]+), timeout ([0-9]+)/\1 \2 \3 \4/p' "$out")
  echo "$began,$ended,${count:-0},${rate:-0},${p50:-},${p99:-},${ok:-0},${client:-0},${server:-0},${connect:-0},${readerr:-0},${writeerr:-0},${timeouts:-0}" >>"$csv"
  # wrk gives up at once when the server does not listen (it is being restarted).
  if grep -q "^unable to connect" "$out"; then
    echo "$began,$ended,0,0,,,0,0,0,1,0,0,0" >>"$csv"
    sleep 1
    continue
  fi
  if [ "${client:-0}${server:-0}${connect:-0}${readerr:-0}${writeerr:-0}${timeouts:-0}" != 000000 ]; then
    cp "$out" "$logdir/wrk-$(date +%H%M%S).txt"
  fi
done
