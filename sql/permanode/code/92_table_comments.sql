
-------------------------------------------------------------------------------------------------
-- What each table and view holds, for whoever browses the catalog (a BI tool lists these
-- comments beside the names). Most tables are made once by the schema parts, so their comments
-- are set here, again by every upgrade; a table or view commented where it is made is not listed.
-- tests/regress/sql/bi_views.sql fails on a readable table or view without a comment.
-------------------------------------------------------------------------------------------------
DO $$
DECLARE
    c record;
BEGIN
    FOR c IN SELECT * FROM (VALUES
        -- the ledger (Chrysalis and Stardust), partitioned by ms_range_id
        ('@extschema@', 'messages', 'blocks (Chrysalis messages) with their metadata and raw bytes, by referencing milestone'),
        ('@extschema@', 'transactions', 'transaction parts: one row per input, output and unlock, with its raw bytes'),
        ('@extschema@', 'milestones', 'milestones: index, block, unix timestamp, raw payload and milestone ID'),
        ('@extschema@', 'basic_outputs', 'Stardust basic outputs as created, with their unlock conditions, features and raw bytes'),
        ('@extschema@', 'alias_outputs', 'Stardust alias outputs as created, with controllers, features and raw bytes'),
        ('@extschema@', 'foundry_outputs', 'Stardust foundry outputs as created, with token scheme and raw bytes'),
        ('@extschema@', 'nft_outputs', 'Stardust NFT outputs as created, with unlock conditions, features and raw bytes'),
        ('@extschema@', 'legacy_outputs', 'Chrysalis outputs: a row when created (is_used false), another when spent (is_used true)'),
        ('@extschema@', 'tags', 'tagged-data tags and Chrysalis indexation keys, by block'),
        ('@extschema@', 'parents', 'block to parent edges, in the range of the child''s milestone'),
        ('@extschema@', 'spent_outputs', 'spends, append-only: the output, the spending milestone and transaction'),
        ('@extschema@', 'sync', 'which milestones are archived, and by whom'),
        ('@extschema@', 'ms_analytics', 'per milestone: blocks, transactions and tokens transferred'),
        ('@extschema@', 'address_analytics', 'per address and milestone: tokens sent and received'),
        -- the ledger's small tables
        ('@extschema@', 'settings', 'settings of this archive (network, bech32 HRP, legacy Coordinator), written by permanode.init()'),
        ('@extschema@', 'partitioned_tables', 'every partitioned table of the extension: its family (ledger, legacy, streams) and partition key'),
        ('@extschema@', 'migrated_funds', 'Chrysalis receipt entries (TIP-17): the output each created and the legacy tail transaction it names'),
        ('@extschema@', 'tag_hints', 'which ranges hold a tag, per table kind'),
        ('@extschema@', 'addresses_hints', 'which ranges hold an address, per output kind and role (address, sender, issuer, ...)'),
        ('@extschema@', 'milestone_protocols', 'the protocol of each archived milestone: 1 Chrysalis, 2 Stardust'),
        ('@extschema@', 'receipts', 'milestones carrying a Chrysalis receipt (TIP-17), by the legacy milestone it migrated funds at'),
        ('@extschema@', 'block_locator', 'the range holding each block'),
        ('@extschema@', 'parent_hints', 'the ranges holding the children of a block'),
        ('@extschema@', 'transaction_locator', 'the ranges holding each transaction'),
        ('@extschema@', 'milestone_locator', 'the range holding each milestone, by milestone ID'),
        ('@extschema@', 'output_locator', 'each output''s creating range and, once spent, its spending range'),
        ('@extschema@', 'chain_locator', 'every range where an alias or NFT has an output'),
        ('@extschema@', 'foundry_locator', 'every range where a foundry has an output'),
        ('@extschema@', 'unspent_outputs', 'the unspent set of every kind (legacy: Chrysalis outputs), with amount, addresses and raw bytes'),
        ('@extschema@', 'retired_outputs', 'the unspent set''s rows once spent, with the milestone that spent them (the ledger as of a milestone)'),
        ('@extschema@', 'daily_analytics', 'per UTC day, rolled up: addresses that sent, received, or either (permanode.daily_activity adds the days not rolled up)'),
        ('@extschema@', 'date_cache', 'the first and last milestone of each UTC day'),
        ('@extschema@', 'metrics_cache', 'per UTC day, the distinct addresses that sent or received and the tags used, until rolled up'),
        ('@extschema@', 'sync_follow', 'one row per node `permanode sync` follows: its progress and the node''s'),
        -- the seed's lookups: views over a ledger table, backed by an index in the key's order
        ('@extschema@', 'basic_outputs_by_address', 'basic outputs by address, newest first'),
        ('@extschema@', 'basic_outputs_by_tag', 'basic outputs by tag, newest first'),
        ('@extschema@', 'basic_outputs_by_sender', 'basic outputs by sender, newest first'),
        ('@extschema@', 'alias_outputs_by_sender', 'alias outputs by sender, newest first'),
        ('@extschema@', 'alias_outputs_by_issuer', 'alias outputs by issuer, newest first'),
        ('@extschema@', 'alias_outputs_by_state_controller', 'alias outputs by state controller, newest first'),
        ('@extschema@', 'alias_outputs_by_governor', 'alias outputs by governor, newest first'),
        ('@extschema@', 'foundry_outputs_by_address', 'foundry outputs by alias address, newest first'),
        ('@extschema@', 'nft_outputs_by_address', 'NFT outputs by address, newest first'),
        ('@extschema@', 'nft_outputs_by_dust_return_address', 'NFT outputs by storage deposit return address, newest first'),
        ('@extschema@', 'nft_outputs_by_sender', 'NFT outputs by sender, newest first'),
        ('@extschema@', 'nft_outputs_by_issuer', 'NFT outputs by issuer, newest first'),
        ('@extschema@', 'nft_outputs_by_tag', 'NFT outputs by tag, newest first'),
        ('@extschema@', 'legacy_outputs_by_address', 'Chrysalis outputs by address, newest first'),
        ('@extschema@', 'parents_by_ms', 'block to parent edges by parent, newest first'),
        ('@extschema@', 'transactions_by_state', 'transaction parts with their inclusion state'),
        ('@extschema@', 'partitions', 'the partitions of the ledger tables: range, tier, server of a remote one, rows and bytes'),
        -- the legacy (ternary) era, partitioned by month_id
        ('legacy', 'tables', 'the legacy tables and the unique key each partition gets'),
        ('legacy', 'bundles', 'legacy bundles'' transactions by bundle hash, in index order (input or output)'),
        ('legacy', 'edges', 'legacy transactions by the address they move value on, or by a transaction they approve'),
        ('legacy', 'tags', 'legacy transactions by tag and by IOTA Area Code prefix'),
        ('legacy', 'zero_value', 'legacy zero-value (data and spam) transactions by address and month'),
        ('legacy', 'transaction_locator', 'the month holding each legacy transaction'),
        ('legacy', 'hints', 'the months holding a key: an address''s value edges or zero-value transactions, approvers, a bundle'),
        ('legacy', 'tag_hints', 'the months holding a tag or an area code prefix'),
        ('legacy', 'milestones', 'the Coordinator''s milestones: the tail transaction of each milestone bundle'),
        ('legacy', 'bundle_state', 'each bundle''s transactions held so far, and whether it is complete'),
        ('legacy', 'snapshot', 'the balances of a global snapshot (IRI''s Snapshot.txt), the ledger''s start'),
        ('legacy', 'daily_analytics', 'per UTC day: milestones, transactions, value transactions, tokens and active addresses'),
        ('legacy', 'daily_addresses', 'per UTC day, each address that sent or received value, until rolled up'),
        ('legacy', 'milestone_analytics', 'per confirming milestone: transactions, value transactions and tokens'),
        ('legacy', 'bundle_heads', 'each legacy bundle''s head transaction'),
        ('legacy', 'incomplete_bundles', 'each incomplete legacy bundle''s missing indexes'),
        ('legacy', 'partitions', 'the partitions of the legacy tables: month, tier, rows and bytes'),
        ('legacy', 'status', 'each legacy table''s months [from_month, to_month): tier, rows and bytes'),
        -- record streams, partitioned by segment
        ('streams', 'shards', 'the record streams'' shards'),
        ('streams', 'shard_segments', 'the offsets of each shard in each segment it wrote in'),
        ('streams', 'record_tags', 'a shard''s records by tag, in offset order'),
        ('streams', 'tag_hints', 'the segments that hold a shard''s tag'),
        ('streams', 'time_marks', 'the oldest and newest timestamp of each block of 4096 offsets of a shard'),
        ('streams', 'group_offsets', 'consumer groups: the last offset each consumed per namespace and shard'),
        ('streams', 'status', 'the partitions of the stream tables: segments, tier, rows and bytes'))
        AS v(schema_name, relation, comment)
    LOOP
        EXECUTE format('COMMENT ON %s %I.%I IS %L',
                       CASE (SELECT r.relkind FROM pg_class r
                             WHERE r.oid = format('%I.%I', c.schema_name, c.relation)::regclass)
                            WHEN 'v' THEN 'VIEW' ELSE 'TABLE' END,
                       c.schema_name, c.relation, c.comment);
    END LOOP;
END
$$;
