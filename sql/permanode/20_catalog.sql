
-------------------------------------------------------------------------------------------------
-- Catalog: which tables are ledger tables, how they are chunked, and how lookups find partitions.
-------------------------------------------------------------------------------------------------

-- Every ledger table that grows with history is PARTITION BY RANGE (ms_range_id), with
-- ms_range_id = milestone_index / chunk_size. The chunk size is fixed once the table holds data.
CREATE TABLE @extschema@.ledger_tables (
    table_name name PRIMARY KEY,
    chunk_size int NOT NULL CHECK (chunk_size > 0),
    -- columns of the unique index made on every hot partition (a foreign partition forbids a
    -- unique index on the parent, so uniqueness is kept per partition)
    unique_columns name[] NOT NULL,
    -- whether the table has a partition for the pending tier (ms_range_id 2147483647)
    has_pending boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE @extschema@.ledger_tables IS
    'ledger tables, their chunk sizes (ms_range_id = milestone_index / chunk_size) and per-partition unique keys';

-- The pending tier: rows whose milestone is not known yet.
CREATE FUNCTION @extschema@.pending_range() RETURNS int
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT 2147483647';

-- How a lookup on table_schema.table_name.column_name finds the ranges that hold a key:
-- hint_query takes the key as $1 and returns values of the table's range column (ms_range_id for
-- the ledger tables, month_id for the legacy era's). The Permanode Range Scan (extension/lookup/)
-- runs it at execution, a page of ranges at a time, so a keyed query touches only those
-- partitions.
CREATE TABLE @extschema@.partition_hints (
    table_schema name NOT NULL DEFAULT '@extschema@',
    table_name name NOT NULL,
    column_name name NOT NULL,
    hint_query text NOT NULL,
    range_column name NOT NULL DEFAULT 'ms_range_id',
    PRIMARY KEY (table_schema, table_name, column_name)
);
COMMENT ON TABLE @extschema@.partition_hints IS
    'for each keyed column of a ledger table, the query that names the ranges holding a key';

-- Every backend keeps the hint queries it has read (extension/lookup/hint_catalog.c): a change of
-- these rows tells them to read them again.
CREATE FUNCTION @extschema@.partition_hints_changed() RETURNS trigger
AS 'MODULE_PATHNAME', 'permanode_partition_hints_changed' LANGUAGE C;
CREATE TRIGGER partition_hints_changed
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON @extschema@.partition_hints
    FOR EACH STATEMENT EXECUTE FUNCTION @extschema@.partition_hints_changed();

-- Refuses to change a chunk size once the table holds rows: that would need every row moved.
CREATE FUNCTION @extschema@.ledger_tables_guard() RETURNS trigger
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
CREATE TRIGGER ledger_tables_guard BEFORE UPDATE ON @extschema@.ledger_tables
    FOR EACH ROW EXECUTE FUNCTION @extschema@.ledger_tables_guard();

-- Settings of this archive, written by permanode.init().
CREATE TABLE @extschema@.settings (
    key text PRIMARY KEY,
    value text NOT NULL
);
INSERT INTO @extschema@.settings VALUES ('network', 'shimmer'), ('bech32_hrp', 'smr');
