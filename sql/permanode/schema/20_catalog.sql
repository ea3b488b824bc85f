
-------------------------------------------------------------------------------------------------
-- Catalog: which tables are ledger tables, how they are chunked, and how lookups find partitions.
-------------------------------------------------------------------------------------------------

-- Every ledger table that grows with history is PARTITION BY RANGE (ms_range_id), with
-- ms_range_id = milestone_index / chunk_size. The chunk size is fixed once the table holds data.
CREATE TABLE @extschema@.ledger_tables (
    table_name name PRIMARY KEY,
    chunk_size int NOT NULL CHECK (chunk_size > 0),
    -- whether the table has a partition for the pending tier (ms_range_id 2147483647)
    has_pending boolean NOT NULL DEFAULT false
);

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

-- Settings of this archive, written by permanode.init().
CREATE TABLE @extschema@.settings (
    key text PRIMARY KEY,
    value text NOT NULL
);
INSERT INTO @extschema@.settings VALUES ('network', 'shimmer'), ('bech32_hrp', 'smr');
