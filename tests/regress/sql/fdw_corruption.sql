-- A damaged archive file raises data_corrupted naming the table, and never crashes the backend.
SET search_path = regress_fdw, permanode, public;
CREATE TABLE fragile (id int NOT NULL, r int NOT NULL, payload text, PRIMARY KEY (id, r))
    PARTITION BY RANGE (r);
CREATE TABLE fragile_0 PARTITION OF fragile FOR VALUES FROM (0) TO (10);
-- A unique index on the parent forbids foreign partitions: refused before any work.
SELECT archive_partitions('fragile', 0, 10);
ALTER TABLE fragile DROP CONSTRAINT fragile_pkey;
ALTER TABLE fragile_0 ADD PRIMARY KEY (id, r);
-- Incompressible payloads, so that the rows span many blocks.
INSERT INTO fragile SELECT g, g % 10, md5(g::text) || md5((g + 1)::text) FROM generate_series(1, 20000) g;
SELECT archive_partitions('fragile', 0, 10);
SELECT count(*), sum(length(payload)) FROM fragile;

-- Sealed files are read-only (mode 400).
CREATE TEMP TABLE modes (mode text);
DO $$
DECLARE
    f record;
BEGIN
    FOR f IN SELECT 'permanode_archive/' || d.oid || '/' || s.archive || '/' || x AS path
             FROM archive_status s, pg_database d,
                  LATERAL (VALUES ('permanode_manifest.json'), ('db/CURRENT')) v(x)
             WHERE s.foreign_table = 'fragile_archive_0_10'::regclass
               AND d.datname = current_database()
    LOOP
        EXECUTE format('COPY modes FROM PROGRAM %L', 'stat -c %a ' || f.path);
    END LOOP;
END $$;
SELECT mode, count(*) FROM modes GROUP BY 1;
-- Overwrite 64 bytes in the middle of the largest SST file (the rows family), as a failing
-- disk or a stray writer could.
CREATE TEMP TABLE sst AS
SELECT 'permanode_archive/' || d.oid || '/' || s.archive || '/db/' || f AS path,
       (pg_stat_file('permanode_archive/' || d.oid || '/' || s.archive || '/db/' || f)).size AS size
FROM archive_status s, pg_database d,
     LATERAL pg_ls_dir('permanode_archive/' || d.oid || '/' || s.archive || '/db') f
WHERE s.foreign_table = 'fragile_archive_0_10'::regclass AND d.datname = current_database()
  AND f LIKE '%.sst'
ORDER BY 2 DESC LIMIT 1;
SELECT size > 100000 AS big_enough FROM sst;
DO $$
DECLARE
    f record;
BEGIN
    SELECT * INTO f FROM sst;
    EXECUTE format('COPY (SELECT 1) TO PROGRAM %L',
                   format('chmod u+w %s && head -c 64 /dev/zero | tr ''\000'' ''\125'' | dd of=%s bs=1 seek=%s conv=notrunc 2>/dev/null',
                          f.path, f.path, f.size / 2));
END $$;

-- A new session: no block of the file is cached yet.
\c
SET search_path = regress_fdw, permanode, public;
\set VERBOSITY terse
SELECT count(*), sum(length(payload)) FROM fragile;
SELECT * FROM fragile WHERE payload LIKE 'x%';
-- The SQLSTATE is data_corrupted (XX001).
DO $$
BEGIN
    PERFORM count(*) FROM fragile;
EXCEPTION WHEN data_corrupted THEN
    RAISE NOTICE 'data_corrupted: %', SQLERRM;
END $$;
SELECT verify_archive('fragile_archive_0_10');
-- Restoring cannot read it either, and leaves everything as it was.
SELECT restore_partitions('fragile_archive_0_10');
SELECT foreign_table, rows FROM archive_status WHERE foreign_table = 'fragile_archive_0_10'::regclass;
-- The backend is still alive.
SELECT 1 AS alive;
\set VERBOSITY default

-- Drop the damaged table; its directory goes with the next garbage collection.
DROP TABLE fragile;
SELECT count(*) AS removed FROM archive_gc();
