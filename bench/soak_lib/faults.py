#!/usr/bin/python3
"""The soak's faults: kill -9, at moments drawn from the seed, of the sync (the ingest), of the
HTTP server, and of a PostgreSQL backend serving the HTTP server's login (the postmaster then
restarts every backend: the sync's, the sampler's and maintenance's connections go too). Each
kind as often as the others, one kill per slot of the window, the kinds in a seeded order.
Appends "unix_time,kind,pid" to KILLS_CSV; says on stderr what it could not kill.

Usage: faults.py DSN PIDDIR HTTP_LOGIN SEED FROM TO PER_KIND KILLS_CSV
  PIDDIR/sync.pid and PIDDIR/serve.pid name the processes (bench/soak_lib/supervise.sh writes
  them); FROM and TO (unix times) bound the window."""

import os
import signal
import sys
import time

import psycopg2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import keys as soak_keys  # noqa: E402
import soak_db  # noqa: E402

KINDS = ["sync", "serve", "backend"]


def plan(seed, start, end, per_kind):
    """(time, kind) of each kill: the window cut into equal slots, a kill in the middle 80% of
    each, the kinds shuffled."""
    rng = soak_keys.new_rng(seed)
    kinds = KINDS * per_kind
    rng.shuffle(kinds)
    slot = (end - start) / len(kinds)
    return [(start + (i + 0.1 + 0.8 * rng.random()) * slot, kind) for i, kind in enumerate(kinds)]


def process_pid(piddir, name):
    try:
        with open(os.path.join(piddir, name + ".pid")) as f:
            return int(f.read())
    except (OSError, ValueError):
        return None


def backend_pid(db, login):
    """A backend of the HTTP server's login, at random."""
    rows = db.rows("SELECT pid FROM pg_stat_activity WHERE usename = %s AND "
                   "backend_type = 'client backend' ORDER BY random() LIMIT 1", (login,))
    return rows[0][0] if rows else None


def victim(kind, db, piddir, login):
    """The PID to kill, waiting up to 30 s for one (a process being restarted has none)."""
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            pid = backend_pid(db, login) if kind == "backend" else process_pid(piddir, kind)
        except psycopg2.Error:
            pid = None
        if pid is not None:
            return pid
        time.sleep(1)
    return None


def main():
    dsn, piddir, login, seed, start, end, per_kind, kills_csv = sys.argv[1:]
    db = soak_db.Database(dsn)
    for at, kind in plan(int(seed), float(start), float(end), int(per_kind)):
        time.sleep(max(0.0, at - time.time()))
        pid = victim(kind, db, piddir, login)
        if pid is None:
            print(f"faults: no {kind} process to kill at {time.ctime()}", file=sys.stderr)
            continue
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            print(f"faults: {kind} {pid} was gone before its kill", file=sys.stderr)
            continue
        with open(kills_csv, "a") as out:
            out.write(f"{time.time():.3f},{kind},{pid}\n")


if __name__ == "__main__":
    main()
