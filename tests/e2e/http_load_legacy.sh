#!/usr/bin/env bash
# Creates database DB on the cluster of DSN (dropping it first) holding the real legacy (ternary)
# transactions of every fixture file, confirmed as tests/e2e/http_legacy_ledger.json says: the
# Coordinator, the bundles each milestone confirmed (a transaction whose bundle is not listed is
# unconfirmed) and the snapshot balances; and the read-only login permanode_http_test.
# With --existing, DB is kept and must hold the extension already (another era's fixtures, say:
# tests/e2e/web_browser_test.sh); the legacy transactions are added to it.
# Usage: http_load_legacy.sh DSN DB [--existing]
#        (PERMANODE_LEGACY_FIXTURES: the legacy fixtures directory; else the sibling legacy/ of
#         PERMANODE_FIXTURES)
set -euo pipefail
dsn=$1
db=$2
existing=${3:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=${PERMANODE_FIXTURES:-$root/../shared/fixtures/shimmer}
legacy=${PERMANODE_LEGACY_FIXTURES:-$(dirname "$fixtures")/legacy}
ledger=$root/tests/e2e/http_legacy_ledger.json
create_extension="CREATE EXTENSION permanode CASCADE;"
if [ "$existing" = --existing ]; then
  create_extension=""
else
  psql "$dsn" -X -q -v ON_ERROR_STOP=1 \
    -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" \
    -c "CREATE DATABASE $db" >/dev/null
fi
# The files travel as psql variables read on the client (\set with backquotes): the server need
# not read them.
script=$(mktemp "${TMPDIR:-/tmp}/permanode-load-legacy.XXXXXX")
trap 'rm -f "$script"' EXIT
{
  printf '\\set ledger `cat %q`\n' "$ledger"
  for file in "$legacy"/*.json; do
    printf '\\set doc `cat %q`\n' "$file"
    echo "INSERT INTO fixture SELECT t->>'hash', t->>'trytes'
          FROM jsonb_array_elements((:'doc')::jsonb->'transactions') t;"
  done
} >"$script"
psql "$dsn dbname=$db" -X -q -v ON_ERROR_STOP=1 -f - >/dev/null <<SQL
SET client_min_messages = warning;
$create_extension
CREATE TEMP TABLE fixture (hash text, trytes text);
\i $script
SELECT legacy.configure(coordinator => ((:'ledger')::jsonb->>'coordinator')::permanode.trytes81);
SELECT legacy.load_snapshot(array_agg(key::permanode.trytes81), array_agg(value::bigint))
FROM jsonb_each_text((:'ledger')::jsonb->'snapshot');
-- The milestone that confirmed each listed bundle; the bundle hash is trytes 2349-2429.
CREATE TEMP TABLE confirmation AS
SELECT b AS bundle, (m->>'index')::int AS milestone_index
FROM jsonb_array_elements((:'ledger')::jsonb->'milestones') m,
     jsonb_array_elements_text(m->'bundles') b;
SELECT legacy.ingest(array_agg(legacy.t5b1(f.trytes)), array_agg(f.hash::permanode.trytes81),
                     array_agg(coalesce(c.milestone_index, 0)))
FROM (SELECT DISTINCT hash, trytes FROM fixture) f
LEFT JOIN confirmation c ON c.bundle = substr(f.trytes, 2350, 81);
DO \$\$BEGIN CREATE ROLE permanode_http_test LOGIN IN ROLE permanode_reader;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END\$\$;
SQL
