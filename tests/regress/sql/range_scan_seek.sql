-- Keyset paging (a row comparison on the index's columns after the key, as the HTTP API's
-- cursors page an address's outputs): the Range Scan starts each partition's index read at the
-- cursor, and an archive's read starts there too, so a deep page reads about a page of rows.
-- The rows must be those of the plain partitioned query (permanode.range_scan = off).
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS permanode CASCADE;
DROP EXTENSION IF EXISTS permanode_fdw CASCADE;
CREATE EXTENSION permanode CASCADE;
RESET client_min_messages;
SET search_path = public, permanode;

SELECT count(set_chunk_size(table_name, 100)) AS tables_resized FROM ledger_tables;
SELECT premake(1000, 1599, 0) AS created;
-- A busy address (a1) with 120 outputs in each of ranges 10, 11, 13 and 14 (none in 12), five
-- milestones per range and many outputs per milestone (the output ID decides among them), and
-- a quiet one (a2) in ranges 12 and 15.
INSERT INTO basic_outputs (output_id, ms_range_id, milestone_index, ms_timestamp, address, amount)
SELECT ('0x' || lpad(to_hex(g), 64, '0') || '0000')::output_id, r, r * 100 + g % 5,
       timestamptz '2022-09-28 00:00:00+00' + (r * 100 + g % 5) * interval '10 seconds',
       ('0x00' || lpad(to_hex(a), 64, '0'))::address, g
FROM (SELECT g, CASE WHEN g <= 480 THEN (ARRAY[10, 11, 13, 14])[1 + (g - 1) / 120] ELSE 12 + 3 * (g % 2) END AS r,
             CASE WHEN g <= 480 THEN 1 ELSE 2 END AS a
      FROM generate_series(1, 500) g) s;
INSERT INTO addresses_hints SELECT DISTINCT address, 'extended', 'address', ms_range_id FROM basic_outputs;
ANALYZE basic_outputs;

\set a1 '''0x000000000000000000000000000000000000000000000000000000000000000001'''
\set newest 'ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC'
\set oldest 'ORDER BY ms_range_id, ms_timestamp, milestone_index, output_id'

-- Every page of the address by cursor (size rows each, newest or oldest first), as one array of
-- output IDs: each page starts after the last row of the one before.
CREATE FUNCTION pg_temp.walk(a address, size int, newest boolean) RETURNS output_id[]
LANGUAGE plpgsql AS $$
DECLARE
    ids output_id[] := '{}';
    page record;
    last record;
    n int;
BEGIN
    SELECT * INTO last FROM (SELECT NULL::int AS r, NULL::timestamptz AS t, NULL::int AS m, NULL::output_id AS o) x;
    LOOP
        n := 0;
        FOR page IN EXECUTE format(
            'SELECT ms_range_id AS r, ms_timestamp AS t, milestone_index AS m, output_id AS o
             FROM basic_outputs_by_address WHERE address = $1 %s %s LIMIT $6',
            CASE WHEN last.r IS NULL THEN ''
                 WHEN newest THEN 'AND (ms_range_id, ms_timestamp, milestone_index, output_id) < ($2, $3, $4, $5)'
                 ELSE 'AND (ms_range_id, ms_timestamp, milestone_index, output_id) > ($2, $3, $4, $5)' END,
            CASE WHEN newest THEN 'ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC'
                 ELSE 'ORDER BY ms_range_id, ms_timestamp, milestone_index, output_id' END)
            USING a, last.r, last.t, last.m, last.o, size LOOP
            ids := ids || page.o;
            last := page;
            n := n + 1;
        END LOOP;
        EXIT WHEN n < size;
    END LOOP;
    RETURN ids;
END
$$;
-- The walk with and without the Range Scan, against the whole list in one query; true when all
-- three agree.
CREATE FUNCTION pg_temp.walks_agree(a address, size int, newest boolean) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    on_ids output_id[];
    off_ids output_id[];
    all_ids output_id[];
BEGIN
    on_ids := pg_temp.walk(a, size, newest);
    SET LOCAL permanode.range_scan = off;
    off_ids := pg_temp.walk(a, size, newest);
    EXECUTE format('SELECT array_agg(output_id %s) FROM basic_outputs_by_address WHERE address = $1',
                   CASE WHEN newest THEN 'ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC'
                        ELSE 'ORDER BY ms_range_id, ms_timestamp, milestone_index, output_id' END)
        INTO all_ids USING a;
    SET LOCAL permanode.range_scan = on;
    RETURN on_ids = off_ids AND on_ids = all_ids AND cardinality(on_ids) > 0;
END
$$;
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
    RETURN a IS NOT DISTINCT FROM b;
END
$$;
-- EXPLAIN ANALYZE without the filters' text (their rows removed stay: they count the rows read
-- and discarded).
CREATE FUNCTION pg_temp.plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || query LOOP
        IF line !~ '^\s*Filter:' THEN
            RETURN NEXT line;
        END IF;
    END LOOP;
