-- permanode 0.7.0 -> 0.8.0: record streams (schema streams, seed 004); the as-of pages planned
-- with statistics on the span indexes and a milestone_time that is planned once; verify at 0.6x
-- of deriving the cones (row_digest aggregates in parallel). This script is generated
-- (sql/CMakeLists.txt): this part, which drops what 86_verify.sql makes again, then the install
-- script's parts that make these.
\echo Use "ALTER EXTENSION permanode UPDATE TO '0.8.0'" to load this file. \quit
DROP FUNCTION @extschema@.verify(int, int);
DROP FUNCTION legacy.verify(int, int);
DROP FUNCTION @extschema@.verify_derive(int, int, int, int[], boolean);
DROP AGGREGATE @extschema@.row_digest(bytea, bytea);
DROP FUNCTION @extschema@.digest_add(bytea, bytea, bytea);
DROP FUNCTION @extschema@.verify_cone(int, bigint, bytea[], smallint[], smallint[], smallint, bytea, text[], boolean);
DROP FUNCTION @extschema@.blake2b256(bytea);

-------------------------------------------------------------------------------------------------
-- Rows of a hot partition: counted when it is small or never analyzed, else reltuples.
-- SECURITY DEFINER because readers have no rights on the partitions. Ledger tables, the legacy
-- ones (75_legacy.sql) and the stream tables (88_streams.sql).
CREATE OR REPLACE FUNCTION @extschema@.partition_rows(part regclass) RETURNS bigint
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, @extschema@ AS $$
DECLARE
    n bigint;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM @extschema@.partitions p WHERE p.partition = part AND p.tier = 'hot')
       AND NOT EXISTS (SELECT 1 FROM legacy.partitions p WHERE p.partition = part AND p.tier = 'hot')
       AND NOT EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid AND c.relkind = 'r'
                       WHERE i.inhrelid = part
                         AND i.inhparent IN (to_regclass('streams.records'), to_regclass('streams.record_tags'))) THEN
        RAISE EXCEPTION '% is not a hot partition of a ledger table', part USING ERRCODE = 'wrong_object_type';
    END IF;
    SELECT c.reltuples::bigint INTO n FROM pg_class c WHERE c.oid = part;
    IF n < 0 OR pg_relation_size(part) < 8 * 1024 * 1024 THEN
        EXECUTE format('SELECT count(*) FROM %s', part) INTO n;
    END IF;
    RETURN n;
END
$$;

