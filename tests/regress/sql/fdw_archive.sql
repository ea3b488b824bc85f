-- Archiving ranges of a partitioned table into RocksDB and reading them back: the same query
-- suite gives the same answers before and after archiving, and after restoring.
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS permanode CASCADE;
DROP EXTENSION IF EXISTS permanode_fdw CASCADE;
RESET client_min_messages;
CREATE EXTENSION permanode_fdw;
CREATE SCHEMA regress_fdw;
SET search_path = regress_fdw, permanode, public;

-- An outputs-like table: bytea IDs, ints, timestamps, text (some of it toasted), uuid (a
-- fixed-length pass-by-reference type), bool, jsonb and date. The parent has no unique index
-- (a foreign partition forbids one); each partition has its own primary key.
CREATE TABLE outputs (
    output_id bytea NOT NULL,
    ms_range_id int NOT NULL,
    milestone_index int NOT NULL,
    ms_timestamp timestamptz NOT NULL,
    address bytea NOT NULL,
    amount bigint NOT NULL,
    tag text,
    token uuid,
    is_spent bool NOT NULL,
    meta jsonb,
    day date
) PARTITION BY RANGE (ms_range_id);
CREATE INDEX outputs_by_address ON outputs
    (address, ms_timestamp DESC, milestone_index DESC, output_id) INCLUDE (amount);
CREATE INDEX outputs_by_tag ON outputs (tag);
CREATE INDEX outputs_by_token ON outputs (token NULLS FIRST);
CREATE INDEX outputs_by_day ON outputs (day, amount DESC);
CREATE INDEX outputs_by_meta ON outputs ((meta->>'g'));  -- an expression: not archived
DO $$
BEGIN
    FOR i IN 0..5 LOOP
        EXECUTE format('CREATE TABLE outputs_p%s PARTITION OF outputs FOR VALUES FROM (%s) TO (%s)',
                       i, i * 2, i * 2 + 2);
        EXECUTE format('ALTER TABLE outputs_p%s ADD PRIMARY KEY (output_id, ms_range_id)', i);
    END LOOP;
END $$;
INSERT INTO outputs
SELECT decode(md5(g::text) || md5((g * 7)::text), 'hex'), g / 500, g / 50,
       timestamptz '2023-01-01 00:00:00+00' + g * interval '1 minute',
       decode(md5((g % 37)::text), 'hex'), g * 1000,
       CASE WHEN g % 5 = 0 THEN NULL ELSE 'tag' || (g % 11) END,
       CASE WHEN g % 4 = 0 THEN NULL ELSE md5((g % 13)::text)::uuid END,
       g % 3 = 0,
       CASE WHEN g % 97 = 0
            THEN jsonb_build_object('g', g, 'h', g % 7, 'blob',
                                    (SELECT string_agg(md5(g::text || i), '') FROM generate_series(1, 200) i))
            ELSE jsonb_build_object('g', g, 'h', g % 7) END,
       date '2023-01-01' + g / 1000
FROM generate_series(0, 5999) g;
-- Values stored out of line (toasted: 6400 bytes of hex) must come back whole.
SELECT count(*) AS blobs, count(*) FILTER (WHERE pg_column_size(meta) > 6400) AS out_of_line
FROM outputs WHERE length(meta->>'blob') = 6400;
CREATE TABLE lookup AS
SELECT output_id, ms_range_id FROM outputs WHERE milestone_index % 7 = 3 AND amount % 13000 = 0;
ANALYZE outputs, lookup;

