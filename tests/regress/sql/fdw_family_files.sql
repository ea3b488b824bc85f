-- Readers open each family's SST file directly, as the manifest names it. Archives sealed before
-- manifests named their files read the same (the reader learns the files from the database), and
-- a manifest that names a file wrongly is data_corrupted, never a crash or a file elsewhere.
SET search_path = regress_fdw, permanode, public;
CREATE TABLE shelf (id int NOT NULL, r int NOT NULL, label text NOT NULL, payload text)
    PARTITION BY RANGE (r);
CREATE TABLE shelf_0 PARTITION OF shelf FOR VALUES FROM (0) TO (10);
CREATE INDEX shelf_label ON shelf_0 (label);
-- a partial index: a family with fewer entries than the rows
CREATE INDEX shelf_payload ON shelf_0 (payload) WHERE payload IS NOT NULL;
ALTER TABLE shelf_0 ADD PRIMARY KEY (id, r);
INSERT INTO shelf SELECT g, g % 10, 'label ' || (g % 7), CASE WHEN g % 3 > 0 THEN md5(g::text) END
FROM generate_series(1, 3000) g;
-- What the tests below keep across sessions.
CREATE TABLE shelf_answers AS
SELECT count(*) AS n, md5(string_agg(id || label || coalesce(payload, '-'), ',' ORDER BY id)) AS digest
FROM shelf;
SELECT archive_partitions('shelf', 0, 10);
CREATE TABLE shelf_dir AS
SELECT 'permanode_archive/' || d.oid || '/' || s.archive AS path
FROM archive_status s, pg_database d
WHERE s.foreign_table = 'shelf_archive_0_10'::regclass AND d.datname = current_database();

-- The manifest names a file of db/ for every family that holds entries.
SELECT family->>'cf' AS cf, family->>'name' AS name, (family->>'entries')::int AS entries,
       family->>'file' ~ '^[0-9]+\.sst$' AS named,
       family->>'file' IN (SELECT pg_ls_dir(path || '/db') FROM shelf_dir) AS in_db
FROM (SELECT archive_manifest('shelf_archive_0_10')->'rows' AS family
      UNION ALL
      SELECT jsonb_array_elements(archive_manifest('shelf_archive_0_10')->'indexes')) f
ORDER BY 1;

