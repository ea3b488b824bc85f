-- Archiving, restoring, checking and moving the RocksDB archives.
-- Archiving and restoring ranges of a range-partitioned table.
CREATE OR REPLACE FUNCTION @extschema@.archive_partitions(parent regclass, from_range int, to_range int)
    RETURNS regclass
    AS 'MODULE_PATHNAME', 'permanode_archive_partitions'
    LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION @extschema@.archive_partitions(regclass, int, int) IS
    'move the heap partitions tiling [from_range, to_range) into one RocksDB archive served by a foreign partition';
-- The same in two steps, so that a call archiving several tables swaps them all at once, at its
-- end (fdw/archive_swap.cpp says why): archive_prepare writes, verifies and logs an archive;
-- archive_swap_prepared puts every archive the transaction prepared in place of its heaps.
CREATE OR REPLACE FUNCTION @extschema@.archive_prepare(parent regclass, from_range int, to_range int)
    RETURNS void
    AS 'MODULE_PATHNAME', 'permanode_archive_prepare'
    LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION @extschema@.archive_prepare(regclass, int, int) IS
    'write the archive of the heap partitions tiling [from_range, to_range); archive_swap_prepared() swaps it in';
CREATE OR REPLACE FUNCTION @extschema@.archive_swap_prepared() RETURNS regclass[]
    AS 'MODULE_PATHNAME', 'permanode_archive_swap_prepared'
    LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION @extschema@.archive_swap_prepared() IS
    'swap every archive this transaction prepared in place of its heap partitions; returns the foreign partitions';

CREATE OR REPLACE FUNCTION @extschema@.restore_partitions(foreign_part regclass) RETURNS bigint
    AS 'MODULE_PATHNAME', 'permanode_restore_partitions'
    LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION @extschema@.restore_partitions(regclass) IS
    'put the heap partitions an archive replaced back, returns the rows restored';
CREATE OR REPLACE FUNCTION @extschema@.verify_archive(foreign_part regclass) RETURNS bigint
    AS 'MODULE_PATHNAME', 'permanode_verify_archive'
    LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION @extschema@.verify_archive(regclass) IS
    'check block checksums and the row checksum of an archive, returns the rows verified';
CREATE OR REPLACE FUNCTION @extschema@.archive_manifest(foreign_part regclass) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'permanode_archive_manifest'
    LANGUAGE C STRICT STABLE;
COMMENT ON FUNCTION @extschema@.archive_manifest(regclass) IS
    'the manifest of an archive: columns (and which are dictionary-encoded), families, entries';
CREATE OR REPLACE FUNCTION @extschema@.archive_gc() RETURNS SETOF text
    AS 'MODULE_PATHNAME', 'permanode_archive_gc'
    LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION @extschema@.archive_gc() IS
    'remove archive directories that no foreign table references, returns their names';
REVOKE ALL ON FUNCTION @extschema@.archive_partitions(regclass, int, int),
    @extschema@.archive_prepare(regclass, int, int), @extschema@.archive_swap_prepared(),
    @extschema@.restore_partitions(regclass), @extschema@.verify_archive(regclass),
    @extschema@.archive_manifest(regclass),
    @extschema@.archive_gc() FROM PUBLIC;

-- One row per archived partition, from the catalog (no archive is read).
CREATE OR REPLACE VIEW @extschema@.archive_status AS
SELECT c.oid::regclass AS foreign_table,
       i.inhparent::regclass AS parent_table,
       (o.opts->>'range_from')::bigint AS range_from,
       (o.opts->>'range_to')::bigint AS range_to,
       (o.opts->>'row_count')::bigint AS rows,
       (o.opts->>'byte_size')::bigint AS bytes,
       o.opts->>'archive' AS archive
FROM pg_foreign_table t
JOIN pg_class c ON c.oid = t.ftrelid
JOIN pg_foreign_server s ON s.oid = t.ftserver
JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw AND w.fdwname = 'permanode_fdw'
LEFT JOIN pg_inherits i ON i.inhrelid = c.oid
CROSS JOIN LATERAL (SELECT jsonb_object_agg(option_name, option_value) AS opts
                    FROM pg_options_to_table(t.ftoptions)) o;
COMMENT ON VIEW @extschema@.archive_status IS 'archived partitions: parent, range, rows and bytes on disk';

-- Archives in logical dumps (README, "Backups"): copied beside a pg_dump, and into the database
-- pg_restore made, where each is checked against its manifest before queries read it.
CREATE OR REPLACE FUNCTION @extschema@.export_archives(target_dir text)
    RETURNS TABLE (foreign_table regclass, archive text, bytes bigint)
    AS 'MODULE_PATHNAME', 'permanode_export_archives'
    LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION @extschema@.export_archives(text) IS
    'copy the archives this database''s foreign tables name into target_dir/<archive> (superuser)';
CREATE OR REPLACE FUNCTION @extschema@.import_archives(source_dir text)
    RETURNS TABLE (foreign_table regclass, archive text, rows bigint)
    AS 'MODULE_PATHNAME', 'permanode_import_archives'
    LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION @extschema@.import_archives(text) IS
    'copy the archives this database''s foreign tables name but lacks from source_dir, check each against its manifest (superuser)';
REVOKE ALL ON FUNCTION @extschema@.export_archives(text), @extschema@.import_archives(text)
    FROM PUBLIC;
