#!/usr/bin/env bash
# Creates database DB on the cluster of DSN (dropping it first) with the extensions and the real
# Shimmer fixtures (milestones 17339-17341 and 2418187, through tests/regress's fixture helpers),
# and the read-only login permanode_http_test (a member of permanode_reader).
# Usage: http_load_fixtures.sh DSN DB        (PERMANODE_FIXTURES: the fixtures directory)
set -euo pipefail
dsn=$1
db=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=${PERMANODE_FIXTURES:-$root/../shared/fixtures/shimmer}
psql "$dsn" -X -q -v ON_ERROR_STOP=1 \
  -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
psql "$dsn dbname=$db" -X -q -v ON_ERROR_STOP=1 -v fixtures="$fixtures" \
  -c "SET client_min_messages = warning" \
  -c "CREATE EXTENSION permanode CASCADE" -c "SELECT permanode.init('shimmer')" \
  -f "$root/tests/regress/sql/include/fixtures.sql" \
  -c "SELECT ingest_test.ingest(m) FROM unnest(ARRAY[17339, 17340, 17341, 2418187]) m" \
  -c "DROP SCHEMA ingest_test CASCADE" \
  -c "DO \$\$BEGIN CREATE ROLE permanode_http_test LOGIN IN ROLE permanode_reader;
      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END\$\$" >/dev/null
