-- Verification (#24): permanode.verify() proves that what is stored is what the network wrote,
-- on the real Chrysalis messages (testnet7 16241-16242) and the real Shimmer blocks
-- (17339-17341, 2418187): block IDs from their bytes, each milestone's rows derived again from
-- its stored cone, white-flag order, the milestones' Merkle roots. Then a stored row changed
-- (hot, and archived), a row gone, and a block's bytes changed are each reported with their
-- table, range and key.
\set VERBOSITY terse
\getenv abs_srcdir PG_ABS_SRCDIR
SET client_min_messages = warning;
DROP SCHEMA IF EXISTS verify_test, testnet7 CASCADE;
RESET client_min_messages;
\set fresh_extension :abs_srcdir '/sql/include/fresh_extension.sql'
\set ECHO none
\i :fresh_extension
\set ECHO all
SELECT init('shimmer') AS hrp;
SELECT count(*) AS chunk_sizes_set FROM (SELECT set_chunk_size(table_name, 1000) FROM ledger_tables) s;

CREATE SCHEMA verify_test;
\set testnet7_sql :abs_srcdir '/sql/include/testnet7.sql'
\set ECHO none
\i :testnet7_sql
\set ECHO all
SELECT testnet7.ingest_16241() AS outputs, testnet7.ingest_16242() AS spent;
\set ECHO none
\o /dev/null
\i :fixtures_sql
\o
\set ECHO all
SELECT count(*) AS stardust_milestones FROM (
    SELECT ingest_test.ingest(m) FROM unnest('{17339,17340,17341,2418187}'::int[]) m) s;

-- The whole ledger as stored. The Shimmer milestones whose payloads are held (17339, 17340: the
-- next cone carries each) have their real inclusion and applied Merkle roots over these cones.
-- 16241's "cone" is assembled from messages of several sources (chrysalis/SOURCES.md), not the
-- milestone's real cone, so its real inclusion Merkle proof cannot match it: verify says so.
SELECT table_name, ms_range_id, key, problem FROM verify() ORDER BY 1, 2, 3;
-- What it checked, per milestone: blocks hashed, rows derived, Merkle roots (payloads held).
SELECT c.milestone_index, count(*) FILTER (WHERE d.table_name = 'messages') AS blocks,
       count(*) FILTER (WHERE d.table_name LIKE '%outputs' AND d.table_name <> 'spent_outputs') AS outputs,
       count(*) FILTER (WHERE d.table_name = 'spent_outputs') AS spends,
       count(*) FILTER (WHERE d.table_name = 'tags') AS tags,
       count(*) FILTER (WHERE d.table_name = 'parents') AS parents,
       (SELECT count(*) FROM milestones p WHERE p.milestone_index = c.milestone_index) AS payload_held
FROM (SELECT milestone_index, array_agg(message ORDER BY white_flag_index) AS blocks,
             array_agg(inclusion_state ORDER BY white_flag_index) AS states,
             max(version)::smallint AS version, extract(epoch FROM min(ms_timestamp))::bigint AS ts
      FROM messages WHERE milestone_index IS NOT NULL GROUP BY 1) c
CROSS JOIN LATERAL verify_cone(c.milestone_index, c.ts, c.blocks, c.states, NULL, c.version,
    (SELECT payload FROM milestones p WHERE p.milestone_index = c.milestone_index)) d
GROUP BY c.milestone_index ORDER BY 1;

-- A stored output's bytes changed (hot): reported with its table, range and ID.
CREATE TABLE verify_test.victim AS
SELECT output_id, ms_range_id, data FROM basic_outputs WHERE milestone_index = 17340
ORDER BY output_id LIMIT 1;
UPDATE basic_outputs b SET data = b.data || '\x00'::bytea FROM verify_test.victim v
WHERE b.output_id = v.output_id;
SELECT v.table_name, v.ms_range_id, v.key = t.output_id::text AS its_id, v.problem
FROM verify(17, 18) v, verify_test.victim t;
UPDATE basic_outputs b SET data = t.data FROM verify_test.victim t WHERE b.output_id = t.output_id;

-- A spend gone: the blocks still derive it.
CREATE TABLE verify_test.gone AS
SELECT * FROM spent_outputs WHERE milestone_index = 17341 ORDER BY output_id LIMIT 1;
DELETE FROM spent_outputs s USING verify_test.gone g
WHERE s.output_id = g.output_id AND s.ms_range_id = g.ms_range_id;
SELECT v.table_name, v.ms_range_id, v.key = g.output_id::text AS its_id, v.problem
FROM verify(17, 18) v, verify_test.gone g;
INSERT INTO spent_outputs SELECT * FROM verify_test.gone;

-- A block's bytes changed: its ID is no longer their hash, and its rows no longer derive.
CREATE TABLE verify_test.block AS
SELECT message_id, ms_range_id, message FROM messages
WHERE milestone_index = 17340 AND variant = 'tagged_data' ORDER BY message_id LIMIT 1;
UPDATE messages m SET message = overlay(m.message placing '\xff'::bytea from length(m.message) for 1)
FROM verify_test.block b WHERE m.message_id = b.message_id AND m.ms_range_id = b.ms_range_id;
SELECT v.table_name, v.ms_range_id, v.key = b.message_id::text AS its_id, left(v.problem, 60) AS problem
FROM verify(17, 18) v, verify_test.block b ORDER BY 1, 4;
UPDATE messages m SET message = b.message
FROM verify_test.block b WHERE m.message_id = b.message_id AND m.ms_range_id = b.ms_range_id;
SELECT count(*) AS mismatches_after_repair FROM verify(17, 18);

-- Archived: a stored row changed before the range went cold is found in the cold tier.
UPDATE basic_outputs b SET data = b.data || '\x00'::bytea FROM verify_test.victim v
WHERE b.output_id = v.output_id;
SELECT table_name, rows FROM archive(17, 18) WHERE table_name IN ('basic_outputs', 'messages') ORDER BY 1;
SELECT tier FROM status WHERE table_name = 'basic_outputs' AND from_range = 17;
SELECT v.table_name, v.ms_range_id, v.key = t.output_id::text AS its_id, v.problem
FROM verify(17, 18) v, verify_test.victim t;

-- Readers may verify; bad arguments are errors.
SET ROLE permanode_reader;
SELECT count(*) AS reader_verifies FROM verify(16, 17);
RESET ROLE;
SELECT * FROM verify_cone(1, 0, '{}', '{}', NULL, 3::smallint, NULL);
SELECT * FROM verify_cone(1, 0, ARRAY['\x00'::bytea], '{0}', NULL, 2::smallint, NULL, '{}');
SELECT table_name, problem FROM verify_cone(1, 0, ARRAY['\x00'::bytea], '{0}', NULL, 2::smallint, NULL)
WHERE problem IS NOT NULL;

-- row_digest's partial states add up: the digest of two halves combined is the whole's, and
-- a parallel aggregate gives the serial one.
SELECT digest_combine(
           (SELECT row_digest(output_id_send(output_id), data) FROM basic_outputs WHERE milestone_index % 2 = 0),
           (SELECT row_digest(output_id_send(output_id), data) FROM basic_outputs WHERE milestone_index % 2 = 1))
       = (SELECT row_digest(output_id_send(output_id), data) FROM basic_outputs) AS halves_add_up,
       digest_combine(NULL, NULL) IS NULL AS nothing_is_null;
CREATE TABLE verify_test.rows AS SELECT output_id_send(output_id) AS k, data FROM basic_outputs;
CREATE FUNCTION pg_temp.plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        RETURN NEXT line;
    END LOOP;
END
$$;
CREATE TEMP TABLE serial_digest AS SELECT row_digest(k, data) AS d FROM verify_test.rows;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET force_parallel_mode = on;
SELECT count(*) AS partial_aggregates
FROM pg_temp.plan('SELECT row_digest(k, data) FROM verify_test.rows') p
WHERE p LIKE '%Partial Aggregate%';
SELECT (SELECT row_digest(k, data) FROM verify_test.rows) = d AS parallel_is_serial
FROM serial_digest;
RESET force_parallel_mode;
RESET min_parallel_table_scan_size;
RESET parallel_tuple_cost;
RESET parallel_setup_cost;

SET client_min_messages = warning;
DROP SCHEMA ingest_test, verify_test, testnet7 CASCADE;
DROP EXTENSION permanode CASCADE;
DROP EXTENSION permanode_fdw CASCADE;
