-- Administration of archived partitions: options, writes, ANALYZE, status, verification,
-- cancellation.
SET search_path = regress_fdw, permanode, public;

-- The validator rejects unknown options and lists the valid ones.
ALTER FOREIGN TABLE outputs_archive_0_4 OPTIONS (ADD compression 'lz4');
CREATE SERVER regress_bad FOREIGN DATA WRAPPER permanode_fdw OPTIONS (path '/tmp');
ALTER FOREIGN TABLE outputs_archive_0_4 OPTIONS (SET archive '../elsewhere');
ALTER FOREIGN TABLE outputs_archive_0_4 OPTIONS (SET row_count 'many');
ALTER FOREIGN TABLE outputs_archive_0_4 OPTIONS (SET indexes 'i1:x:1a');
-- Options name files on the server: only superusers may set them.
CREATE ROLE regress_fdw_user;
GRANT USAGE ON SCHEMA regress_fdw, permanode TO regress_fdw_user;
GRANT USAGE ON FOREIGN SERVER permanode_archive TO regress_fdw_user;
GRANT CREATE ON SCHEMA regress_fdw TO regress_fdw_user;
SET ROLE regress_fdw_user;
CREATE FOREIGN TABLE mine (a int) SERVER permanode_archive OPTIONS (archive 'x');
CREATE FOREIGN TABLE mine (a int) SERVER permanode_archive;
SELECT * FROM mine;
SELECT archive_partitions('outputs', 8, 10);
DROP FOREIGN TABLE mine;
RESET ROLE;

-- Writes that reach an archived partition fail with a hint to restore it.
INSERT INTO outputs (output_id, ms_range_id, milestone_index, ms_timestamp, address, amount, is_spent)
VALUES ('\x01', 1, 50, now(), '\x02', 1, false);
UPDATE outputs SET amount = 0 WHERE ms_range_id = 3;
DELETE FROM outputs WHERE ms_range_id = 5;
DELETE FROM outputs_archive_0_4;
COPY outputs_archive_0_4 (output_id) FROM stdin;
\x01
\.
-- Writes pruned away from the archives work as usual.
INSERT INTO outputs (output_id, ms_range_id, milestone_index, ms_timestamp, address, amount, is_spent)
VALUES ('\x01', 9, 450, '2023-01-05', '\x02', 1, false);
UPDATE outputs SET amount = 2 WHERE ms_range_id = 9 AND output_id = '\x01';
DELETE FROM outputs WHERE ms_range_id = 9 AND output_id = '\x01' RETURNING amount;

-- Before ANALYZE the planner takes the archive's row count from the options; after, from the
-- statistics ANALYZE gathered by sampling the archive.
-- (EXPLAIN without costs, keeping the row estimate)
CREATE FUNCTION explain_rows(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN ' || query LOOP
        RETURN NEXT regexp_replace(line, 'cost=\S+ ', '');
    END LOOP;
END $$;
SELECT relname, reltuples FROM pg_class WHERE relname = 'outputs_archive_0_4';
SELECT explain_rows($$SELECT * FROM outputs_archive_0_4$$);
SELECT explain_rows($$SELECT * FROM outputs_archive_0_4 WHERE ms_range_id >= 0$$);
ANALYZE outputs_archive_0_4;
SELECT relname, reltuples FROM pg_class WHERE relname = 'outputs_archive_0_4';
SELECT attname, n_distinct, null_frac > 0 AS has_nulls FROM pg_stats
WHERE tablename = 'outputs_archive_0_4' AND attname IN ('ms_range_id', 'tag', 'is_spent')
ORDER BY attname;
-- Statistics make estimates follow the data: 500 rows per ms_range_id, 145 with tag3.
SELECT explain_rows($$SELECT * FROM outputs_archive_0_4 WHERE ms_range_id = 2$$);
SELECT explain_rows($$SELECT * FROM outputs_archive_0_4 WHERE tag = 'tag3'$$);

-- Status: one row per archived partition, from the catalog.
SELECT foreign_table, parent_table, range_from, range_to, rows FROM archive_status ORDER BY range_from;
SELECT bool_and(bytes BETWEEN 10000 AND 10000000) AS plausible_bytes FROM archive_status;

-- Verification re-reads the archive: block checksums and the row checksum.
SELECT verify_archive('outputs_archive_0_4') AS rows_verified;
SELECT verify_archive('outputs_p4');

-- A long cold scan can be cancelled.
SET statement_timeout = '200ms';
SELECT count(*) FROM outputs_archive_0_4 a, outputs_archive_4_8 b, generate_series(1, 100) g
WHERE a.amount + b.amount + g = -1;
RESET statement_timeout;
-- The backend is fine afterwards.
SELECT count(*) FROM outputs_archive_0_4;

-- The archive root and skipping unarchivable indexes are superuser settings; the crash hook is
-- hidden and superuser-only too.
SELECT name, context FROM pg_settings WHERE name LIKE 'permanode_fdw.%' ORDER BY name;
SET ROLE regress_fdw_user;
SET permanode_fdw.archive_root = '/tmp';
SET permanode_fdw.debug_crash_at = 'after_write';
RESET ROLE;
REVOKE ALL ON SCHEMA regress_fdw, permanode FROM regress_fdw_user;
REVOKE ALL ON FOREIGN SERVER permanode_archive FROM regress_fdw_user;
DROP ROLE regress_fdw_user;
