#!/usr/bin/env bash
# Creates database DB on the cluster of DSN (dropping it first) holding both eras of one network
# (init 'iota', chunks of 1000 milestones): the real Chrysalis messages as the two testnet7
# milestones they form (16241-16242, range 16; the cones of client/cli/chrysalis_fixtures.cpp and
# the chrysalis_ledger regress test), then the real Shimmer fixtures (17339-17341 and 2418187,
# ranges 17 and 2418), and the read-only login permanode_http_test.
# Usage: http_load_chrysalis.sh DSN DB      (PERMANODE_FIXTURES: the Shimmer fixtures directory;
#                                             the Chrysalis ones are its sibling chrysalis/)
set -euo pipefail
dsn=$1
db=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=${PERMANODE_FIXTURES:-$root/../shared/fixtures/shimmer}
chrysalis=${PERMANODE_CHRYSALIS_FIXTURES:-$(dirname "$fixtures")/chrysalis}
psql "$dsn" -X -q -v ON_ERROR_STOP=1 \
  -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
cd "$root" # for \i of the Shimmer fixture helpers
# The Chrysalis messages travel as a psql variable: the server need not read the file.
psql "$dsn dbname=$db" -X -q -v ON_ERROR_STOP=1 -v fixtures="$fixtures" \
  -v chrysalis="$(cat "$chrysalis/chrysalis_messages.json")" -f - >/dev/null <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION permanode CASCADE;
SELECT permanode.init('iota');
SELECT count(*) FROM (SELECT permanode.set_chunk_size(table_name, 1000)
                      FROM permanode.ledger_tables) s;
CREATE TEMP TABLE chrysalis_message AS
SELECT m->>'message_id_computed' AS id, decode(m->>'message_hex', 'hex') AS raw
FROM jsonb_array_elements((:'chrysalis')::jsonb->'messages') m;
CREATE FUNCTION pg_temp.raw(prefix text) RETURNS bytea LANGUAGE sql AS $$
    SELECT raw FROM chrysalis_message WHERE id LIKE prefix || '%'
$$;
SELECT * FROM permanode.ingest_milestone(16241, 1617959712,
    ARRAY[pg_temp.raw('10dbee9c'), pg_temp.raw('30d87fa9'), pg_temp.raw('70a9a9bc'),
          pg_temp.raw('92f427d6'), pg_temp.raw('89e4d40f'), pg_temp.raw('53e5f848')],
    '{0,0,1,1,1,0}', protocol_version => 1::smallint);
SELECT * FROM permanode.ingest_milestone(16242, 1617959722, ARRAY[pg_temp.raw('1f7af3df')],
                                         '{1}', protocol_version => 1::smallint);
\i tests/regress/sql/include/fixtures.sql
SELECT ingest_test.ingest(m) FROM unnest(ARRAY[17339, 17340, 17341, 2418187]) m;
DROP SCHEMA ingest_test CASCADE;
DO $$BEGIN CREATE ROLE permanode_http_test LOGIN IN ROLE permanode_reader;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END$$;
SQL
