-- Permanode Range Scan: keyed lookups read range by range at execution; the results must be
-- those of the plain partitioned query (permanode.range_scan = off is the reference).
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS permanode CASCADE;
DROP EXTENSION IF EXISTS permanode_fdw CASCADE;
CREATE EXTENSION permanode CASCADE;
RESET client_min_messages;
SET search_path = public, permanode;

SELECT count(set_chunk_size(table_name, 100)) AS tables_resized FROM ledger_tables;
SELECT premake(1000, 1450, 0) AS created;
-- 600 outputs over ranges 10-14 and the pending tier, with their hint rows, as ingest keeps them.
INSERT INTO basic_outputs (output_id, ms_range_id, milestone_index, ms_timestamp, address, sender, tag, amount)
SELECT ('0x' || lpad(to_hex(g), 64, '0') || '0000')::output_id,
       CASE WHEN g % 50 = 0 THEN pending_range() ELSE 10 + g % 5 END, 1000 + (g % 5) * 100 + g % 7,
       timestamptz '2022-09-28 00:00:00+00' + (g % 13) * interval '1 minute',
       ('0x00' || lpad(to_hex(g % 7), 64, '0'))::address,
       CASE WHEN g % 3 = 0 THEN ('0x00' || lpad(to_hex(g % 4), 64, '0'))::address END,
       convert_to('tag' || g % 11, 'UTF8'), g
FROM generate_series(1, 600) g;
INSERT INTO addresses_hints SELECT DISTINCT address, 'extended', 'address', ms_range_id FROM basic_outputs;
INSERT INTO addresses_hints SELECT DISTINCT sender, 'extended', 'sender', ms_range_id
FROM basic_outputs WHERE sender IS NOT NULL;
INSERT INTO tag_hints SELECT DISTINCT tag, 'basic_output', ms_range_id FROM basic_outputs;
INSERT INTO output_locator (output_id, ms_range_id) SELECT output_id, ms_range_id FROM basic_outputs;
ANALYZE basic_outputs;

-- Runs query with and without the range scan; true when both give the same rows in the same order.
CREATE FUNCTION pg_temp.same(query text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    a text;
    b text;
BEGIN
    EXECUTE format('SELECT array_agg(r::text) FROM (%s) r', query) INTO a;
    SET LOCAL permanode.range_scan = off;
    EXECUTE format('SELECT array_agg(r::text) FROM (%s) r', query) INTO b;
    SET LOCAL permanode.range_scan = on;
    RETURN a IS NOT DISTINCT FROM b AND a IS NOT NULL;
END
$$;
CREATE FUNCTION pg_temp.plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || query LOOP
        IF line !~ 'Filter:' THEN
            RETURN NEXT line;
        END IF;
    END LOOP;
END
$$;

\set a1 '''0x000000000000000000000000000000000000000000000000000000000000000001'''
\set s2 '''0x000000000000000000000000000000000000000000000000000000000000000002'''
\set newest 'ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC'
\set oldest 'ORDER BY ms_range_id, ms_timestamp, milestone_index, output_id'

-- EXPLAIN shape: one node over the parent, no Sort under the Limit, only the ranges read.
SELECT * FROM pg_temp.plan('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' || ' ' || :'newest' || ' LIMIT 5');
SELECT * FROM pg_temp.plan('SELECT output_id FROM basic_outputs_by_tag WHERE tag = ''tag3'' ' || :'oldest' || ' LIMIT 5');
SELECT * FROM pg_temp.plan($$SELECT * FROM basic_outputs WHERE output_id = '0x00000000000000000000000000000000000000000000000000000000000000070000'$$);
SELECT * FROM pg_temp.plan($$SELECT * FROM basic_outputs WHERE output_id = '0x00000000000000000000000000000000000000000000000000000000000fffff0000'$$);

-- Same rows as the plain query.
SELECT pg_temp.same($$SELECT * FROM basic_outputs WHERE output_id = '0x00000000000000000000000000000000000000000000000000000000000000070000'$$) AS point,
       pg_temp.same($$SELECT * FROM basic_outputs WHERE output_id = '0x00000000000000000000000000000000000000000000000000000000000000640000'$$) AS point_pending,
       pg_temp.same($$SELECT count(*) FROM basic_outputs WHERE output_id = '0x00000000000000000000000000000000000000000000000000000000000fffff0000'$$) AS no_such_key,
       pg_temp.same('SELECT * FROM basic_outputs_by_address WHERE address = ' || :'a1' || ' ' || :'newest') AS all_newest,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' || ' ' || :'newest' || ' LIMIT 5') AS first_page,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' || ' ' || :'newest' || ' LIMIT 30 OFFSET 40') AS third_page,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' || ' ' || :'oldest' || ' LIMIT 30') AS oldest_first,
       pg_temp.same('SELECT output_id, ms_range_id FROM basic_outputs_by_tag WHERE tag = ''tag4'' ' || :'newest' || ' LIMIT 50') AS by_tag,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_sender WHERE sender = ' || :'s2' || ' ' || :'newest' || ' LIMIT 7') AS by_sender;
