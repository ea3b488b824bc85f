-- The engine is generic: the permanode extension's own fixed-length ID types (34-byte
-- output_id, 33-byte address; btree order is byte order) archive, push down and order like the
-- built-in types, without per-table code.
SET client_min_messages = warning;
DROP SCHEMA IF EXISTS regress_fdw CASCADE;
DROP EXTENSION IF EXISTS permanode CASCADE;
DROP EXTENSION IF EXISTS permanode_fdw CASCADE;
RESET client_min_messages;
CREATE EXTENSION permanode CASCADE;
CREATE SCHEMA regress_ledger;
SET search_path = regress_ledger, permanode, public;

CREATE TABLE created (
    output_id output_id NOT NULL,
    ms_range_id int NOT NULL,
    address address NOT NULL,
    ms_timestamp timestamptz NOT NULL,
    amount bigint NOT NULL
) PARTITION BY RANGE (ms_range_id);
CREATE INDEX created_by_address ON created (address, ms_timestamp DESC) INCLUDE (amount);
CREATE TABLE created_0 PARTITION OF created FOR VALUES FROM (0) TO (2);
CREATE TABLE created_1 PARTITION OF created FOR VALUES FROM (2) TO (4);
CREATE TABLE created_2 PARTITION OF created FOR VALUES FROM (4) TO (6);
ALTER TABLE created_0 ADD PRIMARY KEY (output_id, ms_range_id);
ALTER TABLE created_1 ADD PRIMARY KEY (output_id, ms_range_id);
ALTER TABLE created_2 ADD PRIMARY KEY (output_id, ms_range_id);
INSERT INTO created
SELECT ('0x' || md5(g::text) || md5((g * 7)::text) || '0000')::output_id, g / 500,
       ('0x00' || md5((g % 23)::text) || md5((g % 23 + 1)::text))::address,
       timestamptz '2023-01-01 00:00:00+00' + g * interval '1 minute', g
FROM generate_series(0, 2999) g;
SELECT pg_column_size(output_id) AS output_id_bytes, pg_column_size(address) AS address_bytes
FROM created LIMIT 1;

CREATE TABLE queries (name text PRIMARY KEY, sql text NOT NULL);
INSERT INTO queries VALUES
('point', $q$SELECT output_id::text, amount FROM created WHERE output_id = ('0x' || md5('5') || md5('35') || '0000')::output_id$q$),
('id_range', $q$SELECT output_id::text FROM created WHERE output_id >= ('0x10' || repeat('0', 66))::output_id AND output_id < ('0x20' || repeat('0', 66))::output_id ORDER BY output_id$q$),
('id_order', $q$SELECT output_id::text FROM created ORDER BY output_id DESC LIMIT 20$q$),
('address_page', $q$SELECT output_id::text, amount FROM created WHERE address = ('0x00' || md5('3') || md5('4'))::address ORDER BY ms_timestamp DESC LIMIT 15$q$),
('totals', $q$SELECT ms_range_id, count(*), sum(amount), count(DISTINCT address) FROM created GROUP BY 1 ORDER BY 1$q$);
CREATE FUNCTION run_suite() RETURNS TABLE (name text, nrows bigint, fingerprint text)
LANGUAGE plpgsql AS $$
DECLARE
    q record;
BEGIN
    FOR q IN SELECT * FROM queries ORDER BY queries.name LOOP
        name := q.name;
        EXECUTE format('SELECT count(*), md5(string_agg(s.r, %L ORDER BY s.n)) FROM '
                       '(SELECT row_number() OVER () AS n, x::text AS r FROM (%s) x) s', '|', q.sql)
            INTO nrows, fingerprint;
        RETURN NEXT;
    END LOOP;
END $$;
CREATE TABLE before AS SELECT * FROM run_suite();
SELECT name, nrows FROM before ORDER BY name;

SELECT archive_partitions('created', 0, 4) AS archived;
SELECT b.name, a.nrows = b.nrows AND a.fingerprint IS NOT DISTINCT FROM b.fingerprint AS same
FROM before b JOIN run_suite() a USING (name) ORDER BY b.name;
-- Keys of the ID types are pushed down, and their order serves ORDER BY.
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT amount FROM created_archive_0_4
WHERE output_id = ('0x' || repeat('0', 68))::output_id;
EXPLAIN (COSTS OFF) SELECT output_id FROM created_archive_0_4 ORDER BY output_id DESC LIMIT 5;
EXPLAIN (COSTS OFF) SELECT output_id, amount FROM created_archive_0_4
WHERE address = ('0x' || repeat('0', 66))::address
ORDER BY ms_timestamp DESC LIMIT 15;
RESET enable_sort;

SELECT restore_partitions('created_archive_0_4') AS restored_rows;
SELECT b.name, a.nrows = b.nrows AND a.fingerprint IS NOT DISTINCT FROM b.fingerprint AS same
FROM before b JOIN run_suite() a USING (name) ORDER BY b.name;
SELECT count(*) AS removed FROM archive_gc();

DROP SCHEMA regress_ledger CASCADE;
DROP EXTENSION permanode CASCADE;
DROP EXTENSION permanode_fdw CASCADE;