-- Runs a shell command in the archive's directory (sealed files are read-only: the manifest is
-- made writable first). The sealed manifest is kept beside it, to be put back. The command reads
-- what COPY writes first: COPY fails when the program has gone before it could write.
CREATE FUNCTION shelf_shell(command text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('COPY (SELECT 1) TO PROGRAM %L',
                   format('cat >/dev/null; cd %s && chmod u+w permanode_manifest.json && %s',
                          (SELECT path FROM shelf_dir), command));
END $$;
SELECT shelf_shell('cp permanode_manifest.json sealed_manifest');
-- Puts the sealed manifest back and edits it with a sed script (none: reads it as sealed), then
-- reads every family: verify_archive first, which reads the manifest afresh, as a new session
-- would, then the rows and each index by its own lookup.
CREATE FUNCTION read_shelf(script text DEFAULT NULL) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    PERFORM shelf_shell('cp sealed_manifest permanode_manifest.json');
    IF script IS NOT NULL THEN
        PERFORM shelf_shell(format('sed -i -e ''%s'' permanode_manifest.json', script));
    END IF;
    RETURN format('verified %s, %s rows, %s of label 3, %s with a payload',
                  verify_archive('shelf_archive_0_10'),
                  (SELECT count(*) FROM shelf),
                  (SELECT count(*) FROM shelf WHERE label = 'label 3'),
                  (SELECT count(*) FROM shelf WHERE payload > ''));
EXCEPTION WHEN data_corrupted THEN
    DECLARE
        detail text;
    BEGIN
        GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
        RETURN 'data_corrupted: ' || SQLERRM || ': ' ||
               regexp_replace(detail, '[^ ]*permanode_archive/[^ :]*', '<archive>', 'g');
    END;
END $$;
SELECT read_shelf();

-- As an older archive: no "file" in its manifest. It reads the same, in this session and in a
-- new one.
SELECT read_shelf('/"file":/d');
SELECT position('"file"' IN pg_read_file(path || '/permanode_manifest.json')) AS file_named
FROM shelf_dir;
\c
SET search_path = regress_fdw, permanode, public;
SELECT (SELECT count(*) FROM shelf) = n AS same_count,
       (SELECT md5(string_agg(id || label || coalesce(payload, '-'), ',' ORDER BY id)) FROM shelf)
           = digest AS same_rows
FROM shelf_answers;

-- The first named family's file is not there.
SELECT read_shelf('0,/"file": "[0-9]*[.]sst"/s//"file": "999999.sst"/');
-- The first named family (the label index) given the partial index's file, which holds fewer
-- entries than the manifest records for it.
SELECT read_shelf('0,/"file": "[0-9]*[.]sst"/s//"file": "' ||
    (SELECT f->>'file' FROM jsonb_array_elements(archive_manifest('shelf_archive_0_10')->'indexes') f
     WHERE f->>'name' = 'shelf_payload') || '"/');
-- A name that is not a file of db/ is refused before anything is opened.
SELECT read_shelf('0,\|"file": "[0-9]*[.]sst"|s||"file": "../../000001.sst"|');
-- As it was sealed, it reads again.
SELECT read_shelf();
-- Restoring runs the statements the manifest records for the partition's own indexes (its
-- label and payload indexes and its primary key) and nothing else: a manifest altered to run
-- another statement, to index another table, or to run two statements, is data_corrupted, and
-- nothing has run.
SELECT jsonb_array_length(archive_manifest('shelf_archive_0_10')->'partitions'->0->'own_indexes')
    AS own_indexes;
CREATE FUNCTION restore_shelf(script text DEFAULT NULL) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    PERFORM read_shelf(script); -- the manifest, edited, and read afresh
    RETURN format('restored %s rows', restore_partitions('shelf_archive_0_10'));
EXCEPTION WHEN data_corrupted THEN
    DECLARE
        detail text;
    BEGIN
        GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
        RETURN 'data_corrupted: ' || SQLERRM || ': ' || detail;
    END;
END $$;
SELECT restore_shelf('s/"CREATE INDEX shelf_label ON [^"]*"/"CREATE TABLE regress_fdw.shelf_taken (x int)"/');
SELECT restore_shelf('s/"CREATE INDEX shelf_label ON regress_fdw.shelf_0 /"CREATE INDEX shelf_label ON regress_fdw.shelf_answers /');
SELECT restore_shelf('s/"CREATE INDEX shelf_label ON [^"]*"/"CREATE INDEX shelf_label ON regress_fdw.shelf_0 (label); DROP TABLE regress_fdw.shelf_answers"/');
SELECT to_regclass('shelf_taken') AS taken, to_regclass('shelf_answers') AS answers,
       (SELECT count(*) FROM pg_indexes WHERE tablename = 'shelf_answers') AS answers_indexes,
       (SELECT relkind FROM pg_class WHERE oid = 'shelf_archive_0_10'::regclass) AS still_archived;
-- As sealed, it restores, with the partition's own indexes.
SELECT restore_shelf();
SELECT indexname FROM pg_indexes WHERE tablename = 'shelf_0' ORDER BY 1;
SELECT (SELECT count(*) FROM shelf) = n AS same_count,
       (SELECT md5(string_agg(id || label || coalesce(payload, '-'), ',' ORDER BY id)) FROM shelf)
           = digest AS same_rows
FROM shelf_answers;
DROP TABLE shelf, shelf_answers, shelf_dir;
DROP FUNCTION shelf_shell, read_shelf, restore_shelf;
SELECT count(*) AS removed FROM archive_gc();
