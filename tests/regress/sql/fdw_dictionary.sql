-- Dictionary encoding in archives: wide repeated values are stored once, in the "dict" family,
-- and referenced from the rows. Every kind of stored value must come back byte for byte: NULL,
-- short values (always inline), repeated values (references, short and long), unique values
-- (inline, short and long), and values beyond the dictionary's memory (inline).
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS permanode CASCADE;
DROP EXTENSION IF EXISTS permanode_fdw CASCADE;
RESET client_min_messages;
CREATE EXTENSION permanode_fdw;
CREATE SCHEMA regress_dict;
SET search_path = regress_dict, permanode, public;

CREATE TABLE notes (
    id bytea NOT NULL,
    r int NOT NULL,
    address bytea,          -- 33 bytes, 40 values, some NULL: a dictionary column
    owner text NOT NULL,    -- 160 characters, 3 values: references to long entries
    memo bytea NOT NULL,    -- repeated 20 bytes, short unique, long unique: a dictionary column
    payload bytea NOT NULL  -- unique 32 bytes: stored plainly
) PARTITION BY RANGE (r);
CREATE TABLE notes_0 PARTITION OF notes FOR VALUES FROM (0) TO (1);
CREATE TABLE notes_1 PARTITION OF notes FOR VALUES FROM (1) TO (2);
ALTER TABLE notes_0 ADD PRIMARY KEY (id, r);
ALTER TABLE notes_1 ADD PRIMARY KEY (id, r);
CREATE INDEX notes_by_address ON notes (address, id);
INSERT INTO notes
SELECT sha256(int8send(g)), g % 2,
       CASE WHEN g % 9 = 0 THEN NULL ELSE '\x00'::bytea || sha256(int8send(g % 40)) END,
       repeat('owner-' || (g % 3) || '-', 20),
       CASE WHEN g % 10 = 0 THEN decode(repeat(md5(g::text), 8), 'hex')   -- 128 bytes, unique
            WHEN g % 10 = 1 THEN int4send(g)                               -- 4 bytes, unique
            ELSE decode(md5((g % 5)::text), 'hex') || '\x01020304'::bytea  -- 20 bytes, 5 values
       END,
       sha256(int8send(-g))
FROM generate_series(0, 3999) g;

CREATE FUNCTION notes_digest() RETURNS TABLE (query text, rows bigint, digest text)
LANGUAGE sql AS $$
    SELECT 'all', count(*), md5(string_agg(n::text, '|' ORDER BY n.id)) FROM notes n
    UNION ALL
    SELECT 'address', count(*), md5(string_agg(encode(id, 'hex'), '|' ORDER BY id))
    FROM notes WHERE address = '\x00'::bytea || sha256(int8send(7))
    UNION ALL
    SELECT 'memo_only', count(*), md5(string_agg(encode(memo, 'hex'), '|' ORDER BY memo)) FROM notes
    UNION ALL
    SELECT 'point', count(*), md5(string_agg(n::text, '|')) FROM notes n
    WHERE id = sha256(int8send(1230::bigint)) AND r = 0
$$;
CREATE TABLE before AS SELECT * FROM notes_digest();

-- The archive decides from the partitions' statistics (archiving analyzes them if need be).
SELECT archive_partitions('notes', 0, 2) AS archived;
SELECT c->>'name' AS column_name, (c->>'dictionary')::bool AS dictionary
FROM jsonb_array_elements(archive_manifest('notes_archive_0_2')->'columns') c;
-- 40 addresses, 3 owners, 5 repeated memos and the 400 unique 128-byte memos: the writer cannot
-- tell those apart as they come, and they all fit. 4-byte memos are never entered.
SELECT archive_manifest('notes_archive_0_2')->>'dictionary_entries' AS dictionary_entries;
SELECT b.query, b.rows, a.rows = b.rows AND a.digest = b.digest AS same
FROM before b JOIN notes_digest() a USING (query) ORDER BY 1;
SELECT verify_archive('notes_archive_0_2') AS verified_rows;

