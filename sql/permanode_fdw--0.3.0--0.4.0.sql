-- permanode_fdw 0.3.0 -> 0.4.0: archives reach standbys and backups through the WAL (no SQL
-- change), and logical dumps carry them: export_archives() and import_archives().
\echo Use "ALTER EXTENSION permanode_fdw UPDATE TO '0.4.0'" to load this file. \quit
-- Archives in logical dumps (README, "Backups"): copied beside a pg_dump, and into the database
-- pg_restore made, where each is checked against its manifest before queries read it.
CREATE FUNCTION @extschema@.export_archives(target_dir text)
    RETURNS TABLE (foreign_table regclass, archive text, bytes bigint)
    AS 'MODULE_PATHNAME', 'permanode_export_archives'
    LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION @extschema@.export_archives(text) IS
    'copy the archives this database''s foreign tables name into target_dir/<archive> (superuser)';
CREATE FUNCTION @extschema@.import_archives(source_dir text)
    RETURNS TABLE (foreign_table regclass, archive text, rows bigint)
    AS 'MODULE_PATHNAME', 'permanode_import_archives'
    LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION @extschema@.import_archives(text) IS
    'copy the archives this database''s foreign tables name but lacks from source_dir, check each against its manifest (superuser)';
REVOKE ALL ON FUNCTION @extschema@.export_archives(text), @extschema@.import_archives(text)
    FROM PUBLIC;
