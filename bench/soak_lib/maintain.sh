#!/usr/bin/env bash
# The soak's maintenance, every PERIOD seconds until the deadline: SELECT permanode.maintain(),
# then `permanode archive --older-than OLDER_THAN`, then the load's requests and the sampler's
# keys read again from the database (so that they follow the ledger into its new ranges, and
# its older ranges into the archives). One CSV line per step:
#   start,end,step,exit_code,archives
# where archives is how many archives (foreign partitions) the database holds after the step.
# Usage: maintain.sh DEADLINE PERIOD DSN OLDER_THAN CSV LOG -- REFRESH_COMMAND...
set -uo pipefail
deadline=$1 period=$2 dsn=$3 older_than=$4 csv=$5 log=$6
shift 6
[ "${1:-}" = -- ] && shift
cli=${cli:?}

archives() { timeout 30 psql "$dsn" -X -At -c "SELECT count(*) FROM pg_foreign_table" 2>/dev/null; }
step() { # NAME COMMAND...: runs it, bounded, and logs it
  local name=$1 began rc
  shift
  began=$(date +%s.%N)
  echo "== $(date +%T) $name" >>"$log"
  timeout 900 "$@" >>"$log" 2>&1
  rc=$?
  echo "$began,$(date +%s.%N),$name,$rc,$(archives)" >>"$csv"
}

next=$(($(date +%s) + period))
while [ "$next" -lt "$deadline" ]; do
  sleep $((next - $(date +%s)))
  next=$((next + period))
  step maintain psql "$dsn" -X -At -v ON_ERROR_STOP=1 -c "SELECT task, done FROM permanode.maintain()"
  step archive "$cli" archive --older-than "$older_than" --dsn "$dsn"
  step refresh "$@"
done
