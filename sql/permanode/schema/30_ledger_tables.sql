
-------------------------------------------------------------------------------------------------
-- Ledger tables (seed 002, with seed 000's protocol version, legacy outputs and tags). Names and
-- columns are the seed's; types are PostgreSQL's. Codes:
--   inclusion_state: 0 no_transaction, 1 included, 2 conflicting (see inclusion_state_name()).
--   IDs are hash32 domains (0x-hex), addresses are `address` (bech32), raw bytes are bytea.
-- Deviations from the seed are listed in tests/regress/sql/seed_compat.sql.
-------------------------------------------------------------------------------------------------

-- Blocks ("messages" in the seed) with their metadata.
CREATE TABLE @extschema@.messages (
    message_id @extschema@.block_id NOT NULL,
    version smallint NOT NULL,                 -- protocol version (2 = Stardust, 1 = Chrysalis)
    message bytea NOT NULL,                    -- the raw block, as serialized on the network
    est_milestone_index int,
    milestone_index int,                       -- referencing milestone
    inclusion_state smallint,
    conflict_reason smallint,
    proof bytea,
    ms_range_id int NOT NULL,
    ms_timestamp timestamptz,
    white_flag_index int,                      -- position in the milestone's white-flag order
    variant text,                              -- payload kind: tagged_data, transaction, milestone, ...
    parents @extschema@.block_id[],
    is_solid boolean,
    should_promote boolean,
    should_reattach boolean
) PARTITION BY RANGE (ms_range_id);
CREATE INDEX messages_by_milestone ON @extschema@.messages (milestone_index, white_flag_index);

-- Transaction parts: one row per input, output and unlock (variant).
CREATE TABLE @extschema@.transactions (
    transaction_id @extschema@.transaction_id NOT NULL,
    idx smallint NOT NULL,
    variant text NOT NULL CHECK (variant IN ('input', 'output', 'unlock')),
    message_id @extschema@.block_id NOT NULL,
    data bytea NOT NULL,
    est_milestone_index int,
    milestone_index int,
    inclusion_state smallint,
    ms_range_id int NOT NULL,
    ms_timestamp timestamptz
) PARTITION BY RANGE (ms_range_id);

CREATE TABLE @extschema@.milestones (
    milestone_index int NOT NULL,
    message_id @extschema@.block_id NOT NULL,
    timestamp bigint NOT NULL,                 -- unix seconds, as in the milestone essence
    payload bytea NOT NULL,                    -- the raw milestone payload
    milestone_id @extschema@.milestone_id NOT NULL,
    ms_range_id int NOT NULL
) PARTITION BY RANGE (ms_range_id);
CREATE INDEX milestones_by_id ON @extschema@.milestones (milestone_id);

-- Outputs, one table per kind. Every output row keeps the raw output bytes in `data`.
CREATE TABLE @extschema@.basic_outputs (
    output_id @extschema@.output_id NOT NULL,
    ms_range_id int NOT NULL,
    milestone_index int NOT NULL,
    ms_timestamp timestamptz NOT NULL,
    inclusion_state smallint,
    address @extschema@.address,
    sender @extschema@.address,
    tag bytea,
    data bytea,
    amount bigint,
    sender_type smallint,                      -- used by the seed's INSERT: the sender's address type
    message_id @extschema@.block_id,
    native_token_count smallint,
    dust_return_address @extschema@.address,   -- storage deposit return
    dust_return_amount bigint,
    timelock timestamptz,
    expiration timestamptz,
    expiration_return_address @extschema@.address
) PARTITION BY RANGE (ms_range_id);

CREATE TABLE @extschema@.alias_outputs (
    alias_id @extschema@.alias_id NOT NULL,
    ms_range_id int NOT NULL,
    milestone_index int NOT NULL,
    ms_timestamp timestamptz NOT NULL,
    inclusion_state smallint,
    sender @extschema@.address,
    issuer @extschema@.address,
    state_controller @extschema@.address,
    governor @extschema@.address,
    data bytea,
    output_id @extschema@.output_id NOT NULL,
    amount bigint,
    message_id @extschema@.block_id,
    state_index int,
    foundry_counter int,
    native_token_count smallint
) PARTITION BY RANGE (ms_range_id);

CREATE TABLE @extschema@.foundry_outputs (
    foundry_id @extschema@.foundry_id NOT NULL,
    ms_range_id int NOT NULL,
    milestone_index int NOT NULL,
    ms_timestamp timestamptz NOT NULL,
    inclusion_state smallint,
    address @extschema@.address,               -- the controlling alias
    data bytea,
    output_id @extschema@.output_id NOT NULL,
    amount bigint,
    message_id @extschema@.block_id,
    native_token_count smallint
) PARTITION BY RANGE (ms_range_id);

CREATE TABLE @extschema@.nft_outputs (
    nft_id @extschema@.nft_id NOT NULL,
    ms_range_id int NOT NULL,
    milestone_index int NOT NULL,
    ms_timestamp timestamptz NOT NULL,
    inclusion_state smallint,
    address @extschema@.address,
    dust_return_address @extschema@.address,
    sender @extschema@.address,
    issuer @extschema@.address,
    tag bytea,
    data bytea,
    output_id @extschema@.output_id NOT NULL,
    amount bigint,
    message_id @extschema@.block_id,
    native_token_count smallint,
    dust_return_amount bigint,
    timelock timestamptz,
    expiration timestamptz,
    expiration_return_address @extschema@.address
) PARTITION BY RANGE (ms_range_id);

-- Chrysalis (pre-Stardust) outputs: SigLockedSingleOutput (output_type 0) and
-- SigLockedDustAllowanceOutput (1). A row with is_used = false in the creating milestone's range;
-- once spent, a row with is_used = true in the spending milestone's range (message_id: the
-- spending message), so history stays append-only as in spent_outputs.
CREATE TABLE @extschema@.legacy_outputs (
    output_id @extschema@.output_id NOT NULL,
    output_type smallint NOT NULL,
    is_used boolean NOT NULL,
    ms_range_id int NOT NULL,
    milestone_index int NOT NULL,
    ms_timestamp timestamptz NOT NULL,
    inclusion_state smallint,
    message_id @extschema@.block_id,
    amount bigint,
    address @extschema@.address,
    data bytea
) PARTITION BY RANGE (ms_range_id);