-------------------------------------------------------------------------------------------------
-- The time of a milestone, which bounds the as-of queries (84_as_of.sql) by time. CREATE OR
-- REPLACE: the upgrade to 0.8.0 runs this file again over 0.7.0's SQL version.
-------------------------------------------------------------------------------------------------
-- The time of milestone N: that of its blocks (the Range Scan reads N's range only); infinity
-- when none of its blocks is held, which bounds nothing.
-- PL/pgSQL, not SQL: an inlined subquery is planned over every messages partition each time a
-- query that bounds a scan by it is planned (the planner runs it to estimate), 16 ms at 500
-- ranges; here its plan is made once per session.
CREATE OR REPLACE FUNCTION @extschema@.milestone_time(at int) RETURNS timestamptz
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
    RETURN coalesce((SELECT m.ms_timestamp FROM @extschema@.messages m
                     WHERE m.milestone_index = at LIMIT 1), 'infinity');
END
$$;

-------------------------------------------------------------------------------------------------
-- Statistics on the expression of each span index of retired_outputs (84_as_of.sql). The planner
-- takes no statistics from a partial index: without these it guessed that 0.5% of the rows hold
-- any point and planned a parallel scan for a page of ten rows (7 ms instead of 0.3 ms).
-------------------------------------------------------------------------------------------------
DO $$
DECLARE
    i record;
BEGIN
    FOR i IN SELECT c.relname AS index_name, pg_get_expr(x.indexprs, x.indrelid) AS expression
             FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
             JOIN pg_am a ON a.oid = c.relam AND a.amname = 'gist'
             WHERE x.indrelid = '@extschema@.retired_outputs'::regclass
             ORDER BY c.relname LOOP
        -- The expression is the index's own, as the catalog prints it.
        EXECUTE format('CREATE STATISTICS IF NOT EXISTS @extschema@.%I ON (%s) FROM @extschema@.retired_outputs',
                       replace(i.index_name, '_by_', '_span_'), i.expression);
    END LOOP;
END
$$;

-------------------------------------------------------------------------------------------------
-- Verification: proof that what is stored is what the network wrote. verify() recomputes every
-- stored block's ID from its bytes, derives each milestone's rows again from its stored cone
-- (by ingest's own derivation, verify_cone) and compares them with the stored rows, and checks
-- the cone's white-flag order and the Merkle roots of the milestone payload. Hot and archived
-- ranges alike, one range at a time (memory: one range's derived rows, in a temporary table).
-- legacy.verify() hashes the ternary transactions again. Design: docs/VERIFY.md.
-------------------------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.blake2b256(bytes bytea) RETURNS bytea
AS 'MODULE_PATHNAME', 'permanode_blake2b256'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.blake2b256(bytea) IS 'BLAKE2b-256 of the bytes (block, message and transaction IDs)';

CREATE FUNCTION @extschema@.verify_cone(milestone_index int, milestone_timestamp bigint, blocks bytea[],
                                        inclusion_states smallint[], conflict_reasons smallint[],
                                        protocol_version smallint, milestone_payload bytea,
                                        stored_ids text[] DEFAULT NULL,
                                        digests boolean DEFAULT false)
RETURNS TABLE (table_name text, block_index int, key text, detail bytea, problem text)
AS 'MODULE_PATHNAME', 'permanode_verify_cone'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.verify_cone(int, bigint, bytea[], smallint[], smallint[], smallint, bytea, text[], boolean) IS
$$what one milestone's cone derives: each block's ID computed from its bytes (messages), the outputs it creates (their table, ID and bytes), spends (spent_outputs), tags and parents; problem rows for IDs other than stored_ids, parents after their children in the white-flag order, Merkle roots of milestone_payload (TIP-4) other than the cone's, or a cone that does not derive. With digests, one row per table instead of its rows: key the number of rows, detail their row_digest over the bytes of their IDs$$;

-- The digest of a set of (key, detail) rows, as verify_cone(digests => true) sums them:
-- order-independent, changed by any row changed, missing or repeated.
CREATE FUNCTION @extschema@.digest_add(state bytea, key bytea, detail bytea) RETURNS bytea
AS 'MODULE_PATHNAME', 'permanode_digest_add'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.digest_combine(a bytea, b bytea) RETURNS bytea
AS 'MODULE_PATHNAME', 'permanode_digest_combine'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE @extschema@.row_digest(bytea, bytea) (SFUNC = @extschema@.digest_add, STYPE = bytea,
                                         COMBINEFUNC = @extschema@.digest_combine,
                                         PARALLEL = SAFE);

-- verify()'s derivation of range r's milestones lo..hi (those in `only`, if given) into the
-- temporary table verify_derived: verify_cone's rows (or digests), with a problem where the
-- white-flag indexes of a cone are not 0 to n-1.
CREATE FUNCTION @extschema@.verify_derive(r int, lo int, hi int, milestones int[], digests boolean)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF to_regclass('pg_temp.verify_derived') IS NOT NULL THEN
        DROP TABLE pg_temp.verify_derived;
    END IF;
    CREATE TEMP TABLE verify_derived (milestone_index int, table_name text, block_index int,
                                      key text, detail bytea, problem text);
    WITH c AS (
        SELECT m.milestone_index,
               array_agg(m.message ORDER BY m.white_flag_index) AS blocks,
               array_agg(m.message_id::text ORDER BY m.white_flag_index) AS ids,
               array_agg(coalesce(m.inclusion_state, 0)::smallint ORDER BY m.white_flag_index) AS states,
               array_agg(coalesce(m.conflict_reason, 0)::smallint ORDER BY m.white_flag_index) AS reasons,
               array_agg(m.white_flag_index ORDER BY m.white_flag_index) AS orders,
               max(m.version)::smallint AS version,
               extract(epoch FROM min(m.ms_timestamp))::bigint AS ts
        FROM @extschema@.messages m
        WHERE m.ms_range_id = r AND m.milestone_index BETWEEN lo AND hi
          AND (milestones IS NULL OR m.milestone_index = ANY (milestones))
        GROUP BY m.milestone_index)
    INSERT INTO pg_temp.verify_derived
    SELECT c.milestone_index, d.table_name, d.block_index, d.key, d.detail, d.problem
    FROM c CROSS JOIN LATERAL @extschema@.verify_cone(
        c.milestone_index, c.ts, c.blocks, c.states, c.reasons, c.version,
        (SELECT p.payload FROM @extschema@.milestones p
         WHERE p.milestone_index = c.milestone_index LIMIT 1), c.ids, digests) d
    UNION ALL
    SELECT c.milestone_index, 'messages', NULL, c.milestone_index::text, NULL,
           'the white-flag indexes of milestone ' || c.milestone_index || ' are not 0 to '
           || cardinality(c.orders) - 1
    FROM c WHERE c.orders <> array(SELECT generate_series(0, cardinality(c.orders) - 1));
    ANALYZE pg_temp.verify_derived;
END
$$;

-- One range of the ledger, [from_range, to_range) of the messages table's ranges: every
-- mismatch with its table, range and key. Default: every range held.
CREATE FUNCTION @extschema@.verify(from_range int DEFAULT NULL, to_range int DEFAULT NULL)
RETURNS TABLE (table_name text, ms_range_id int, key text, problem text)
LANGUAGE plpgsql
-- Its statements are costed high (set-returning functions per milestone) but run once per range:
-- JIT compiling them took longer than running them (0.6 s of 2.2 s per range, measured).
SET jit = off
AS $$
DECLARE
    chunk int := (SELECT t.chunk_size FROM @extschema@.ledger_tables t WHERE t.table_name = 'messages');
    r int;
    lo int;
    hi int;
    stored text;
    sums text;
    differing int[];
BEGIN
    from_range := coalesce(from_range, (SELECT min(s.milestone_index) / chunk FROM @extschema@.sync s), 0);
    to_range := coalesce(to_range, (SELECT max(s.milestone_index) / chunk + 1 FROM @extschema@.sync s), 0);
    FOR r IN from_range .. to_range - 1 LOOP
        lo := r * chunk;
        hi := lo + chunk - 1;
        -- The stored rows of milestones lo..hi, one branch per table (identifiers by %I, the
        -- expressions are the constants below), in two shapes:
        -- - stored: (table, milestone, key, bkey, detail, block, range) of the milestones in $3
        --   (all, when it is NULL); the key in text (0x-hex, as reported) and in bytes (bkey);
        -- - sums: (table, milestone, rows, digest) per table and milestone, each table grouped on
        --   its own (no wide rows sorted, no keys in text). Outputs booked from a snapshot (their
        --   block is not one of the milestone's) are summed too, though nothing derives them: the
        --   few milestones that hold them differ here and pass 2 leaves them out row by row.
        SELECT string_agg(format(
                   'SELECT %L AS t, o.milestone_index, %s AS key, %s AS bkey, %s AS detail, '
                   '%s AS block, o.ms_range_id FROM @extschema@.%I o WHERE o.ms_range_id '
                   'BETWEEN %s AND %s AND o.milestone_index BETWEEN $1 AND $2 '
                   'AND ($3::int[] IS NULL OR o.milestone_index = ANY ($3))%s',
                   b.t, b.key, b.bkey, b.detail, b.block, b.t,
                   @extschema@.ms_range_id(b.t::name, lo),
                   @extschema@.ms_range_id(b.t::name, hi), b.filter), ' UNION ALL '),
               string_agg(format(
                   'SELECT %L AS t, o.milestone_index, count(*)::text AS n, '
                   '@extschema@.row_digest(%s, %s) AS digest FROM @extschema@.%I o '
                   'WHERE o.ms_range_id BETWEEN %s AND %s AND o.milestone_index BETWEEN $1 AND $2%s '
                   'GROUP BY o.milestone_index',
                   b.t, b.bkey, b.detail, b.t,
                   @extschema@.ms_range_id(b.t::name, lo),
                   @extschema@.ms_range_id(b.t::name, hi), b.filter), ' UNION ALL ')
        INTO stored, sums
        FROM (VALUES
            ('basic_outputs', 'o.output_id::text', '@extschema@.output_id_send(o.output_id)',
             'o.data', 'o.message_id', ''),
            ('alias_outputs', 'o.output_id::text', '@extschema@.output_id_send(o.output_id)',
             'o.data', 'o.message_id', ''),
            ('foundry_outputs', 'o.output_id::text', '@extschema@.output_id_send(o.output_id)',
             'o.data', 'o.message_id', ''),
            ('nft_outputs', 'o.output_id::text', '@extschema@.output_id_send(o.output_id)',
             'o.data', 'o.message_id', ''),
            ('legacy_outputs', 'o.output_id::text', '@extschema@.output_id_send(o.output_id)',
             'o.data', 'o.message_id', ' AND NOT o.is_used'),
            ('spent_outputs', 'o.output_id::text', '@extschema@.output_id_send(o.output_id)',
             '@extschema@.hash32_send(o.transaction_id)', 'NULL::@extschema@.block_id', ''),
            ('tags', 'o.message_id::text', '@extschema@.hash32_send(o.message_id)', 'o.tag',
             'NULL::@extschema@.block_id', ''),
            ('parents', 'o.parent_id::text || ''>'' || o.message_id::text',
             '@extschema@.hash32_send(o.parent_id) || @extschema@.hash32_send(o.message_id)',
             'NULL::bytea', 'NULL::@extschema@.block_id', ''))
            b(t, key, bkey, detail, block, filter);

        -- Pass 1: each milestone's cone derived again, as problems and one digest per table,
        -- against the digests of the stored rows.
        PERFORM @extschema@.verify_derive(r, lo, hi, NULL, true);
        RETURN QUERY
        SELECT d.table_name, r, d.key, d.problem FROM pg_temp.verify_derived d
        WHERE d.problem IS NOT NULL;
        EXECUTE 'WITH sums AS (' || sums || $q$),
            derived AS (SELECT d.table_name AS t, d.milestone_index, d.key AS n, d.detail AS digest
                        FROM pg_temp.verify_derived d
                        WHERE d.table_name <> 'messages' AND d.problem IS NULL)
            SELECT array_agg(DISTINCT coalesce(s.milestone_index, d.milestone_index))
            FROM sums s FULL JOIN derived d ON d.t = s.t AND d.milestone_index = s.milestone_index
            WHERE s.n IS DISTINCT FROM d.n OR s.digest IS DISTINCT FROM d.digest$q$
            INTO differing USING lo, hi;
        CONTINUE WHEN differing IS NULL;

        -- Pass 2, for the milestones whose digests differ: their rows, one by one.
        PERFORM @extschema@.verify_derive(r, lo, hi, differing, false);
        RETURN QUERY EXECUTE 'WITH stored AS (' || stored || $q$),
            cone AS (SELECT c.milestone_index, c.key FROM pg_temp.verify_derived c
                     WHERE c.table_name = 'messages' AND c.problem IS NULL),
            derived AS (SELECT d.table_name AS t, d.milestone_index, d.key, d.detail
                        FROM pg_temp.verify_derived d
                        WHERE d.table_name <> 'messages' AND d.table_name <> 'milestones'
                          AND d.problem IS NULL),
            kept AS (SELECT s.* FROM stored s
                     WHERE s.block IS NULL
                        OR EXISTS (SELECT 1 FROM cone c WHERE c.milestone_index = s.milestone_index
                                                          AND c.key = s.block::text))
            SELECT coalesce(k.t, d.t),
                   coalesce(k.ms_range_id, @extschema@.ms_range_id(d.t::name, d.milestone_index)),
                   coalesce(k.key, d.key),
                   CASE WHEN k.key IS NULL
                        THEN 'derived from the stored blocks of milestone ' || d.milestone_index || ' but not stored'
                        WHEN d.key IS NULL
                        THEN 'stored for milestone ' || k.milestone_index || ' but not derived from its stored blocks'
                        ELSE 'stored bytes differ from those the stored blocks of milestone '
                             || d.milestone_index || ' derive' END
            FROM kept k
            FULL JOIN derived d ON d.t = k.t AND d.milestone_index = k.milestone_index AND d.key = k.key
            WHERE k.key IS NULL OR d.key IS NULL OR k.detail IS DISTINCT FROM d.detail$q$
            USING lo, hi, differing;
    END LOOP;
    IF to_regclass('pg_temp.verify_derived') IS NOT NULL THEN
        DROP TABLE pg_temp.verify_derived;
    END IF;
END
$$;
COMMENT ON FUNCTION @extschema@.verify(int, int) IS
$$every mismatch between the stored ledger and what its stored blocks say, in the messages ranges [from_range, to_range) (default: all held), hot or archived: block IDs that are not the BLAKE2b-256 of their bytes, cones out of white-flag order, milestone Merkle roots (TIP-4) other than the cone's, and output, spend, tag and parent rows that differ from the ones the blocks derive$$;

-- The legacy era: each stored transaction hashed again (Curl-P-81 of its trits) and decoded
-- again into the stored columns, months [from_month, to_month) (default: all held), in batches.
CREATE FUNCTION legacy.verify(from_month int DEFAULT NULL, to_month int DEFAULT NULL)
RETURNS TABLE (table_name text, month_id int, key text, problem text)
LANGUAGE plpgsql AS $$
DECLARE
    m int;
    batch constant int := 10000;
BEGIN
    -- Every month held, hot or archived (an archive spans a run of months).
    FOR m IN SELECT DISTINCT g.m FROM legacy.status s, generate_series(s.from_month, s.to_month - 1) g(m)
             WHERE s.table_name = 'legacy.transactions'::regclass
               AND g.m >= coalesce(verify.from_month, g.m)
               AND g.m < coalesce(verify.to_month, g.m + 1)
             ORDER BY 1 LOOP
        RETURN QUERY
        WITH stored AS (
            SELECT t.*, (row_number() OVER (ORDER BY t.hash) - 1) / batch AS part
            FROM legacy.transactions t WHERE t.month_id = m),
        decoded AS (
            SELECT s.part, d.*
            FROM (SELECT part, array_agg(t5b1 ORDER BY hash) AS bytes FROM stored GROUP BY part) s
            CROSS JOIN LATERAL legacy.decode_transactions(s.bytes) d),
        numbered AS (
            SELECT s.*, row_number() OVER (PARTITION BY s.part ORDER BY s.hash) AS ord FROM stored s)
        SELECT 'transactions', m, s.hash::text,
               CASE WHEN d.hash IS DISTINCT FROM s.hash
                    THEN 'the stored hash is not the Curl-P-81 hash of the stored trits, ' || d.hash::text
                    ELSE 'stored columns differ from those the stored trits decode to' END
        FROM numbered s JOIN decoded d ON d.part = s.part AND d.ord = s.ord
        WHERE d.hash IS DISTINCT FROM s.hash
           OR (d.address, d.value, d.bundle, d.trunk, d.branch, d.tag, d.current_index,
               d.last_index, d.timestamp, d.attachment_timestamp)
              IS DISTINCT FROM
              (s.address, s.value, s.bundle, s.trunk, s.branch, s.tag, s.current_index,
               s.last_index, s.timestamp, s.attachment_timestamp);
    END LOOP;
END
$$;
COMMENT ON FUNCTION legacy.verify(int, int) IS
    'every stored legacy transaction whose hash or decoded columns differ from what its stored trits give, months [from_month, to_month) (default: all held)';

-- Anyone who reads may verify.
GRANT EXECUTE ON FUNCTION @extschema@.verify(int, int), legacy.verify(int, int) TO permanode_reader;

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
COMMENT ON SCHEMA streams IS 'permanode: record streams (seed 004), robustmq''s StorageAdapter on PostgreSQL';

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
COMMENT ON TABLE streams.records IS 'every shard''s records, by segment of offsets (docs/STREAMS.md)';

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

-- The segment of a time, and the one being written now.
CREATE FUNCTION streams.segment_at(t timestamptz) RETURNS int
LANGUAGE sql STABLE PARALLEL SAFE
RETURN floor(extract(epoch FROM t)
             / (SELECT s.value::numeric FROM @extschema@.settings s WHERE s.key = 'stream_segment_seconds'))::int;
CREATE FUNCTION streams.current_segment() RETURNS int
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN streams.segment_at(clock_timestamp());

-- The segments holding a shard's offsets [lo, hi] (NULLs when none does).
CREATE FUNCTION streams.segments_of(shard_id bigint, lo bigint, hi bigint,
                                    OUT first_segment int, OUT last_segment int)
LANGUAGE sql STABLE AS $$
    SELECT min(g.segment), max(g.segment) FROM streams.shard_segments g
    WHERE g.shard_id = $1 AND g.last_offset >= $2 AND g.first_offset <= $3
$$;

-- records_s0000020418, record_tags_s0000020418
CREATE FUNCTION streams.partition_name(table_name name, segment int) RETURNS name
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (table_name || '_s' || lpad(segment::text, 10, '0'))::name;

-- Makes a segment's partitions of records and record_tags if missing (and not archived), each
-- made apart and attached, with its unique key (the cold tier's row key) and lookups.
CREATE FUNCTION streams.create_partition(segment int) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    t name;
    part name;
    made boolean := false;
BEGIN
    FOREACH t IN ARRAY ARRAY['records', 'record_tags']::name[] LOOP
        part := streams.partition_name(t, segment);
        -- Made already: no lock, so writers of other shards in this segment do not wait for
        -- each other's commits.
        CONTINUE WHEN to_regclass(format('streams.%I', part)) IS NOT NULL;
        PERFORM pg_advisory_xact_lock(hashtext('permanode.partition'), hashtext('streams.' || part));
        CONTINUE WHEN EXISTS (SELECT 1 FROM pg_class c
                              WHERE c.relname = part AND c.relnamespace = 'streams'::regnamespace)
                   OR EXISTS (SELECT 1 FROM @extschema@.archive_status s
                              WHERE s.parent_table = format('streams.%I', t)::regclass
                                AND segment >= s.range_from AND segment < s.range_to);
        EXECUTE format('CREATE TABLE streams.%I (LIKE streams.%I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)',
                       part, t);
        IF t = 'records' THEN
            EXECUTE format('CREATE UNIQUE INDEX %I ON streams.%I (shard_id, "offset")', part || '_key', part);
            EXECUTE format('CREATE INDEX %I ON streams.%I (shard_id, key, "offset") WHERE key IS NOT NULL',
                           part || '_by_key', part);
        ELSE
            EXECUTE format('CREATE UNIQUE INDEX %I ON streams.%I (shard_id, tag, "offset")', part || '_key', part);
        END IF;
        EXECUTE format('ALTER TABLE streams.%I ATTACH PARTITION streams.%I FOR VALUES FROM (%s) TO (%s)',
                       t, part, segment, segment + 1);
        made := true;
    END LOOP;
    RETURN made;
END
$$;

-- The shard's row, locked for writing when `for_write`; a missing shard is an error naming it.
CREATE FUNCTION streams.shard_of(namespace text, shard text, for_write boolean DEFAULT false)
RETURNS streams.shards
LANGUAGE plpgsql AS $$
DECLARE
    s streams.shards;
BEGIN
    IF for_write THEN
        SELECT * INTO s FROM streams.shards x WHERE x.namespace = $1 AND x.shard = $2 FOR NO KEY UPDATE;
    ELSE
        SELECT * INTO s FROM streams.shards x WHERE x.namespace = $1 AND x.shard = $2;
    END IF;
    IF NOT FOUND THEN
        PERFORM streams.missing_shard(namespace, shard);
    END IF;
    RETURN s;
END
$$;

-------------------------------------------------------------------------------------------------
-- The StorageAdapter's operations.
-------------------------------------------------------------------------------------------------

CREATE FUNCTION streams.create_shard(namespace text, shard text, replica_num int DEFAULT 1,
                                     retention interval DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF coalesce(namespace, '') = '' OR coalesce(shard, '') = '' THEN
        RAISE EXCEPTION 'a shard needs a namespace and a name, not "%" and "%"', namespace, shard
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO streams.shards (namespace, shard, replica_num, retention)
    VALUES ($1, $2, $3, $4);
EXCEPTION WHEN unique_violation THEN
    RAISE EXCEPTION 'shard "%" already exists in namespace "%"', shard, namespace
        USING ERRCODE = 'duplicate_object';
END
$$;

-- The shards of a namespace ('' for all) named shard ('' for all of the namespace's).
CREATE FUNCTION streams.list_shard(namespace text DEFAULT '', shard text DEFAULT '')
RETURNS TABLE (namespace text, shard text, replica_num int, first_offset bigint,
               next_offset bigint, retention interval, created_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT s.namespace, s.shard, s.replica_num, s.first_offset, s.next_offset, s.retention,
           s.created_at
    FROM streams.shards s
    WHERE (coalesce($1, '') = '' OR s.namespace = $1)
      AND (coalesce($1, '') = '' OR coalesce($2, '') = '' OR s.shard = $2)
    ORDER BY s.namespace, s.shard
$$;

-- Removes the shard, its records, tags and marks. Archived segments are read-only: their rows
-- of the shard stay in the archive, unreachable (a shard made again has another shard_id), until
-- the segment is dropped.
CREATE FUNCTION streams.delete_shard(namespace text, shard text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    s streams.shards := streams.shard_of(namespace, shard, true);
    part regclass;
BEGIN
    FOR part IN SELECT c.oid::regclass FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                WHERE i.inhparent IN ('streams.records'::regclass, 'streams.record_tags'::regclass)
                  AND c.relkind = 'r' LOOP
        EXECUTE format('DELETE FROM %s WHERE shard_id = $1', part) USING s.shard_id;
    END LOOP;
    DELETE FROM streams.tag_hints h WHERE h.shard_id = s.shard_id;
    DELETE FROM streams.time_marks m WHERE m.shard_id = s.shard_id;
    DELETE FROM streams.shard_segments g WHERE g.shard_id = s.shard_id;
    DELETE FROM streams.shards x WHERE x.shard_id = s.shard_id;
END
$$;

-- Appends records to a shard: offsets next_offset .. next_offset + n - 1, in input order,
-- returned in that order. The shard's row stays locked to commit, so concurrent batches take
-- consecutive runs of offsets in commit order, and a batch rolled back leaves no gap.
-- The records as arrays of their fields, one element per record (tags: a JSON array of strings
-- each; headers, tags and ts may be NULL or hold NULLs), for clients that bind arrays.
CREATE FUNCTION streams.batch_write(namespace text, shard text, keys text[], data bytea[],
                                    headers jsonb[] DEFAULT NULL, tags jsonb[] DEFAULT NULL,
                                    ts timestamptz[] DEFAULT NULL)
RETURNS SETOF bigint
LANGUAGE plpgsql AS $$
DECLARE
    n bigint := coalesce(cardinality(data), 0);
    s streams.shards;
    seg int;
BEGIN
    s := streams.shard_of(namespace, shard, true);
    IF n = 0 THEN
        RETURN;
    END IF;
    IF coalesce(cardinality(keys), n) <> n OR coalesce(cardinality(headers), n) <> n
       OR coalesce(cardinality(tags), n) <> n OR coalesce(cardinality(ts), n) <> n THEN
        RAISE EXCEPTION 'the field arrays of a batch to shard "%" in namespace "%" differ in length', shard, namespace
            USING ERRCODE = 'array_subscript_error';
    END IF;
    IF array_position(data, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'a record to shard "%" in namespace "%" has no data', shard, namespace
            USING ERRCODE = 'null_value_not_allowed', HINT = 'Write an empty bytea for no data.';
    END IF;
    UPDATE streams.shards x SET next_offset = x.next_offset + n WHERE x.shard_id = s.shard_id;
    -- The segment of now, taken under the shard's lock: a shard's segments follow its offsets.
    -- Its partitions, and the next segment's ahead (a writer that makes a segment holds it to its
    -- commit; one made ahead is made before anyone writes to it).
    seg := streams.current_segment();
    PERFORM streams.create_partition(seg);
    PERFORM streams.create_partition(seg + 1);
    INSERT INTO streams.shard_segments AS g (shard_id, segment, first_offset, last_offset)
    VALUES (s.shard_id, seg, s.next_offset, s.next_offset + n - 1)
    ON CONFLICT (shard_id, segment) DO UPDATE SET last_offset = excluded.last_offset;
    RETURN QUERY
    WITH b AS MATERIALIZED (
        SELECT seg AS segment, s.next_offset + r.ord - 1 AS "offset",
               keys[r.ord] AS key, r.data, headers[r.ord] AS header,
               ARRAY(SELECT t FROM jsonb_array_elements_text(tags[r.ord]) t WHERE t IS NOT NULL) AS tags,
               coalesce(ts[r.ord], clock_timestamp()) AS ts
        FROM unnest(data) WITH ORDINALITY r(data, ord)),
    written AS (
        INSERT INTO streams.records (segment, shard_id, "offset", key, data, header, tags, ts)
        SELECT b.segment, s.shard_id, b."offset", b.key, b.data, b.header, b.tags, b.ts FROM b),
    tagged AS (
        INSERT INTO streams.record_tags (segment, shard_id, tag, "offset")
        SELECT DISTINCT b.segment, s.shard_id, t.tag, b."offset"
        FROM b, unnest(b.tags) t(tag)),
    hinted AS (
        INSERT INTO streams.tag_hints (shard_id, tag, segment)
        SELECT DISTINCT s.shard_id, t.tag, b.segment
        FROM b, unnest(b.tags) t(tag)
        ORDER BY 2, 3
        ON CONFLICT DO NOTHING),
    marked AS (
        INSERT INTO streams.time_marks AS m (shard_id, block, min_ts, max_ts)
        SELECT s.shard_id, b."offset" / 4096, min(b.ts), max(b.ts) FROM b GROUP BY 2 ORDER BY 2
        ON CONFLICT (shard_id, block) DO UPDATE
            SET min_ts = least(m.min_ts, excluded.min_ts), max_ts = greatest(m.max_ts, excluded.max_ts))
    SELECT b."offset" FROM b ORDER BY b."offset";
    -- Followers wake at commit (permanode follow).
    PERFORM pg_notify('permanode_streams', json_build_array(namespace, shard, s.next_offset + n - 1)::text);
END
$$;

-- The records as streams.record values.
CREATE FUNCTION streams.batch_write(namespace text, shard text, records streams.record[])
RETURNS SETOF bigint
LANGUAGE sql AS $$
    SELECT streams.batch_write($1, $2, ARRAY(SELECT r.key FROM unnest($3) WITH ORDINALITY r ORDER BY r.ordinality),
                               ARRAY(SELECT r.data FROM unnest($3) WITH ORDINALITY r ORDER BY r.ordinality),
                               ARRAY(SELECT r.header FROM unnest($3) WITH ORDINALITY r ORDER BY r.ordinality),
                               ARRAY(SELECT to_jsonb(r.tags) FROM unnest($3) WITH ORDINALITY r ORDER BY r.ordinality),
                               ARRAY(SELECT r.ts FROM unnest($3) WITH ORDINALITY r ORDER BY r.ordinality))
$$;

CREATE FUNCTION streams.write(namespace text, shard text, key text, data bytea,
                              header jsonb DEFAULT NULL, tags text[] DEFAULT '{}',
                              ts timestamptz DEFAULT NULL)
RETURNS bigint
LANGUAGE sql AS $$
    SELECT o FROM streams.batch_write($1, $2, ARRAY[ROW($3, $4, $5, $6, $7)::streams.record]) o
$$;

-- Up to max_record_num records from offset on (below the first retained: from it).
CREATE FUNCTION streams.read_by_offset(namespace text, shard text, "offset" bigint,
                                       max_record_num bigint DEFAULT 100, max_size bigint DEFAULT NULL)
RETURNS SETOF streams.stored_record
LANGUAGE plpgsql STABLE AS $$
DECLARE
    s streams.shards := streams.shard_of(namespace, shard);
    lo bigint := greatest(read_by_offset."offset", s.first_offset);
    hi bigint := least(lo + greatest(max_record_num, 0), s.next_offset) - 1;
    segs record := streams.segments_of(s.shard_id, lo, hi);
BEGIN
    IF hi < lo THEN
        RETURN;
    END IF;
    RETURN QUERY
    SELECT x."offset", x.key, x.data, x.header, x.tags, x.ts
    FROM (SELECT r.*, sum(length(r.data)) OVER (ORDER BY r."offset") AS upto
          FROM streams.records r
          WHERE r.segment BETWEEN segs.first_segment AND segs.last_segment
            AND r.shard_id = s.shard_id AND r."offset" BETWEEN lo AND hi) x
    WHERE max_size IS NULL OR x.upto <= max_size
    ORDER BY x."offset";
END
$$;

-- One segment's page of a shard's records with a tag, or with a key, from offset lo on: n records
-- in offset order. A query of its own per segment: both tables are pruned to that segment's
-- partition before the join runs (inlined into the caller's statement).
CREATE FUNCTION streams.tag_page(shard_id bigint, segment int, lo bigint, tag text, n bigint)
RETURNS SETOF streams.stored_record
LANGUAGE sql STABLE AS $$
    SELECT x."offset", x.key, x.data, x.header, x.tags, x.ts
    FROM streams.record_tags t
    JOIN streams.records x ON x.segment = $2 AND x.shard_id = $1 AND x."offset" = t."offset"
    WHERE t.segment = $2 AND t.shard_id = $1 AND t.tag = $4 AND t."offset" >= $3
    ORDER BY t."offset" LIMIT $5
$$;
CREATE FUNCTION streams.key_page(shard_id bigint, segment int, lo bigint, key text, n bigint)
RETURNS SETOF streams.stored_record
LANGUAGE sql STABLE AS $$
    SELECT x."offset", x.key, x.data, x.header, x.tags, x.ts
    FROM streams.records x
    WHERE x.segment = $2 AND x.shard_id = $1 AND x.key = $4 AND x."offset" >= $3
    ORDER BY x."offset" LIMIT $5
$$;

-- The error of a read from a shard that does not exist (a read is one SQL statement that calls
-- this only then). VOLATILE: the planner must not run it to estimate a plan.
CREATE FUNCTION streams.missing_shard(namespace text, shard text) RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    RAISE EXCEPTION 'shard "%" does not exist in namespace "%"', shard, namespace
        USING ERRCODE = 'undefined_object', HINT = 'Create it with streams.create_shard().';
END
$$;

-- A shard's records with a tag (or, with tag NULL, a key) from offset on: tag_page (key_page)
-- over the segments that can hold them, ascending (a tag's: those tag_hints names; a key's:
-- every segment of the shard), until max_record_num records, then cut before the data bytes
-- would pass max_size. One SQL statement, inlined into its caller: the segments are read in
-- order and the LIMIT stops the nested loop once a page is full, so later segments are not
-- opened. read_by_tag and read_by_key.
CREATE FUNCTION streams.read_keyed(namespace text, shard text, "offset" bigint, tag text, key text,
                                   max_record_num bigint, max_size bigint)
RETURNS SETOF streams.stored_record
LANGUAGE sql STABLE AS $$
    SELECT x."offset", x.key, x.data, x.header, x.tags, x.ts
    FROM (SELECT q.*, sum(length(q.data)) OVER (ORDER BY q."offset") AS upto
          FROM (SELECT p.*
                FROM (SELECT coalesce(s.shard_id, streams.missing_shard($1, $2)) AS shard_id,
                             greatest($3, s.first_offset) AS lo
                      FROM (SELECT 1) one
                      LEFT JOIN streams.shards s ON s.namespace = $1 AND s.shard = $2) s
                CROSS JOIN LATERAL (SELECT min(g.segment) AS first_segment
                                    FROM streams.shard_segments g
                                    WHERE g.shard_id = s.shard_id AND g.last_offset >= s.lo) f
                CROSS JOIN LATERAL (
                    SELECT h.segment FROM streams.tag_hints h
                    WHERE $4 IS NOT NULL AND h.shard_id = s.shard_id AND h.tag = $4
                      AND h.segment >= f.first_segment
                    UNION ALL
                    SELECT g.segment FROM streams.shard_segments g
                    WHERE $4 IS NULL AND g.shard_id = s.shard_id AND g.segment >= f.first_segment
                    ORDER BY 1) h
                CROSS JOIN LATERAL (
                    SELECT * FROM streams.tag_page(s.shard_id, h.segment, s.lo, $4, greatest($6, 0))
                    WHERE $4 IS NOT NULL
                    UNION ALL
                    SELECT * FROM streams.key_page(s.shard_id, h.segment, s.lo, $5, greatest($6, 0))
                    WHERE $4 IS NULL) p
                LIMIT greatest($6, 0)) q) x
    WHERE $7 IS NULL OR x.upto <= $7
    ORDER BY x."offset"
$$;

CREATE FUNCTION streams.read_by_tag(namespace text, shard text, "offset" bigint, tag text,
                                    max_record_num bigint DEFAULT 100, max_size bigint DEFAULT NULL)
RETURNS SETOF streams.stored_record
LANGUAGE sql STABLE AS 'SELECT * FROM streams.read_keyed($1, $2, $3, $4, NULL, $5, $6)';
CREATE FUNCTION streams.read_by_key(namespace text, shard text, "offset" bigint, key text,
                                    max_record_num bigint DEFAULT 100, max_size bigint DEFAULT NULL)
RETURNS SETOF streams.stored_record
LANGUAGE sql STABLE AS 'SELECT * FROM streams.read_keyed($1, $2, $3, NULL, $4, $5, $6)';

-- The smallest retained offset whose timestamp is at or after ts; NULL when there is none.
CREATE FUNCTION streams.get_offset_by_timestamp(namespace text, shard text, ts timestamptz)
RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
    s streams.shards := streams.shard_of(namespace, shard);
    b bigint;
    segs record;
    found_offset bigint;
BEGIN
    -- The blocks holding a record at or after ts, in offset order; the first whose retained
    -- records hold one has the answer.
    FOR b IN SELECT m.block FROM streams.time_marks m
             WHERE m.shard_id = s.shard_id AND m.block >= s.first_offset / 4096
               AND m.max_ts >= get_offset_by_timestamp.ts
             ORDER BY m.block LOOP
        segs := streams.segments_of(s.shard_id, greatest(b * 4096, s.first_offset), b * 4096 + 4095);
        SELECT min(r."offset") INTO found_offset FROM streams.records r
        WHERE r.segment BETWEEN segs.first_segment AND segs.last_segment
          AND r.shard_id = s.shard_id
          AND r."offset" BETWEEN greatest(b * 4096, s.first_offset) AND b * 4096 + 4095
          AND r.ts >= get_offset_by_timestamp.ts;
        IF found_offset IS NOT NULL THEN
            RETURN found_offset;
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;

-- Stores a group's last consumed offset of a shard (overwriting).
CREATE FUNCTION streams.commit_offset(group_name text, namespace text, shard text, "offset" bigint)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO streams.group_offsets AS g (group_name, namespace, shard, "offset")
    VALUES ($1, $2, $3, $4)
    ON CONFLICT (group_name, namespace, shard)
    DO UPDATE SET "offset" = excluded."offset", committed_at = now()
$$;
-- robustmq's form: a namespace's offsets by shard name, {"shard": offset, ...}.
CREATE FUNCTION streams.commit_offset(group_name text, namespace text, offsets jsonb)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO streams.group_offsets AS g (group_name, namespace, shard, "offset")
    SELECT $1, $2, o.key, o.value::bigint FROM jsonb_each_text($3) o ORDER BY o.key
    ON CONFLICT (group_name, namespace, shard)
    DO UPDATE SET "offset" = excluded."offset", committed_at = now()
$$;

CREATE FUNCTION streams.get_offset_by_group(group_name text)
RETURNS TABLE (namespace text, shard text, "offset" bigint)
LANGUAGE sql STABLE AS $$
    SELECT g.namespace, g.shard, g."offset" FROM streams.group_offsets g
    WHERE g.group_name = $1 ORDER BY g.namespace, g.shard
$$;

-------------------------------------------------------------------------------------------------
-- The ledger as a stream: where shard "events" of namespace "ledger" exists, ingest appends, in
-- the milestone's transaction, one record per milestone payload the cone confirms (key: the
-- milestone ID, tag "milestone"), per output created and per output spent (key: the output ID,
-- tags: its address, its tag in 0x-hex, its kind), in that order. The data is the event in JSON.
-- A spend ingested before the output it spends (milestones ingested out of order) is appended
-- with the output, naming the milestone that spent it.
-------------------------------------------------------------------------------------------------
CREATE FUNCTION streams.append_ledger(milestone_index int, ms_timestamp timestamptz, events text[],
                                      milestone_ids @extschema@.hash32[], confirmed_indexes int[],
                                      output_ids @extschema@.output_id[], kinds text[],
                                      addresses @extschema@.address[], amounts bigint[], tags bytea[])
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    appended bigint;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM streams.shards s WHERE s.namespace = 'ledger' AND s.shard = 'events') THEN
        RETURN 0;
    END IF;
    WITH e AS (
        SELECT e.ord,
               coalesce(e.milestone_id::text, e.output_id::text) AS key,
               CASE WHEN e.event = 'milestone'
                    THEN jsonb_build_object('type', 'milestone', 'milestoneIndex', e.confirmed,
                                            'milestoneId', e.milestone_id::text,
                                            'confirmedAt', milestone_index)
                    ELSE jsonb_strip_nulls(jsonb_build_object(
                        'type', CASE e.event WHEN 'spent_before' THEN 'spent' ELSE e.event END,
                        'outputId', e.output_id::text, 'kind', e.kind,
                        'address', e.address::text, 'amount', e.amount::text,
                        'tag', '0x' || encode(e.tag, 'hex'),
                        -- a spend ingested before its output: the milestone that spent it
                        'milestoneIndex', CASE WHEN e.event = 'spent_before'
                                               THEN (SELECT p.milestone_index FROM @extschema@.spent_outputs p
                                                     WHERE p.output_id = e.output_id LIMIT 1)
                                               ELSE milestone_index END)) END AS doc,
               CASE WHEN e.event = 'milestone' THEN jsonb_build_array('milestone')
                    ELSE to_jsonb(array_remove(ARRAY[e.address::text, '0x' || encode(e.tag, 'hex'), e.kind], NULL)) END AS tags
        FROM unnest(events, milestone_ids, confirmed_indexes, output_ids, kinds, addresses, amounts, tags)
             WITH ORDINALITY e(event, milestone_id, confirmed, output_id, kind, address, amount, tag, ord))
    SELECT count(*) INTO appended
    FROM streams.batch_write('ledger', 'events',
                             ARRAY(SELECT e.key FROM e ORDER BY e.ord),
                             ARRAY(SELECT convert_to(e.doc::text, 'UTF8') FROM e ORDER BY e.ord),
                             NULL,
                             ARRAY(SELECT e.tags FROM e ORDER BY e.ord),
                             array_fill(ms_timestamp, ARRAY[cardinality(events)]));
    RETURN appended;
END
$$;

-------------------------------------------------------------------------------------------------
-- Retention and the cold tier, by segment.
-------------------------------------------------------------------------------------------------

CREATE FUNCTION streams.set_retention(namespace text, shard text, retention interval)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    s streams.shards := streams.shard_of(namespace, shard, true);
BEGIN
    UPDATE streams.shards x SET retention = set_retention.retention WHERE x.shard_id = s.shard_id;
END
$$;

-- Expires what each shard's retention no longer keeps: its first retained offset moves to the
-- first record younger than the retention (reads below it return nothing at once), and every
-- segment, hot or archived, that holds no retained record of any shard is dropped whole, with its
-- hints. Returns the partitions dropped (a segment has two: records and record_tags).
CREATE FUNCTION streams.expire() RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    s streams.shards;
    -- Closed segments only: no batch writes into a segment once the next but one has begun.
    open_from int := streams.current_segment() - 1;
    keep_from bigint;
    part record;
    dropped int := 0;
BEGIN
    FOR s IN SELECT * FROM streams.shards x WHERE x.retention IS NOT NULL ORDER BY x.shard_id FOR NO KEY UPDATE LOOP
        keep_from := coalesce(streams.get_offset_by_timestamp(s.namespace, s.shard, now() - s.retention),
                              s.next_offset);
        UPDATE streams.shards x SET first_offset = greatest(x.first_offset, keep_from)
        WHERE x.shard_id = s.shard_id;
        DELETE FROM streams.time_marks m WHERE m.shard_id = s.shard_id AND (m.block + 1) * 4096 <= keep_from;
    END LOOP;
    -- A closed segment can go when no shard keeps a record in it.
    FOR part IN
        SELECT p.partition, p.kind, p.from_segment, p.to_segment
        FROM (SELECT c.oid::regclass AS partition,
                     CASE c.relkind WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END AS kind,
                     coalesce(a.range_from, substring(c.relname from '_s([0-9]+)$')::int)::int AS from_segment,
                     coalesce(a.range_to, substring(c.relname from '_s([0-9]+)$')::int + 1)::int AS to_segment
              FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
              LEFT JOIN @extschema@.archive_status a ON a.foreign_table = c.oid
              WHERE i.inhparent IN ('streams.records'::regclass, 'streams.record_tags'::regclass)) p
        WHERE p.to_segment <= open_from
          AND NOT EXISTS (SELECT 1 FROM streams.shard_segments g
                          JOIN streams.shards x ON x.shard_id = g.shard_id
                          WHERE g.segment >= p.from_segment AND g.segment < p.to_segment
                            AND g.last_offset >= x.first_offset)
        ORDER BY p.from_segment
    LOOP
        -- (an archive's directory goes with permanode.archive_gc())
        EXECUTE format('DROP %s %s', part.kind, part.partition);
        DELETE FROM streams.tag_hints h WHERE h.segment >= part.from_segment AND h.segment < part.to_segment;
        DELETE FROM streams.shard_segments g WHERE g.segment >= part.from_segment AND g.segment < part.to_segment;
        dropped := dropped + 1;
    END LOOP;
    RETURN dropped;
END
$$;

-- The partitions of the stream tables: segments, tier, rows and bytes.
CREATE VIEW streams.status AS
SELECT i.inhparent::regclass AS table_name,
       coalesce(a.range_from, substring(c.relname from '_s([0-9]+)$')::int)::int AS from_segment,
       coalesce(a.range_to, substring(c.relname from '_s([0-9]+)$')::int + 1)::int AS to_segment,
       CASE c.relkind WHEN 'f' THEN 'cold' ELSE 'hot' END AS tier,
       c.oid::regclass AS partition,
       coalesce(a.rows, @extschema@.partition_rows(c.oid::regclass)) AS rows,
       coalesce(a.bytes, pg_total_relation_size(c.oid)) AS bytes
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
LEFT JOIN @extschema@.archive_status a ON a.foreign_table = c.oid
WHERE i.inhparent IN ('streams.records'::regclass, 'streams.record_tags'::regclass);

-- Archives the hot segments [from_segment, to_segment) of both stream tables that hold rows, a
-- run of adjacent segments at a time; the segments still open (the current one and the one
-- before it) stay hot.
CREATE FUNCTION streams.archive(from_segment int, to_segment int)
RETURNS TABLE (table_name regclass, archive regclass, rows bigint)
LANGUAGE plpgsql AS $$
DECLARE
    -- Closed segments only: no batch writes into a segment once the next but one has begun.
    open_from int := streams.current_segment() - 1;
BEGIN
    IF from_segment IS NULL OR to_segment IS NULL OR to_segment <= from_segment THEN
        RAISE EXCEPTION 'invalid segments [%, %)', from_segment, to_segment
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Segments are streams.segment_at(time), from_segment included, to_segment excluded.';
    END IF;
    RETURN QUERY
    SELECT h.parent, r.archive, r.rows
    FROM (SELECT st.table_name AS parent, array_agg(st.partition ORDER BY st.from_segment) AS parts,
                 array_agg(st.from_segment ORDER BY st.from_segment) AS segments
          FROM streams.status st
          WHERE st.tier = 'hot' AND st.from_segment >= archive.from_segment
            AND st.from_segment < archive.to_segment
            AND st.from_segment < open_from
          GROUP BY st.table_name ORDER BY st.table_name::text) h
    CROSS JOIN LATERAL @extschema@.archive_runs(h.parent, h.parts, h.segments) r;
END
$$;

CREATE FUNCTION streams.restore(from_segment int, to_segment int)
RETURNS TABLE (table_name regclass, archive text, rows bigint)
LANGUAGE plpgsql AS $$
DECLARE
    a record;
BEGIN
    FOR a IN SELECT s.parent_table, s.foreign_table FROM @extschema@.archive_status s
             WHERE s.parent_table IN ('streams.records'::regclass, 'streams.record_tags'::regclass)
               AND s.range_from < to_segment AND s.range_to > from_segment
             ORDER BY s.parent_table::text, s.range_from LOOP
        table_name := a.parent_table;
        archive := a.foreign_table::text;
        rows := @extschema@.restore_partitions(a.foreign_table);
        RETURN NEXT;
    END LOOP;
END
$$;

-------------------------------------------------------------------------------------------------
-- Rights: readers read and commit their offsets, the writer writes and makes shards, the admin
-- also sets retention, expires, archives and restores.
-------------------------------------------------------------------------------------------------
GRANT USAGE ON SCHEMA streams TO permanode_reader;
GRANT SELECT ON ALL TABLES IN SCHEMA streams TO permanode_reader;
DO $$
DECLARE
    f regprocedure;
    grantees text[];
BEGIN
    FOR f, grantees IN
        SELECT p.oid::regprocedure,
               CASE WHEN p.proname IN ('commit_offset')
                    THEN '{permanode_reader}'
                    WHEN p.proname IN ('create_shard', 'delete_shard', 'batch_write', 'write', 'create_partition')
                    THEN '{permanode_writer,permanode_admin}'
                    ELSE '{permanode_admin}' END::text[]
        FROM pg_proc p
        WHERE p.pronamespace = 'streams'::regnamespace
          AND p.proname IN ('commit_offset', 'create_shard', 'delete_shard', 'batch_write', 'write',
                            'create_partition', 'set_retention', 'expire', 'archive', 'restore')
    LOOP
        EXECUTE format('ALTER FUNCTION %s SECURITY DEFINER SET search_path = pg_catalog, @extschema@', f);
        EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', f);
        EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO %s', f,
                       (SELECT string_agg(quote_ident(g), ', ') FROM unnest(grantees) g));
    END LOOP;
END
$$;

-- Between pg_restore's pre-data section (which runs CREATE EXTENSION, filling these tables with
-- their defaults) and its data section (which holds their dumped rows): empties them, so the
-- dump's rows are the only ones (the dumped sequences' values come with them). Refuses a database
-- that holds a ledger. (CREATE OR REPLACE: the upgrade to 0.8.0 runs this file again.)
CREATE OR REPLACE FUNCTION @extschema@.prepare_restore() RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    tables text;
    n int;
BEGIN
    IF EXISTS (SELECT 1 FROM @extschema@.sync) THEN -- (archived ranges may not be readable yet)
        RAISE EXCEPTION 'database "%" already holds a ledger', current_database()
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'Restore a dump into a new database, after its pre-data section only.';
    END IF;
    SELECT string_agg(c.oid::regclass::text, ', '), count(*) INTO tables, n
    FROM pg_extension e CROSS JOIN LATERAL unnest(e.extconfig) cfg JOIN pg_class c ON c.oid = cfg
    WHERE e.extname = 'permanode' AND c.relkind IN ('r', 'p');
    IF n > 0 THEN
        EXECUTE 'TRUNCATE ' || tables; -- regclass output: quoted, schema-qualified names
    END IF;
    RETURN n;
END
$$;
COMMENT ON FUNCTION @extschema@.prepare_restore() IS
    'empty the extension''s own tables between pg_restore''s pre-data and data sections';
REVOKE ALL ON FUNCTION @extschema@.prepare_restore() FROM PUBLIC;

-------------------------------------------------------------------------------------------------
-- Logical dumps (pg_dump) hold the rows of every table the extension made: catalog, settings,
-- locators and hints, the unspent set, analytics caches, the pending partitions. Partitions made
-- later are not the extension's and are dumped as any table. Restoring: README, "Backups".
-------------------------------------------------------------------------------------------------
DO $$
DECLARE
    t regclass;
BEGIN
    FOR t IN SELECT c.oid::regclass FROM pg_depend d
             JOIN pg_class c ON c.oid = d.objid AND d.classid = 'pg_class'::regclass
             JOIN pg_extension e ON e.oid = d.refobjid AND d.refclassid = 'pg_extension'::regclass
             WHERE e.extname = 'permanode' AND d.deptype = 'e' AND c.relkind = 'r' LOOP
        PERFORM pg_extension_config_dump(t, '');
    END LOOP;
END
$$;

