-- Partition lifecycle, chunk sizes, the pending tier, partition hints and roles.
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS permanode CASCADE;
DROP EXTENSION IF EXISTS permanode_fdw CASCADE;
CREATE EXTENSION permanode CASCADE;
RESET client_min_messages;
SET search_path = public, permanode;

-- Partition names: ranges zero-padded to six digits, longer ranges in full (never cut).
SELECT partition_name('messages', 12) AS short, partition_name('messages', 1234567) AS long,
       partition_name('messages', pending_range()) AS pending;

-- EXPLAIN ANALYZE without costs or timings, and the partitions a query reads: those of its plan,
-- and those a Permanode Range Scan opened at execution (its "Read:" line).
CREATE FUNCTION pg_temp.plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || query LOOP
        RETURN NEXT line;
    END LOOP;
END
$$;
CREATE FUNCTION pg_temp.scanned(query text) RETURNS text LANGUAGE sql AS $$
    SELECT coalesce(string_agg(DISTINCT m[1], ' ' ORDER BY m[1]), '(none)')
    FROM pg_temp.plan(query) line,
         regexp_matches(CASE WHEN line ~ '^ *Read: ' THEN ' on ' || replace(line, ' ', ' on ') ELSE line END,
                        ' on ([a-z_]+_(r[0-9]+|pending))', 'g') m
$$;

-- Every table that grows with history is range-partitioned on ms_range_id; none has a DEFAULT.
SELECT t.table_name, pg_get_partkeydef(format('permanode.%I', t.table_name)::regclass) AS partition_key
FROM ledger_tables t ORDER BY 1;
SELECT count(*) AS default_partitions
FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid
WHERE c.relnamespace = 'permanode'::regnamespace AND p.partdefid <> 0;
-- The pending tier exists from the start for the tables that take pending rows.
SELECT partition FROM partitions WHERE ms_range_id = pending_range() ORDER BY 1;

-- Chunk sizes are per table and can change only while the table is empty.
SELECT count(set_chunk_size(table_name, 100)) AS tables_resized FROM ledger_tables;
SELECT set_chunk_size('basic_outputs', 0);
SELECT set_chunk_size('no_such_table', 100);

-- premake creates partitions for a milestone range ahead of ingest; it is idempotent.
SELECT premake(1000, 1250, 1) AS created;
SELECT premake(1000, 1250, 1) AS created_again;
SELECT partition, ms_range_id, tier FROM partitions
WHERE table_name = 'permanode.basic_outputs'::regclass ORDER BY ms_range_id;
SELECT ms_range_id('basic_outputs', 1234) AS range_of_1234;
-- Each hot partition has its own unique key index (a foreign partition forbids one on the parent).
SELECT indexrelid::regclass AS unique_index FROM pg_index
WHERE indrelid = 'permanode.basic_outputs_r000012'::regclass AND indisunique;
SELECT premake(10, 5);
SELECT create_partition('basic_outputs', -1);

-- Now the table has data: the chunk size is fixed.
INSERT INTO basic_outputs (output_id, ms_range_id, milestone_index, ms_timestamp, address, amount)
VALUES ('0x03ea6c370ebc0f0c36f4431d2f51d6ea84891658a70876946627dd20ad726ee00000', 12, 1234,
        '2022-09-28 17:25:06+00', 'smr1qrxfvp68v58uy2p9x4pjaayr0muxss775z6pstvwpqyw75ttmxnhvz0054z', 1000);
SELECT set_chunk_size('basic_outputs', 1000);
UPDATE ledger_tables SET chunk_size = 7 WHERE table_name = 'basic_outputs';
SELECT chunk_size FROM ledger_tables WHERE table_name = 'basic_outputs';
-- A row outside every partition is refused (no DEFAULT partition to swallow it).
INSERT INTO basic_outputs (output_id, ms_range_id, milestone_index, ms_timestamp)
VALUES ('0x03ea6c370ebc0f0c36f4431d2f51d6ea84891658a70876946627dd20ad726ee00100', 99, 9999, now());

