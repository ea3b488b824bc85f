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

INSERT INTO @extschema@.partitioned_tables (family, schema_name, table_name, range_column, unique_columns) VALUES
    ('ledger', '@extschema@', 'messages', 'ms_range_id', '{message_id}'),
    ('ledger', '@extschema@', 'transactions', 'ms_range_id', '{transaction_id,idx,variant,message_id}'),
    ('ledger', '@extschema@', 'milestones', 'ms_range_id', '{milestone_index,message_id}'),
    ('ledger', '@extschema@', 'basic_outputs', 'ms_range_id', '{output_id}'),
    ('ledger', '@extschema@', 'alias_outputs', 'ms_range_id', '{alias_id,output_id}'),
    ('ledger', '@extschema@', 'foundry_outputs', 'ms_range_id', '{foundry_id,output_id}'),
    ('ledger', '@extschema@', 'nft_outputs', 'ms_range_id', '{nft_id,output_id}'),
    ('ledger', '@extschema@', 'legacy_outputs', 'ms_range_id', '{output_id,output_type,is_used}'),
    -- tags and parents: the seed's lookup order is the unique key (a message has one tag, and
    -- names a parent once), so each row costs one index entry, which also serves the lookups
    -- newest first (scanned backwards) and is the archives' row key.
    ('ledger', '@extschema@', 'tags', 'ms_range_id', '{tag,ms_range_id,ms_timestamp,milestone_index,message_id}'),
    ('ledger', '@extschema@', 'parents', 'ms_range_id', '{parent_id,ms_range_id,ms_timestamp,milestone_index,message_id}'),
    ('ledger', '@extschema@', 'spent_outputs', 'ms_range_id', '{output_id}'),
    ('ledger', '@extschema@', 'sync', 'ms_range_id', '{milestone_index}'),
    ('ledger', '@extschema@', 'ms_analytics', 'ms_range_id', '{milestone_index}'),
    -- address_analytics: also keyed by its lookup order (an address's rows newest first)
    ('ledger', '@extschema@', 'address_analytics', 'ms_range_id', '{address,ms_range_id,milestone_index}');