-- The rows' file records the columns it holds in dictionary form: a manifest that says otherwise
-- (a column's flag turned off, or another's on) is data_corrupted, never stored forms read as
-- values. The manifest is edited with sed (sealed files are read-only: made writable first) and
-- put back after; verify_archive reads it afresh, then the rows are read.
CREATE TABLE notes_dir AS
SELECT 'permanode_archive/' || d.oid || '/' || s.archive AS path
FROM archive_status s, pg_database d
WHERE s.foreign_table = 'notes_archive_0_2'::regclass AND d.datname = current_database();
CREATE FUNCTION read_notes(script text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    outcome text;
BEGIN
    EXECUTE format('COPY (SELECT 1) TO PROGRAM %L',
                   format('cat >/dev/null; cd %s && chmod u+w permanode_manifest.json && '
                          'cp permanode_manifest.json sealed_manifest && sed -i -e ''%s'' '
                          'permanode_manifest.json', (SELECT path FROM notes_dir), script));
    BEGIN
        outcome := format('verified %s, %s rows', verify_archive('notes_archive_0_2'),
                          (SELECT count(*) FROM notes));
    EXCEPTION WHEN OTHERS THEN
        DECLARE
            detail text;
        BEGIN
            GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
            outcome := format('%s (SQLSTATE %s): %s', SQLERRM, SQLSTATE, detail);
        END;
    END;
    EXECUTE format('COPY (SELECT 1) TO PROGRAM %L',
                   format('cat >/dev/null; cd %s && mv sealed_manifest permanode_manifest.json',
                          (SELECT path FROM notes_dir)));
    RETURN regexp_replace(outcome, 'permanode_archive/[^ :]*', '<archive>', 'g');
END $$;
SELECT string_agg((n - 1) || ' ' || (c->>'name'), ', ') AS dictionary_columns
FROM jsonb_array_elements(archive_manifest('notes_archive_0_2')->'columns') WITH ORDINALITY AS m(c, n)
WHERE (c->>'dictionary')::bool;
SELECT read_notes('0,/"dictionary": true/s//"dictionary": false/') AS first_turned_off;
SELECT read_notes('0,/"dictionary": false/s//"dictionary": true/') AS first_other_turned_on;
SELECT read_notes('') AS as_sealed;
SELECT b.query, a.rows = b.rows AND a.digest = b.digest AS same
FROM before b JOIN notes_digest() a USING (query) ORDER BY 1;
DROP TABLE notes_dir;
DROP FUNCTION read_notes;

SELECT restore_partitions('notes_archive_0_2') AS restored_rows;
SELECT b.query, a.rows = b.rows AND a.digest = b.digest AS same_after_restore
FROM before b JOIN notes_digest() a USING (query) ORDER BY 1;

-- A dictionary held to a small memory share (maintenance_work_mem / 4) stores the rest of the
-- values inline; restore still reproduces the archived bytes exactly (its checksum holds).
UPDATE notes SET memo = decode(repeat(md5(((get_byte(id, 0) * 256 + get_byte(id, 1)) % 600)::text),
                                    40), 'hex');  -- 640 bytes, 600 values: 420 kB of entries
ANALYZE notes;
SELECT count(DISTINCT memo) + 43 AS all_values FROM notes \gset
TRUNCATE before;
INSERT INTO before SELECT * FROM notes_digest();
SET maintenance_work_mem = '1MB';
SELECT archive_partitions('notes', 0, 2) AS archived;
RESET maintenance_work_mem;
SELECT c->>'name' AS column_name FROM
jsonb_array_elements(archive_manifest('notes_archive_0_2')->'columns') c WHERE (c->>'dictionary')::bool;
SELECT (archive_manifest('notes_archive_0_2')->>'dictionary_entries')::int BETWEEN 44 AND :all_values - 1
       AS dictionary_capped;
SELECT b.query, a.rows = b.rows AND a.digest = b.digest AS same
FROM before b JOIN notes_digest() a USING (query) ORDER BY 1;
SELECT restore_partitions('notes_archive_0_2') AS restored_rows;
SELECT b.query, a.rows = b.rows AND a.digest = b.digest AS same_after_restore
FROM before b JOIN notes_digest() a USING (query) ORDER BY 1;

SET client_min_messages = warning;
SELECT count(*) >= 2 AS removed FROM archive_gc();
DROP SCHEMA regress_dict CASCADE;
DROP EXTENSION permanode_fdw CASCADE;
