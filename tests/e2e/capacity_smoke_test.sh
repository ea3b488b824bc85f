#!/usr/bin/env bash
# The capacity run (bench/capacity/run, issue 47) at a hundredth of its base, two steps, on the
# test cluster: every era grows, is archived by its policy and measured at both steps, and the
# report holds every figure and its charts. The full run is hours and stays outside CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dsn=$(sed -E 's/(^| )dbname=[^ ]*//' <<<"$PERMANODE_TEST_DSN")
work=$(mktemp -d /tmp/permanode-capacity-smoke.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "capacity_smoke: $*" >&2; exit 1; }

PERMANODE_CAPACITY_KEYS=100 PERMANODE_CAPACITY_LEGACY_PIECES=4 "$root/bench/capacity/run" --base 0.01 --steps 1,2 --dir "$work" --out "$work/out" --dsn "$dsn"

csv=$work/out/capacity.csv
# Each figure the issue names, at each step (era,"metric",tier).
expected=(
  'stardust,"ingest blocks/s (per milestone)",hot'
  'stardust,"archive rows/s (maintain)",cold'
  'stardust,"block by ID",hot' 'stardust,"block by ID",cold'
  'stardust,"output by ID",hot' 'stardust,"output by ID",cold'
  'stardust,"block of a transaction",hot' 'stardust,"block of a transaction",cold'
  'stardust,"new connection: block by ID",hot' 'stardust,"new connection: block by ID",cold'
  'stardust,"first page by address",hot' 'stardust,"first page by tag",hot'
  'stardust,"first page by address, archived ranges",cold'
  'stardust,"first page by tag, archived ranges",cold'
  'stardust,"first page by address as of a past milestone",mixed'
  'stardust,"planning, output by ID",hot' 'stardust,"planning, output by ID",cold'
  'stardust,"verify blocks/s",hot' 'stardust,"verify blocks/s",cold'
  'stardust,"disk of the partitioned tables",hot' 'stardust,"disk of the partitioned tables",cold'
  'stardust,"always-hot bytes per block",hot'
  'stardust,"locators and hints bytes per block",hot'
  'stardust,"partitioned bytes per block of the tier",cold'
  'stardust,"lookups'"'"' shared buffer hit ratio",hot'
  'server,"memory (PSS of the cluster'"'"'s processes)",all'
  'chrysalis,"ingest messages/s (per milestone)",hot'
  'chrysalis,"message by ID",hot' 'chrysalis,"message by ID",cold'
  'chrysalis,"always-hot bytes per message",hot'
  'legacy,"import-dmp transactions/s",hot'
  'legacy,"transaction trytes by hash",hot' 'legacy,"transaction trytes by hash",cold'
  'legacy,"disk of the partitioned tables",cold'
  'legacy,"archive rows/s (maintain)",cold'
  'legacy,"always-hot bytes per transaction",hot'
)
for step in 1 2; do
  for figure in "${expected[@]}"; do
    value=$(grep -F "$step,$figure," "$csv" | head -1 | awk -F, '{ print $(NF - 1) }' || true)
    [ -n "$value" ] || fail "no figure $figure at step ${step}x"
    awk -v v="$value" 'BEGIN { exit !(v > 0) }' || fail "$figure at step ${step}x is $value"
  done
done
# The ledger doubled from the first step to the second, in every era.
for size in 'stardust,"blocks"' 'chrysalis,"messages"' 'legacy,"transactions"'; do
  one=$(grep -F "1,$size," "$csv" | awk -F, '{ print $(NF - 1) }' || true)
  two=$(grep -F "2,$size," "$csv" | awk -F, '{ print $(NF - 1) }' || true)
  awk -v a="$one" -v b="$two" 'BEGIN { exit !(b > 1.8 * a && b < 2.2 * a) }' ||
    fail "$size went from $one to $two, not twice as many"
done
# The report: its table has every figure of the CSV, and each chart is a PNG it links.
rows=$(($(wc -l <"$csv") - 1))
figures=$(/usr/bin/python3 -c 'import csv, sys
print(len({(r["era"], r["metric"], r["tier"]) for r in csv.DictReader(open(sys.argv[1]))}))' "$csv")
table=$(grep -cE '^\| (stardust|chrysalis|legacy|server) \|' "$work/out/report.md")
[ "$table" -eq "$figures" ] || fail "report.md has $table figures, the CSV $figures ($rows rows)"
charts=$(grep -o '([a-z_]*\.png)' "$work/out/report.md" | tr -d '()' || true)
[ "$(wc -w <<<"$charts")" -ge 8 ] || fail "report.md links $(wc -w <<<"$charts") charts"
for chart in $charts; do
  [ "$(head -c 4 "$work/out/$chart" | tail -c 3)" = PNG ] || fail "$chart is not a PNG"
done
echo "capacity_smoke: $rows figures at 2 steps, $(wc -w <<<"$charts") charts"
