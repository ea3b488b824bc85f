#!/usr/bin/env python3
"""Attacks on the HTTP API (#45 item 4), against a permanode-serve that
tests/e2e/http_attacks_test.sh started on a database holding all three eras, with every statement
logged. Each batch ends with a
known-good request per era, which must get the answer it got before the attacks.

1. Every route of the server's OpenAPI document (so a new route is attacked without editing this
   file), every path and query parameter and every field of a POST body: SQL injection strings,
   NUL bytes, quotes of other scripts, invalid UTF-8, overlong values, percent-encoded and
   double-encoded; path traversal in every path parameter. Each answer is a 2xx, or a 4xx with
   the error body the route's OpenAPI document names; never a 5xx, a hang, or a file outside the
   pages' own (every attack on /web/{file} answers a 4xx).
2. Nothing reaches SQL as text: no attack string stands in a logged statement (only among its
   bind parameters); the login can write nothing; the tables' row counts are unchanged.
3. Limits, each at it and one byte past it: the request URI, a header line, the header count and
   the legacy API's body; a slow loris (a head dribbled a byte at a time, never finished) is
   answered 408 within the read timeout while others are served; as many idle connections as
   --max-clients allows hold no one up, and those past it are answered 503.
4. Malformed HTTP: each a 4xx JSON error or a clean close.
PERMANODE_ATTACKS_LONG=1 also sends every attack double-encoded, and the traversals in query
parameters too (about twice the requests).
Usage: http_attacks_test.py URL ADMIN_DSN LOGIN MAX_CLIENTS SERVER_LOG"""
import concurrent.futures
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

URL, ADMIN_DSN, LOGIN, MAX_CLIENTS, SERVER_LOG = sys.argv[1:6]
MAX_CLIENTS = int(MAX_CLIENTS)
HOST, PORT = urllib.parse.urlsplit(URL).hostname, urllib.parse.urlsplit(URL).port
LONG = os.environ.get("PERMANODE_ATTACKS_LONG") == "1"
DATABASE = dict(f.split("=", 1) for f in ADMIN_DSN.split())["dbname"]
TIMEOUT = 10  # seconds an answer may take before it counts as a hang
READ_TIMEOUT = 5  # the server's read timeout for a request's head (event_loop.hpp)
failures = []
failures_lock = threading.Lock()  # checks run on the attack threads too


def check(ok, what):
    if not ok:
        with failures_lock:
            if len(failures) < 100:
                print("FAILED: " + what)
            elif len(failures) == 100:
                print("FAILED: ... (further failures are counted, not shown)")
            failures.append(what)
    return ok


def section(function, *args):
    """Runs a batch of checks; prints its summary as ok, or as failed when a check failed."""
    before, began = len(failures), time.monotonic()
    summary = function(*args)
    print(("ok " if len(failures) == before else "FAILED ") + summary +
          f" [{time.monotonic() - began:.1f} s]")


def psql(sql):
    """The rows of `sql` on the test database as the admin, each a list of text fields."""
    run = subprocess.run(["psql", ADMIN_DSN, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                          "-F", "\x1f", "-c", sql], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"psql: {run.stderr}")
    return [line.split("\x1f") for line in run.stdout.splitlines() if line]


# --- HTTP ---

class Answer:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        return json.loads(self.body)


_local = threading.local()


def request(method, target, body=None, headers=None):
    """One request on this thread's keep-alive connection (a new one when the server closed it
    while it was idle); an Answer with status None when no answer came."""
    for attempt in range(2):
        connection = getattr(_local, "connection", None)
        reused = connection is not None
        if connection is None:
            connection = _local.connection = http.client.HTTPConnection(HOST, PORT,
                                                                        timeout=TIMEOUT)
        try:
            connection.request(method, target, body=body, headers=headers or {})
            response = connection.getresponse()
            return Answer(response.status, dict(response.getheaders()), response.read())
        except (OSError, http.client.HTTPException) as e:
            connection.close()
            _local.connection = None
            idle_closed = isinstance(e, (http.client.RemoteDisconnected, ConnectionResetError,
                                         BrokenPipeError))
            if not (reused and idle_closed) or attempt == 1:
                return Answer(None, {}, repr(e).encode())


def raw_exchange(data, timeout=TIMEOUT, half_close=False):
    """Sends bytes on a new connection and reads until the server closes it: (bytes, closed)."""
    with socket.create_connection((HOST, PORT), timeout=timeout) as s:
        s.sendall(data)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        out = b""
        try:
            while True:
                piece = s.recv(65536)
                if not piece:
                    return out, True
                out += piece
        except socket.timeout:
            return out, False
        except ConnectionResetError:
            return out, True