-- Keyset cursors (row comparison, or a bound on the range), filters, and orders the index lacks.
SELECT pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' ||
                    ' AND (ms_range_id, ms_timestamp, milestone_index, output_id) < (12, timestamptz ''2022-09-28 00:06:00+00'', 1203, ''0x00000000000000000000000000000000000000000000000000000000000000000000'') ' || :'newest' || ' LIMIT 10') AS cursor_before,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' ||
                    ' AND (ms_range_id, ms_timestamp, milestone_index, output_id) > (11, timestamptz ''2022-09-28 00:06:00+00'', 1103, ''0x00000000000000000000000000000000000000000000000000000000000000000000'') ' || :'oldest' || ' LIMIT 10') AS cursor_after,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' || ' AND ms_range_id < 13 AND ms_range_id >= 11 ' || :'newest') AS range_bounds,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' || ' AND amount > 300 ' || :'newest' || ' LIMIT 5') AS filtered,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' || ' ORDER BY amount DESC LIMIT 5') AS other_order,
       pg_temp.same('SELECT count(*), sum(amount) FROM basic_outputs WHERE tag = ''tag5''') AS aggregate;
SELECT * FROM pg_temp.plan('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' || ' AND ms_range_id < 13 AND ms_range_id >= 11 ' || :'newest');

-- IN lists: the ranges of every key, read in no particular order (a sort above orders them).
\set ids 'ARRAY[''0x00000000000000000000000000000000000000000000000000000000000000070000'', ''0x00000000000000000000000000000000000000000000000000000000000000640000'', ''0x00000000000000000000000000000000000000000000000000000000000000070000'', ''0x00000000000000000000000000000000000000000000000000000000000fffff0000'', NULL]::output_id[]'
SELECT pg_temp.same('SELECT * FROM basic_outputs WHERE output_id = ANY (' || :'ids' || ') ORDER BY output_id') AS id_list,
       pg_temp.same('SELECT output_id FROM basic_outputs WHERE address IN (' || :'a1' || ', ' || :'s2' || ') ORDER BY output_id') AS address_list,
       pg_temp.same('SELECT output_id FROM basic_outputs WHERE address IN (' || :'a1' || ', ' || :'s2' || ') AND ms_range_id >= 12 ORDER BY output_id') AS bounded_list,
       pg_temp.same('SELECT output_id FROM basic_outputs WHERE tag = ANY (ARRAY[''tag1'', ''tag2'']::bytea[]) ORDER BY output_id LIMIT 7') AS tag_list;
SELECT * FROM pg_temp.plan('SELECT output_id FROM basic_outputs WHERE output_id = ANY (' || :'ids' || ')');
SELECT count(*) AS none FROM basic_outputs WHERE output_id = ANY ('{}'::output_id[]);
PREPARE by_ids(output_id[]) AS SELECT count(*) FROM basic_outputs WHERE output_id = ANY ($1);
SET plan_cache_mode = force_generic_plan;
EXECUTE by_ids(ARRAY['0x00000000000000000000000000000000000000000000000000000000000000070000', '0x00000000000000000000000000000000000000000000000000000000000000080000']::output_id[]);
EXECUTE by_ids(NULL);
RESET plan_cache_mode;
DEALLOCATE by_ids;

