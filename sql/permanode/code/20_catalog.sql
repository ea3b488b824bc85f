-- The catalog's comments, the pending range and the triggers that guard the catalog
-- (../schema/20_catalog.sql).
COMMENT ON TABLE @extschema@.ledger_tables IS
    'ledger tables, their chunk sizes (ms_range_id = milestone_index / chunk_size) and per-partition unique keys';

-- The pending tier: rows whose milestone is not known yet.
CREATE OR REPLACE FUNCTION @extschema@.pending_range() RETURNS int
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT 2147483647';
COMMENT ON TABLE @extschema@.partition_hints IS
    'for each keyed column of a ledger table, the query that names the ranges holding a key';

-- Every backend keeps the hint queries it has read (extension/lookup/hint_catalog.c): a change of
-- these rows tells them to read them again.
CREATE OR REPLACE FUNCTION @extschema@.partition_hints_changed() RETURNS trigger
AS 'MODULE_PATHNAME', 'permanode_partition_hints_changed' LANGUAGE C;
CREATE OR REPLACE TRIGGER partition_hints_changed
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON @extschema@.partition_hints
    FOR EACH STATEMENT EXECUTE FUNCTION @extschema@.partition_hints_changed();

-- Refuses to change a chunk size once the table holds rows: that would need every row moved.
CREATE OR REPLACE FUNCTION @extschema@.ledger_tables_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    has_rows boolean;
BEGIN
    IF NEW.chunk_size IS DISTINCT FROM OLD.chunk_size THEN
        EXECUTE format('SELECT EXISTS (SELECT 1 FROM @extschema@.%I)', OLD.table_name) INTO has_rows;
        IF has_rows THEN
            RAISE EXCEPTION 'cannot change the chunk size of %: it holds data', OLD.table_name
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      DETAIL = format('Its rows are partitioned with chunk size %s; changing it would need every row moved.', OLD.chunk_size),
                      HINT = 'Choose chunk sizes before the first ingest.';
        END IF;
    END IF;
    RETURN NEW;
END
$$;
CREATE OR REPLACE TRIGGER ledger_tables_guard BEFORE UPDATE ON @extschema@.ledger_tables
    FOR EACH ROW EXECUTE FUNCTION @extschema@.ledger_tables_guard();