def parse_responses(data):
    """The responses in `data` (Content-Length framed), each an Answer."""
    answers = []
    while data:
        head, sep, rest = data.partition(b"\r\n\r\n")
        if not sep:
            break
        lines = head.decode("latin-1").split("\r\n")
        headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
        length = int(headers.get("Content-Length", "0"))
        answers.append(Answer(int(lines[0].split(" ")[1]), headers, rest[:length]))
        data = rest[length:]
    return answers


# --- the OpenAPI document: routes, parameters, error bodies ---

def load_routes():
    document = request("GET", "/api/openapi.json").json()
    routes = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            params = operation.get("parameters", [])
            body = (operation.get("requestBody", {}).get("content", {})
                    .get("application/json", {}).get("schema", {}).get("properties", {}))
            ref = operation["responses"]["400"]["content"]["application/json"]["schema"]["$ref"]
            routes.append({
                "method": method.upper(), "path": path,
                "path_params": [p["name"] for p in params if p["in"] == "path"],
                "query_params": [p["name"] for p in params if p["in"] == "query"],
                "body": body,
                "error_schema": document["components"]["schemas"][ref.rsplit("/", 1)[1]]})
    return routes


def fits_schema(value, schema):
    """Whether `value` has the properties and types `schema` (an OpenAPI object schema) names."""
    kinds = {"object": dict, "string": str, "integer": int, "array": list, "boolean": bool}
    if not isinstance(value, kinds[schema["type"]]):
        return False
    if schema["type"] == "object":
        return all(name in value and fits_schema(value[name], sub)
                   for name, sub in schema.get("properties", {}).items())
    return True


def check_answer(answer, what, error_schema, allow_200=True):
    """An attack's answer: a 2xx (when the value may be valid), or a 4xx with the route's error
    body (its code the status, where it has one); never a 5xx, a hang, or /etc/passwd."""
    if not check(answer.status is not None, f"{what}: no answer ({answer.body[:200]!r})"):
        return
    check(b"root:x:0:0" not in answer.body, f"{what}: the answer holds /etc/passwd")
    if 200 <= answer.status < 300 and allow_200:
        if answer.headers.get("Content-Type", "").startswith("application/json"):
            try:
                json.loads(answer.body)
            except ValueError:
                check(False, f"{what}: {answer.status} with a body that is not JSON")
        return
    if not check(400 <= answer.status < 500,
                 f"{what}: status {answer.status}, body {answer.body[:300]!r}"):
        return
    check(answer.headers.get("Content-Type") == "application/json",
          f"{what}: {answer.status} as {answer.headers.get('Content-Type')}")
    try:
        body = answer.json()
    except ValueError:
        check(False, f"{what}: {answer.status} with a body that is not JSON: {answer.body[:200]!r}")
        return
    check(fits_schema(body, error_schema), f"{what}: {body} is not the route's error body")
    if isinstance(body.get("error"), dict):
        check(body["error"].get("code") == str(answer.status),
              f"{what}: error code {body['error'].get('code')} under status {answer.status}")


# --- the values sent ---

MARKER = "zq9x"  # in every SQL attack value: it must never stand in a statement's text
SQL_ATTACKS = [
    "' OR 1=1--", f"{MARKER}' OR '1'='1", "'; DROP TABLE permanode.blocks;--",
    f"{MARKER}'; DROP TABLE permanode.messages;--", "$1", f"{MARKER}$1", f"{MARKER}\x00",
    f"a\x00{MARKER}", "\x00", f"{MARKER}\u2018 OR \u20181\u2019=\u20181",
    f"{MARKER}\uff07 OR 1=1--",
    f"{MARKER}\u02bc; SELECT pg_sleep(5)--", f"{MARKER}\"; SELECT 1;--", f"{MARKER}\\'; --",
    f"{MARKER}%27 OR 1=1--", f"1 OR 1=1 {MARKER}", f"1; SELECT pg_sleep(5) {MARKER}",
    f"{MARKER}' UNION SELECT rolpassword FROM pg_authid--", f"{MARKER}\r\nX-Injected: 1",
    MARKER * 1000, "x" * 9000, "-1", "2147483648", "99999999999999999999999", "1e308", "NaN",
    "0x", "\uff11\uff17", " 17340", "17340 ", "+17340", "true ",
]
# Bytes that are not UTF-8: the server must answer them, not fail writing its message.
BINARY_ATTACKS = [b"\xff\xfe" + MARKER.encode(), MARKER.encode() + b"\xc3", b"\xed\xa0\x80"]
# Path traversal, as they stand in the URL (the server decodes them).
TRAVERSALS = [
    "../../etc/passwd", "..%2f..%2f..%2fetc%2fpasswd", "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "..%252f..%252fetc%252fpasswd", "%252e%252e%252fetc%252fpasswd", "%00", "app.js%00.html",
    "..\\..\\..\\etc\\passwd", "..%5c..%5cetc%5cpasswd", "....//....//etc/passwd",
    "%2fetc%2fpasswd", ".", "..", "%2e%2e", "%c0%ae%c0%ae%2fetc%2fpasswd", "~root",
]