-- A query naming its ranges is left to plan-time pruning; one that locks rows is planned by
-- PostgreSQL over every partition (the Range Scan reads, it does not lock).
SELECT * FROM pg_temp.plan('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' || ' AND ms_range_id = 12 LIMIT 1');
EXPLAIN (COSTS OFF) SELECT output_id FROM basic_outputs WHERE output_id = '0x00000000000000000000000000000000000000000000000000000000000000070000' FOR UPDATE;

-- Prepared statements: generic plans read the hints at execution.
PREPARE page(address) AS SELECT output_id FROM basic_outputs_by_address WHERE address = $1
    ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 4;
SET plan_cache_mode = force_generic_plan;
SELECT * FROM pg_temp.plan('EXECUTE page(' || :'a1' || ')');
RESET plan_cache_mode;
-- A PL/pgSQL function's cached plan, run 8 times per key, against the plain query.
CREATE FUNCTION pg_temp.page_static(a address) RETURNS output_id[] LANGUAGE plpgsql AS $$
BEGIN
    RETURN (SELECT array_agg(output_id) FROM (SELECT output_id FROM basic_outputs_by_address WHERE address = a
            ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 20) p);
END
$$;
CREATE TEMP TABLE expected_pages AS
SELECT a, (SELECT array_agg(output_id) FROM (SELECT output_id FROM basic_outputs_by_address WHERE address = a
           ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 20) p) AS ids
FROM (SELECT ('0x00' || lpad(to_hex(g), 64, '0'))::address FROM generate_series(0, 8) g) k(a)
WHERE false;
SET permanode.range_scan = off;
INSERT INTO expected_pages
SELECT a, (SELECT array_agg(output_id) FROM (SELECT output_id FROM basic_outputs_by_address WHERE address = a
           ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 20) p)
FROM (SELECT ('0x00' || lpad(to_hex(g), 64, '0'))::address FROM generate_series(0, 8) g) k(a);
RESET permanode.range_scan;
SET plan_cache_mode = force_generic_plan;
SELECT count(*) AS runs, bool_and(pg_temp.page_static(a) IS NOT DISTINCT FROM ids) AS same_pages
FROM expected_pages, generate_series(1, 8);
RESET plan_cache_mode;
SELECT count(*) AS runs, bool_and(pg_temp.page_static(a) IS NOT DISTINCT FROM ids) AS same_pages
FROM expected_pages, generate_series(1, 8);

-- Nested loops with the key from the outer side: a LATERAL page is rescanned per outer row.
\set keys '(VALUES (''0x000000000000000000000000000000000000000000000000000000000000000001''::address), (''0x000000000000000000000000000000000000000000000000000000000000000009''), (''0x000000000000000000000000000000000000000000000000000000000000000003'')) k(a)'
SELECT pg_temp.same('SELECT k.a, p.output_id FROM ' || :'keys' || ' CROSS JOIN LATERAL (SELECT output_id FROM basic_outputs_by_address b WHERE b.address = k.a ' || :'newest' || ' LIMIT 3) p') AS lateral_pages,
       pg_temp.same('SELECT k.a, b.output_id FROM ' || :'keys' || ' JOIN basic_outputs b ON b.address = k.a ORDER BY 1, 2') AS plain_join,
       pg_temp.same('SELECT o.output_id, b.amount FROM (SELECT output_id FROM output_locator ORDER BY output_id LIMIT 5) o JOIN LATERAL (SELECT amount FROM basic_outputs b WHERE b.output_id = o.output_id OFFSET 0) b ON true') AS lateral_points;
SELECT * FROM pg_temp.plan('SELECT k.a, p.output_id FROM ' || :'keys' || ' CROSS JOIN LATERAL (SELECT output_id FROM basic_outputs_by_address b WHERE b.address = k.a ' || :'newest' || ' LIMIT 3) p');

