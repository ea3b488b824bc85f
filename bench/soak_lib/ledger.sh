# Sourced by bench/soak: the soak's ledger of every era, continuing each other as `permanode demo`
# loads them (legacy, then Chrysalis whose receipts migrate the legacy bundles, then Stardust
# whose genesis carries what Chrysalis left unspent), generated for the soak's seed.
#   make_base_ledger WORK DSN SEED STARDUST_MILESTONES BASE_MILESTONES
# imports the legacy ledger (.dmp), ingests the Chrysalis one and the first BASE_MILESTONES of
# the Stardust one, and leaves the whole Stardust ledger, with the node's fields, in
# WORK/stardust.ndjson for the test INX node to confirm the rest from. Uses $cli.

# Small ranges, so that the growing ledger fills several within the hour and each is archived
# while the soak runs (chunk sizes are fixed once a table holds rows: set before any ingest).
soak_chunk_size=50
# Where each era starts: the legacy one over a month's end (two hours from June 30, 23:00: a
# month to archive, one to keep hot), Chrysalis in ranges 20-23, Stardust from range 100 on.
soak_legacy_start=100000 soak_legacy_timestamp=1561935600 # 2019-06-30T23:00:00Z
soak_chrysalis_start=1000 soak_chrysalis_milestones=200 soak_chrysalis_timestamp=1617000000
soak_stardust_start=5000 soak_stardust_timestamp=1700000000

ledger_sql() { psql "$1" -X -q -At -v ON_ERROR_STOP=1 -c "$2"; }

make_base_ledger() {
  local work=$1 dsn=$2 seed=$3 stardust_milestones=$4 base=$5 coordinator
  ledger_sql "$dsn" "SELECT permanode.set_chunk_size(table_name, $soak_chunk_size)
                     FROM permanode.ledger_tables" >/dev/null || return 1

  "$cli" generate --protocol legacy --milestones 120 --start-index $soak_legacy_start \
    --start-timestamp $soak_legacy_timestamp --seed "$seed" --snapshot "$work/legacy.snapshot" \
    -o "$work/legacy.dmp" 2>"$work/generate-legacy.log" || return 1
  coordinator=$(sed -n 's/^coordinator //p' "$work/generate-legacy.log")
  "$cli" import-dmp --dsn "$dsn" --snapshot "$work/legacy.snapshot" \
    --coordinator "$coordinator" "$work/legacy.dmp" || return 1

  # The tails of the legacy value bundles, for the Chrysalis receipts to migrate (as the demo).
  ledger_sql "$dsn" "SELECT b.transaction_hash FROM legacy.bundles b WHERE b.current_index = 0
    AND EXISTS (SELECT 1 FROM legacy.bundles i WHERE i.bundle_hash = b.bundle_hash AND i.value < 0)
    ORDER BY b.issued_at, b.transaction_hash LIMIT 500" >"$work/legacy.tails" || return 1
  "$cli" generate --protocol chrysalis --milestones $soak_chrysalis_milestones \
    --start-index $soak_chrysalis_start --start-timestamp $soak_chrysalis_timestamp \
    --blocks-per-milestone 40-90 --tx-share 0.2 --seed "$seed" \
    --migration-tails "$work/legacy.tails" --end-model "$work/chrysalis.end" \
    -o "$work/chrysalis.ndjson" 2>/dev/null || return 1
  "$cli" ingest --dsn "$dsn" --no-progress "$work/chrysalis.ndjson" || return 1

  "$cli" generate --milestones "$stardust_milestones" --start-index $soak_stardust_start \
    --start-timestamp $soak_stardust_timestamp --seed "$seed" --carry "$work/chrysalis.end" \
    --chrysalis-addresses-seed "$seed" --node-fields -o "$work/stardust.ndjson" 2>/dev/null ||
    return 1
  head -n "$base" "$work/stardust.ndjson" | "$cli" ingest --dsn "$dsn" --no-progress - || return 1
}
