#!/bin/sh
# Makes the seed archive of archive_fuzz: a small table holding every kind of column the archive
# encodes (integers, bool, uuid, text, bytea, timestamptz, jsonb, an array, numeric, NULLs), a
# dictionary column, and index families of each shape (DESC NULLS FIRST, partial, INCLUDE,
# several columns), archived by permanode_fdw and copied into OUT_DIR.
# usage: make_archive_seed.sh OUT_DIR   (PG* variables name a server with both extensions)
# The seed is checked in (tests/fuzz/archive_seed); run this again when the archive format changes.
set -eu
out=$1
db=archive_seed
export PGOPTIONS="-c client_min_messages=warning"

psql -XAtq -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
psql -XAtq -v ON_ERROR_STOP=1 -d $db <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION permanode_fdw CASCADE;
CREATE TABLE seed (
    part int NOT NULL,
    id bigint NOT NULL,
    uid uuid,
    name text,
    payload bytea,
    flag bool,
    small smallint,
    ts timestamptz,
    doc jsonb,
    tags text[],
    amount numeric
) PARTITION BY RANGE (part);
-- uniqueness per partition (a foreign partition cannot be attached under a unique index)
CREATE TABLE seed_0 PARTITION OF seed (PRIMARY KEY (part, id)) FOR VALUES FROM (0) TO (2);
CREATE TABLE seed_2 PARTITION OF seed (PRIMARY KEY (part, id)) FOR VALUES FROM (2) TO (4);
CREATE INDEX seed_uid ON seed (uid DESC NULLS FIRST);
CREATE INDEX seed_name ON seed (name) WHERE name IS NOT NULL;
CREATE INDEX seed_ts ON seed (ts) INCLUDE (small);
CREATE INDEX seed_flag_small ON seed (flag, small DESC);
INSERT INTO seed
SELECT g % 3, g,
       CASE WHEN g % 7 <> 0 THEN md5(g::text)::uuid END,
       CASE WHEN g % 5 <> 0 THEN 'a repeated name number ' || g % 4 END,
       decode(md5((g * 31)::text), 'hex') || CASE WHEN g % 9 = 0 THEN '\x00ff00'::bytea ELSE '' END,
       CASE WHEN g % 11 <> 0 THEN g % 2 = 0 END,
       (g * 37 % 1000 - 500)::smallint,
       timestamptz '2023-01-01 00:00:00+00' + g * interval '17 minutes',
       CASE WHEN g % 4 <> 0 THEN jsonb_build_object('g', g, 'odd', g % 2 = 1, 'list', jsonb_build_array(g, g * 2)) END,
       CASE WHEN g % 6 <> 0 THEN ARRAY['t' || g % 3, repeat('x', g % 40)] END,
       CASE WHEN g % 8 <> 0 THEN g * 1234.5678 - 100000 END
FROM generate_series(1, 160) g;
ANALYZE seed_0, seed_2;
SELECT permanode.archive_partitions('seed', 0, 4);
SQL
dir=$(psql -XAtq -d $db -c "SELECT current_setting('data_directory') || '/permanode_archive/' ||
    (SELECT oid FROM pg_database WHERE datname = current_database()) || '/' || o.option_value
    FROM pg_foreign_table t CROSS JOIN LATERAL pg_options_to_table(t.ftoptions) o
    WHERE o.option_name = 'archive'")
rm -rf "$out"
cp -r "$dir" "$out"
chmod -R u+w "$out"
# readers open the database with the options they are given: neither file is read
rm -f "$out/db/LOCK" "$out"/db/OPTIONS-*
psql -XAtq -d postgres -c "DROP DATABASE $db"
