#!/usr/bin/env bash
# One address across every era, end to end (#44): a database of the real legacy transactions, a
# generated Chrysalis ledger whose receipts migrate their value bundles (generate
# --migration-tails), and a generated Stardust ledger that continues it (its genesis carries the
# Chrysalis outputs unspent at the end, and the same addresses go on); the Chrysalis range is
# archived. For the address with the most outputs among those with funds migrated from a legacy
# bundle held, permanode-serve's history read page by page, its CSV and JSON-lines exports and
# `permanode export`'s equal permanode.address_history read whole in SQL; each legacy address the
# funds came from links forward (the migrations route against legacy.migrations_of); an export
# not read yet does not hold the server up; bad input answers 400 JSON (the CLI: exit 2).
# Usage: history_eras_test.sh PERMANODE_CLI PERMANODE_SERVE   (PERMANODE_TEST_DSN: the cluster)
set -euo pipefail
cli=$1
serve=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
: "${PERMANODE_TEST_DSN:?run the tests through tests/run}"
db=permanode_history_eras
dsn="$PERMANODE_TEST_DSN dbname=$db"
"$root/tests/e2e/http_load_legacy.sh" "$PERMANODE_TEST_DSN" "$db"

# psql on the database, with the extension's types and operators on the search path.
sql() { PGOPTIONS="-c search_path=permanode,public" psql "$dsn" -X -At -c "$1"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/permanode-history.XXXXXX")
. "$root/tests/e2e/serve.sh"
cleanup() {
  stop_serve
  rm -rf "$work"
}
trap cleanup EXIT

# The eras: Chrysalis milestones 1000-1059 (range 0), Stardust 20000-20039 (range 2).
sql "SELECT b.transaction_hash FROM legacy.bundles b WHERE b.current_index = 0
  AND EXISTS (SELECT 1 FROM legacy.bundles i WHERE i.bundle_hash = b.bundle_hash AND i.value < 0)
  ORDER BY b.issued_at, b.transaction_hash" >"$work/tails"
[ -s "$work/tails" ] || { echo "no legacy value bundle held"; exit 1; }
"$cli" generate --protocol chrysalis --milestones 60 --start-index 1000 --seed 5 \
  --migration-tails "$work/tails" --end-model "$work/end" -o "$work/chrysalis.ndjson" >/dev/null
"$cli" generate --milestones 40 --start-index 20000 --seed 6 --carry "$work/end" \
  --chrysalis-addresses-seed 5 -o "$work/stardust.ndjson" >/dev/null
"$cli" ingest --no-measure --dsn "$dsn" "$work/chrysalis.ndjson" >/dev/null
"$cli" ingest --no-measure --dsn "$dsn" "$work/stardust.ndjson" >/dev/null
"$cli" archive --from-range 0 --to-range 1 --dsn "$dsn" >/dev/null

# A bad era file stops at its line.
printf 'NOTAHASH\n' >"$work/bad_tails"
if "$cli" generate --protocol chrysalis --milestones 1 --migration-tails "$work/bad_tails" \
  >/dev/null 2>"$work/err"; then
  echo "a bad tails file was taken"; exit 1
fi
grep -q "bad_tails:1: not a transaction hash" "$work/err" || { cat "$work/err"; exit 1; }

address=$(sql "SELECT c.address FROM permanode.legacy_outputs c
  JOIN permanode.migrated_funds mf USING (output_id)
  JOIN legacy.transaction_locator l ON l.hash = mf.tail_transaction_hash
  WHERE NOT c.is_used AND EXISTS (SELECT 1 FROM permanode.basic_outputs b
                                  WHERE b.address = c.address AND b.milestone_index > 20000)
  GROUP BY c.address
  ORDER BY (SELECT count(*) FROM permanode.address_history(c.address, 100000)) DESC, c.address
  LIMIT 1")
[ -n "$address" ] || { echo "no address with migrated funds that goes on in Stardust"; exit 1; }
hex=$(sql "SELECT '0x' || encode(permanode.address_send('$address'), 'hex')")

# The whole history in SQL, as JSON lines (the route's field names).
sql "SELECT json_build_object('era', h.era, 'outputId', h.output_id::text,
    'kind', h.output_kind, 'milestoneIndex', h.milestone_index,
    'milestoneTimestamp', extract(epoch FROM h.ms_timestamp)::bigint,
    'amount', h.amount::text, 'blockId', h.message_id::text,
    'spent', h.spent_milestone_index, 'carried', h.carried_to_stardust_at,
    'tail', h.migrated_tail::text, 'bundle', h.migrated_bundle::text,
    'from', h.migrated_from::text[], 'range', h.ms_range_id)
  FROM permanode.address_history('$address', 1000000) h" >"$work/sql.jsonl"

start_serve "$serve" "$dsn user=permanode_http_test"
base="http://127.0.0.1:$port/api/explorer/v2"
curl -sS -f "$base/history/$address?format=csv" -o "$work/http.csv"
curl -sS -f "$base/history/$hex?format=jsonl" -o "$work/http.jsonl"
"$cli" export --dsn "$dsn" --address "$address" --format csv -o "$work/cli.csv" 2>/dev/null
"$cli" export --dsn "$dsn" --address "$hex" --format jsonl >"$work/cli.jsonl"
"$cli" export --dsn "$dsn" --address "$address" --format jsonl --from-milestone 1030 \
  --to-milestone 20010 >"$work/cli_span.jsonl"
cmp "$work/http.csv" "$work/cli.csv"
cmp "$work/http.jsonl" "$work/cli.jsonl"
if "$cli" export --dsn "$dsn" --address nonsense >/dev/null 2>"$work/err"; then
  echo "export took a bad address"; exit 1
fi
grep -q "not an address of either era" "$work/err" || { cat "$work/err"; exit 1; }


python3 - "$base" "$address" "$dsn" "$work" <<'PY'
import csv, json, socket, subprocess, sys, urllib.error, urllib.request

base, address, dsn, work = sys.argv[1:]

def get(path):
    try:
        with urllib.request.urlopen(base + path) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)