def encodings(value):
    """How a decoded value travels in a URL: percent-encoded, and (long run) double-encoded."""
    data = value if isinstance(value, bytes) else value.encode()
    once = urllib.parse.quote(data, safe="")
    return [once, urllib.parse.quote(once, safe="")] if LONG else [once]


def attack_values():
    """Every SQL attack in each of its encodings, the binary ones, then the traversals."""
    values = []
    for value in SQL_ATTACKS + BINARY_ATTACKS:
        values += encodings(value)
    # a few double-encoded ones in every run
    values += [urllib.parse.quote(urllib.parse.quote(v, safe=""), safe="")
               for v in SQL_ATTACKS[:4]]
    return values + TRAVERSALS


# --- path parameters: a value each route accepts, found by asking it ---

def legacy_candidates():
    """A legacy transaction's hash, address and tag, and a milestone index: what the fields of
    IRI's API take."""
    hash_, address, tag = psql("SELECT hash::text, address::text, tag::text "
                               "FROM legacy.transactions ORDER BY 1 LIMIT 1")[0]
    return {"array": [hash_, address, tag.rstrip("9") or tag], "integer": [3, 0]}


def candidates():
    """Values of the ledger's kinds, from the database: IDs, addresses, indexes, names."""
    one = lambda sql: psql(sql)[0][0]  # noqa: E731
    stardust_block = one("SELECT message_id::text FROM permanode.messages WHERE version = 2 "
                         "ORDER BY milestone_index, message_id LIMIT 1")
    chrysalis_message = one("SELECT message_id::text FROM permanode.messages WHERE version = 1 "
                            "ORDER BY milestone_index, message_id LIMIT 1")
    milestones = [one(f"SELECT milestone_id::text FROM permanode.milestones "
                      f"WHERE milestone_index = {i}") for i in (17340, 16241)]
    outputs = [one("SELECT output_id::text FROM permanode.basic_outputs ORDER BY 1 LIMIT 1"),
               one("SELECT output_id::text FROM permanode.legacy_outputs ORDER BY 1 LIMIT 1")]
    richest = request("GET", "/api/explorer/v2/ledger/richest-addresses?top=1").json()
    address = richest["top"][0]["address"]
    ids = [stardust_block, chrysalis_message] + milestones + outputs
    ids += [o[:66] for o in outputs]
    values = ids + [i[2:] for i in ids] + [address, "0x" + "00" * 38, "0x" + "00" * 32]
    values += ["17340", "16241", "3", "daily", "ledger-size", "app.js"]
    return values + legacy_candidates()["array"]


def choose_samples(routes, pool):
    """For each route, a value per path parameter it accepts (a 2xx, else a 404, rather than a
    400): its query parameters are then attacked behind a path that is not refused first."""
    values = candidates()

    def choose(route):
        route["sample"] = {}
        for name in route["path_params"]:
            found = {}
            for value in values:
                route["sample"][name] = value
                status = request(route["method"], route_target(route)).status
                if status is not None and 200 <= status < 300:
                    found.setdefault("2xx", value)
                    break
                if status == 404:
                    found.setdefault("404", value)
            chosen = found.get("2xx", found.get("404"))
            check(chosen is not None, f"{route['method']} {route['path']}: no candidate value "
                  f"for {{{name}}} is accepted (add one to candidates())")
            route["sample"][name] = chosen or "0"

    list(pool.map(choose, routes))


def choose_bodies(routes):
    """For a POST route, per value of its enum field (IRI's command), a body it answers 200, its
    fields added one by one where a candidate is accepted: each field is then attacked in a body
    that reaches it (getBalances reads threshold only once addresses are good)."""
    values = legacy_candidates()
    headers = {"X-IOTA-API-Version": "1", "Content-Type": "application/json"}
    for route in routes:
        enums = [f for f, schema in route["body"].items() if "enum" in schema]
        if not route["body"] or not check(len(enums) == 1, f"{route['path']}: enum fields {enums}"):
            continue
        route["command_field"] = field = enums[0]
        route["bodies"] = {}
        for command in route["body"][field]["enum"]:
            base = {field: command}
            for name, schema in route["body"].items():
                for value in values.get(schema["type"], []):
                    tried = dict(base, **{name: [value] if schema["type"] == "array" else value})
                    if request(route["method"], route["path"], json.dumps(tried),
                               headers).status == 200:
                        base = tried
                        break
            route["bodies"][command] = base


