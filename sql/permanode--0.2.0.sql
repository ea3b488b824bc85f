-- permanode install script (sql/permanode/*.sql joined into permanode--<version>.sql by sql/CMakeLists.txt).
\echo Use "CREATE EXTENSION permanode CASCADE" to load this file. \quit

COMMENT ON SCHEMA @extschema@ IS 'permanode: IOTA ledger archive';

CREATE FUNCTION @extschema@.build_info() RETURNS jsonb
    AS 'MODULE_PATHNAME', 'permanode_build_info'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.build_info() IS 'version and build details of the permanode extension';
-------------------------------------------------------------------------------------------------
-- Identifier types: compact binary, canonical text (0x-hex; bech32 for addresses).
-------------------------------------------------------------------------------------------------
DO $types$
DECLARE
    t record;
BEGIN
    FOR t IN SELECT * FROM (VALUES
        ('hash32', 32, 'permanode_hash32', 'permanode_hash32', 'permanode_hash32'),
        ('output_id', 34, 'permanode_output_id', 'permanode_output_id', 'permanode_output_id'),
        ('foundry_id', 38, 'permanode_foundry_id', 'permanode_foundry_id', 'permanode_foundry_id'),
        ('address', 33, 'permanode_address', 'permanode_address_hex', 'permanode_address'))
        AS v(name, len, text_io, binary_io, cmp)
    LOOP
        EXECUTE format('CREATE TYPE @extschema@.%I', t.name);
        EXECUTE format($$CREATE FUNCTION @extschema@.%I(cstring) RETURNS @extschema@.%I
            AS 'MODULE_PATHNAME', %L LANGUAGE C STABLE STRICT PARALLEL SAFE$$,
            t.name || '_in', t.name, t.text_io || '_in');
        EXECUTE format($$CREATE FUNCTION @extschema@.%I(@extschema@.%I) RETURNS cstring
            AS 'MODULE_PATHNAME', %L LANGUAGE C STABLE STRICT PARALLEL SAFE$$,
            t.name || '_out', t.name, t.text_io || '_out');
        EXECUTE format($$CREATE FUNCTION @extschema@.%I(internal) RETURNS @extschema@.%I
            AS 'MODULE_PATHNAME', %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE$$,
            t.name || '_recv', t.name, t.binary_io || '_recv');
        EXECUTE format($$CREATE FUNCTION @extschema@.%I(@extschema@.%I) RETURNS bytea
            AS 'MODULE_PATHNAME', %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE$$,
            t.name || '_send', t.name, t.binary_io || '_send');
        EXECUTE format($$CREATE TYPE @extschema@.%I (INPUT = @extschema@.%I, OUTPUT = @extschema@.%I,
            RECEIVE = @extschema@.%I, SEND = @extschema@.%I, INTERNALLENGTH = %s,
            ALIGNMENT = char, STORAGE = plain)$$,
            t.name, t.name || '_in', t.name || '_out', t.name || '_recv', t.name || '_send', t.len);

        -- Comparison: memcmp order, so btree order is byte order.
        EXECUTE format($$CREATE FUNCTION @extschema@.%I(@extschema@.%I, @extschema@.%I) RETURNS int4
            AS 'MODULE_PATHNAME', %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE$$,
            t.name || '_cmp', t.name, t.name, t.cmp || '_cmp');
        EXECUTE format($$CREATE FUNCTION @extschema@.%I(@extschema@.%I) RETURNS int4
            AS 'MODULE_PATHNAME', %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE$$,
            t.name || '_hash', t.name, t.cmp || '_hash');
        EXECUTE format($$CREATE FUNCTION @extschema@.%I(@extschema@.%I, int8) RETURNS int8
            AS 'MODULE_PATHNAME', %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE$$,
            t.name || '_hash_extended', t.name, t.cmp || '_hash_extended');
        DECLARE
            op record;
        BEGIN
            FOR op IN SELECT * FROM (VALUES
                ('=', 'eq', '=', '<>', 'eqsel', 'eqjoinsel'),
                ('<>', 'ne', '<>', '=', 'neqsel', 'neqjoinsel'),
                ('<', 'lt', '>', '>=', 'scalarltsel', 'scalarltjoinsel'),
                ('<=', 'le', '>=', '>', 'scalarlesel', 'scalarlejoinsel'),
                ('>', 'gt', '<', '<=', 'scalargtsel', 'scalargtjoinsel'),
                ('>=', 'ge', '<=', '<', 'scalargesel', 'scalargejoinsel'))
                AS o(sym, fn, commutator, negator, rest, joinrest)
            LOOP
                EXECUTE format($$CREATE FUNCTION @extschema@.%I(@extschema@.%I, @extschema@.%I)
                    RETURNS bool AS 'MODULE_PATHNAME', %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE$$,
                    t.name || '_' || op.fn, t.name, t.name, t.cmp || '_' || op.fn);
                EXECUTE format($$CREATE OPERATOR @extschema@.%s (LEFTARG = @extschema@.%I,
                    RIGHTARG = @extschema@.%I, FUNCTION = @extschema@.%I,
                    COMMUTATOR = OPERATOR(@extschema@.%s), NEGATOR = OPERATOR(@extschema@.%s),
                    RESTRICT = %s, JOIN = %s %s)$$,
                    op.sym, t.name, t.name, t.name || '_' || op.fn, op.commutator, op.negator,
                    op.rest, op.joinrest, CASE WHEN op.sym = '=' THEN ', HASHES, MERGES' ELSE '' END);
            END LOOP;
        END;
        -- min() and max(), for BI tools.
        EXECUTE format($$CREATE FUNCTION @extschema@.%I(@extschema@.%I, @extschema@.%I) RETURNS @extschema@.%I
            LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT CASE WHEN $1 OPERATOR(@extschema@.<=) $2 THEN $1 ELSE $2 END'$$,
            t.name || '_smaller', t.name, t.name, t.name);
        EXECUTE format($$CREATE FUNCTION @extschema@.%I(@extschema@.%I, @extschema@.%I) RETURNS @extschema@.%I
            LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT CASE WHEN $1 OPERATOR(@extschema@.>=) $2 THEN $1 ELSE $2 END'$$,
            t.name || '_larger', t.name, t.name, t.name);
        EXECUTE format($$CREATE AGGREGATE @extschema@.min(@extschema@.%I) (SFUNC = @extschema@.%I,
            STYPE = @extschema@.%I, SORTOP = OPERATOR(@extschema@.<), PARALLEL = SAFE, COMBINEFUNC = @extschema@.%I)$$,
            t.name, t.name || '_smaller', t.name, t.name || '_smaller');
        EXECUTE format($$CREATE AGGREGATE @extschema@.max(@extschema@.%I) (SFUNC = @extschema@.%I,
            STYPE = @extschema@.%I, SORTOP = OPERATOR(@extschema@.>), PARALLEL = SAFE, COMBINEFUNC = @extschema@.%I)$$,
            t.name, t.name || '_larger', t.name, t.name || '_larger');
        EXECUTE format($$CREATE OPERATOR CLASS @extschema@.%I DEFAULT FOR TYPE @extschema@.%I USING btree AS
            OPERATOR 1 @extschema@.<, OPERATOR 2 @extschema@.<=, OPERATOR 3 @extschema@.=,
            OPERATOR 4 @extschema@.>=, OPERATOR 5 @extschema@.>,
            FUNCTION 1 @extschema@.%I(@extschema@.%I, @extschema@.%I)$$,
            t.name || '_ops', t.name, t.name || '_cmp', t.name, t.name);
        EXECUTE format($$CREATE OPERATOR CLASS @extschema@.%I DEFAULT FOR TYPE @extschema@.%I USING hash AS
            OPERATOR 1 @extschema@.=, FUNCTION 1 @extschema@.%I(@extschema@.%I),
            FUNCTION 2 @extschema@.%I(@extschema@.%I, int8)$$,
            t.name || '_hash_ops', t.name, t.name || '_hash', t.name, t.name || '_hash_extended', t.name);
    END LOOP;
END
$types$;

COMMENT ON TYPE @extschema@.hash32 IS '32-byte identifier (BLAKE2b-256), text form 0x + 64 hex digits';
COMMENT ON TYPE @extschema@.output_id IS 'output ID: transaction ID + u16 little-endian index, 0x + 68 hex digits';
COMMENT ON TYPE @extschema@.foundry_id IS 'foundry ID: alias address + serial number + token scheme, 0x + 76 hex digits';
COMMENT ON TYPE @extschema@.address IS 'Stardust address (type byte + 32 bytes), text form bech32 with permanode.bech32_hrp';

CREATE DOMAIN @extschema@.block_id AS @extschema@.hash32;
CREATE DOMAIN @extschema@.transaction_id AS @extschema@.hash32;
CREATE DOMAIN @extschema@.milestone_id AS @extschema@.hash32;
CREATE DOMAIN @extschema@.alias_id AS @extschema@.hash32;
CREATE DOMAIN @extschema@.nft_id AS @extschema@.hash32;

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

-- How a lookup on table_name.column_name finds the ranges that hold a key: hint_query takes the
-- key as $1 and returns ms_range_id values. The planner hook (partition_hints.c) runs it, so a
-- keyed query touches only those partitions.
CREATE TABLE @extschema@.partition_hints (
    table_name name NOT NULL REFERENCES @extschema@.ledger_tables,
    column_name name NOT NULL,
    hint_query text NOT NULL,
    PRIMARY KEY (table_name, column_name)
);
COMMENT ON TABLE @extschema@.partition_hints IS
    'for each keyed column of a ledger table, the query that names the ranges holding a key';

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

-- Chrysalis (pre-Stardust) outputs.
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

INSERT INTO @extschema@.ledger_tables (table_name, chunk_size, unique_columns, has_pending) VALUES
    ('messages', 10000, '{message_id}', true),
    ('transactions', 10000, '{transaction_id,idx,variant,message_id}', true),
    ('milestones', 10000, '{milestone_index,message_id}', false),
    ('basic_outputs', 10000, '{output_id}', true),
    ('alias_outputs', 10000, '{alias_id,output_id}', true),
    ('foundry_outputs', 10000, '{foundry_id,output_id}', true),
    ('nft_outputs', 10000, '{nft_id,output_id}', true),
    ('legacy_outputs', 10000, '{output_id,output_type,is_used}', false),
    -- tags and parents: the seed's lookup order is the unique key (a message has one tag, and
    -- names a parent once), so each row costs one index entry, which also serves the lookups
    -- newest first (scanned backwards) and is the archives' row key.
    ('tags', 10000, '{tag,ms_range_id,ms_timestamp,milestone_index,message_id}', true),
    ('parents', 10000, '{parent_id,ms_range_id,ms_timestamp,milestone_index,message_id}', true),
    ('spent_outputs', 10000, '{output_id}', false),
    ('sync', 10000, '{milestone_index}', false),
    ('ms_analytics', 10000, '{milestone_index}', false),
    -- address_analytics: also keyed by its lookup order (an address's rows newest first)
    ('address_analytics', 10000, '{address,ms_range_id,milestone_index}', false);

-------------------------------------------------------------------------------------------------
-- Small tables that do not grow with history: hints, locators, the unspent set, rollups, caches.
-------------------------------------------------------------------------------------------------

-- Which ranges hold a tag (seed 002). table_kind: message (tagged data), basic_output, nft_output.
-- row_count, when known, is how many rows of the range carry the key, or fewer while a session
-- defers counts (permanode.defer_hint_counts; see flush_hint_counts()), never more: a first page
-- newest first then plans only the newest ranges that fill it.
CREATE TABLE @extschema@.tag_hints (
    tag bytea NOT NULL,
    table_kind text NOT NULL DEFAULT 'message',
    ms_range_id int NOT NULL,
    row_count bigint,
    PRIMARY KEY (tag, table_kind, ms_range_id)
);

-- Which ranges hold an address (seed 002). output_kind: extended (basic), alias, foundry, nft,
-- legacy; variant: address, sender, issuer, state_controller, governor, dust_return_address.
CREATE TABLE @extschema@.addresses_hints (
    address @extschema@.address NOT NULL,
    output_kind text NOT NULL,
    variant text NOT NULL,
    ms_range_id int NOT NULL,
    row_count bigint,                          -- as in tag_hints
    PRIMARY KEY (address, output_kind, variant, ms_range_id)
);

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
    spent_ms_range_id int
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
    output_kind text NOT NULL CHECK (output_kind IN ('basic', 'alias', 'foundry', 'nft', 'treasury')),
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

-------------------------------------------------------------------------------------------------
-- Partition lifecycle: partitions are made ahead of ingest by these functions, never by hand.
-------------------------------------------------------------------------------------------------

-- The range of a milestone in a table: milestone_index / chunk_size.
CREATE FUNCTION @extschema@.ms_range_id(table_name name, milestone_index int) RETURNS int
LANGUAGE sql STABLE STRICT PARALLEL SAFE AS $$
    SELECT milestone_index / chunk_size FROM @extschema@.ledger_tables t WHERE t.table_name = $1
$$;

-- The name of a table's partition for a range: messages_r000241, messages_pending.
CREATE FUNCTION @extschema@.partition_name(table_name name, ms_range_id int) RETURNS name
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT CASE WHEN ms_range_id = @extschema@.pending_range() THEN table_name || '_pending'
                -- lpad alone would cut ranges of 7+ digits down to 6, and names would collide.
                ELSE table_name || '_r' || lpad(ms_range_id::text, greatest(6, length(ms_range_id::text)), '0') END::name
$$;

-- Creates the partition of one table for one range if it is missing; returns true if it made it.
-- The table is created apart and then attached, which takes only a SHARE UPDATE EXCLUSIVE lock
-- on the parent, so reads and ingest into other partitions go on meanwhile. Another session's
-- partition descriptor may then lack the partition for a while: a session that writes to it
-- goes through ensure_partition().
CREATE FUNCTION @extschema@.create_partition(table_name name, ms_range_id int) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    part name := @extschema@.partition_name(table_name, ms_range_id);
    cols name[];
    upper_bound text;
BEGIN
    SELECT unique_columns INTO cols FROM @extschema@.ledger_tables t WHERE t.table_name = $1;
    IF NOT FOUND THEN
        RAISE EXCEPTION '"%" is not a ledger table', table_name
            USING ERRCODE = 'undefined_table',
                  HINT = 'The ledger tables are listed in permanode.ledger_tables.';
    END IF;
    IF ms_range_id < 0 THEN
        RAISE EXCEPTION 'invalid ms_range_id %: ranges start at 0', ms_range_id
            USING ERRCODE = 'numeric_value_out_of_range';
    END IF;
    -- Serialize creators of the same partition; the lock ends with the transaction. A creator
    -- that waited looks in pg_class with a fresh snapshot: to_regclass() goes through the
    -- catalog cache, which may not have seen the other creator's commit yet.
    PERFORM pg_advisory_xact_lock(hashtext('permanode.partition'), hashtext(part));
    IF EXISTS (SELECT 1 FROM pg_class c
               WHERE c.relname = part AND c.relnamespace = '@extschema@'::regnamespace) THEN
        RETURN false;
    END IF;
    -- An archived range keeps its foreign partition (writes to it fail with a hint to restore).
    IF EXISTS (SELECT 1 FROM @extschema@.archive_status s
               WHERE s.parent_table = format('@extschema@.%I', table_name)::regclass
                 AND ms_range_id >= s.range_from AND ms_range_id < s.range_to) THEN
        RETURN false;
    END IF;
    upper_bound := CASE WHEN ms_range_id = @extschema@.pending_range() THEN 'MAXVALUE'
                        ELSE (ms_range_id + 1)::text END;
    EXECUTE format('CREATE TABLE @extschema@.%I (LIKE @extschema@.%I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)',
                   part, table_name);
    EXECUTE format('CREATE UNIQUE INDEX %I ON @extschema@.%I (%s)', part || '_key', part,
                   (SELECT string_agg(quote_ident(c), ', ') FROM unnest(cols) c));
    EXECUTE format('ALTER TABLE @extschema@.%I ATTACH PARTITION @extschema@.%I FOR VALUES FROM (%s) TO (%s)',
                   table_name, part, ms_range_id, upper_bound);
    RETURN true;
END
$$;

-- Makes sure the partition of one table for one range exists and that this session routes rows
-- to it: a partition another session attached can be missing from this session's partition
-- descriptor of the parent (see extension/ledger/partitions.hpp), which is then built anew.
-- Returns false when the range has no heap partition to write to (it is archived).
CREATE FUNCTION @extschema@.ensure_partition(table_name name, ms_range_id int) RETURNS boolean
AS 'MODULE_PATHNAME', 'permanode_ensure_partition'
LANGUAGE C STRICT;

-- Makes sure every ledger table has partitions for the ranges of milestones from..to, plus
-- `ahead` ranges after it. Returns how many partitions it created. The maintenance job calls it
-- ahead of time; ingest makes sure of its own milestone's partitions through ensure_partition().
CREATE FUNCTION @extschema@.premake(from_milestone int, to_milestone int, ahead int DEFAULT 1)
RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    t record;
    r int;
    made int := 0;
BEGIN
    IF from_milestone < 0 OR to_milestone < from_milestone THEN
        RAISE EXCEPTION 'invalid milestone range % to %', from_milestone, to_milestone
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOR t IN SELECT table_name, chunk_size FROM @extschema@.ledger_tables ORDER BY table_name LOOP
        FOR r IN from_milestone / t.chunk_size .. to_milestone / t.chunk_size + ahead LOOP
            IF to_regclass(format('@extschema@.%I', @extschema@.partition_name(t.table_name, r))) IS NULL
               AND @extschema@.create_partition(t.table_name, r) THEN
                made := made + 1;
            END IF;
        END LOOP;
    END LOOP;
    RETURN made;
END
$$;

-- The partitions of the ledger tables: range bounds, tier, rows and bytes on disk.
CREATE VIEW @extschema@.partitions AS
SELECT p.inhparent::regclass AS table_name,
       c.oid::regclass AS partition,
       CASE WHEN c.relname ~ '_pending$' THEN @extschema@.pending_range()
            ELSE substring(c.relname from '_r([0-9]+)$')::int END AS ms_range_id,
       CASE c.relkind WHEN 'f' THEN 'cold' ELSE 'hot' END AS tier,
       c.reltuples::bigint AS estimated_rows,
       CASE c.relkind WHEN 'f' THEN NULL ELSE pg_total_relation_size(c.oid) END AS bytes
FROM pg_inherits p
JOIN pg_class c ON c.oid = p.inhrelid
JOIN @extschema@.ledger_tables t ON p.inhparent = format('@extschema@.%I', t.table_name)::regclass;

-- Changes a table's chunk size; an error once the table holds data. Empty partitions made with
-- the old size are dropped (premake makes new ones).
CREATE FUNCTION @extschema@.set_chunk_size(table_name name, chunk_size int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    part regclass;
BEGIN
    IF chunk_size <= 0 THEN
        RAISE EXCEPTION 'invalid chunk size %: it must be positive', chunk_size
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    UPDATE @extschema@.ledger_tables t SET chunk_size = $2 WHERE t.table_name = $1;
    IF NOT FOUND THEN
        RAISE EXCEPTION '"%" is not a ledger table', table_name USING ERRCODE = 'undefined_table';
    END IF;
    FOR part IN SELECT p.partition FROM @extschema@.partitions p
                WHERE p.table_name = format('@extschema@.%I', $1)::regclass
                  AND p.ms_range_id <> @extschema@.pending_range() LOOP
        EXECUTE format('DROP TABLE %s', part);
    END LOOP;
END
$$;

-- The pending tier's partitions exist from the start.
DO $$
DECLARE
    t name;
BEGIN
    FOR t IN SELECT table_name FROM @extschema@.ledger_tables WHERE has_pending LOOP
        PERFORM @extschema@.create_partition(t, @extschema@.pending_range());
    END LOOP;
END
$$;

-- Deletes pending rows (milestone still unknown) older than the TTL (seed 002: USING TTL 86400).
CREATE FUNCTION @extschema@.expire_pending(ttl interval DEFAULT interval '1 day') RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    t name;
    n bigint;
    total bigint := 0;
BEGIN
    FOR t IN SELECT table_name FROM @extschema@.ledger_tables WHERE has_pending LOOP
        EXECUTE format('DELETE FROM @extschema@.%I WHERE ms_timestamp < now() - $1',
                       @extschema@.partition_name(t, @extschema@.pending_range())) USING ttl;
        GET DIAGNOSTICS n = ROW_COUNT;
        total := total + n;
    END LOOP;
    RETURN total;
END
$$;

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

SELECT @extschema@.create_lookup('legacy_outputs_by_address', 'legacy_outputs',
    'address, output_type, is_used, ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC',
    '{address,output_type,is_used,ms_range_id,ms_timestamp,milestone_index}');
-- parents_by_ms is backed by the partitions' unique key, (parent_id, ms_range_id, ms_timestamp,
-- milestone_index, message_id), scanned backwards.
CREATE VIEW @extschema@.parents_by_ms AS
SELECT * FROM @extschema@.parents
WHERE parent_id IS NOT NULL AND message_id IS NOT NULL AND milestone_index IS NOT NULL
  AND ms_timestamp IS NOT NULL;

-- transactions_by_state keeps only the seed's columns; the partitions' unique key, which leads
-- with transaction_id, backs it (a transaction has a few parts to filter by inclusion_state).
CREATE VIEW @extschema@.transactions_by_state AS
SELECT transaction_id, idx, variant, message_id, inclusion_state
FROM @extschema@.transactions
WHERE transaction_id IS NOT NULL AND idx IS NOT NULL AND variant IS NOT NULL
  AND message_id IS NOT NULL AND inclusion_state IS NOT NULL AND data IS NOT NULL;

DROP FUNCTION @extschema@.create_lookup(name, name, text, name[]);

-- Point lookups by ID inside a partition. (Tags, and an address's analytics, newest first use
-- their partitions' unique key, scanned backwards.)
CREATE INDEX alias_outputs_by_output_id ON @extschema@.alias_outputs (output_id);
CREATE INDEX foundry_outputs_by_output_id ON @extschema@.foundry_outputs (output_id);
CREATE INDEX nft_outputs_by_output_id ON @extschema@.nft_outputs (output_id);

-------------------------------------------------------------------------------------------------
-- Partition hints: for a keyed column, the query naming the ranges that hold a key ($1), and
-- optionally how many rows each holds (a second column; NULL when unknown).
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
    ('legacy_outputs', 'output_id', 'SELECT ms_range_id FROM @extschema@.output_locator WHERE output_id = $1 AND ms_range_id IS NOT NULL'),
    ('spent_outputs', 'output_id', 'SELECT spent_ms_range_id FROM @extschema@.output_locator WHERE output_id = $1 AND spent_ms_range_id IS NOT NULL'),
    ('alias_outputs', 'alias_id', 'SELECT ms_range_id FROM @extschema@.chain_locator WHERE chain_id = $1'),
    ('nft_outputs', 'nft_id', 'SELECT ms_range_id FROM @extschema@.chain_locator WHERE chain_id = $1'),
    ('foundry_outputs', 'foundry_id', 'SELECT ms_range_id FROM @extschema@.foundry_locator WHERE foundry_id = $1'),
    ('basic_outputs', 'address', 'SELECT ms_range_id, row_count FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''extended'' AND variant = ''address'''),
    ('basic_outputs', 'sender', 'SELECT ms_range_id, row_count FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''extended'' AND variant = ''sender'''),
    ('basic_outputs', 'tag', 'SELECT ms_range_id, row_count FROM @extschema@.tag_hints WHERE tag = $1 AND table_kind = ''basic_output'''),
    ('alias_outputs', 'sender', 'SELECT ms_range_id, row_count FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''alias'' AND variant = ''sender'''),
    ('alias_outputs', 'issuer', 'SELECT ms_range_id, row_count FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''alias'' AND variant = ''issuer'''),
    ('alias_outputs', 'state_controller', 'SELECT ms_range_id, row_count FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''alias'' AND variant = ''state_controller'''),
    ('alias_outputs', 'governor', 'SELECT ms_range_id, row_count FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''alias'' AND variant = ''governor'''),
    ('foundry_outputs', 'address', 'SELECT ms_range_id, row_count FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''foundry'' AND variant = ''address'''),
    ('nft_outputs', 'address', 'SELECT ms_range_id, row_count FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''nft'' AND variant = ''address'''),
    ('nft_outputs', 'dust_return_address', 'SELECT ms_range_id, row_count FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''nft'' AND variant = ''dust_return_address'''),
    ('nft_outputs', 'sender', 'SELECT ms_range_id, row_count FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''nft'' AND variant = ''sender'''),
    ('nft_outputs', 'issuer', 'SELECT ms_range_id, row_count FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''nft'' AND variant = ''issuer'''),
    ('nft_outputs', 'tag', 'SELECT ms_range_id, row_count FROM @extschema@.tag_hints WHERE tag = $1 AND table_kind = ''nft_output'''),
    ('legacy_outputs', 'address', 'SELECT ms_range_id, row_count FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''legacy'' AND variant = ''address'''),
    ('address_analytics', 'address', 'SELECT ms_range_id, row_count FROM @extschema@.addresses_hints WHERE address = $1 AND output_kind = ''analytics'' AND variant = ''address'''),
    ('tags', 'tag', 'SELECT ms_range_id, row_count FROM @extschema@.tag_hints WHERE tag = $1 AND table_kind = ''message''');

-------------------------------------------------------------------------------------------------
-- Ingest: one call per milestone. Everything is derived from the raw blocks by the codec inside
-- the backend (extension/ledger/); see ingest_milestone's comment for the contract.
--   sync.synced_by codes: 1 = permanode.ingest_milestone. sync.logged_by: NULL (not used yet).
-------------------------------------------------------------------------------------------------

-- An output a milestone books from outside its cone (the genesis or a snapshot): its ID, the
-- block ID the snapshot names for it, and its serialized bytes (TIP-18).
CREATE TYPE @extschema@.snapshot_output AS (
    output_id @extschema@.output_id,
    block_id @extschema@.block_id,
    output bytea
);

CREATE FUNCTION @extschema@.ingest_milestone(
    milestone_index int,
    milestone_timestamp bigint,
    blocks bytea[],
    inclusion_states smallint[],
    conflict_reasons smallint[] DEFAULT NULL,
    snapshot_outputs @extschema@.snapshot_output[] DEFAULT NULL,
    OUT milestone int,
    OUT already_ingested boolean,
    OUT messages int,
    OUT outputs int,
    OUT spent int)
RETURNS record
AS 'MODULE_PATHNAME', 'permanode_ingest_milestone'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.ingest_milestone(int, bigint, bytea[], smallint[], smallint[], @extschema@.snapshot_output[]) IS
$$ingests one milestone in the caller's transaction.
Arguments: milestone_index and milestone_timestamp (unix seconds) = the milestone's index and essence timestamp; blocks = the cone's raw blocks (TIP-24 bytes) in white-flag order; inclusion_states = per block 0 no_transaction, 1 included, 2 conflicting; conflict_reasons = per block TIP-25 codes (NULL: all 0); snapshot_outputs = outputs booked at this milestone from outside the cone, created before the cone's transactions apply.
A milestone's own block is referenced by the next milestone, so the milestones row (and milestone_locator) of milestone N is written from the milestone payload found in the cone of N+1, in N's range.
Derives messages, parents, tags, transactions, milestones, the output tables, spent_outputs, the unspent set, locators, hints, ms_analytics, address_analytics, metrics_cache, date_cache and the sync row (synced_by 1). Only included transactions create and spend outputs.
Idempotent: under an advisory lock on the milestone index it returns already_ingested = true, changing nothing, when the milestone's sync row exists. Milestones may come in any order.
Returns the rows it booked: messages (cone size), outputs (created and snapshot outputs), spent (consumed outputs); zeros when already ingested.
Errors: 22P02 for a block or snapshot output that does not decode (naming its position, the field and the byte offset); 22023 for arrays of different lengths, metadata that contradicts a payload, or a cone carrying the payload of a later milestone (or of this one with another timestamp).$$;

CREATE FUNCTION @extschema@.flush_hint_counts() RETURNS bigint
AS 'MODULE_PATHNAME', 'permanode_flush_hint_counts'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.flush_hint_counts() IS
$$writes back, in the caller's transaction, the hint row counts this session deferred (permanode.defer_hint_counts = on); returns the hint rows written.
With the setting on, ingest_milestone adds a milestone's count for a hint row this session knows to be committed to a sum kept by the session, and writes the sums back every 256 milestones it ingests and by the first milestone after the oldest sum has waited permanode.hint_counts_max_delay (60 s); until then tag_hints and addresses_hints row_count is a lower bound. permanode ingest calls this before it exits. Sums of a session that ends without it are lost, and those counts stay lower bounds (which the planner's pruning allows: it only keeps more ranges).$$;

-- Counts every hint row's rows anew from the ledger tables, hot and archived: after a crash or a
-- session that ended without its write-back, deferred counts stay lower bounds, and pruning keeps
-- more ranges than a page needs until this runs. The keys follow ingest's (ledger/hints.cpp).
-- TRUNCATE gives both tables new files, by which every session that defers counts drops its
-- sums (this count includes their rows) instead of adding them again.
CREATE FUNCTION @extschema@.recount_hints() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    changed bigint;
BEGIN
    LOCK TABLE @extschema@.addresses_hints, @extschema@.tag_hints IN ACCESS EXCLUSIVE MODE;
    CREATE TEMP TABLE recount_addresses ON COMMIT DROP AS
    SELECT address, output_kind, variant, ms_range_id, count(*) AS row_count
    FROM (SELECT address, 'extended' AS output_kind, 'address' AS variant, ms_range_id FROM @extschema@.basic_outputs WHERE address IS NOT NULL
          UNION ALL SELECT sender, 'extended', 'sender', ms_range_id FROM @extschema@.basic_outputs WHERE sender IS NOT NULL
          UNION ALL SELECT dust_return_address, 'extended', 'dust_return_address', ms_range_id FROM @extschema@.basic_outputs WHERE dust_return_address IS NOT NULL
          UNION ALL SELECT sender, 'alias', 'sender', ms_range_id FROM @extschema@.alias_outputs WHERE sender IS NOT NULL
          UNION ALL SELECT issuer, 'alias', 'issuer', ms_range_id FROM @extschema@.alias_outputs WHERE issuer IS NOT NULL
          UNION ALL SELECT state_controller, 'alias', 'state_controller', ms_range_id FROM @extschema@.alias_outputs WHERE state_controller IS NOT NULL
          UNION ALL SELECT governor, 'alias', 'governor', ms_range_id FROM @extschema@.alias_outputs WHERE governor IS NOT NULL
          UNION ALL SELECT address, 'foundry', 'address', ms_range_id FROM @extschema@.foundry_outputs WHERE address IS NOT NULL
          UNION ALL SELECT address, 'nft', 'address', ms_range_id FROM @extschema@.nft_outputs WHERE address IS NOT NULL
          UNION ALL SELECT sender, 'nft', 'sender', ms_range_id FROM @extschema@.nft_outputs WHERE sender IS NOT NULL
          UNION ALL SELECT issuer, 'nft', 'issuer', ms_range_id FROM @extschema@.nft_outputs WHERE issuer IS NOT NULL
          UNION ALL SELECT dust_return_address, 'nft', 'dust_return_address', ms_range_id FROM @extschema@.nft_outputs WHERE dust_return_address IS NOT NULL
          UNION ALL SELECT address, 'analytics', 'address', ms_range_id FROM @extschema@.address_analytics) r
    GROUP BY 1, 2, 3, 4;
    CREATE TEMP TABLE recount_tags ON COMMIT DROP AS
    SELECT tag, table_kind, ms_range_id, count(*) AS row_count
    FROM (SELECT tag, 'message' AS table_kind, ms_range_id FROM @extschema@.tags
          UNION ALL SELECT tag, 'basic_output', ms_range_id FROM @extschema@.basic_outputs WHERE tag IS NOT NULL
          UNION ALL SELECT tag, 'nft_output', ms_range_id FROM @extschema@.nft_outputs WHERE tag IS NOT NULL) r
    GROUP BY 1, 2, 3;
    SELECT (SELECT count(*) FROM pg_temp.recount_addresses n
            FULL JOIN @extschema@.addresses_hints h USING (address, output_kind, variant, ms_range_id)
            WHERE n.row_count IS DISTINCT FROM h.row_count)
         + (SELECT count(*) FROM pg_temp.recount_tags n
            FULL JOIN @extschema@.tag_hints h USING (tag, table_kind, ms_range_id)
            WHERE n.row_count IS DISTINCT FROM h.row_count)
    INTO changed;
    TRUNCATE @extschema@.addresses_hints, @extschema@.tag_hints;
    INSERT INTO @extschema@.addresses_hints (address, output_kind, variant, ms_range_id, row_count)
    SELECT * FROM pg_temp.recount_addresses ORDER BY 1, 2, 3, 4;
    INSERT INTO @extschema@.tag_hints (tag, table_kind, ms_range_id, row_count)
    SELECT * FROM pg_temp.recount_tags ORDER BY 1, 2, 3;
    DROP TABLE pg_temp.recount_addresses, pg_temp.recount_tags;
    RETURN changed;
END
$$;
COMMENT ON FUNCTION @extschema@.recount_hints() IS
$$counts every tag_hints and addresses_hints row anew from the ledger tables, hot and archived, and returns how many counts it changed (rows added or removed count too).
Deferred counts (permanode.defer_hint_counts) lost in a crash leave row_count a lower bound, so a first page may plan more ranges than it needs; this makes the counts exact again. It locks both tables for its run (lookups wait) and rewrites them, so that sessions that still defer counts drop their sums rather than add them twice.$$;

-- Called by ingest_milestone for outputs it creates that a milestone committed earlier already
-- spent (milestones commit out of order): that milestone could not know whose tokens it spent,
-- so its address_analytics rows get them now, as if the milestones had come in order. Returns
-- the rows booked, with whether each is new (ingest_milestone then adds their hints and the
-- day's 'sent' metrics, in the order it takes those rows' locks).
CREATE FUNCTION @extschema@.book_late_spends(output_ids @extschema@.output_id[],
                                             owners @extschema@.address[], amounts bigint[])
RETURNS TABLE (owner @extschema@.address, ms_range_id int, inserted boolean,
               ms_timestamp timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
    s record;
    updated int;
BEGIN
    FOR s IN SELECT u.owner, sp.milestone_index, sum(u.amount) AS amount,
                    min(sp.ms_timestamp) AS ms_timestamp
             FROM unnest(output_ids, owners, amounts) AS u(output_id, owner, amount)
             JOIN @extschema@.output_locator l
               ON l.output_id = u.output_id AND l.spent_ms_range_id IS NOT NULL
             CROSS JOIN LATERAL (SELECT o.milestone_index, o.ms_timestamp
                                 FROM @extschema@.spent_outputs o
                                 WHERE o.output_id = u.output_id
                                   AND o.ms_range_id = l.spent_ms_range_id LIMIT 1) sp
             WHERE u.owner IS NOT NULL
             GROUP BY 1, 2 ORDER BY 1, 2 LOOP
        owner := s.owner;
        ms_range_id := @extschema@.ms_range_id('address_analytics', s.milestone_index);
        ms_timestamp := s.ms_timestamp;
        -- The spender's range, which this milestone's own partitions do not cover.
        PERFORM @extschema@.ensure_partition('address_analytics', ms_range_id);
        -- Add to the row, or make it. Another milestone may make the same row meanwhile: the
        -- insert then waits for it, does nothing, and the update goes round again.
        inserted := false;
        LOOP
            -- One range's partition: EXECUTE plans with the values, so only it is touched.
            EXECUTE 'UPDATE @extschema@.address_analytics SET sent_tokens = sent_tokens + $1 '
                    'WHERE address = $2 AND milestone_index = $3 AND ms_range_id = $4'
                USING s.amount, s.owner, s.milestone_index, ms_range_id;
            GET DIAGNOSTICS updated = ROW_COUNT;
            EXIT WHEN updated > 0;
            INSERT INTO @extschema@.address_analytics (address, sent_tokens, recv_tokens,
                                                       milestone_index, ms_range_id)
            VALUES (s.owner, s.amount, 0, s.milestone_index, book_late_spends.ms_range_id)
            ON CONFLICT DO NOTHING;
            GET DIAGNOSTICS updated = ROW_COUNT;
            inserted := updated > 0;
            EXIT WHEN inserted;
        END LOOP;
        RETURN NEXT;
    END LOOP;
END
$$;

-- Serializes an output given as core API JSON (TIP-25), e.g. for snapshot_outputs.
CREATE FUNCTION @extschema@.encode_output(output jsonb) RETURNS bytea
AS 'MODULE_PATHNAME', 'permanode_encode_output'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.encode_output(jsonb) IS
    'serialized bytes (TIP-18) of an output given in the core API JSON shape (TIP-25)';

-- Milestones missing between the lowest and the highest ingested one.
CREATE FUNCTION @extschema@.sync_gaps()
RETURNS TABLE (from_milestone int, to_milestone int)
LANGUAGE sql STABLE AS $$
    SELECT s.milestone_index + 1, s.next_index - 1
    FROM (SELECT milestone_index,
                 lead(milestone_index) OVER (ORDER BY milestone_index) AS next_index
          FROM @extschema@.sync) s
    WHERE s.next_index > s.milestone_index + 1
    ORDER BY 1
$$;
COMMENT ON FUNCTION @extschema@.sync_gaps() IS
    'ranges of milestones missing between the lowest and the highest ingested milestone';

-- Contiguous ranges of ingested milestones.
CREATE FUNCTION @extschema@.sync_ranges()
RETURNS TABLE (from_milestone int, to_milestone int)
LANGUAGE sql STABLE AS $$
    SELECT min(milestone_index), max(milestone_index)
    FROM (SELECT milestone_index,
                 milestone_index - row_number() OVER (ORDER BY milestone_index) AS island
          FROM @extschema@.sync) s
    GROUP BY island
    ORDER BY 1
$$;
COMMENT ON FUNCTION @extschema@.sync_ranges() IS 'contiguous ranges of ingested milestones';

-- The core API's JSON (TIP-25) of a raw block, e.g. to read a milestone payload in SQL.
CREATE FUNCTION @extschema@.decode_block(block bytea) RETURNS jsonb
AS 'MODULE_PATHNAME', 'permanode_decode_block'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.decode_block(bytea) IS
    'a raw block (TIP-24 bytes) in the core API JSON shape (TIP-25)';

-------------------------------------------------------------------------------------------------
-- Daily analytics: rolled up from metrics_cache, which ingest fills per milestone with the
-- distinct addresses that sent or received tokens and the tags used on each UTC day.
-------------------------------------------------------------------------------------------------

-- (Re)computes daily_analytics for the days from_date..to_date; returns the days written.
--   total_addresses: addresses that sent or received that day; send_addresses: that sent;
--   recv_addresses: that received.
CREATE FUNCTION @extschema@.rollup_daily_analytics(from_date date, to_date date) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    days int;
BEGIN
    IF from_date IS NULL OR to_date IS NULL OR to_date < from_date THEN
        RAISE EXCEPTION 'invalid date range % to %', from_date, to_date
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    DELETE FROM @extschema@.daily_analytics d WHERE d.date BETWEEN from_date AND to_date;
    INSERT INTO @extschema@.daily_analytics (year, date, total_addresses, send_addresses, recv_addresses)
    SELECT extract(year FROM m.date)::int, m.date,
           count(*) FILTER (WHERE m.metric = 'sent_or_received'),
           count(*) FILTER (WHERE m.metric = 'sent'),
           count(*) FILTER (WHERE m.metric = 'received')
    FROM @extschema@.metrics_cache m
    WHERE m.date BETWEEN from_date AND to_date AND m.variant = 'address'
    GROUP BY m.date;
    GET DIAGNOSTICS days = ROW_COUNT;
    RETURN days;
END
$$;
COMMENT ON FUNCTION @extschema@.rollup_daily_analytics(date, date) IS
    '(re)computes daily_analytics from metrics_cache for a range of days; returns the days written';

-------------------------------------------------------------------------------------------------
-- The ledger's cold tier: archive and restore whole milestone ranges of every ledger table at
-- once, the archiving policy, and the status of each range. The engine is permanode_fdw
-- (fdw/DESIGN.md): archive_partitions moves adjacent heap partitions into one RocksDB archive
-- served as a foreign partition; restore_partitions puts them back.
--
-- Ranges are ms_range_id values, half-open like the engine's: [from_range, to_range).
-- Only ranges below the range of the newest synced milestone are archived (ingest may still
-- write that one and later ones). sync is never archived: it stays hot, so ingest's "already
-- present" check stays cheap and never reads an archive. Hints and locators stay hot too.
-------------------------------------------------------------------------------------------------

-- The newest range of a table that may be archived: the one before the range of the newest
-- synced milestone; NULL when nothing is synced.
CREATE FUNCTION @extschema@.newest_archivable_range(table_name name) RETURNS int
LANGUAGE sql STABLE AS $$
    SELECT (SELECT max(s.milestone_index) FROM @extschema@.sync s) / t.chunk_size - 1
    FROM @extschema@.ledger_tables t WHERE t.table_name = $1
$$;

-- Archives the hot partitions of one table in [from_range, to_range) that hold rows (never the
-- pending one): one archive per run of adjacent ranges (archive_partitions needs partitions
-- that tile its range, so a gap or an already archived range between two runs splits them).
CREATE FUNCTION @extschema@.archive_table(table_name name, from_range int, to_range int)
RETURNS TABLE (archive regclass, rows bigint)
LANGUAGE plpgsql AS $$
DECLARE
    parent regclass := format('@extschema@.%I', $1)::regclass;
    part record;
    has_rows boolean;
    run_from int;
    run_to int;
BEGIN
    FOR part IN SELECT p.partition, p.ms_range_id FROM @extschema@.partitions p
                WHERE p.table_name = parent AND p.tier = 'hot'
                  AND p.ms_range_id >= from_range AND p.ms_range_id < to_range
                  AND p.ms_range_id <> @extschema@.pending_range()
                ORDER BY p.ms_range_id LOOP
        EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s)', part.partition) INTO has_rows;
        CONTINUE WHEN NOT has_rows;
        IF run_to = part.ms_range_id THEN
            run_to := run_to + 1;
            CONTINUE;
        END IF;
        IF run_from IS NOT NULL THEN
            archive := @extschema@.archive_partitions(parent, run_from, run_to);
            SELECT s.rows INTO rows FROM @extschema@.archive_status s
            WHERE s.foreign_table = archive_table.archive;
            RETURN NEXT;
        END IF;
        run_from := part.ms_range_id;
        run_to := part.ms_range_id + 1;
    END LOOP;
    IF run_from IS NOT NULL THEN
        archive := @extschema@.archive_partitions(parent, run_from, run_to);
        SELECT s.rows INTO rows FROM @extschema@.archive_status s
            WHERE s.foreign_table = archive_table.archive;
        RETURN NEXT;
    END IF;
END
$$;

-- Archives the ranges [from_range, to_range) of every ledger table but sync; returns a row per
-- archive made (tables without rows there are skipped). Refuses ranges ingest may still write.
CREATE FUNCTION @extschema@.archive(from_range int, to_range int)
RETURNS TABLE (table_name name, archive regclass, rows bigint)
LANGUAGE plpgsql AS $$
DECLARE
    t record;
    newest int;
BEGIN
    IF from_range IS NULL OR to_range IS NULL OR from_range < 0 OR to_range <= from_range THEN
        RAISE EXCEPTION 'invalid range [%, %)', from_range, to_range
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Ranges are ms_range_id values, from_range included, to_range excluded.';
    END IF;
    FOR t IN SELECT l.table_name, l.chunk_size FROM @extschema@.ledger_tables l
             WHERE l.table_name <> 'sync' ORDER BY l.table_name LOOP
        newest := @extschema@.newest_archivable_range(t.table_name);
        IF newest IS NULL OR to_range - 1 > newest THEN
            RAISE EXCEPTION 'cannot archive range % of %: ingest may still write it', to_range - 1, t.table_name
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      DETAIL = CASE WHEN newest IS NULL THEN 'No milestone is synced yet.'
                                    ELSE format('The newest synced milestone is in range %s (chunk size %s).',
                                                newest + 1, t.chunk_size) END,
                      HINT = 'Archive only ranges below the range of the newest synced milestone.';
        END IF;
    END LOOP;
    FOR t IN SELECT l.table_name FROM @extschema@.ledger_tables l
             WHERE l.table_name <> 'sync' ORDER BY l.table_name LOOP
        table_name := t.table_name;
        FOR archive, rows IN SELECT * FROM @extschema@.archive_table(t.table_name, from_range, to_range) LOOP
            RETURN NEXT;
        END LOOP;
    END LOOP;
END
$$;
COMMENT ON FUNCTION @extschema@.archive(int, int) IS
    'archives the ranges [from_range, to_range) of every ledger table but sync into RocksDB; a row per archive';

-- Archives every hot range, of every ledger table but sync, whose milestones are all older than
-- max(sync.milestone_index) - older_than.
CREATE FUNCTION @extschema@.archive(older_than int)
RETURNS TABLE (table_name name, archive regclass, rows bigint)
LANGUAGE plpgsql AS $$
DECLARE
    t record;
    cutoff int;
BEGIN
    IF older_than IS NULL OR older_than < 0 THEN
        RAISE EXCEPTION 'invalid age % (milestones)', older_than USING ERRCODE = 'invalid_parameter_value';
    END IF;
    cutoff := (SELECT max(s.milestone_index) FROM @extschema@.sync s) - older_than;
    FOR t IN SELECT l.table_name, l.chunk_size FROM @extschema@.ledger_tables l
             WHERE l.table_name <> 'sync' AND cutoff > 0 ORDER BY l.table_name LOOP
        -- ranges r < cutoff / chunk_size end before the cutoff milestone
        table_name := t.table_name;
        FOR archive, rows IN
            SELECT * FROM @extschema@.archive_table(t.table_name, 0,
                least(cutoff / t.chunk_size, @extschema@.newest_archivable_range(t.table_name) + 1)) LOOP
            RETURN NEXT;
        END LOOP;
    END LOOP;
END
$$;
COMMENT ON FUNCTION @extschema@.archive(int) IS
    'archives every hot range (all ledger tables but sync) whose milestones are older than the newest synced one minus older_than';

-- Restores the archives of every ledger table that overlap [from_range, to_range). An archive is
-- restored whole, so ranges outside the given ones may come back too (a notice says which).
CREATE FUNCTION @extschema@.restore(from_range int, to_range int)
RETURNS TABLE (table_name name, archive text, from_archived int, to_archived int, rows bigint)
LANGUAGE plpgsql AS $$
DECLARE
    a record;
BEGIN
    IF from_range IS NULL OR to_range IS NULL OR to_range <= from_range THEN
        RAISE EXCEPTION 'invalid range [%, %)', from_range, to_range
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOR a IN SELECT l.table_name, s.foreign_table, s.range_from::int AS range_from,
                    s.range_to::int AS range_to
             FROM @extschema@.archive_status s
             JOIN @extschema@.ledger_tables l
               ON s.parent_table = format('@extschema@.%I', l.table_name)::regclass
             WHERE s.range_from < to_range AND s.range_to > from_range
             ORDER BY l.table_name, s.range_from LOOP
        IF a.range_from < from_range OR a.range_to > to_range THEN
            RAISE NOTICE 'archive % holds ranges [%, %): restoring all of them',
                a.foreign_table, a.range_from, a.range_to;
        END IF;
        table_name := a.table_name;
        archive := a.foreign_table::text;
        from_archived := a.range_from;
        to_archived := a.range_to;
        rows := @extschema@.restore_partitions(a.foreign_table);
        RETURN NEXT;
    END LOOP;
END
$$;
COMMENT ON FUNCTION @extschema@.restore(int, int) IS
    'restores the archives overlapping [from_range, to_range) to heap partitions; each archive is restored whole';

-- The maintenance job: applies the archiving policy (settings key archive_older_than, in
-- milestones; no row, no archiving), expires pending rows and makes the partitions of the
-- next range ahead of ingest. `permanode ingest` calls it after each file it finishes.
CREATE FUNCTION @extschema@.maintain()
RETURNS TABLE (task text, done bigint)
LANGUAGE plpgsql AS $$
DECLARE
    older_than int := (SELECT s.value::int FROM @extschema@.settings s WHERE s.key = 'archive_older_than');
    newest int := (SELECT max(s.milestone_index) FROM @extschema@.sync s);
BEGIN
    IF older_than IS NOT NULL THEN
        task := 'archived rows';
        SELECT coalesce(sum(a.rows), 0) INTO done FROM @extschema@.archive(older_than) a;
        RETURN NEXT;
    END IF;
    task := 'expired pending rows';
    done := @extschema@.expire_pending();
    RETURN NEXT;
    IF newest IS NOT NULL THEN
        task := 'partitions made';
        done := @extschema@.premake(newest, newest, 1);
        RETURN NEXT;
    END IF;
END
$$;
COMMENT ON FUNCTION @extschema@.maintain() IS
    'archives by the policy in settings (archive_older_than), expires pending rows, premakes the next range';

-- Rows of a hot partition: counted when it is small or never analyzed, else reltuples.
-- SECURITY DEFINER (80_init_roles.sql) because readers have no rights on the partitions.
CREATE FUNCTION @extschema@.partition_rows(part regclass) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
    n bigint;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM @extschema@.partitions p WHERE p.partition = part AND p.tier = 'hot') THEN
        RAISE EXCEPTION '% is not a hot partition of a ledger table', part USING ERRCODE = 'wrong_object_type';
    END IF;
    SELECT c.reltuples::bigint INTO n FROM pg_class c WHERE c.oid = part;
    IF n < 0 OR pg_relation_size(part) < 8 * 1024 * 1024 THEN
        EXECUTE format('SELECT count(*) FROM %s', part) INTO n;
    END IF;
    RETURN n;
END
$$;

-- Each ledger table's ranges: tier, rows and bytes on disk (hot: the partition with its
-- indexes; cold: the archive, which may hold several ranges). ms_range_id 2147483647 is the
-- pending tier.
CREATE VIEW @extschema@.status AS
SELECT h.table_name, h.from_range, h.to_range, 'hot'::text AS tier, h.partition,
       @extschema@.partition_rows(h.partition) AS rows, pg_total_relation_size(h.partition) AS bytes
-- OFFSET 0 keeps the caller's filters on rows out of the catalog scans below
FROM (SELECT l.table_name, p.ms_range_id AS from_range,
             CASE WHEN p.ms_range_id = @extschema@.pending_range() THEN NULL
                  ELSE p.ms_range_id + 1 END AS to_range,
             p.partition
      FROM @extschema@.ledger_tables l
      JOIN @extschema@.partitions p ON p.table_name = format('@extschema@.%I', l.table_name)::regclass
      WHERE p.tier = 'hot' OFFSET 0) h
UNION ALL
SELECT l.table_name, s.range_from::int, s.range_to::int, 'cold', s.foreign_table, s.rows, s.bytes
FROM @extschema@.ledger_tables l
JOIN @extschema@.archive_status s ON s.parent_table = format('@extschema@.%I', l.table_name)::regclass;
COMMENT ON VIEW @extschema@.status IS
    'per ledger table and range [from_range, to_range): tier (hot or cold), rows and bytes on disk';

-------------------------------------------------------------------------------------------------
-- Initialization and roles.
-------------------------------------------------------------------------------------------------

-- Sets the network of this archive (its bech32 HRP) and puts the permanode schema on the
-- database's search path, so that `WHERE address = 'smr1...'` finds our types and operators.
-- Idempotent; takes effect in new sessions (and in this one).
CREATE FUNCTION @extschema@.init(network text DEFAULT 'shimmer') RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    hrp text := CASE network WHEN 'shimmer' THEN 'smr' WHEN 'iota' THEN 'iota'
                             WHEN 'testnet' THEN 'rms' WHEN 'shimmer-testnet' THEN 'rms'
                             WHEN 'iota-testnet' THEN 'atoi' END;
BEGIN
    IF hrp IS NULL THEN
        RAISE EXCEPTION 'unknown network "%"', network
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Known networks are shimmer, iota, testnet (shimmer testnet) and iota-testnet.';
    END IF;
    INSERT INTO @extschema@.settings VALUES ('network', network), ('bech32_hrp', hrp)
        ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;
    EXECUTE format('ALTER DATABASE %I SET permanode.bech32_hrp = %L', current_database(), hrp);
    EXECUTE format('ALTER DATABASE %I SET search_path = "$user", public, @extschema@', current_database());
    PERFORM set_config('permanode.bech32_hrp', hrp, false);
    PERFORM set_config('search_path', '"$user", public, @extschema@', false);
    RETURN hrp;
END
$$;
COMMENT ON FUNCTION @extschema@.init(text) IS
    'sets the network (bech32 HRP) and the search path of this database; idempotent';

-- Least-privilege roles, shared by the databases of the cluster:
--   permanode_reader  reads everything users read (the HTTP API logs in as a reader)
--   permanode_writer  ingests milestones (through the ingest functions only)
--   permanode_admin   runs maintenance: partitions, chunk sizes, archive, restore, expiry
DO $$
DECLARE
    r text;
BEGIN
    FOREACH r IN ARRAY ARRAY['permanode_reader', 'permanode_writer', 'permanode_admin'] LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
            EXECUTE format('CREATE ROLE %I NOLOGIN', r);
        END IF;
    END LOOP;
END
$$;
GRANT permanode_reader TO permanode_writer;
GRANT permanode_reader TO permanode_admin;

GRANT USAGE ON SCHEMA @extschema@ TO permanode_reader;
GRANT SELECT ON ALL TABLES IN SCHEMA @extschema@ TO permanode_reader;

-- Functions that change data or structure run with the extension owner's rights, with a fixed
-- search path, and only for the role that needs them.
DO $$
DECLARE
    f regprocedure;
    grantee text;
BEGIN
    FOR f, grantee IN
        SELECT p.oid::regprocedure,
               CASE WHEN p.proname LIKE 'ingest%' OR p.proname = 'flush_hint_counts'
                    THEN 'permanode_writer'
                    WHEN p.proname = 'partition_rows' THEN 'permanode_reader' -- for the status view
                    ELSE 'permanode_admin' END
        FROM pg_proc p
        WHERE p.pronamespace = '@extschema@'::regnamespace
          AND p.proname IN ('ingest_milestone', 'premake', 'create_partition', 'ensure_partition',
                            'set_chunk_size',
                            'expire_pending', 'rollup_daily_analytics', 'init', 'archive',
                            'archive_table', 'restore', 'maintain', 'partition_rows',
                            'book_late_spends', 'flush_hint_counts', 'recount_hints')
    LOOP
        EXECUTE format('ALTER FUNCTION %s SECURITY DEFINER SET search_path = pg_catalog, @extschema@', f);
        EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', f);
        EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO %I', f, grantee);
        IF grantee IN ('permanode_writer', 'permanode_reader') THEN
            NULL;
        ELSIF f::text LIKE '%premake%' OR f::text LIKE '%create_partition%'
              OR f::text LIKE '%ensure_partition%' THEN
            -- ingest makes the partitions of its milestone's range
            EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO permanode_writer', f);
        END IF;
    END LOOP;
END
$$;