END
$$;
-- A cursor: the row of output g of the address, as the literal of a row comparison's right side.
CREATE FUNCTION pg_temp.cursor_of(g int) RETURNS text LANGUAGE sql AS $$
    SELECT format('(%s, %L::timestamptz, %s, %L::output_id)', ms_range_id, ms_timestamp, milestone_index, output_id)
    FROM basic_outputs WHERE output_id = ('0x' || lpad(to_hex(g), 64, '0') || '0000')::output_id
$$;

-- Hot: every page, newest and oldest first, in pages of 7 and 100.
SELECT pg_temp.walks_agree(:a1, 7, true) AS newest_7, pg_temp.walks_agree(:a1, 100, true) AS newest_100,
       pg_temp.walks_agree(:a1, 7, false) AS oldest_7, pg_temp.walks_agree(:a1, 100, false) AS oldest_100;
-- A strict cursor at an existing row leaves that row out; <= keeps it, first.
SELECT pg_temp.cursor_of(250) AS c250 \gset
SELECT pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' ||
                    ' AND (ms_range_id, ms_timestamp, milestone_index, output_id) < ' || :'c250' || ' ' || :'newest' || ' LIMIT 10') AS strict_same,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' ||
                    ' AND (ms_range_id, ms_timestamp, milestone_index, output_id) <= ' || :'c250' || ' ' || :'newest' || ' LIMIT 10') AS inclusive_same,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' ||
                    ' AND (ms_range_id, ms_timestamp, milestone_index, output_id) > ' || :'c250' || ' ' || :'oldest' || ' LIMIT 10') AS strict_oldest_same;
SELECT output_id, ms_range_id, milestone_index FROM basic_outputs_by_address
WHERE address = :a1 AND (ms_range_id, ms_timestamp, milestone_index, output_id) < :c250 :newest LIMIT 3;
SELECT output_id, ms_range_id, milestone_index FROM basic_outputs_by_address
WHERE address = :a1 AND (ms_range_id, ms_timestamp, milestone_index, output_id) <= :c250 :newest LIMIT 3;
-- A cursor in a range the address has no rows in (12) goes on in the range below; a shorter
-- row (ms_range_id, ms_timestamp) seeks too.
SELECT pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' ||
                    ' AND (ms_range_id, ms_timestamp, milestone_index, output_id) < (12, now(), 1250, ''0x00000000000000000000000000000000000000000000000000000000000000000000'') ' || :'newest' || ' LIMIT 5') AS empty_range,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' ||
                    ' AND (ms_range_id, ms_timestamp) < (13, timestamptz ''2022-09-28 03:37:00+00'') ' || :'newest' || ' LIMIT 5') AS shorter_row,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' ||
                    ' AND (ms_range_id, ms_timestamp, milestone_index, output_id) < (11, NULL, 1100, NULL) ' || :'newest' || ' LIMIT 5') AS null_member;
SELECT output_id, ms_range_id, milestone_index FROM basic_outputs_by_address
WHERE address = :a1 AND (ms_range_id, ms_timestamp, milestone_index, output_id) < (12, now(), 1250, '0x00000000000000000000000000000000000000000000000000000000000000000000') :newest LIMIT 2;

-- A deep page reads its rows, not the range's rows newer than the cursor: the seek shows, and
-- no row is read and discarded (no "Rows Removed by Filter").
SELECT pg_temp.cursor_of(440) AS c440 \gset
SELECT * FROM pg_temp.plan('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' ||
                           ' AND (ms_range_id, ms_timestamp, milestone_index, output_id) < ' || :'c440' || ' ' || :'newest' || ' LIMIT 5');
-- Oldest first with >; mixed directions, or a row not led by ms_range_id, are only rechecked.
SELECT * FROM pg_temp.plan('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' ||
                           ' AND (ms_range_id, ms_timestamp, milestone_index, output_id) > ' || :'c440' || ' ' || :'oldest' || ' LIMIT 5');
SELECT * FROM pg_temp.plan('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' ||
                           ' AND (ms_range_id, ms_timestamp, milestone_index, output_id) > ' || :'c440' || ' ' || :'newest' || ' LIMIT 5');
SELECT * FROM pg_temp.plan('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' ||
                           ' AND (ms_timestamp, milestone_index) < (timestamptz ''2022-09-28 03:37:00+00'', 1302) ' || :'newest' || ' LIMIT 5');
-- A generic plan takes the cursor from parameters.
PREPARE page(address, int, timestamptz, int, output_id) AS
    SELECT output_id FROM basic_outputs_by_address WHERE address = $1
    AND (ms_range_id, ms_timestamp, milestone_index, output_id) < ($2, $3, $4, $5)
    ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 3;
SET plan_cache_mode = force_generic_plan;
SELECT format('EXECUTE page(%s, %s)', :'a1', trim(both '()' from :'c440')) AS execute_page \gset
SELECT * FROM pg_temp.plan(:'execute_page');
:execute_page;
-- A cursor that may be absent, as address_history() writes it: `$2 IS NULL OR row < (...)`.
PREPARE maybe_page(address, int, timestamptz, int, output_id) AS
    SELECT output_id FROM basic_outputs_by_address WHERE address = $1
    AND ($2 IS NULL OR (ms_range_id, ms_timestamp, milestone_index, output_id) < ($2, $3, $4, $5))
    ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 3;
