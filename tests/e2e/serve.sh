# Sourced by the end-to-end scripts that run permanode-serve: start_serve SERVE DSN [OPTION...]
# starts it on a free loopback port, logged in as DSN, in the background, and sets `server` (its
# PID) and `port` once it listens (else prints its log and fails); stop_serve stops it and
# removes its log. Call stop_serve from the script's EXIT trap, set before start_serve.
start_serve() {
  local serve=$1 dsn=$2
  shift 2
  serve_log=$(mktemp)
  "$serve" --dsn "$dsn" --port 0 "$@" 2>"$serve_log" &
  server=$!
  port=""
  for _ in $(seq 1 100); do
    port=$(sed -nE 's|.*listening on http://127\.0\.0\.1:([0-9]+).*|\1|p' "$serve_log")
    [ -n "$port" ] && return 0
    kill -0 "$server" 2>/dev/null || { cat "$serve_log"; return 1; }
    sleep 0.1
  done
  echo "permanode-serve did not start"
  cat "$serve_log"
  return 1
}

stop_serve() {
  if [ -n "${server:-}" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -f "${serve_log:-}"
}
