#!/usr/bin/env python3
"""BI clients over the Postgres protocol, on loopback, logged in as a member of permanode_bi:
psqlODBC through unixODBC (pyodbc, a DSN-less connection string naming the driver Debian's
odbc-postgresql registers) and SQLAlchemy with pandas (psycopg2). On a database holding all three
eras (http_load_chrysalis.sh, then http_load_legacy.sh --existing), each reads the views a BI user
starts from (permanode.daily_activity, permanode.rich_list) and an address's history
(permanode.address_history), and must get every row psql gets as the database's owner; each
write through the role must fail with SQLSTATE 42501.
Usage: bi_clients_test.py        (PERMANODE_TEST_DSN: the cluster, as tests/run sets it)"""
import datetime
import decimal
import os
import subprocess
import sys

os.environ["PGTZ"] = os.environ["TZ"] = "UTC"  # one time zone for psql and both clients

import pandas  # noqa: E402
import pyodbc  # noqa: E402
import sqlalchemy  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DB = "permanode_bi_clients"
ROLE = "permanode_bi_test"
NULL = "\\N"
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        failures.append(what)


def dsn_fields(dsn):
    return dict(field.split("=", 1) for field in dsn.split())


def psql(dsn, sql):
    """The rows of sql as psql prints them: a list of tuples of text (NULL as \\N)."""
    out = subprocess.run(["psql", dsn, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                          "-F", "\x1f", "-R", "\x1e", "-P", "null=" + NULL, "-c", sql],
                         check=True, capture_output=True, text=True).stdout
    return [tuple(row.split("\x1f")) for row in out.rstrip("\n").split("\x1e") if row]


def same(value, text):
    """Whether a client's value is the value psql printed as text."""
    if value is None or text == NULL:
        return value is None and text == NULL
    if isinstance(value, bool):
        return text == ("t" if value else "f")
    if isinstance(value, (int, float, decimal.Decimal)):
        # exactly: pandas holds an integer column with NULLs as floats, which must not round
        return decimal.Decimal(text) == value
    if isinstance(value, datetime.datetime):
        parsed = datetime.datetime.fromisoformat(text)
        return parsed == (value if value.tzinfo else value.replace(tzinfo=datetime.timezone.utc))
    if isinstance(value, datetime.date):
        return datetime.date.fromisoformat(text) == value
    return isinstance(value, str) and value == text


def same_rows(client, rows, expected):
    if len(rows) != len(expected):
        return f"{client}: {len(rows)} rows, psql {len(expected)}"
    for i, (row, want) in enumerate(zip(rows, expected)):
        if len(row) != len(want) or not all(same(v, t) for v, t in zip(row, want)):
            return f"{client}: row {i} is {row!r}, psql's {want!r}"
    return None


def pandas_value(value):
    if value is None or (not isinstance(value, (str, list)) and pandas.isna(value)):
        return None
    if isinstance(value, pandas.Timestamp):
        return value.to_pydatetime()
    return value.item() if hasattr(value, "item") else value


def load(admin_dsn):
    env = dict(os.environ)
    for script, args in (("http_load_chrysalis.sh", []), ("http_load_legacy.sh", ["--existing"])):
        subprocess.run([os.path.join(ROOT, "tests/e2e", script), admin_dsn, DB] + args,
                       check=True, env=env)
    subprocess.run(["psql", admin_dsn + " dbname=" + DB, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c",
                    f"DO $$BEGIN CREATE ROLE {ROLE} LOGIN IN ROLE permanode_bi; "
                    "EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END$$"],
                   check=True)


def main():
    admin_dsn = os.environ["PERMANODE_TEST_DSN"]
    fields = dsn_fields(admin_dsn)
    host, port = fields.get("host", "127.0.0.1"), fields.get("port", "5432")
    load(admin_dsn)
    owner = admin_dsn + " dbname=" + DB

    # The address with the most history, then what a BI user reads, in a stable order.
    address = psql(owner, "SELECT address FROM permanode.rich_list WHERE era = 'stardust' "
                          "ORDER BY outputs DESC, rank LIMIT 1")[0][0]
    history = ("SELECT * FROM permanode.address_history({}, {}) "
               "ORDER BY era, output_id::text, milestone_index")
    reads = {
        "daily_activity": ("SELECT * FROM permanode.daily_activity ORDER BY era, day", ()),
        "rich_list": ("SELECT * FROM permanode.rich_list ORDER BY era, rank", ()),
        "address_history": (history, (address, 100000)),
        # page_size is a limit: a page of 2 is the newest 2 rows
        "address_history page": (history, (address, 2)),
    }
    expected = {}
    for name, (sql, params) in reads.items():
        literal = sql.format(*(f"'{p}'" if isinstance(p, str) else str(p) for p in params))
        expected[name] = psql(owner, literal)
    eras = {row[0] for row in expected["daily_activity"]}
    check(eras == {"legacy", "chrysalis", "stardust"}, f"daily_activity has all three eras: {eras}")
    check(len(expected["rich_list"]) > 0, f"rich_list has {len(expected['rich_list'])} rows")
    check(len(expected["address_history"]) > 2,
          f"address_history of {address} has {len(expected['address_history'])} rows")
    check(len(expected["address_history page"]) == 2, "address_history with page_size 2: 2 rows")

    odbc = pyodbc.connect(f"Driver={{PostgreSQL Unicode}};Server={host};Port={port};"
                          f"Database={DB};Uid={ROLE};Pwd=;", autocommit=True)
    engine = sqlalchemy.create_engine(f"postgresql+psycopg2://{ROLE}@{host}:{port}/{DB}")
    with engine.connect() as alchemy:
        for name, (sql, params) in reads.items():
            rows = [tuple(r) for r in odbc.cursor().execute(sql.format(*["?"] * len(params)),
                                                            *params).fetchall()]
            problem = same_rows("ODBC", rows, expected[name])
            check(problem is None, f"{name} through ODBC: {problem or len(rows)} rows as psql's")
            binds = {f"p{i}": p for i, p in enumerate(params)}
            frame = pandas.read_sql_query(
                sqlalchemy.text(sql.format(*[f":p{i}" for i in range(len(params))])), alchemy,
                params=binds, coerce_float=False, dtype=object)
            rows = [tuple(pandas_value(v) for v in r) for r in frame.itertuples(index=False)]
            problem = same_rows("SQLAlchemy", rows, expected[name])
            check(problem is None, f"{name} through SQLAlchemy and pandas: "
                                   f"{problem or len(rows)} rows as psql's")

    # Writes through the role are refused.
    writes = ["INSERT INTO permanode.settings (key, value) VALUES ('bi', 'written')",
              "DELETE FROM legacy.daily_analytics"]
    for sql in writes:
        try:
            odbc.cursor().execute(sql)
            check(False, f"ODBC: {sql} was refused")
        except pyodbc.Error as error:
            check(error.args[0] == "42501", f"ODBC: {sql} refused with {error.args[0]}")
        try:
            with engine.begin() as alchemy:
                alchemy.execute(sqlalchemy.text(sql))
            check(False, f"SQLAlchemy: {sql} was refused")
        except sqlalchemy.exc.DBAPIError as error:
            code = getattr(error.orig, "pgcode", None)
            check(code == "42501", f"SQLAlchemy: {sql} refused with {code}")
    odbc.close()
    engine.dispose()
    subprocess.run(["psql", admin_dsn, "-X", "-q", "-c", f"DROP DATABASE {DB} WITH (FORCE)"],
                   check=True)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