SELECT format('EXECUTE maybe_page(%s, %s)', :'a1', trim(both '()' from :'c440')) AS execute_maybe_page \gset
SELECT * FROM pg_temp.plan(:'execute_maybe_page');
:execute_maybe_page;
SELECT * FROM pg_temp.plan(format('EXECUTE maybe_page(%s, NULL, NULL, NULL, NULL)', :'a1'));
EXECUTE maybe_page(:a1, NULL, NULL, NULL, NULL);
SELECT output_id FROM basic_outputs_by_address WHERE address = :a1 :newest LIMIT 3;
RESET plan_cache_mode;
DEALLOCATE page;
DEALLOCATE maybe_page;

-- Cold: ranges 10 and 11 in one archive. The walks cross from the hot ranges into it and back.
SET client_min_messages = warning;
SELECT rows FROM archive_table('basic_outputs', 10, 12);
RESET client_min_messages;
SELECT tier, count(*) FROM status WHERE table_name = 'basic_outputs' AND from_range BETWEEN 10 AND 15 GROUP BY tier ORDER BY 1;
SELECT pg_temp.walks_agree(:a1, 7, true) AS newest_7, pg_temp.walks_agree(:a1, 100, true) AS newest_100,
       pg_temp.walks_agree(:a1, 7, false) AS oldest_7, pg_temp.walks_agree(:a1, 100, false) AS oldest_100;
SELECT pg_temp.cursor_of(100) AS c100 \gset
SELECT pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' ||
                    ' AND (ms_range_id, ms_timestamp, milestone_index, output_id) < ' || :'c100' || ' ' || :'newest' || ' LIMIT 10') AS cold_strict,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' ||
                    ' AND (ms_range_id, ms_timestamp, milestone_index, output_id) <= ' || :'c100' || ' ' || :'newest' || ' LIMIT 10') AS cold_inclusive,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' ||
                    ' AND (ms_range_id, ms_timestamp, milestone_index, output_id) > ' || :'c100' || ' ' || :'oldest' || ' LIMIT 10') AS cold_oldest,
       pg_temp.same('SELECT output_id FROM basic_outputs_by_address WHERE address = ' || :'a1' ||
                    ' AND (ms_range_id, ms_timestamp, milestone_index, output_id) < (11, NULL, 1100, NULL) ' || :'newest' || ' LIMIT 5') AS cold_null_member;
SELECT output_id, ms_range_id, milestone_index FROM basic_outputs_by_address
WHERE address = :a1 AND (ms_range_id, ms_timestamp, milestone_index, output_id) < :c100 :newest LIMIT 3;
SELECT output_id, ms_range_id, milestone_index FROM basic_outputs_by_address
WHERE address = :a1 AND (ms_range_id, ms_timestamp, milestone_index, output_id) <= :c100 :newest LIMIT 3;
-- The archive itself, asked as the Range Scan asks it: the seek reaches its key, and a deep page
-- reads about a page of entries, not the rows newer than the cursor.
SELECT partition AS cold FROM status WHERE table_name = 'basic_outputs' AND tier = 'cold' \gset
SELECT count(*) AS newer_than_cursor FROM ONLY :cold WHERE address = :a1
AND (ms_range_id, ms_timestamp, milestone_index, output_id) > :c100;
SELECT * FROM pg_temp.plan(format('SELECT output_id FROM %s WHERE address = %s AND ms_range_id <= 11
    AND (ms_range_id, ms_timestamp, milestone_index, output_id) < %s %s LIMIT 5', :'cold', :'a1', :'c100', :'newest'));
SELECT * FROM pg_temp.plan(format('SELECT output_id FROM %s WHERE address = %s
    AND (ms_range_id, ms_timestamp, milestone_index, output_id) > %s %s LIMIT 5', :'cold', :'a1', :'c100', :'oldest'));
SELECT * FROM pg_temp.plan(format('SELECT output_id FROM %s WHERE address = %s
    AND (ms_range_id, ms_timestamp, milestone_index, output_id) <= %s %s LIMIT 5', :'cold', :'a1', :'c100', :'newest'));
-- Through the parent: the same rows.
SELECT output_id FROM basic_outputs_by_address WHERE address = :a1
AND (ms_range_id, ms_timestamp, milestone_index, output_id) < :c100 :newest LIMIT 5;
SELECT output_id FROM ONLY :cold WHERE address = :a1
AND (ms_range_id, ms_timestamp, milestone_index, output_id) < :c100 :newest LIMIT 5;
SELECT count(*) AS archives_restored FROM restore(0, 100);
-- (the archive left by the restore: fdw_archive counts the ones it leaves itself)
SELECT count(*) >= 1 AS archive_dir_removed FROM archive_gc();

DROP FUNCTION pg_temp.walks_agree(address, int, boolean);
DROP FUNCTION pg_temp.walk(address, int, boolean);

DROP EXTENSION permanode;
DROP EXTENSION permanode_fdw;