-- A hinted range without a partition is skipped; a dropped partition too.
INSERT INTO addresses_hints VALUES (:a1, 'extended', 'address', 40);
DROP TABLE basic_outputs_r000013;
SELECT pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' || ' ' || :'newest') AS missing_partitions;
SELECT * FROM pg_temp.plan('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' || ' ' || :'newest' || ' LIMIT 100');

-- A partition the node cannot index-scan itself (here a sub-partitioned one; an archive is a
-- foreign table) is read through SPI, in the index's order.
CREATE TABLE basic_outputs_r000013 PARTITION OF basic_outputs FOR VALUES FROM (13) TO (14) PARTITION BY RANGE (ms_range_id);
CREATE TABLE basic_outputs_r000013_leaf PARTITION OF basic_outputs_r000013 FOR VALUES FROM (13) TO (14);
INSERT INTO basic_outputs (output_id, ms_range_id, milestone_index, ms_timestamp, address, amount)
SELECT ('0x' || lpad(to_hex(g), 64, '0') || '0001')::output_id, 13, 1300 + g % 7,
       timestamptz '2022-09-28 00:00:00+00' + (g % 13) * interval '1 minute', :a1, g
FROM generate_series(1, 30) g;
SELECT pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' || ' ' || :'newest' || ' LIMIT 60') AS spi_newest,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' || ' ' || :'oldest' || ' LIMIT 80') AS spi_oldest;

-- A key in more ranges than a page of hints holds (the first page has 16): further pages are
-- fetched as the partitions are read, newest (or oldest) first, and a bound on the range column
-- starts the pages there.
\set a9 '''0x000000000000000000000000000000000000000000000000000000000000000009'''
SELECT premake(1500, 3499, 0) > 0 AS created_more;
INSERT INTO basic_outputs (output_id, ms_range_id, milestone_index, ms_timestamp, address, amount)
SELECT ('0x' || lpad(to_hex(g), 64, '0') || '0002')::output_id, 10 + g % 25, (10 + g % 25) * 100 + g % 7,
       timestamptz '2022-09-28 00:00:00+00' + (10 + g % 25) * interval '1 hour' + (g % 13) * interval '1 minute', :a9, g
FROM generate_series(1, 250) g;
INSERT INTO addresses_hints SELECT DISTINCT :a9::address, 'extended', 'address', 10 + g % 25
FROM generate_series(1, 250) g;
SELECT pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a9' || ' ' || :'newest' || ' LIMIT 5') AS first_page,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a9' || ' ' || :'newest') AS all_newest,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a9' || ' ' || :'oldest') AS all_oldest,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a9' || ' AND ms_range_id <= 30 ' || :'newest' || ' LIMIT 200') AS bounded_newest,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a9' || ' AND ms_range_id > 12 ' || :'oldest' || ' LIMIT 200') AS bounded_oldest;
SELECT count(*) AS rows_newest FROM (SELECT output_id FROM basic_outputs_by_address WHERE address = :a9 ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC) r;
SELECT * FROM pg_temp.plan('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a9' || ' ' || :'newest' || ' LIMIT 5');
SELECT * FROM pg_temp.plan('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a9' || ' AND ms_range_id < 20 ' || :'newest' || ' LIMIT 5');
SELECT * FROM pg_temp.plan('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a9' || ' ' || :'oldest' || ' LIMIT 200');

-- Switched off, PostgreSQL plans the lookup over every partition (26 here).
SET permanode.range_scan = off;
SELECT count(*) FILTER (WHERE line ~ 'Scan .*on basic_outputs_') AS partitions_scanned,
       count(*) FILTER (WHERE line ~ 'Permanode Range Scan') AS range_scans
FROM pg_temp.plan($$SELECT output_id FROM basic_outputs WHERE output_id = '0x00000000000000000000000000000000000000000000000000000000000000070000'$$) line;
RESET permanode.range_scan;

DROP FUNCTION pg_temp.page_static(address);
DROP TABLE expected_pages;
DROP EXTENSION permanode;
DROP EXTENSION permanode_fdw;