def route_target(route, attacked=None, value=None, query=""):
    path = route["path"]
    for name in route["path_params"]:
        path = path.replace("{" + name + "}", value if name == attacked else
                            urllib.parse.quote(route["sample"][name], safe=""))
    return path + query


# --- known-good answers, after every batch ---

def known_good():
    """One request per era, its answer without what changes from one request to the next."""
    stardust = request("GET", "/api/core/v2/milestones/by-index/17340")
    chrysalis = request("GET", "/api/v1/milestones/16241")
    legacy = request("POST", "/", body='{"command":"getNodeInfo"}',
                     headers={"X-IOTA-API-Version": "1", "Content-Type": "application/json"})
    answers = []
    for answer in (stardust, chrysalis, legacy):
        if answer.status != 200:
            answers.append((answer.status, answer.body[:300]))
            continue
        body = answer.json()
        for volatile in ("time", "duration"):
            body.pop(volatile, None)
        answers.append((answer.status, body))
    return answers


GOOD = None


def still_serving(after):
    """The known-good requests get their answers; when the server answers none, the test ends."""
    answers = known_good()
    check(answers == GOOD, f"after {after}: the known-good requests answered {answers}")
    health = request("GET", "/health")
    check(health.status == 200, f"after {after}: /health answered {health.status}")
    if health.status is None:
        print(f"the server no longer answers after {after}: {health.body!r}")
        finish()


# --- 1. every parameter of every route ---

def attacks(routes):
    """(what, method, target, body, headers, error schema, whether a 2xx is right) of every
    attack."""
    values = attack_values()
    query_values = [v for v in values if v not in TRAVERSALS]  # (traversals: on paths)
    iri = {"X-IOTA-API-Version": "1", "Content-Type": "application/json"}
    for route in routes:
        schema, method = route["error_schema"], route["method"]
        name = f"{method} {route['path']}"
        for param in route["path_params"]:
            for value in values:
                # No attack names one of the explorer's files under /web/.
                allow_200 = route["path"] != "/web/{file}"
                yield (f"{name} {{{param}}}={value[:80]}", method,
                       route_target(route, param, value), None, {}, schema, allow_200)
        for param in route["query_params"]:
            for value in values if LONG else query_values:
                query = f"?{urllib.parse.quote(param)}={value}"
                yield (f"{name} ?{param}={value[:80]}", method, route_target(route, query=query),
                       None, {}, schema, True)
        if route["body"]:
            yield from body_attacks(route, name, iri)


def body_attacks(route, name, headers):
    """Each field of a POST body with every attack, in the body each command answers (its other
    fields as choose_bodies found them); then the command and the body itself."""
    deep = "[" * 100000 + "]" * 100000  # nested deeper than any recursion could go
    texts = SQL_ATTACKS + [v.decode("utf-8", "replace") for v in BINARY_ATTACKS]
    for command, base in route["bodies"].items():
        for field, schema in route["body"].items():
            if field == route["command_field"]:
                continue
            as_json = [json.dumps([t]) if schema["type"] == "array" else json.dumps(t)
                       for t in texts]
            as_json += [deep, "1e400", "-1", str(2 ** 64), "{}", "null", '"' + "9" * 100 + '"']
            rest = json.dumps({k: v for k, v in base.items() if k != field})
            for value in as_json:
                body = f'{rest[:-1]}, "{field}": {value}}}'
                yield (f"{name} {command} {field}={value[:80]}", route["method"], route["path"],
                       body.encode(), headers, route["error_schema"], True)
    for text in texts + ["", None, 17]:
        body = json.dumps({route["command_field"]: text})
        yield (f"{name} {route['command_field']}={str(text)[:80]}", route["method"],
               route["path"], body.encode(), headers, route["error_schema"], True)
    for body in [b"", b"{", b"[]", b"\"x\"", b"\xff\xfe", ("[" * 100000).encode(),
                 json.dumps(["\u00e9" * 200]).encode()]:
        yield (f"{name} body {body[:40]!r}", route["method"], route["path"], body, headers,
               route["error_schema"], False)
    yield (f"{name} without X-IOTA-API-Version", route["method"], route["path"],
           b'{"command":"getNodeInfo"}', {}, route["error_schema"], False)


def send_attack(attack):
    what, method, target, body, headers, schema, allow_200 = attack
    answer = request(method, target, body=body, headers=headers)
    check_answer(answer, what, schema, allow_200)
    return 1