-- The query suite. Unordered results are compared as sets, ordered ones in order.
CREATE TABLE queries (name text PRIMARY KEY, ordered bool NOT NULL, sql text NOT NULL);
INSERT INTO queries VALUES
('point', false, $q$SELECT * FROM outputs WHERE output_id = decode(md5('5') || md5('35'), 'hex')$q$),
('point_missing', false, $q$SELECT * FROM outputs WHERE output_id = '\x00'$q$),
('point_with_range', false, $q$SELECT * FROM outputs WHERE output_id = decode(md5('1234') || md5('8638'), 'hex') AND ms_range_id = 2$q$),
('point_wrong_range', false, $q$SELECT * FROM outputs WHERE output_id = decode(md5('1234') || md5('8638'), 'hex') AND ms_range_id = 3$q$),
('output_id_prefix_range', false, $q$SELECT output_id, amount FROM outputs WHERE output_id >= '\x10' AND output_id < '\x12'$q$),
('timestamp_range', false, $q$SELECT output_id, ms_timestamp FROM outputs WHERE ms_timestamp >= '2023-01-02 10:00+00' AND ms_timestamp < '2023-01-02 11:30+00'$q$),
('address_first_page', true, $q$SELECT output_id, ms_timestamp, milestone_index, amount FROM outputs WHERE address = decode(md5('3'), 'hex') ORDER BY ms_timestamp DESC, milestone_index DESC, output_id LIMIT 10$q$),
('address_next_page', true, $q$SELECT output_id, ms_timestamp, amount FROM outputs WHERE address = decode(md5('3'), 'hex') AND ms_timestamp < '2023-01-03 12:00+00' ORDER BY ms_timestamp DESC, milestone_index DESC, output_id LIMIT 10$q$),
('address_cold_pages', true, $q$SELECT output_id, ms_timestamp FROM outputs WHERE address = decode(md5('8'), 'hex') AND ms_range_id < 8 ORDER BY ms_timestamp DESC, milestone_index DESC, output_id LIMIT 25 OFFSET 20$q$),
('address_oldest_first', true, $q$SELECT output_id, ms_timestamp FROM outputs WHERE address = decode(md5('8'), 'hex') ORDER BY ms_timestamp, milestone_index, output_id DESC LIMIT 10$q$),
('newest_everywhere', true, $q$SELECT output_id, ms_timestamp FROM outputs ORDER BY ms_timestamp DESC LIMIT 5$q$),
('by_output_id', true, $q$SELECT output_id, ms_range_id FROM outputs ORDER BY output_id LIMIT 12$q$),
('by_output_id_desc', true, $q$SELECT output_id, ms_range_id FROM outputs ORDER BY output_id DESC LIMIT 12$q$),
('tag_equal', false, $q$SELECT output_id, tag FROM outputs WHERE tag = 'tag3'$q$),
('tag_null', false, $q$SELECT output_id FROM outputs WHERE tag IS NULL AND ms_range_id < 9$q$),
('blob', false, $q$SELECT output_id, length(meta->>'blob'), md5(meta->>'blob') FROM outputs WHERE meta ? 'blob'$q$),
('token_equal', false, $q$SELECT output_id, token FROM outputs WHERE token = md5('4')::uuid$q$),
('day_range', false, $q$SELECT output_id, day, amount FROM outputs WHERE day >= '2023-01-02' AND day <= '2023-01-03' AND amount > 1500000$q$),
('cross_type_int', false, $q$SELECT output_id FROM outputs WHERE milestone_index = 17::bigint AND amount < 860000::int$q$),
('range_pruning', false, $q$SELECT ms_range_id, count(*) FROM outputs WHERE ms_range_id BETWEEN 1 AND 6 GROUP BY 1$q$),
('range_pruning_open', false, $q$SELECT count(*), sum(amount) FROM outputs WHERE ms_range_id > 2 AND ms_range_id < 5$q$),
('join_lookup', false, $q$SELECT l.output_id, o.amount, o.ms_range_id FROM lookup l JOIN outputs o ON o.output_id = l.output_id$q$),
('join_lookup_range', false, $q$SELECT o.amount FROM lookup l JOIN outputs o ON o.output_id = l.output_id AND o.ms_range_id = l.ms_range_id$q$),
('aggregates', false, $q$SELECT ms_range_id, count(*), sum(amount), count(tag), count(token), bool_or(is_spent), min(day), max(ms_timestamp) FROM outputs GROUP BY 1$q$),
('jsonb', false, $q$SELECT output_id, meta FROM outputs WHERE meta->>'h' = '3' AND milestone_index < 40$q$),
('everything', false, $q$SELECT * FROM outputs$q$);

CREATE FUNCTION run_suite() RETURNS TABLE (name text, nrows bigint, fingerprint text)
LANGUAGE plpgsql AS $$
DECLARE
    q record;
BEGIN
    FOR q IN SELECT * FROM queries ORDER BY queries.name LOOP
        name := q.name;
        IF q.ordered THEN
            EXECUTE format('SELECT count(*), md5(string_agg(s.r, %L ORDER BY s.n)) FROM '
                           '(SELECT row_number() OVER () AS n, x::text AS r FROM (%s) x) s', '|', q.sql)
                INTO nrows, fingerprint;
        ELSE
            EXECUTE format('SELECT count(*), md5(string_agg(x::text, %L ORDER BY x::text)) FROM (%s) x',
                           '|', q.sql)
                INTO nrows, fingerprint;
        END IF;
        RETURN NEXT;
    END LOOP;
