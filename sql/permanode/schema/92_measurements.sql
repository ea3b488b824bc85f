
-------------------------------------------------------------------------------------------------
-- inx-chronicle's per-milestone measurements, one row per measured milestone (measure_milestone,
-- 92_measurements.sql code part): the milestone's own activity, and the ledger's figures at its
-- end, which are the previous milestone's plus its created minus its consumed outputs. A
-- milestone without a row is not measured yet: its predecessor was not (ingest out of order, or
-- concurrently), and `permanode analytics --fill` measures it. NULL: not in that protocol.
-------------------------------------------------------------------------------------------------
CREATE TABLE @extschema@.milestone_measurements (
    milestone_index int PRIMARY KEY,
    protocol_version smallint NOT NULL,
    ms_timestamp timestamptz NOT NULL,
    -- block activity: blocks by payload kind (Chrysalis indexation counts as tagged data,
    -- receipts and treasury transactions as treasury), transaction blocks by inclusion state
    blocks_no_payload int NOT NULL,
    blocks_tagged_data int NOT NULL,
    blocks_transaction int NOT NULL,
    blocks_milestone int NOT NULL,
    blocks_treasury int NOT NULL,
    transactions_included int NOT NULL,
    transactions_conflicting int NOT NULL,
    -- milestone size: the bytes of its blocks, all and by payload kind
    bytes_total bigint NOT NULL,
    bytes_tagged_data bigint NOT NULL,
    bytes_transaction bigint NOT NULL,
    bytes_milestone bigint NOT NULL,
    bytes_treasury bigint NOT NULL,
    -- transaction size distribution: transactions by inputs and by outputs, buckets
    -- 1, 2, ..., 7, [8, 16), [16, 32), [32, 64), 64 and more
    input_buckets int[] NOT NULL,
    output_buckets int[] NOT NULL,
    -- base token activity: booked (created to an address by a transaction) and transferred
    -- (per transaction and address, the positive balance changes)
    booked_amount bigint NOT NULL,
    transferred_amount bigint NOT NULL,
    -- active addresses: the distinct owners of the outputs it created or consumed
    active_addresses int NOT NULL,
    -- output activity (Stardust): chains per transaction
    alias_created int, alias_state_changed int, alias_governor_changed int, alias_destroyed int,
    nft_created int, nft_transferred int, nft_destroyed int,
    foundry_created int, foundry_transferred int, foundry_destroyed int,
    -- address balances at the end of the milestone (of every kind of output an address owns,
    -- controls as state controller, or, for a foundry, as its alias): the addresses holding
    -- tokens, and per decimal magnitude (element i + 1: balances in [10^i, 10^(i+1))) their count
    -- and tokens
    addresses_with_balance bigint NOT NULL,
    balance_bucket_addresses bigint[] NOT NULL,
    balance_bucket_amounts bigint[] NOT NULL,
    -- ledger outputs at the end of the milestone (Chrysalis: basic = SigLockedSingleOutput)
    basic_count bigint NOT NULL, basic_amount bigint NOT NULL,
    alias_count bigint, alias_amount bigint,
    foundry_count bigint, foundry_amount bigint,
    nft_count bigint, nft_amount bigint,
    dust_allowance_count bigint, dust_allowance_amount bigint,
    -- ledger size: key bytes (the output ID) and data bytes (the output, its block ID, milestone
    -- index and timestamp) of the unspent outputs, as the rent structure weighs them
    key_bytes bigint NOT NULL,
    data_bytes bigint NOT NULL,
    -- unclaimed tokens (Stardust): the era's genesis outputs not spent yet
    unclaimed_count bigint, unclaimed_amount bigint,
    -- unlock conditions of the unspent outputs (Stardust)
    timelock_count bigint, timelock_amount bigint,
    expiration_count bigint, expiration_amount bigint,
    storage_deposit_return_count bigint, storage_deposit_return_amount bigint,
    storage_deposit_return_inner_amount bigint
);

-- The balance of each address holding tokens at the end of the newest measured milestone of a
-- protocol (its owners as measure_milestone counts them): the balances before a milestone are
-- read here, so measuring costs the milestone's own outputs, not the histories of the addresses
-- it touched (a busy address has thousands).
CREATE TABLE @extschema@.measured_balances (
    protocol_version smallint NOT NULL,
    address @extschema@.address NOT NULL,
    balance bigint NOT NULL CHECK (balance > 0),
    PRIMARY KEY (protocol_version, address)
);
-- The milestone measured_balances are at, per protocol: measuring a milestone after another
-- (measurements deleted and filled again) first rebuilds them from the ledger.
CREATE TABLE @extschema@.measured_balances_at (
    protocol_version smallint PRIMARY KEY,
    milestone_index int NOT NULL
);

-- The protocol parameters (TIP-32, serialized) in force from a milestone on, where a node (sync)
-- or a bundle's node field (ingest) gave them; only changes are recorded. The measurements read
-- them for the protocol-parameters measurement and the ledger's storage deposit.
CREATE TABLE @extschema@.protocol_parameters (
    milestone_index int PRIMARY KEY,
    protocol_version smallint NOT NULL,
    params bytea NOT NULL
);

-- Active addresses per UTC day, ISO week (starting Monday) and month: rolled up by
-- rollup_active_addresses, which `permanode analytics --fill` runs for the days it measured.
CREATE TABLE @extschema@.active_addresses (
    period text NOT NULL CHECK (period IN ('day', 'week', 'month')),
    period_start date NOT NULL,
    addresses int NOT NULL,
    PRIMARY KEY (period, period_start)
);

-- A milestone's outputs, found by their milestone (created, or spent). Plain btree indexes, which
-- the cold tier archives too (BRIN would be smaller, but an archive refuses it).
CREATE INDEX basic_outputs_by_milestone ON @extschema@.basic_outputs (milestone_index);
CREATE INDEX alias_outputs_by_milestone ON @extschema@.alias_outputs (milestone_index);
CREATE INDEX foundry_outputs_by_milestone ON @extschema@.foundry_outputs (milestone_index);
CREATE INDEX nft_outputs_by_milestone ON @extschema@.nft_outputs (milestone_index);
CREATE INDEX legacy_outputs_by_milestone ON @extschema@.legacy_outputs (milestone_index);
CREATE INDEX spent_outputs_by_milestone ON @extschema@.spent_outputs (milestone_index);