def run_attacks(routes, pool):
    began = time.monotonic()
    sent = sum(pool.map(send_attack, attacks(routes), chunksize=64))
    params = sum(len(r["path_params"]) + len(r["query_params"]) + len(r["body"]) for r in routes)
    return (f"attacks: {sent} requests on {len(routes)} routes, {params} parameters and body "
            f"fields, in {time.monotonic() - began:.1f} s")


# --- 2. nothing reaches SQL as text; the login writes nothing ---

LEDGER_SCHEMAS = "'permanode', 'legacy', 'access', 'streams', 'permanode_remote'"


def row_counts():
    return psql(f"""
        SELECT c.oid::regclass::text, (xpath('/row/n/text()', query_to_xml(
                   format('SELECT count(*) AS n FROM %s', c.oid::regclass), false, true, '')))[1]
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
          AND n.nspname IN ({LEDGER_SCHEMAS}) ORDER BY 1""")


# What the login may run that writes: the request counts (serve --auth ucan) and a stream
# consumer group's offsets; partition_rows reads, for the status view.
WRITERS_FOR_READERS = {"access.count_request(text,bigint)",
                       "streams.commit_offset(text,text,jsonb)",
                       "streams.commit_offset(text,text,text,bigint)", "partition_rows(regclass)"}
# Volatile C functions it may run: the FDW's handler and validator, a trigger function.
C_FOR_READERS = {"fdw_handler()", "fdw_validator(text[],oid)", "partition_hints_changed()"}


def check_login_writes_nothing():
    login = "'" + LOGIN + "'"
    rights = psql(f"""
        SELECT 'table ' || c.oid::regclass || ': ' || p
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace,
             unnest(ARRAY['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'TRIGGER', 'REFERENCES']) p
        WHERE c.relkind IN ('r', 'p', 'f', 'v', 'm') AND n.nspname NOT LIKE 'pg_temp%'
          AND n.nspname NOT LIKE 'pg_toast%' AND has_table_privilege({login}, c.oid, p)
          -- (UPDATE pg_settings is SET: a parameter of the session)
          AND NOT (c.oid = 'pg_catalog.pg_settings'::regclass AND p = 'UPDATE')
        UNION ALL
        SELECT 'sequence ' || c.oid::regclass FROM pg_class c
        WHERE CASE WHEN c.relkind = 'S' THEN has_sequence_privilege({login}, c.oid, 'UPDATE') END
        UNION ALL
        SELECT 'schema ' || nspname || ': CREATE' FROM pg_namespace
        WHERE has_schema_privilege({login}, oid, 'CREATE')
        UNION ALL
        SELECT 'database: CREATE'
        WHERE has_database_privilege({login}, current_database(), 'CREATE')
        UNION ALL
        SELECT 'role: ' || rolname FROM pg_roles WHERE rolname = {login}
          AND (rolsuper OR rolcreaterole OR rolcreatedb OR rolreplication OR rolbypassrls)""")
    check(not rights, f"{LOGIN} may write: {[r[0] for r in rights]}")
    definers = {r[0] for r in psql(f"""
        SELECT p.oid::regprocedure FROM pg_proc p
        WHERE p.prosecdef AND has_function_privilege({login}, p.oid, 'EXECUTE')""")}
    check(definers <= WRITERS_FOR_READERS,
          f"{LOGIN} may run SECURITY DEFINER functions {sorted(definers - WRITERS_FOR_READERS)}")
    c_functions = {r[0] for r in psql(f"""
        SELECT p.oid::regprocedure FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
        WHERE l.lanname = 'c' AND p.provolatile = 'v'
          AND p.pronamespace <> 'pg_catalog'::regnamespace
          AND has_function_privilege({login}, p.oid, 'EXECUTE')""")}
    check(c_functions <= C_FOR_READERS,
          f"{LOGIN} may run volatile C functions {sorted(c_functions - C_FOR_READERS)}")
    return f"{LOGIN} may write nothing (SECURITY DEFINER functions it may run: {sorted(definers)})"


LOG_ENTRY = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \S+ \[\d+\] ")


def logged_entries(offset):
    """The server log's entries from `offset` on of the test database's login, each as
    (kind, text): kind LOG (a statement), DETAIL (its parameters), STATEMENT or another."""
    with open(SERVER_LOG, "rb") as log:
        log.seek(offset)
        lines = log.read().decode("utf-8", "replace").split("\n")
    entries, current = [], None
    prefix = f"{LOGIN}@{DATABASE} "
    for line in lines:
        if LOG_ENTRY.match(line):
            rest = LOG_ENTRY.sub("", line)
            current = None
            if rest.startswith(prefix):
                kind, _, text = rest[len(prefix):].partition(":  ")
                current = [kind, text]
                entries.append(current)
        elif current is not None:
            current[1] += "\n" + line
    return entries