sql = [json.loads(line) for line in open(f"{work}/sql.jsonl")]
eras = {row["era"] for row in sql}
assert eras == {"chrysalis", "stardust"}, eras
assert any(row["carried"] for row in sql), "no output carried into Stardust"
assert any(row["spent"] for row in sql), "nothing spent"
migrated = [row for row in sql if row["bundle"]]
assert migrated and all(row["from"] for row in migrated), "no migration linked to legacy addresses"
assert len({row["range"] for row in sql}) > 1, "one range only"

def same(item, row):
    spent = item["spent"]["milestoneIndex"] if item["spent"] else None
    mig = item.get("migratedFrom")
    return (item["era"], item["outputId"], item["kind"], item["milestoneIndex"],
            item["milestoneTimestamp"], item["amount"], item["blockId"], spent,
            item.get("carriedToStardustAt"), mig and mig["tailTransactionHash"],
            mig and mig["bundle"], mig and mig["addresses"]) == (
            row["era"], row["outputId"], row["kind"], row["milestoneIndex"],
            row["milestoneTimestamp"], row["amount"], row["blockId"], row["spent"],
            row["carried"], row["tail"], row["bundle"], row["from"] if row["tail"] else None)

# The pages, to the end.
items, cursor, pages = [], "", 0
while True:
    status, page = get(f"/history/{address}?pageSize=97" + (f"&cursor={cursor}" if cursor else ""))
    assert status == 200, page
    items += page["items"]
    pages += 1
    cursor = page.get("cursor", "")
    if not cursor:
        break
assert pages == (len(sql) + 96) // 97, (pages, len(sql))
assert len(items) == len(sql), (len(items), len(sql))
for item, row in zip(items, sql):
    assert same(item, row), (item, row)

# The exports: the same items, in order.
lines = [json.loads(line) for line in open(f"{work}/http.jsonl")]
assert lines == items
with open(f"{work}/http.csv", newline="") as f:
    rows = list(csv.DictReader(f))
assert len(rows) == len(items)
for r, item in zip(rows, items):
    assert (r["era"], r["output_id"], int(r["milestone_index"]), r["amount"]) == (
        item["era"], item["outputId"], item["milestoneIndex"], item["amount"]), (r, item)
    assert r["spent_milestone_index"] == (str(item["spent"]["milestoneIndex"]) if item["spent"] else "")
    assert r["migrated_from"] == " ".join((item.get("migratedFrom") or {}).get("addresses", []))
span = [json.loads(line) for line in open(f"{work}/cli_span.jsonl")]
assert span == [i for i in items if 1030 <= i["milestoneIndex"] <= 20010] and span

# Each legacy address the funds came from links forward to this address.
legacy = sorted({a for row in migrated for a in row["from"]})
for a in legacy:
    status, body = get(f"/legacy/addresses/{a}/migrations")
    assert status == 200, body
    out = subprocess.run(["psql", dsn + " options='-c search_path=permanode,public'", "-X", "-At", "-c",
        f"SELECT json_agg(json_build_object('outputId', output_id::text, 'bundle', bundle::text, "
        f"'amount', amount::text, 'milestoneIndex', milestone_index)) "
        f"FROM legacy.migrations_of('{a}')"], check=True, capture_output=True, text=True).stdout
    expected = json.loads(out)
    got = [{k: m[k] for k in ("outputId", "bundle", "amount", "milestoneIndex")}
           for m in body["migrations"]]
    assert got == expected, (a, got, expected)
    mine = {row["outputId"] for row in migrated if a in row["from"]}
    assert mine <= {m["outputId"] for m in body["migrations"]}, a