-- The pending tier (seed 002: ms_range_id 2147483647, USING TTL 86400) expires after the TTL.
INSERT INTO basic_outputs (output_id, ms_range_id, ms_timestamp, milestone_index) VALUES
    ('0x03ea6c370ebc0f0c36f4431d2f51d6ea84891658a70876946627dd20ad726ee00200', 2147483647, now() - interval '2 days', 1300),
    ('0x03ea6c370ebc0f0c36f4431d2f51d6ea84891658a70876946627dd20ad726ee00300', 2147483647, now(), 1300);
SELECT expire_pending(interval '1 day') AS expired;
SELECT output_id FROM basic_outputs_pending;

-- Partition hints: a keyed lookup touches only the ranges its hint names.
INSERT INTO basic_outputs (output_id, ms_range_id, milestone_index, ms_timestamp, address, tag, amount)
SELECT ('0x' || lpad(to_hex(g), 64, '0') || '0000')::output_id, 10 + g % 3, 1000 + (g % 3) * 100 + g % 100,
       timestamptz '2022-09-28 00:00:00+00' + g * interval '1 minute',
       ('0x00' || lpad(to_hex(g % 5), 64, '0'))::address, convert_to('tag' || g % 4, 'UTF8'), g
FROM generate_series(1, 300) g;
INSERT INTO addresses_hints (address, output_kind, variant, ms_range_id)
SELECT DISTINCT address, 'extended', 'address', ms_range_id FROM basic_outputs WHERE address IS NOT NULL
ON CONFLICT DO NOTHING;
INSERT INTO tag_hints (tag, table_kind, ms_range_id)
SELECT DISTINCT tag, 'basic_output', ms_range_id FROM basic_outputs WHERE tag IS NOT NULL;
INSERT INTO output_locator (output_id, ms_range_id) SELECT output_id, ms_range_id FROM basic_outputs;
-- Every tag is in ranges 10-12; keep only range 11 in tag1's hint: its lookup must touch that range alone.
SELECT tag, array_agg(ms_range_id ORDER BY ms_range_id) AS ranges FROM tag_hints GROUP BY tag ORDER BY tag;
DELETE FROM tag_hints WHERE tag = 'tag1' AND ms_range_id <> 11;
SELECT pg_temp.scanned($$SELECT * FROM basic_outputs_by_tag WHERE tag = 'tag1' ORDER BY ms_timestamp DESC LIMIT 5$$) AS by_tag;
SELECT pg_temp.scanned($$SELECT * FROM basic_outputs WHERE output_id = '0x00000000000000000000000000000000000000000000000000000000000000070000'$$) AS by_output_id;
SELECT pg_temp.scanned($$SELECT * FROM basic_outputs WHERE output_id = '0x00000000000000000000000000000000000000000000000000000000000fffff0000'$$) AS unknown_output_id;
-- A query that names its range is left alone; so is one without a key.
SELECT pg_temp.scanned($$SELECT * FROM basic_outputs_by_tag WHERE tag = 'tag1' AND ms_range_id = 12$$) AS explicit_range;
SELECT pg_temp.scanned($$SELECT count(*) FROM basic_outputs WHERE amount > 5$$) AS no_key;
-- Through a prepared statement (custom plans carry the parameter's value).
PREPARE by_address(address) AS SELECT count(*) FROM basic_outputs_by_address WHERE address = $1;
EXECUTE by_address('0x000000000000000000000000000000000000000000000000000000000000000001');
DELETE FROM addresses_hints WHERE ms_range_id = 12;
SELECT pg_temp.scanned($$EXECUTE by_address('0x000000000000000000000000000000000000000000000000000000000000000001')$$) AS prepared;
SET permanode.range_scan = off;
SELECT pg_temp.scanned($$SELECT * FROM basic_outputs_by_tag WHERE tag = 'tag1'$$) AS range_scan_off;
RESET permanode.range_scan;

-- First pages newest first: the range scan reads the newest ranges until the page is full.
-- Address ...01 has 20 rows in each of ranges 10, 11 and 12.
INSERT INTO addresses_hints SELECT DISTINCT address, 'extended', 'address', ms_range_id
FROM basic_outputs WHERE address IS NOT NULL ON CONFLICT DO NOTHING;
SELECT ms_range_id, count(*) AS rows FROM basic_outputs
WHERE address = '0x000000000000000000000000000000000000000000000000000000000000000001' GROUP BY 1 ORDER BY 1;
\set page 'SELECT output_id FROM basic_outputs_by_address WHERE address = ''0x000000000000000000000000000000000000000000000000000000000000000001'''
\set newest ' ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC'
SELECT pg_temp.scanned(:'page' || :'newest' || ' LIMIT 5') AS page_of_5;
SELECT pg_temp.scanned(:'page' || :'newest' || ' LIMIT 25') AS page_of_25;
SELECT pg_temp.scanned(:'page' || :'newest' || ' LIMIT 5 OFFSET 20') AS third_page;
-- A keyset cursor: rows before (range 11, ...) keep range 11 (in part) and need range 10 too.
SELECT pg_temp.scanned(:'page' || ' AND (ms_range_id, ms_timestamp, milestone_index, output_id) < (11, now(), 0, ''0x00000000000000000000000000000000000000000000000000000000000000000000'')' || :'newest' || ' LIMIT 5') AS after_cursor;
SELECT pg_temp.scanned(:'page' || ' AND ms_range_id < 11' || :'newest' || ' LIMIT 5') AS older_than_11;
-- Oldest first reads the oldest ranges.
SELECT pg_temp.scanned(:'page' || ' ORDER BY ms_range_id, ms_timestamp LIMIT 5') AS oldest_first;
-- The page gives the same rows as without hints.
SELECT array_agg(output_id) AS page FROM (
    SELECT output_id FROM basic_outputs_by_address
    WHERE address = '0x000000000000000000000000000000000000000000000000000000000000000001'
    ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 3) p \gset hinted_
SET permanode.range_scan = off;
SELECT array_agg(output_id) = :'hinted_page' AS same_page FROM (
    SELECT output_id FROM basic_outputs_by_address
    WHERE address = '0x000000000000000000000000000000000000000000000000000000000000000001'
    ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 3) p;
RESET permanode.range_scan;
-- Not a page of the key alone: with another filter, ranges newest first until the page is full;
-- with no order on the range, every hinted range (the rows are sorted above the scan).
SELECT pg_temp.scanned(:'page' || ' AND amount > 5' || :'newest' || ' LIMIT 5') AS filtered;
SELECT pg_temp.scanned(:'page' || ' ORDER BY ms_timestamp DESC LIMIT 5') AS by_time_only;

-- Roles: readers read (BI logins, permanode_bi, read too: bi_views), only writers ingest, only
-- admins run maintenance.
-- (Logins that other test suites make in the same cluster, permanode_*_test, are not the extension's.)
SELECT rolname FROM pg_roles WHERE rolname LIKE 'permanode\_%' AND rolname NOT LIKE '%\_test' ORDER BY 1;
CREATE ROLE regress_reader LOGIN IN ROLE permanode_reader;
SET ROLE regress_reader;
SELECT count(*) > 0 AS reader_can_read FROM basic_outputs;
INSERT INTO tag_hints VALUES ('x', 'message', 1);
SELECT premake(0, 1);
RESET ROLE;
-- nor anything that stays: no large object; the writer may
CREATE ROLE regress_writer LOGIN IN ROLE permanode_writer;
SELECT current_user AS admin_user \gset
\c - regress_reader
SELECT lo_create(0);
SELECT lo_from_bytea(0, 'x');
\c - regress_writer
SELECT lo_unlink(lo_create(0)) AS writer_large_object;
\c - :admin_user
DROP ROLE regress_reader, regress_writer;

DROP EXTENSION permanode;
DROP EXTENSION permanode_fdw;