def check_statements(offset):
    entries = logged_entries(offset)
    statement = re.compile(r"(statement|execute [^:]*|parse [^:]*|bind [^:]*): ")
    statements = [text for kind, text in entries
                  if kind == "STATEMENT" or (kind == "LOG" and statement.match(text))]
    parameters = [text for kind, text in entries if kind == "DETAIL"
                  and text.startswith("parameters:")]
    check(len(statements) > 100 and parameters,
          f"the server log holds {len(statements)} statements, {len(parameters)} parameter "
          f"lists of {LOGIN}: is log_statement 'all' on {DATABASE}?")
    hex_marker = MARKER.encode().hex()
    texts = {v for v in SQL_ATTACKS if len(v) >= 6 and not v.strip().lstrip("+-").isdigit()}
    for statement in statements:
        check(MARKER not in statement and hex_marker not in statement,
              f"an attack reached a statement's text: {statement[:300]}")
        for value in texts:
            check(value not in statement, f"{value!r} stands in a statement: {statement[:300]}")
    reached = sum(MARKER in text or hex_marker in text for text in parameters)
    return (f"{len(statements)} statements logged, none holds an attack string; {reached} of "
            f"{len(parameters)} parameter lists hold one (as bind parameters)")


# --- 3. limits ---

def expect_refusal(data, status, message, what):
    answers = parse_responses(raw_exchange(data)[0])
    if not check(len(answers) == 1, f"{what}: {len(answers)} answers"):
        return
    answer = answers[0]
    check(answer.status == status and answer.json().get("error", {}).get("message") == message,
          f"{what}: {answer.status} {answer.body[:200]!r}, not {status} {message!r}")


def expect_served(data, what):
    answers = parse_responses(raw_exchange(data)[0])
    check(len(answers) == 1 and answers[0].status == 200,
          f"{what}: {[(a.status, a.body[:200]) for a in answers]}")


def check_limits():
    close = b"Connection: close\r\n"
    # The request URI: 8192 bytes served, 8193 refused.
    base = "/health?padding="
    for size, refused in ((8192, False), (8193, True)):
        data = f"GET {base}{'a' * (size - len(base))} HTTP/1.1\r\n".encode() + close + b"\r\n"
        if refused:
            expect_refusal(data, 414, "request URI longer than 8192 bytes", "URI of 8193 bytes")
        else:
            expect_served(data, "URI of 8192 bytes")
    # A header line: 8192 bytes served, 8193 refused.
    for size, refused in ((8192, False), (8193, True)):
        line = b"X-Padding: " + b"b" * (size - 11) + b"\r\n"
        data = b"GET /health HTTP/1.1\r\n" + line + close + b"\r\n"
        if refused:
            expect_refusal(data, 400, "header line longer than 8192 bytes", "header line of 8193")
        else:
            expect_served(data, "header line of 8192 bytes")
    # The header count: 100 served, 101 refused.
    for count, refused in ((100, False), (101, True)):
        lines = b"".join(b"X-H%d: v\r\n" % i for i in range(count - 1))
        data = b"GET /health HTTP/1.1\r\n" + lines + close + b"\r\n"
        if refused:
            expect_refusal(data, 400, "more than 100 header lines", "101 header lines")
        else:
            expect_served(data, "100 header lines")
    # The legacy API's body (IRI's maxBodyLength): 1,000,000 bytes served, 1,000,001 refused.
    command = b'{"command":"getNodeInfo"}'
    for size, refused in ((1000000, False), (1000001, True)):
        body = command + b" " * (size - len(command))
        data = (b"POST / HTTP/1.1\r\nX-IOTA-API-Version: 1\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n" % size + close + b"\r\n" + body)
        if refused:
            expect_refusal(data, 413, "request body larger than 1000000 bytes", "body of 1000001")
        else:
            answers = parse_responses(raw_exchange(data)[0])
            check(len(answers) == 1 and answers[0].status == 200,
                  f"getNodeInfo in a body of 1000000 bytes: {[a.status for a in answers]}")
    return ("limits: the URI, a header line, the header count and the body at their limit are "
            "served, one byte past it refused naming it")


