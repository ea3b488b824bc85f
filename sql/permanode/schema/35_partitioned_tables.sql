-------------------------------------------------------------------------------------------------
-- The partitioned families: every table partitioned by a range id, of every era, made by the one
-- create_partition (code/40_partitions.sql). A family says how a range id is named and bounded:
-- ledger (ms_range_id = milestone_index / chunk_size, plus the pending tier), legacy (month_id)
-- and streams (segment). The legacy and stream tables' rows are added by 76_ and 89_.
-------------------------------------------------------------------------------------------------
CREATE TABLE @extschema@.partitioned_tables (
    family text NOT NULL CHECK (family IN ('ledger', 'legacy', 'streams')),
    schema_name name NOT NULL,
    table_name name NOT NULL,
    range_column name NOT NULL,
    -- the unique index every hot partition gets (uniqueness is kept per partition), and the
    -- columns it carries besides
    unique_columns name[] NOT NULL,
    include_columns name[] NOT NULL DEFAULT '{}',
    -- a function of the schema, (partition regclass), that adds a family's own indexes
    after_create name,
    PRIMARY KEY (family, table_name),
    UNIQUE (schema_name, table_name)
);

INSERT INTO @extschema@.partitioned_tables (family, schema_name, table_name, range_column, unique_columns)
SELECT 'ledger', '@extschema@', table_name, 'ms_range_id', unique_columns FROM @extschema@.ledger_tables;