# An export whose client has not read it yet holds no other request up; read then, it is whole
# (a chunked body ending in its last chunk).
host, port = base.split("//")[1].split("/")[0].split(":")
with socket.create_connection((host, int(port))) as slow:
    slow.sendall(f"GET /api/explorer/v2/history/{address}?format=jsonl HTTP/1.1\r\n"
                 "Host: test\r\nConnection: close\r\n\r\n".encode())
    received = slow.recv(1)
    status, page = get(f"/history/{address}?pageSize=1")
    assert status == 200 and len(page["items"]) == 1, (status, page)
    while chunk := slow.recv(65536):
        received += chunk
head, _, body = received.partition(b"\r\n\r\n")
assert b"Transfer-Encoding: chunked" in head, head
decoded = b""
while True:
    size_line, _, body = body.partition(b"\r\n")
    size = int(size_line, 16)
    if size == 0:
        break
    decoded, body = decoded + body[:size], body[size + 2:]
assert decoded == open(f"{work}/http.jsonl", "rb").read()

# Bad input: 400 with a JSON error naming the parameter.
for path, name in [("/history/nonsense", "address"), (f"/history/{address}?format=xml", "format"),
                   (f"/history/{address}?fromMilestone=9&toMilestone=3", "toMilestone"),
                   (f"/history/{address}?cursor=x", "cursor"),
                   ("/legacy/addresses/ABC/migrations", "address")]:
    status, body = get(path)
    assert status == 400 and name in body["error"]["message"], (path, status, body)
print(f"ok: {len(items)} outputs of {address} in {pages} pages, {len(migrated)} migrated from "
      f"{len(legacy)} legacy addresses")
PY

# A Chrysalis output that the Stardust genesis carried on under its ID has a row of each era: the
# v1 API answers its Chrysalis booking, unspent at the era's end (milestone 1059), the core API its
# Stardust one; the v1 balance and outputs of its address count it, as balance_at does there.
carried=$(sql "SELECT c.output_id FROM permanode.legacy_outputs c
  JOIN permanode.basic_outputs b USING (output_id) WHERE NOT c.is_used ORDER BY 1 LIMIT 1")
[ -n "$carried" ] || { echo "no output carried into Stardust"; exit 1; }
owner=$(sql "SELECT address FROM permanode.legacy_outputs WHERE output_id = '$carried'")
v1=http://127.0.0.1:$port/api/v1
curl -sS -f "$v1/outputs/${carried#0x}" |
  jq -e '.data.isSpent == false and .data.ledgerIndex == 1059' >/dev/null ||
  { echo "v1 output $carried: $(curl -s "$v1/outputs/${carried#0x}")"; exit 1; }
curl -sS -f "http://127.0.0.1:$port/api/core/v2/outputs/$carried/metadata" |
  jq -e '.milestoneIndexBooked == 20000' >/dev/null || { echo "core output $carried"; exit 1; }
balance=$(sql "SELECT balance FROM permanode.balance_at('$owner', 1059) WHERE output_kind = 'legacy'")
[ "$(curl -sS -f "$v1/addresses/$owner" | jq .data.balance)" = "$balance" ] ||
  { echo "v1 balance of $owner: $(curl -s "$v1/addresses/$owner"), balance_at $balance"; exit 1; }
curl -sS -f "$v1/addresses/$owner/outputs" | jq -e --arg id "${carried#0x}" \
  '.data.outputIds | index($id) != null' >/dev/null ||
  { echo "v1 outputs of $owner lack $carried"; exit 1; }
echo "ok: the carried output $carried in both eras"

# A Chrysalis output spent in another range than its own (carried on by the genesis, then spent in
# Stardust, range 2): a lookup by output_id finds both its rows, its creation (range 0, archived)
# and its spend, as a scan of every partition does.
spent_later=$(sql "SELECT output_id FROM permanode.legacy_outputs WHERE is_used
  AND milestone_index >= 20000 ORDER BY 1 LIMIT 1")
[ -n "$spent_later" ] || { echo "no Chrysalis output spent in Stardust"; exit 1; }
[ "$(sql "SELECT string_agg(ms_range_id || ':' || is_used, ' ' ORDER BY ms_range_id)
          FROM permanode.legacy_outputs WHERE output_id = '$spent_later'")" = "0:false 2:true" ] ||
  { echo "legacy_outputs of $spent_later by output_id: $(sql "SELECT ms_range_id, is_used
      FROM permanode.legacy_outputs WHERE output_id = '$spent_later'")"; exit 1; }
echo "ok: $spent_later's rows in both ranges"