def slow_loris(results, index):
    """A request head sent a byte at a time, never finished: the server must answer 408 within
    its read timeout of the first byte, however the bytes keep coming."""
    began = time.monotonic()
    head = b"GET /health HTTP/1.1\r\nX-Slow: " + b"a" * 1000
    out = b""
    with socket.create_connection((HOST, PORT), timeout=0.25) as s:
        for byte in head:
            try:
                s.send(bytes([byte]))
            except OSError:
                break
            try:
                piece = s.recv(65536)
                if not piece:
                    break
                out += piece
            except socket.timeout:
                pass
            except OSError:
                break
            if time.monotonic() - began > READ_TIMEOUT + 5:
                break
    results[index] = (time.monotonic() - began, parse_responses(out))


def check_slow_loris(results):
    for seconds, answers in results:
        check(len(answers) == 1 and answers[0].status == 408,
              f"slow loris: {[(a.status, a.body[:200]) for a in answers]} after {seconds:.1f} s")
        check(READ_TIMEOUT - 0.5 <= seconds <= READ_TIMEOUT + 2.5,
              f"slow loris cut off after {seconds:.1f} s, not about {READ_TIMEOUT} s")
    return (f"{len(results)} slow lorises answered 408 after "
            f"{', '.join(f'{s:.1f}' for s, _ in results)} s")


def check_idle_connections():
    """--max-clients connections but one held idle: a request on the last is answered at
    once; those past the limit get a 503 naming it; once the idle ones close, all is served."""
    idle = [socket.create_connection((HOST, PORT)) for _ in range(MAX_CLIENTS - 1)]
    try:
        began = time.monotonic()
        connection = http.client.HTTPConnection(HOST, PORT, timeout=TIMEOUT)
        connection.request("GET", "/api/core/v2/milestones/by-index/17340")
        answer = connection.getresponse()
        answer.read()
        seconds = time.monotonic() - began
        check(answer.status == 200 and seconds < 1,
              f"with {len(idle)} idle connections: {answer.status} after {seconds:.2f} s")
        message = (f"too many connections: this server serves at most {MAX_CLIENTS} at once "
                   "(--max-clients)")
        for _ in range(3):
            answers = parse_responses(raw_exchange(b"GET /health HTTP/1.1\r\n\r\n", 5)[0])
            check(len(answers) == 1 and answers[0].status == 503
                  and answers[0].json()["error"]["message"] == message,
                  f"past --max-clients: {[(a.status, a.body[:200]) for a in answers]}")
        connection.close()
    finally:
        for s in idle:
            s.close()
    for _ in range(100):  # the server counts closed connections out a moment later
        if request("GET", "/health").status == 200:
            break
        time.sleep(0.05)
    return f"{MAX_CLIENTS - 1} idle connections held no one up; past the limit, 503"


# --- 4. malformed HTTP ---

MALFORMED = [
    b"GARBAGE\r\n\r\n", b"GET\r\n\r\n", b"GET /\r\n\r\n", b"\r\nGET / HTTP/1.1\r\n\r\n",
    b"GET / HTTP/1.1 extra\r\n\r\n", b"GET /a b HTTP/1.1\r\n\r\n", b"OPTIONS * HTTP/1.1\r\n\r\n",
    b"GET http://evil.example/ HTTP/1.1\r\n\r\n", b"GET / HTTP/2.0\r\n\r\n",
    b"GET / HTTP/1.2\r\n\r\n", b"GET / http/1.1\r\n\r\n", b"GET / HTTP/1\r\n\r\n",
    b"GET / HTTP/1.1x\r\n\r\n", b"G\x00T / HTTP/1.1\r\n\r\n", b"GET /\x00 HTTP/1.1\r\n\r\n",
    b"GET /\x7f HTTP/1.1\r\n\r\n", b"GET / HTTP/1.1\nHost: x\n\n", b"GET / HTTP/1.1\rHost: x\r\r",
    b"GET / HTTP/1.1\r\nNoColon\r\n\r\n", b"GET / HTTP/1.1\r\n: empty\r\n\r\n",
    b"GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", b"GET / HTTP/1.1\r\nX: a\rb\r\n\r\n",
    b"GET / HTTP/1.1\r\nX: a\nb\r\n\r\n", b"GET / HTTP/1.1\r\nX: a\x00b\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
    b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx",
    b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxy",
    b"POST / HTTP/1.1\r\nContent-Length: 1, 1\r\n\r\nx",
    b"POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nxx\r\n0\r\n\r\n",
    b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n\r\n",
    b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n",
    b"POST / HTTP/1.1\r\nTransfer-Encoding: identity\r\n\r\n",
    b"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
    b"POST / HTTP/1.1\r\nContent-Length: +5\r\n\r\nxxxxx",
    b"POST / HTTP/1.1\r\nContent-Length: 0x10\r\n\r\n",
    b"POST / HTTP/1.1\r\nContent-Length: 18446744073709551616\r\n\r\n",
    b"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999999\r\n\r\n",
    b"POST / HTTP/1.1\r\nContent-Length: 1000000000\r\n\r\n",
    b"POST / HTTP/1.1\r\nContent-Length: \r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(32) + b"\r\n\r\n",  # TLS ClientHello
    b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",  # HTTP/2's preface
    b"DELETE /api/core/v2/info HTTP/1.1\r\nConnection: close\r\n\r\n",
    b"GET /%zz HTTP/1.1\r\nConnection: close\r\n\r\n",
]
# A good request, then garbage on the same connection: the first is answered, then the second
# refused.
PIPELINED = [
    b"GET /health HTTP/1.1\r\n\r\n\x00\x01\x02garbage\r\n\r\n",
    b"GET /health HTTP/1.1\r\n\r\nGET / HTTP/9.9\r\n\r\n",
    b"GET /health HTTP/1.1\r\nContent-Length: 5\r\n\r\nGET /GET /health HTTP/1.1 junk\r\n\r\n",
]