-- Tagged-data tags (and Chrysalis indexation keys).
CREATE TABLE @extschema@.tags (
    tag bytea NOT NULL,
    ms_range_id int NOT NULL,
    milestone_index int,
    ms_timestamp timestamptz,
    message_id @extschema@.block_id NOT NULL,
    inclusion_state smallint                   -- the seed says blob; a code like everywhere else
) PARTITION BY RANGE (ms_range_id);

-- Block -> parent edges, in the range of the child's milestone.
CREATE TABLE @extschema@.parents (
    parent_id @extschema@.block_id NOT NULL,
    message_id @extschema@.block_id NOT NULL,
    est_milestone_index int,
    milestone_index int,
    ms_timestamp timestamptz,
    inclusion_state smallint,
    ms_range_id int NOT NULL
) PARTITION BY RANGE (ms_range_id);

-- Spends, append-only, in the range of the spending milestone: history is never updated.
CREATE TABLE @extschema@.spent_outputs (
    output_id @extschema@.output_id NOT NULL,
    ms_range_id int NOT NULL,
    milestone_index int NOT NULL,
    ms_timestamp timestamptz NOT NULL,
    transaction_id @extschema@.transaction_id NOT NULL,   -- the spending transaction
    message_id @extschema@.block_id
) PARTITION BY RANGE (ms_range_id);
CREATE INDEX spent_outputs_by_transaction ON @extschema@.spent_outputs (transaction_id);

-- Which milestones are in, by whom (seed: synced_by / logged_by).
CREATE TABLE @extschema@.sync (
    ms_range_id int NOT NULL,
    milestone_index int NOT NULL,
    synced_by smallint,
    logged_by smallint
) PARTITION BY RANGE (ms_range_id);

CREATE TABLE @extschema@.ms_analytics (
    ms_range_id int NOT NULL,
    milestone_index int NOT NULL,
    message_count int NOT NULL,
    transaction_count int NOT NULL,
    transferred_tokens bigint NOT NULL
) PARTITION BY RANGE (ms_range_id);

CREATE TABLE @extschema@.address_analytics (
    address @extschema@.address NOT NULL,
    milestone_index int NOT NULL,
    sent_tokens bigint NOT NULL,
    recv_tokens bigint NOT NULL,
    ms_range_id int NOT NULL
) PARTITION BY RANGE (ms_range_id);

