
-------------------------------------------------------------------------------------------------
-- Lookups: the seed's materialized views, kept always fresh. Each is a view over its ledger table
-- backed by a partitioned index ordered like the seed's key, (key, ms_range_id DESC,
-- ms_timestamp DESC, ...), so a lookup is an index range scan in key order, newest first. Paging
-- newest first orders by ms_range_id DESC, ms_timestamp DESC, ...: the planner then reads the
-- partitions newest first (an ordered Append) and stops at the page's end. The partition hints
-- below let a lookup touch only the ranges that hold the key.
-------------------------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.create_lookup(view_name name, table_name name, key_columns text,
                                          not_null name[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('CREATE VIEW @extschema@.%I AS SELECT * FROM @extschema@.%I WHERE %s',
                   view_name, table_name,
                   (SELECT string_agg(format('%I IS NOT NULL', c), ' AND ') FROM unnest(not_null) c));
    EXECUTE format('CREATE INDEX %I ON @extschema@.%I (%s) WHERE %I IS NOT NULL',
                   view_name || '_idx', table_name, key_columns, not_null[1]);
END
$$;

DO $$
DECLARE
    l record;
BEGIN
    FOR l IN SELECT * FROM (VALUES
        ('basic_outputs_by_address', 'basic_outputs', 'address'),
        ('basic_outputs_by_tag', 'basic_outputs', 'tag'),
        ('basic_outputs_by_sender', 'basic_outputs', 'sender'),
        ('alias_outputs_by_sender', 'alias_outputs', 'sender'),
        ('alias_outputs_by_issuer', 'alias_outputs', 'issuer'),
        ('alias_outputs_by_state_controller', 'alias_outputs', 'state_controller'),
        ('alias_outputs_by_governor', 'alias_outputs', 'governor'),
        ('foundry_outputs_by_address', 'foundry_outputs', 'address'),
        ('nft_outputs_by_address', 'nft_outputs', 'address'),
        ('nft_outputs_by_dust_return_address', 'nft_outputs', 'dust_return_address'),
        ('nft_outputs_by_sender', 'nft_outputs', 'sender'),
        ('nft_outputs_by_issuer', 'nft_outputs', 'issuer'),
        ('nft_outputs_by_tag', 'nft_outputs', 'tag')) AS v(view_name, table_name, key)
    LOOP
        PERFORM @extschema@.create_lookup(l.view_name, l.table_name,
            format('%I, ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, %I DESC', l.key,
                   CASE l.table_name WHEN 'alias_outputs' THEN 'alias_id'
                                     WHEN 'foundry_outputs' THEN 'foundry_id'
                                     WHEN 'nft_outputs' THEN 'nft_id' ELSE 'output_id' END),
            ARRAY[l.key, 'ms_range_id', 'ms_timestamp', 'milestone_index']::name[]);
    END LOOP;
END
$$;

-- An address's Chrysalis outputs, newest first, as every other lookup: seed 002 keys the view
-- (address, output_type, is_used, ...), but a page newest first (what seed 000's
-- addresses/{address}/outputs serves) would then read every range of the address and sort; type
-- and is_used filter the rows of the ranges read instead (issue 22's bench).
SELECT @extschema@.create_lookup('legacy_outputs_by_address', 'legacy_outputs',
    'address, ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC',
    '{address,output_type,is_used,ms_range_id,ms_timestamp,milestone_index}');

DROP FUNCTION @extschema@.create_lookup(name, name, text, name[]);

-- Point lookups by ID inside a partition. (Tags, and an address's analytics, newest first use
-- their partitions' unique key, scanned backwards.)
CREATE INDEX alias_outputs_by_output_id ON @extschema@.alias_outputs (output_id);
CREATE INDEX foundry_outputs_by_output_id ON @extschema@.foundry_outputs (output_id);
CREATE INDEX nft_outputs_by_output_id ON @extschema@.nft_outputs (output_id);

-------------------------------------------------------------------------------------------------
-- Partition hints: for a keyed column, the query naming the ranges that hold a key ($1), which the
-- Permanode Range Scan (extension/lookup/) runs at execution to read only those partitions.
-- Ingest maintains the hint and locator tables in the same transaction as the rows (seed 002:
-- "a row should be inserted into these tables whenever indexed data is inserted").
-------------------------------------------------------------------------------------------------
CREATE FUNCTION @extschema@.milestone_hint(table_name name) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT format('SELECT $1 / chunk_size FROM @extschema@.ledger_tables WHERE table_name = %L%s',
                  table_name,
                  CASE WHEN has_pending THEN ' UNION ALL SELECT @extschema@.pending_range()' ELSE '' END)
    FROM @extschema@.ledger_tables t WHERE t.table_name = $1
$$;

INSERT INTO @extschema@.partition_hints (table_name, column_name, hint_query)
SELECT t, 'milestone_index', @extschema@.milestone_hint(t)
FROM unnest('{messages,transactions,milestones,basic_outputs,alias_outputs,foundry_outputs,nft_outputs,legacy_outputs,tags,parents,spent_outputs,sync,ms_analytics,address_analytics}'::name[]) t;
DROP FUNCTION @extschema@.milestone_hint(name);

INSERT INTO @extschema@.partition_hints (table_name, column_name, hint_query) VALUES
    ('messages', 'message_id', 'SELECT ms_range_id FROM @extschema@.block_locator WHERE block_id = $1'),
    ('parents', 'message_id', 'SELECT ms_range_id FROM @extschema@.block_locator WHERE block_id = $1'),
    -- A block's children are in its own range (ingest writes no hint for them) or in a range
    -- parent_hints names.
    ('parents', 'parent_id', 'SELECT ms_range_id FROM @extschema@.block_locator WHERE block_id = $1 UNION SELECT ms_range_id FROM @extschema@.parent_hints WHERE parent_id = $1'),
    ('tags', 'message_id', 'SELECT ms_range_id FROM @extschema@.block_locator WHERE block_id = $1'),
    ('transactions', 'message_id', 'SELECT ms_range_id FROM @extschema@.block_locator WHERE block_id = $1'),
    ('transactions', 'transaction_id', 'SELECT ms_range_id FROM @extschema@.transaction_locator WHERE transaction_id = $1'),
    ('spent_outputs', 'transaction_id', 'SELECT ms_range_id FROM @extschema@.transaction_locator WHERE transaction_id = $1'),
    ('milestones', 'milestone_id', 'SELECT ms_range_id FROM @extschema@.milestone_locator WHERE milestone_id = $1'),
    ('milestones', 'message_id', 'SELECT ms_range_id FROM @extschema@.block_locator WHERE block_id = $1'),
    ('basic_outputs', 'output_id', 'SELECT ms_range_id FROM @extschema@.output_locator WHERE output_id = $1 AND ms_range_id IS NOT NULL'),
    ('alias_outputs', 'output_id', 'SELECT ms_range_id FROM @extschema@.output_locator WHERE output_id = $1 AND ms_range_id IS NOT NULL'),
    ('foundry_outputs', 'output_id', 'SELECT ms_range_id FROM @extschema@.output_locator WHERE output_id = $1 AND ms_range_id IS NOT NULL'),
    ('nft_outputs', 'output_id', 'SELECT ms_range_id FROM @extschema@.output_locator WHERE output_id = $1 AND ms_range_id IS NOT NULL'),
    -- A Chrysalis output's rows: created in its range, used in its spend's (Chrysalis or, carried
    -- on by the Stardust genesis, Stardust).
    ('legacy_outputs', 'output_id', 'SELECT r FROM @extschema@.output_locator, LATERAL (VALUES (legacy_ms_range_id), (spent_ms_range_id)) AS v(r) WHERE output_id = $1 AND legacy_ms_range_id IS NOT NULL AND r IS NOT NULL'),
    ('spent_outputs', 'output_id', 'SELECT spent_ms_range_id FROM @extschema@.output_locator WHERE output_id = $1 AND spent_ms_range_id IS NOT NULL'),
    ('alias_outputs', 'alias_id', 'SELECT ms_range_id FROM @extschema@.chain_locator WHERE chain_id = $1'),
    ('nft_outputs', 'nft_id', 'SELECT ms_range_id FROM @extschema@.chain_locator WHERE chain_id = $1'),
    ('foundry_outputs', 'foundry_id', 'SELECT ms_range_id FROM @extschema@.foundry_locator WHERE foundry_id = $1'),
    ('basic_outputs', 'address', 'SELECT ms_range_id FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''extended'' AND variant = ''address'''),
    ('basic_outputs', 'sender', 'SELECT ms_range_id FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''extended'' AND variant = ''sender'''),
    ('basic_outputs', 'tag', 'SELECT ms_range_id FROM @extschema@.tag_hints WHERE tag = $1 AND table_kind = ''basic_output'''),
    ('alias_outputs', 'sender', 'SELECT ms_range_id FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''alias'' AND variant = ''sender'''),
    ('alias_outputs', 'issuer', 'SELECT ms_range_id FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''alias'' AND variant = ''issuer'''),
    ('alias_outputs', 'state_controller', 'SELECT ms_range_id FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''alias'' AND variant = ''state_controller'''),
    ('alias_outputs', 'governor', 'SELECT ms_range_id FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''alias'' AND variant = ''governor'''),
    ('foundry_outputs', 'address', 'SELECT ms_range_id FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''foundry'' AND variant = ''address'''),
    ('nft_outputs', 'address', 'SELECT ms_range_id FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''nft'' AND variant = ''address'''),
    ('nft_outputs', 'dust_return_address', 'SELECT ms_range_id FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''nft'' AND variant = ''dust_return_address'''),
    ('nft_outputs', 'sender', 'SELECT ms_range_id FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''nft'' AND variant = ''sender'''),
    ('nft_outputs', 'issuer', 'SELECT ms_range_id FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''nft'' AND variant = ''issuer'''),
    ('nft_outputs', 'tag', 'SELECT ms_range_id FROM @extschema@.tag_hints WHERE tag = $1 AND table_kind = ''nft_output'''),
    ('legacy_outputs', 'address', 'SELECT ms_range_id FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''legacy'' AND variant = ''address'''),
    ('address_analytics', 'address', 'SELECT ms_range_id FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''analytics'' AND variant = ''address'''),
    ('tags', 'tag', 'SELECT ms_range_id FROM @extschema@.tag_hints WHERE tag = $1 AND table_kind = ''message''');