def check_malformed():
    for data in MALFORMED:
        out, closed = raw_exchange(data, 5)
        answers = parse_responses(out)
        what = f"malformed {data[:60]!r}"
        check(closed, f"{what}: the connection was still open after 5 s ({out[:200]!r})")
        check(len(answers) <= 1, f"{what}: {len(answers)} answers")
        for answer in answers:
            check_answer(answer, what, ERROR_SCHEMA, allow_200=False)
    for data in PIPELINED:
        out, closed = raw_exchange(data, 5)
        answers = parse_responses(out)
        what = f"pipelined {data[:60]!r}"
        check(closed, f"{what}: the connection was still open after 5 s")
        if check(len(answers) >= 1 and answers[0].status == 200,
                 f"{what}: {[(a.status, a.body[:100]) for a in answers]}"):
            for answer in answers[1:]:
                check_answer(answer, what, ERROR_SCHEMA, allow_200=False)
    # An unfinished body, then the client closes its side: a clean close, no answer.
    out, closed = raw_exchange(b"POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc", 5, True)
    check(closed and out == b"", f"an unfinished body: {out[:200]!r}, closed {closed}")
    return (f"{len(MALFORMED) + len(PIPELINED) + 1} malformed requests: each a 4xx JSON error or "
            "a clean close")


ERROR_SCHEMA = None


def check_query_values():
    """A query value holds '=' and '+' as the URL standard reads them (httplib's own reading kept
    only what follows a value's last '=')."""
    answer = request("GET", f"/api/v1/messages?index={MARKER}=1+%2B&pageSize=1")
    index = answer.json()["data"]["index"] if answer.status == 200 else answer.body
    check(index == f"{MARKER}=1 +", f"?index={MARKER}=1+%2B read as {index!r}")
    return "query values keep their '=' and '+'"


def main():
    global GOOD, ERROR_SCHEMA
    GOOD = known_good()
    if not check(all(status == 200 for status, _ in GOOD), f"known-good requests: {GOOD}"):
        return
    check(GOOD[0][1]["index"] == 17340 and GOOD[1][1]["data"]["index"] == 16241
          and GOOD[2][1]["appName"] == "permanode", f"known-good answers: {GOOD}")
    routes = load_routes()
    ERROR_SCHEMA = next(r["error_schema"] for r in routes if r["path"] == "/health")
    counts = row_counts()
    log_offset = os.path.getsize(SERVER_LOG)

    # The slow lorises trickle in while the attacks are served.
    loris = [None] * 3
    threads = [threading.Thread(target=slow_loris, args=(loris, i)) for i in range(len(loris))]
    for thread in threads:
        thread.start()
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        choose_samples(routes, pool)
        choose_bodies(routes)
        section(run_attacks, routes, pool)
    still_serving("the attacks")
    for thread in threads:
        thread.join()
    section(check_slow_loris, loris)
    section(check_query_values)

    section(check_limits)
    still_serving("the limits")
    section(check_malformed)
    still_serving("the malformed requests")
    _local.connection.close()  # all but the idle ones are closed, and counted out
    _local.connection = None
    time.sleep(0.3)
    section(check_idle_connections)
    still_serving("the idle connections")

    time.sleep(0.2)  # the log's last lines
    section(check_statements, log_offset)
    section(check_login_writes_nothing)
    check(row_counts() == counts, "the tables' row counts changed during the attacks")
    print(f"ok row counts of {len(counts)} tables unchanged")


def finish():
    if failures:
        print(f"{len(failures)} failed")
        sys.exit(1)
    print("all passed")
    sys.exit(0)


if __name__ == "__main__":
    main()
    finish()
