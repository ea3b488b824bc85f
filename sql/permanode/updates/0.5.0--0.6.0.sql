-- permanode 0.5.0 -> 0.6.0: the legacy (ternary) era in schema legacy, with its identifier types.
-- A hint names its table's schema and range column: the legacy tables are in schema legacy and
-- partitioned by month_id.
ALTER TABLE @extschema@.partition_hints
    DROP CONSTRAINT partition_hints_table_name_fkey,
    ADD COLUMN table_schema name NOT NULL DEFAULT '@extschema@',
    ADD COLUMN range_column name NOT NULL DEFAULT 'ms_range_id',
    DROP CONSTRAINT partition_hints_pkey,
    ADD PRIMARY KEY (table_schema, table_name, column_name);

-- The types are made as the install makes them (and its builder dropped again); the schema's
-- tables are those the install makes (parts unchanged since 0.6.0).
\ir ../schema/05_fixed_type.sql
\ir ../schema/12_legacy_types.sql
\ir ../schema/75_legacy.sql