END $$;

CREATE TABLE before AS SELECT * FROM run_suite();
SELECT name, nrows FROM before ORDER BY name;

-- Archive ranges [0, 4) (two partitions) and [4, 8) (two more) into two archives.
-- An index the archiver cannot keep (the expression index) stops archiving before anything is
-- written, naming it; the setting archives without it.
SELECT archive_partitions('outputs', 0, 4) AS archived;
SELECT count(*) AS archives FROM archive_status;
SET permanode_fdw.skip_unarchivable_indexes = on;
SELECT archive_partitions('outputs', 0, 4) AS archived;
SELECT archive_partitions('outputs', 4, 8) AS archived;
SELECT c.relname, c.relkind, pg_get_expr(c.relpartbound, c.oid) AS bounds
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = 'outputs'::regclass ORDER BY c.relname;
SELECT foreign_table, parent_table, range_from, range_to, rows, bytes > 0 AS has_bytes,
       archive ~ ('^outputs_' || range_from || '_' || range_to || '_') AS archive_named
FROM permanode.archive_status ORDER BY range_from;
-- The archive directories live under the data directory, per database, sealed by a manifest.
SELECT count(*) AS archive_dirs
FROM pg_ls_dir('permanode_archive/' || (SELECT oid FROM pg_database WHERE datname = current_database())) d
WHERE d LIKE 'outputs_%';
SELECT (pg_read_file('permanode_archive/' || (SELECT oid FROM pg_database WHERE datname = current_database())
        || '/' || archive || '/permanode_manifest.json')::jsonb) #> '{rows,name}' AS row_key,
       jsonb_path_query_array(pg_read_file('permanode_archive/' || (SELECT oid FROM pg_database WHERE datname = current_database())
        || '/' || archive || '/permanode_manifest.json')::jsonb, '$.indexes[*].name') AS indexes
FROM permanode.archive_status WHERE range_from = 0;

-- Same answers from the cold tier.
CREATE TABLE after_archive AS SELECT * FROM run_suite();
SELECT b.name, b.nrows, a.nrows = b.nrows AND a.fingerprint IS NOT DISTINCT FROM b.fingerprint AS same
FROM before b JOIN after_archive a USING (name) ORDER BY b.name;

-- Restore one archive: heap partitions come back with their own primary keys and the parent's
-- indexes, and the answers stay the same.
SELECT restore_partitions('outputs_archive_4_8') AS restored_rows;
SELECT c.relname, c.relkind, pg_get_expr(c.relpartbound, c.oid) AS bounds
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = 'outputs'::regclass ORDER BY c.relname;
SELECT indexrelid::regclass AS index, indisprimary
FROM pg_index WHERE indrelid = 'outputs_p2'::regclass ORDER BY 1::text;
CREATE TABLE after_restore AS SELECT * FROM run_suite();
SELECT count(*) AS queries, count(*) FILTER (WHERE a.nrows = b.nrows AND a.fingerprint IS NOT DISTINCT FROM b.fingerprint) AS same
FROM before b JOIN after_restore a USING (name);
-- The restored range archives again (into a new directory), and the old one is garbage.
SELECT archive_partitions('outputs', 4, 8) AS archived;
SELECT count(*) AS removed FROM permanode.archive_gc();
SELECT count(*) AS removed_again FROM permanode.archive_gc();
CREATE TABLE after_rearchive AS SELECT * FROM run_suite();
SELECT count(*) AS queries, count(*) FILTER (WHERE a.nrows = b.nrows AND a.fingerprint IS NOT DISTINCT FROM b.fingerprint) AS same
FROM before b JOIN after_rearchive a USING (name);

-- Invalid requests.
SELECT archive_partitions('outputs', 8, 9);       -- cuts partition [8, 10)
SELECT archive_partitions('outputs', 2, 6);       -- overlaps an archive
SELECT archive_partitions('outputs', 12, 14);     -- no partition there
SELECT archive_partitions('outputs', 9, 9);       -- empty range
SELECT archive_partitions('lookup', 0, 2);        -- not partitioned
SELECT restore_partitions('outputs_p4');          -- not archived
CREATE TABLE nokey (id int, r int) PARTITION BY RANGE (r);
CREATE TABLE nokey_0 PARTITION OF nokey FOR VALUES FROM (0) TO (1);
SELECT archive_partitions('nokey', 0, 1);         -- nothing to key rows by
-- Nothing changed by the failures.
SELECT count(*) FROM outputs;
