#!/usr/bin/env bash
# The soak's gauges, every 2 s until the deadline: the resident memory (VmRSS, kB) of the HTTP
# server and of the sync, and the newest milestone the archive holds with how many it holds from
# FIRST on. Lines "unix_time,serve_pid,serve_kb,sync_pid,sync_kb" in RSS_CSV and
# "unix_time,newest_milestone,milestones" in INGEST_CSV (no line while the database restarts).
# Usage: watch.sh DEADLINE DSN PIDDIR FIRST RSS_CSV INGEST_CSV
set -uo pipefail
deadline=$1 dsn=$2 piddir=$3 first=$4 rss_csv=$5 ingest_csv=$6

rss_of() { # NAME: "pid,kB" of the process PIDDIR/NAME.pid names, or "," when there is none
  local pid kb
  pid=$(cat "$piddir/$1.pid" 2>/dev/null)
  kb=$([ -n "$pid" ] && awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null)
  echo "${kb:+$pid},$kb"
}

while [ "$(date +%s)" -lt "$deadline" ]; do
  now=$(date +%s.%N)
  echo "$now,$(rss_of serve),$(rss_of sync)" >>"$rss_csv"
  progress=$(timeout 5 psql "$dsn" -X -At -F, -c "SELECT max(milestone_index), count(*)
    FROM permanode.sync WHERE milestone_index >= $first" 2>/dev/null)
  [ -n "$progress" ] && echo "$now,$progress" >>"$ingest_csv"
  sleep 2
done
