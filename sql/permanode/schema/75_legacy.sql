
-------------------------------------------------------------------------------------------------
-- The legacy era (2016 to April 2021, seed 003): the ternary tangle's transactions and the four
-- tables of Chronicle's first permanode (bundles, edges, tags, zero_value), in schema legacy.
--
-- Every table is PARTITION BY RANGE (month_id), month_id = months since January 1970 (UTC) of a
-- transaction's time (legacy.decode_transactions: its attachment timestamp, else its timestamp,
-- clamped to 2016..2099). The machinery is the ledger's: per-partition unique keys, hints that
-- name the months holding a key (partition_hints, range column month_id) for the Range Scan, and
-- the cold tier (legacy.archive moves whole months into RocksDB through permanode_fdw).
-- docs/LEGACY.md says what each of seed 003's tables became.
-------------------------------------------------------------------------------------------------
CREATE SCHEMA legacy;

-- The legacy tables and the columns of the unique key each partition gets (led by the lookup key
-- and month_id, so that a hot partition's key serves the Range Scan in its order).
CREATE TABLE legacy.tables (
    table_name name PRIMARY KEY,
    unique_columns name[] NOT NULL
);
INSERT INTO legacy.tables VALUES
    ('transactions', '{hash,month_id}'),
    ('bundles', '{bundle_hash,month_id,current_index,transaction_hash}'),
    ('edges', '{transaction_hash,month_id,edge}'),
    ('tags', '{transaction_hash,month_id}'),
    ('zero_value', '{transaction_hash,month_id}');

-- legacy.transactions: every transaction, stored as its t5b1 bytes (1604) with its fields
-- decoded, and the milestone that confirmed it when known (a .dmp line's snapshot index).
CREATE TABLE legacy.transactions (
    month_id int NOT NULL,
    hash @extschema@.trytes81 NOT NULL,
    issued_at timestamptz NOT NULL,
    t5b1 bytea NOT NULL,
    old_layout boolean NOT NULL,
    address @extschema@.trytes81 NOT NULL,
    value bigint NOT NULL,
    obsolete_tag @extschema@.trytes27 NOT NULL,
    timestamp bigint NOT NULL,
    current_index bigint NOT NULL,
    last_index bigint NOT NULL,
    bundle @extschema@.trytes81 NOT NULL,
    trunk @extschema@.trytes81 NOT NULL,
    branch @extschema@.trytes81 NOT NULL,
    tag @extschema@.trytes27 NOT NULL,
    attachment_timestamp bigint NOT NULL,
    attachment_timestamp_lower_bound bigint NOT NULL,
    attachment_timestamp_upper_bound bigint NOT NULL,
    nonce text NOT NULL,
    milestone_index int
) PARTITION BY RANGE (month_id);

-- legacy.bundles (seed 003's bundle table): a bundle's transactions by bundle hash, in current
-- index order; label says input (value < 0) or output. Reattachments put several transactions
-- at one index. legacy.bundle_heads lists the head_hashes.
CREATE TABLE legacy.bundles (
    month_id int NOT NULL,
    bundle_hash @extschema@.trytes81 NOT NULL,
    current_index bigint NOT NULL,
    last_index bigint NOT NULL,
    transaction_hash @extschema@.trytes81 NOT NULL,
    label text NOT NULL CHECK (label IN ('input', 'output')),
    address @extschema@.trytes81 NOT NULL,
    value bigint NOT NULL,
    trunk @extschema@.trytes81 NOT NULL,
    issued_at timestamptz NOT NULL,
    milestone_index int
) PARTITION BY RANGE (month_id);

-- legacy.edges (seed 003's edge table): a transaction found by the address it moves value on
-- (edge 'address'; zero-value transactions are in zero_value) or by a transaction it approves
-- (edges 'trunk' and 'branch'), within a time range, newest first.
CREATE TABLE legacy.edges (
    month_id int NOT NULL,
    transaction_hash @extschema@.trytes81 NOT NULL,
    edge text NOT NULL CHECK (edge IN ('address', 'trunk', 'branch')),
    address @extschema@.trytes81,
    approvee @extschema@.trytes81,
    issued_at timestamptz NOT NULL,
    bundle_hash @extschema@.trytes81 NOT NULL,
    current_index bigint NOT NULL,
    value bigint NOT NULL,
    milestone_index int,
    CHECK ((edge = 'address') = (address IS NOT NULL) AND (edge = 'address') = (approvee IS NULL))
) PARTITION BY RANGE (month_id);

-- legacy.tags (seed 003's tag tables): by full tag, and by IOTA Area Code prefixes of 4, 6 and
-- 8 trytes (set when the tag starts with that many IAC characters, FGHJKLMNOPQRSTUVWXYZ). Rows
-- expire with their month (legacy.expire_tags). Tags of nines only (no tag) are not kept.
CREATE TABLE legacy.tags (
    month_id int NOT NULL,
    transaction_hash @extschema@.trytes81 NOT NULL,
    tag @extschema@.trytes27 NOT NULL,
    iac4 text,
    iac6 text,
    iac8 text,
    issued_at timestamptz NOT NULL,
    address @extschema@.trytes81 NOT NULL,
    bundle_hash @extschema@.trytes81 NOT NULL,
    milestone_index int
) PARTITION BY RANGE (month_id);

-- legacy.zero_value (seed 003's zero_value table): data and spam transactions by address, year
-- and month (legacy.zero_value_of reads one month).
CREATE TABLE legacy.zero_value (
    month_id int NOT NULL,
    transaction_hash @extschema@.trytes81 NOT NULL,
    address @extschema@.trytes81 NOT NULL,
    year smallint NOT NULL,
    month smallint NOT NULL,
    issued_at timestamptz NOT NULL,
    bundle_hash @extschema@.trytes81 NOT NULL,
    current_index bigint NOT NULL,
    tag @extschema@.trytes27 NOT NULL,
    milestone_index int
) PARTITION BY RANGE (month_id);

-- Lookup indexes, newest first: (key, month_id DESC, issued_at DESC, transaction_hash DESC).
CREATE INDEX edges_by_address ON legacy.edges
    (address, month_id DESC, issued_at DESC, transaction_hash DESC) WHERE address IS NOT NULL;
CREATE INDEX edges_by_approvee ON legacy.edges
    (approvee, month_id DESC, issued_at DESC, transaction_hash DESC) WHERE approvee IS NOT NULL;
CREATE INDEX zero_value_by_address ON legacy.zero_value
    (address, month_id DESC, issued_at DESC, transaction_hash DESC);
CREATE INDEX tags_by_tag ON legacy.tags (tag, month_id DESC, issued_at DESC, transaction_hash DESC);
CREATE INDEX tags_by_iac4 ON legacy.tags
    (iac4, month_id DESC, issued_at DESC, transaction_hash DESC) WHERE iac4 IS NOT NULL;
CREATE INDEX tags_by_iac6 ON legacy.tags
    (iac6, month_id DESC, issued_at DESC, transaction_hash DESC) WHERE iac6 IS NOT NULL;
CREATE INDEX tags_by_iac8 ON legacy.tags
    (iac8, month_id DESC, issued_at DESC, transaction_hash DESC) WHERE iac8 IS NOT NULL;

-- Which month holds a transaction (one row each: also the gate that makes ingest idempotent),
-- and which months hold a key: an address's value edges (a), its zero-value transactions (z),
-- a transaction's approvers (p), a bundle's transactions (b).
CREATE TABLE legacy.transaction_locator (
    hash @extschema@.trytes81 PRIMARY KEY,
    month_id int NOT NULL
);
CREATE TABLE legacy.hints (
    key @extschema@.trytes81 NOT NULL,
    kind "char" NOT NULL,
    month_id int NOT NULL,
    PRIMARY KEY (key, kind, month_id)
);
-- Months holding a tag or an area code prefix (expired with the tags' months).
CREATE TABLE legacy.tag_hints (
    tag text NOT NULL,
    month_id int NOT NULL,
    PRIMARY KEY (tag, month_id)
);

INSERT INTO @extschema@.partition_hints (table_schema, table_name, column_name, hint_query, range_column) VALUES
    ('legacy', 'transactions', 'hash', 'SELECT month_id FROM legacy.transaction_locator WHERE hash = $1', 'month_id'),
    ('legacy', 'bundles', 'bundle_hash', 'SELECT month_id FROM legacy.hints WHERE key = $1 AND kind = ''b''', 'month_id'),
    ('legacy', 'edges', 'address', 'SELECT month_id FROM legacy.hints WHERE key = $1 AND kind = ''a''', 'month_id'),
    ('legacy', 'edges', 'approvee', 'SELECT month_id FROM legacy.hints WHERE key = $1 AND kind = ''p''', 'month_id'),
    ('legacy', 'edges', 'transaction_hash', 'SELECT month_id FROM legacy.transaction_locator WHERE hash = $1', 'month_id'),
    ('legacy', 'zero_value', 'address', 'SELECT month_id FROM legacy.hints WHERE key = $1 AND kind = ''z''', 'month_id'),
    ('legacy', 'tags', 'tag', 'SELECT month_id FROM legacy.tag_hints WHERE tag = $1::text', 'month_id'),
    ('legacy', 'tags', 'iac4', 'SELECT month_id FROM legacy.tag_hints WHERE tag = $1', 'month_id'),
    ('legacy', 'tags', 'iac6', 'SELECT month_id FROM legacy.tag_hints WHERE tag = $1', 'month_id'),
    ('legacy', 'tags', 'iac8', 'SELECT month_id FROM legacy.tag_hints WHERE tag = $1', 'month_id');

-- Milestones of the Coordinator (settings key legacy_coordinator): the tail transaction of each
-- milestone bundle, found at ingest.
CREATE TABLE legacy.milestones (
    milestone_index int PRIMARY KEY,
    hash @extschema@.trytes81 NOT NULL,
    issued_at timestamptz NOT NULL
);

-- Which indexes of each bundle are held: a bundle is complete when every index 0..last_index is
-- (a bundle whose transactions came in apart stays incomplete until the others come).
-- Transactions whose indexes are not 0 <= current_index <= last_index < 10000 are kept, but
-- count for no bundle.
CREATE TABLE legacy.bundle_state (
    bundle_hash @extschema@.trytes81 NOT NULL,
    last_index bigint NOT NULL,
    present bigint[] NOT NULL,
    complete boolean GENERATED ALWAYS AS (cardinality(present) = last_index + 1) STORED,
    PRIMARY KEY (bundle_hash, last_index)
);
CREATE INDEX bundle_state_incomplete ON legacy.bundle_state (bundle_hash) WHERE NOT complete;

-- Balances of a global snapshot (IRI's Snapshot.txt), the ledger's start.
CREATE TABLE legacy.snapshot (
    address @extschema@.trytes81 PRIMARY KEY,
    balance bigint NOT NULL CHECK (balance >= 0)
);