-- (each table's unique key is in the catalog of partitioned tables, 35_partitioned_tables.sql)
INSERT INTO @extschema@.ledger_tables (table_name, chunk_size, has_pending) VALUES
    ('messages', 10000, true),
    ('transactions', 10000, true),
    ('milestones', 10000, false),
    ('basic_outputs', 10000, true),
    ('alias_outputs', 10000, true),
    ('foundry_outputs', 10000, true),
    ('nft_outputs', 10000, true),
    ('legacy_outputs', 10000, false),
    ('tags', 10000, true),
    ('parents', 10000, true),
    ('spent_outputs', 10000, false),
    ('sync', 10000, false),
    ('ms_analytics', 10000, false),
    ('address_analytics', 10000, false);

-------------------------------------------------------------------------------------------------
-- Small tables that do not grow with history: hints, locators, the unspent set, rollups, caches.
-------------------------------------------------------------------------------------------------

-- Which ranges hold a tag (seed 002). table_kind: message (tagged data), basic_output, nft_output.
CREATE TABLE @extschema@.tag_hints (
    tag bytea NOT NULL,
    table_kind text NOT NULL DEFAULT 'message',
    ms_range_id int NOT NULL,
    PRIMARY KEY (tag, table_kind, ms_range_id)
);

-- Which ranges hold an address (seed 002). output_kind: extended (basic), alias, foundry, nft,
-- legacy; variant: address, sender, issuer, state_controller, governor, dust_return_address.
CREATE TABLE @extschema@.addresses_hints (
    address @extschema@.address NOT NULL,
    output_kind text NOT NULL,
    variant text NOT NULL,
    ms_range_id int NOT NULL,
    PRIMARY KEY (address, output_kind, variant, ms_range_id)
);

-- The protocol of each ingested milestone: 1 Chrysalis (messages), 2 Stardust (blocks). One
-- network's eras follow each other: ingest refuses a milestone of one era at or beyond the
-- milestones of a later era, or at or before those of an earlier one. Kept hot, beside sync.
CREATE TABLE @extschema@.milestone_protocols (
    milestone_index int PRIMARY KEY,
    protocol_version smallint NOT NULL CHECK (protocol_version IN (1, 2))
);
CREATE INDEX milestone_protocols_by_version
    ON @extschema@.milestone_protocols (protocol_version, milestone_index);

-- Chrysalis receipts (TIP-17): which milestones carry one, by the legacy milestone it migrated
-- funds at, so that the receipts routes read only those milestones' payloads.
CREATE TABLE @extschema@.receipts (
    milestone_index int PRIMARY KEY,
    migrated_at int NOT NULL,
    final boolean NOT NULL
);
CREATE INDEX receipts_by_migrated_at ON @extschema@.receipts (migrated_at, milestone_index);

-- Locators: from an ID to the range(s) holding it, so that a point lookup costs the same
-- whatever the number of partitions, hot or archived.
CREATE TABLE @extschema@.block_locator (
    block_id @extschema@.block_id PRIMARY KEY,
    ms_range_id int NOT NULL
);
-- Which ranges hold the children of a block (its parents rows), for children lookups, besides
-- the block's own range (block_locator), which holds the children approving it from its own cone.
CREATE TABLE @extschema@.parent_hints (
    parent_id @extschema@.block_id NOT NULL,
    ms_range_id int NOT NULL,
    PRIMARY KEY (parent_id, ms_range_id)
);
CREATE TABLE @extschema@.transaction_locator (
    transaction_id @extschema@.transaction_id NOT NULL,
    ms_range_id int NOT NULL,
    PRIMARY KEY (transaction_id, ms_range_id)
);
CREATE TABLE @extschema@.milestone_locator (
    milestone_id @extschema@.milestone_id PRIMARY KEY,
    ms_range_id int NOT NULL
);
-- An output's creating range and, once spent, its spending range (both may arrive in any order).
CREATE TABLE @extschema@.output_locator (
    output_id @extschema@.output_id PRIMARY KEY,
    ms_range_id int,
    spent_ms_range_id int,
    -- A Chrysalis output's creating range (legacy_outputs), kept when the Stardust genesis books
    -- the output again under its ID (ms_range_id is then the Stardust row's).
    legacy_ms_range_id int
);
-- Alias and NFT IDs, and foundry IDs: every range where the chain has an output.
CREATE TABLE @extschema@.chain_locator (
    chain_id @extschema@.hash32 NOT NULL,      -- alias or NFT ID
    ms_range_id int NOT NULL,
    PRIMARY KEY (chain_id, ms_range_id)
);
CREATE TABLE @extschema@.foundry_locator (
    foundry_id @extschema@.foundry_id NOT NULL,
    ms_range_id int NOT NULL,
    PRIMARY KEY (foundry_id, ms_range_id)
);

-- The unspent set: small, hot and richly indexed, for the indexer routes (seed 002: a query
-- covers all outputs, through the history tables, or the unspent ones, through this table).
CREATE TABLE @extschema@.unspent_outputs (
    output_id @extschema@.output_id PRIMARY KEY,
    output_kind text NOT NULL CONSTRAINT unspent_outputs_output_kind_check
        CHECK (output_kind IN ('basic', 'alias', 'foundry', 'nft', 'treasury', 'legacy')),
    amount bigint NOT NULL,
    address @extschema@.address,
    sender @extschema@.address,
    issuer @extschema@.address,
    tag bytea,
    state_controller @extschema@.address,
    governor @extschema@.address,
    dust_return_address @extschema@.address,
    dust_return_amount bigint,
    timelock timestamptz,
    expiration timestamptz,
    expiration_return_address @extschema@.address,
    native_token_count smallint NOT NULL DEFAULT 0,
    chain_id @extschema@.hash32,               -- alias or NFT ID
    foundry_id @extschema@.foundry_id,
    milestone_index int NOT NULL,
    ms_timestamp timestamptz NOT NULL,
    message_id @extschema@.block_id,
    data bytea NOT NULL
);
CREATE INDEX unspent_outputs_by_address ON @extschema@.unspent_outputs (address, ms_timestamp DESC, output_id);
CREATE INDEX unspent_outputs_by_sender ON @extschema@.unspent_outputs (sender, ms_timestamp DESC, output_id) WHERE sender IS NOT NULL;
CREATE INDEX unspent_outputs_by_issuer ON @extschema@.unspent_outputs (issuer, ms_timestamp DESC, output_id) WHERE issuer IS NOT NULL;
CREATE INDEX unspent_outputs_by_tag ON @extschema@.unspent_outputs (tag, ms_timestamp DESC, output_id) WHERE tag IS NOT NULL;
CREATE INDEX unspent_outputs_by_state_controller ON @extschema@.unspent_outputs (state_controller, ms_timestamp DESC, output_id) WHERE state_controller IS NOT NULL;
CREATE INDEX unspent_outputs_by_governor ON @extschema@.unspent_outputs (governor, ms_timestamp DESC, output_id) WHERE governor IS NOT NULL;
CREATE INDEX unspent_outputs_by_dust_return ON @extschema@.unspent_outputs (dust_return_address, ms_timestamp DESC, output_id) WHERE dust_return_address IS NOT NULL;
CREATE INDEX unspent_outputs_by_expiration_return ON @extschema@.unspent_outputs (expiration_return_address) WHERE expiration_return_address IS NOT NULL;
CREATE INDEX unspent_outputs_by_chain ON @extschema@.unspent_outputs (chain_id) WHERE chain_id IS NOT NULL;
CREATE INDEX unspent_outputs_by_foundry ON @extschema@.unspent_outputs (foundry_id) WHERE foundry_id IS NOT NULL;
CREATE INDEX unspent_outputs_by_kind_time ON @extschema@.unspent_outputs (output_kind, ms_timestamp DESC, output_id);

CREATE TABLE @extschema@.daily_analytics (
    year int NOT NULL,
    date date NOT NULL,
    total_addresses int NOT NULL,
    send_addresses int NOT NULL,
    recv_addresses int NOT NULL,
    PRIMARY KEY (year, date)
);

-- First and last milestone of each day (UTC).
CREATE TABLE @extschema@.date_cache (
    date date PRIMARY KEY,
    start_ms int NOT NULL,
    end_ms int NOT NULL
);

-- Per-day distinct values (addresses that sent or received, tags used) that daily_analytics
-- counts. A working cache: a day's rows can be purged once the day is rolled up.
CREATE TABLE @extschema@.metrics_cache (
    date date NOT NULL,
    variant text NOT NULL,
    metric text NOT NULL,
    value text NOT NULL,
    metric_value bytea,
    PRIMARY KEY (date, variant, metric, value)
);
