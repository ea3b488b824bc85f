"""The soak helpers' database access: a connection that comes back after the server restarts
(a killed backend makes the postmaster restart every backend, and the soak does that on
purpose), and queries as lists of tuples."""

import time

import psycopg2


class Database:
    """One autocommit connection to DSN, opened again when the server dropped it."""

    def __init__(self, dsn):
        self.dsn = dsn
        self.conn = None

    def _connect(self):
        if self.conn is None or self.conn.closed:
            self.conn = psycopg2.connect(self.dsn, connect_timeout=5,
                                         options="-c search_path=permanode,public "
                                                 "-c statement_timeout=60000")
            self.conn.autocommit = True
        return self.conn

    def rows(self, sql, params=()):
        """The rows of one statement; raises psycopg2.Error when the server fails it."""
        try:
            with self._connect().cursor() as cur:
                cur.execute(sql, params)
                return cur.fetchall()
        except (psycopg2.OperationalError, psycopg2.InterfaceError):
            self.close()
            raise

    def snapshot(self, statements):
        """The rows of each (sql, params) of `statements`, all read in one snapshot."""
        try:
            with self._connect().cursor() as cur:
                cur.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                try:
                    results = []
                    for sql, params in statements:
                        cur.execute(sql, params)
                        results.append(cur.fetchall())
                    return results
                finally:
                    cur.execute("ROLLBACK")
        except (psycopg2.OperationalError, psycopg2.InterfaceError):
            self.close()
            raise

    def close(self):
        if self.conn is not None:
            try:
                self.conn.close()
            except psycopg2.Error:
                pass
        self.conn = None


def wait_for(db, seconds):
    """Retries a trivial query until the server answers or `seconds` pass; True if it did."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            db.rows("SELECT 1")
            return True
        except psycopg2.Error:
            time.sleep(1)
    return False
