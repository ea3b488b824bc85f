
-------------------------------------------------------------------------------------------------
-- Record streams (seed 004): robustmq's StorageAdapter on one set of tables for every shard.
--
-- A shard (namespace, shard) is a log of records numbered from offset 0, without gaps. Every
-- shard's records live in streams.records, PARTITION BY RANGE (segment): a segment is a span of
-- the writers' clock (settings key stream_segment_seconds; a day by default), the one a batch is
-- written in. Segments then close for every shard at once and age together: a closed segment is
-- never written again, so it can be archived or dropped whole, and a shard made today writes
-- into today's segment. (By offset, a new shard would write into the oldest segments: its
-- offsets start at 0.) streams.shard_segments maps each shard's offsets to its segments.
-- Lookups kept in the writer's transaction: a shard's records by tag (streams.record_tags, with
-- tag_hints naming the segments that hold a tag), by key (an index of each records partition)
-- and by time (time_marks: the newest timestamp of each 4096 offsets). Old segments archive to
-- RocksDB through permanode_fdw and are read back through the same tables.
-- Design: docs/STREAMS.md.
-------------------------------------------------------------------------------------------------
CREATE SCHEMA streams;

INSERT INTO @extschema@.settings VALUES ('stream_segment_seconds', '86400');

-- The shards. A shard deleted and created again is a new row (a new shard_id): it starts empty at
-- offset 0, and nothing of the old one is reachable from it.
CREATE TABLE streams.shards (
    shard_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    namespace text NOT NULL CHECK (namespace <> ''),
    shard text NOT NULL CHECK (shard <> ''),
    replica_num int NOT NULL DEFAULT 1 CHECK (replica_num > 0),
    next_offset bigint NOT NULL DEFAULT 0,  -- the offset of the next record written
    first_offset bigint NOT NULL DEFAULT 0, -- the first record retained: reads start here at least
    retention interval CHECK (retention > interval '0'), -- records older expire (NULL: kept)
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (namespace, shard),
    CHECK (0 <= first_offset AND first_offset <= next_offset)
);
-- A logical dump keeps the shards (95_dump_tables.sql) and where their IDs stand.
SELECT pg_extension_config_dump(pg_get_serial_sequence('streams.shards', 'shard_id')::regclass, '');

-- The offsets of each shard in each segment it wrote in (a shard's segments follow its offsets).
CREATE TABLE streams.shard_segments (
    shard_id bigint NOT NULL,
    segment int NOT NULL,
    first_offset bigint NOT NULL,
    last_offset bigint NOT NULL,
    PRIMARY KEY (shard_id, segment)
);

-- A record as written (robustmq's Record without its offset) and as read.
CREATE TYPE streams.record AS (
    key text,
    data bytea,
    header jsonb,  -- robustmq's headers: [{"name": ..., "value": ...}]
    tags text[],
    ts timestamptz -- NULL: the time of writing
);
CREATE TYPE streams.stored_record AS (
    "offset" bigint,
    key text,
    data bytea,
    header jsonb,
    tags text[],
    ts timestamptz
);

CREATE TABLE streams.records (
    segment int NOT NULL,
    shard_id bigint NOT NULL,
    "offset" bigint NOT NULL,
    key text,
    data bytea NOT NULL,
    header jsonb,
    tags text[] NOT NULL,
    ts timestamptz NOT NULL
) PARTITION BY RANGE (segment);

-- A shard's records by tag, in offset order.
CREATE TABLE streams.record_tags (
    segment int NOT NULL,
    shard_id bigint NOT NULL,
    tag text NOT NULL,
    "offset" bigint NOT NULL
) PARTITION BY RANGE (segment);

-- The segments that hold a shard's tag: a read by tag opens only those.
CREATE TABLE streams.tag_hints (
    shard_id bigint NOT NULL,
    tag text NOT NULL,
    segment int NOT NULL,
    PRIMARY KEY (shard_id, tag, segment)
);

-- The oldest and newest timestamp of each block of 4096 offsets of a shard: the smallest offset
-- at or after a time is in the first block whose newest timestamp is at or after it.
CREATE TABLE streams.time_marks (
    shard_id bigint NOT NULL,
    block bigint NOT NULL,
    min_ts timestamptz NOT NULL,
    max_ts timestamptz NOT NULL,
    PRIMARY KEY (shard_id, block)
);

-- Consumer groups: the last offset each consumed, per (namespace, shard) by name, so a commit
-- to a shard that does not exist (yet) is kept.
CREATE TABLE streams.group_offsets (
    group_name text NOT NULL,
    namespace text NOT NULL,
    shard text NOT NULL,
    "offset" bigint NOT NULL,
    committed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (group_name, namespace, shard)
);
