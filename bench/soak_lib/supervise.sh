#!/usr/bin/env bash
# Keeps one command running until a deadline, as systemd's Restart=always would: when it exits
# (or is killed), it is started again a second later. Each start and exit is appended to EVENTS
# as "unix_time,NAME,start|exit,pid,exit_code"; the running child's PID is in PIDFILE. At the
# deadline, or on SIGTERM, the child gets SIGTERM, then SIGKILL 10 s later, and this ends.
# Usage: supervise.sh DEADLINE NAME PIDFILE EVENTS LOG -- COMMAND [ARG...]
set -uo pipefail
deadline=$1 name=$2 pidfile=$3 events=$4 log=$5
shift 5
[ "${1:-}" = -- ] && shift

child=""
stopping=""
trap 'stopping=1' TERM INT

stop_child() {
  kill -TERM "$child" 2>/dev/null
  for _ in $(seq 1 100); do
    kill -0 "$child" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$child" 2>/dev/null
}

while [ -z "$stopping" ] && [ "$(date +%s)" -lt "$deadline" ]; do
  "$@" >>"$log" 2>&1 &
  child=$!
  echo "$child" >"$pidfile"
  echo "$(date +%s.%N),$name,start,$child," >>"$events"
  # Polled rather than waited for, so that the deadline and SIGTERM are seen while it runs.
  while kill -0 "$child" 2>/dev/null; do
    if [ -n "$stopping" ] || [ "$(date +%s)" -ge "$deadline" ]; then
      stopping=1
      stop_child
      break
    fi
    sleep 0.5
  done
  wait "$child"
  rc=$?
  echo "$(date +%s.%N),$name,exit,$child,$rc" >>"$events"
  [ -z "$stopping" ] && sleep 1
done
rm -f "$pidfile"
