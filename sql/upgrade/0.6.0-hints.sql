-- permanode 0.5.0 -> 0.6.0: the legacy era (schema legacy). This script is generated
-- (sql/CMakeLists.txt): this part, then the install script's parts that make the legacy era.
\echo Use "ALTER EXTENSION permanode UPDATE TO '0.6.0'" to load this file. \quit

-- A hint names its table's schema and range column: the legacy tables are in schema legacy and
-- partitioned by month_id.
ALTER TABLE @extschema@.partition_hints
    DROP CONSTRAINT partition_hints_table_name_fkey,
    ADD COLUMN table_schema name NOT NULL DEFAULT '@extschema@',
    ADD COLUMN range_column name NOT NULL DEFAULT 'ms_range_id',
    DROP CONSTRAINT partition_hints_pkey,
    ADD PRIMARY KEY (table_schema, table_name, column_name);
