-- permanode 0.6.0 -> 0.7.0: the ledger as of any milestone (retired_outputs, outputs_at,
-- balance_at) and its verification (verify). This script is generated (sql/CMakeLists.txt): this
-- part, then the install script's parts that make them, then a backfill from the history held.
\echo Use "ALTER EXTENSION permanode UPDATE TO '0.7.0'" to load this file. \quit

-------------------------------------------------------------------------------------------------
-- The ledger as of any milestone N: the outputs unspent at the end of N are
--   the unspent set's outputs created at or before N, and
--   the retired outputs (once in the unspent set, now spent) alive at N: created <= N < spent.
-- The first part is the unspent set's own indexes, bounded by N's time. The second is a
-- GiST index per lookup key over one int8range per retired output: the key's 32-bit hash in the
-- high half, the output's [created, spent) milestones in the low half, so "key K alive at N" is
-- one containment probe, `span @> span_at(K, N)`, whose cost follows the outputs alive at N,
-- not the history before or after N (hash collisions are removed by the key's own equality).
-- Design and measurements: docs/AS_OF.md.
-------------------------------------------------------------------------------------------------

-- The unspent set's rows once spent (without their bytes, which the history tables hold), with
-- the milestone that spent them. An output spent in the milestone that created it was never
-- unspent at the end of a milestone and is not here.
CREATE TABLE @extschema@.retired_outputs (
    output_id @extschema@.output_id NOT NULL,
    output_kind text NOT NULL,
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
    chain_id @extschema@.hash32,
    foundry_id @extschema@.foundry_id,
    milestone_index int NOT NULL,              -- created
    ms_timestamp timestamptz NOT NULL,
    message_id @extschema@.block_id,
    spent_milestone_index int NOT NULL,
    -- A Chrysalis output's type (its first byte): 0 SigLockedSingleOutput, 1
    -- SigLockedDustAllowanceOutput (TIP-15's dust rules need it); NULL for Stardust outputs.
    output_type smallint,
    -- A Chrysalis output booked again by the Stardust genesis is retired twice: as 'legacy' at
    -- the genesis, and as 'basic' when spent.
    PRIMARY KEY (output_id, output_kind),
    CHECK (spent_milestone_index > milestone_index)
);

-- A key's span of milestones [from_ms, to_ms) and a point in it, in one int8 line.
CREATE FUNCTION @extschema@.span(key int, from_ms int, to_ms int) RETURNS int8range
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN int8range(key::int8 * 4294967296 + from_ms, key::int8 * 4294967296 + to_ms);
CREATE FUNCTION @extschema@.span_at(key int, at int) RETURNS int8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN key::int8 * 4294967296 + at;
COMMENT ON FUNCTION @extschema@.span(int, int, int) IS
    'the milestones [from_ms, to_ms) of a lookup key (its 32-bit hash), as one int8range whose GiST index finds the spans containing span_at(key, N)';
-- A tag's key.
CREATE FUNCTION @extschema@.tag_hash(tag bytea) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN hashtext(encode(tag, 'hex'));

DO $$
DECLARE
    k record;
BEGIN
    FOR k IN SELECT * FROM (VALUES
        ('address', '@extschema@.address_hash(address)'),
        ('sender', '@extschema@.address_hash(sender)'),
        ('issuer', '@extschema@.address_hash(issuer)'),
        ('tag', '@extschema@.tag_hash(tag)'),
        ('state_controller', '@extschema@.address_hash(state_controller)'),
        ('governor', '@extschema@.address_hash(governor)'),
        ('dust_return_address', '@extschema@.address_hash(dust_return_address)'),
        ('expiration_return_address', '@extschema@.address_hash(expiration_return_address)'),
        ('chain_id', '@extschema@.hash32_hash(chain_id)'),
        ('foundry_id', '@extschema@.foundry_id_hash(foundry_id)'),
        ('output_kind', 'hashtext(output_kind)')) AS v(col, key)
    LOOP
        -- k.key is one of the expressions above, never input.
        EXECUTE format('CREATE INDEX %I ON @extschema@.retired_outputs USING gist '
                       '(@extschema@.span(%s, milestone_index, spent_milestone_index)) '
                       'WHERE %I IS NOT NULL', 'retired_outputs_by_' || k.col, k.key, k.col);
    END LOOP;
END
$$;

-- The protocol of milestone N: that of the newest milestone held at or before it.
CREATE FUNCTION @extschema@.protocol_at(at int) RETURNS smallint
LANGUAGE sql STABLE PARALLEL SAFE
RETURN (SELECT p.protocol_version FROM @extschema@.milestone_protocols p
        WHERE p.milestone_index <= at ORDER BY p.milestone_index DESC LIMIT 1);

-- The time of milestone N: that of its blocks (the Range Scan reads N's range only); infinity
-- when none of its blocks is held, which bounds nothing.
CREATE FUNCTION @extschema@.milestone_time(at int) RETURNS timestamptz
LANGUAGE sql STABLE PARALLEL SAFE
RETURN coalesce((SELECT m.ms_timestamp FROM @extschema@.messages m
                 WHERE m.milestone_index = at LIMIT 1), 'infinity');

-- The outputs an address holds (the `address` column: owner, state controller, alias of a
-- foundry) at the end of milestone N, N's era only: the Chrysalis outputs before the Stardust
-- genesis, the Stardust outputs from it. Without N: the newest milestone held.
CREATE FUNCTION @extschema@.outputs_at(address @extschema@.address, at int DEFAULT NULL)
RETURNS TABLE (output_id @extschema@.output_id, output_kind text, amount bigint,
               sig_locked boolean, milestone_index int, ms_timestamp timestamptz,
               spent_milestone_index int, output_type smallint)
LANGUAGE sql STABLE AS $$
    WITH n AS (SELECT coalesce(at, (SELECT max(p.milestone_index) FROM @extschema@.milestone_protocols p)) AS at),
         era AS (SELECT n.at, coalesce(@extschema@.protocol_at(n.at), 2) = 1 AS chrysalis,
                        @extschema@.milestone_time(n.at) AS at_time FROM n)
    SELECT u.output_id, u.output_kind, u.amount,
           u.dust_return_address IS NULL AND u.timelock IS NULL AND u.expiration IS NULL,
           u.milestone_index, u.ms_timestamp, NULL::int,
           CASE WHEN u.output_kind = 'legacy' THEN get_byte(u.data, 0)::smallint END
    FROM era, @extschema@.unspent_outputs u
    WHERE u.address = outputs_at.address AND u.ms_timestamp <= era.at_time
      AND u.milestone_index <= era.at AND (u.output_kind = 'legacy') = era.chrysalis
    UNION ALL
    SELECT r.output_id, r.output_kind, r.amount,
           r.dust_return_address IS NULL AND r.timelock IS NULL AND r.expiration IS NULL,
           r.milestone_index, r.ms_timestamp, r.spent_milestone_index, r.output_type
    FROM era, @extschema@.retired_outputs r
    WHERE r.address IS NOT NULL
      AND @extschema@.span(@extschema@.address_hash(r.address), r.milestone_index,
                           r.spent_milestone_index)
          @> @extschema@.span_at(@extschema@.address_hash(outputs_at.address), era.at)
      AND r.address = outputs_at.address
      AND (r.output_kind = 'legacy') = era.chrysalis
$$;
COMMENT ON FUNCTION @extschema@.outputs_at(@extschema@.address, int) IS
    'the outputs an address holds at the end of milestone `at` (default: the newest held), of that milestone''s era; spent_milestone_index is NULL for outputs still unspent';

-- An address's balance at the end of milestone N, per output kind: total, the part without
-- unlock conditions beyond the address (sig-locked), and the outputs counted.
CREATE FUNCTION @extschema@.balance_at(address @extschema@.address, at int DEFAULT NULL)
RETURNS TABLE (output_kind text, balance numeric, sig_locked_balance numeric, outputs bigint)
LANGUAGE sql STABLE AS $$
    SELECT o.output_kind, sum(o.amount), coalesce(sum(o.amount) FILTER (WHERE o.sig_locked), 0),
           count(*)
    FROM @extschema@.outputs_at(address, at) o
    GROUP BY o.output_kind ORDER BY o.output_kind
$$;
COMMENT ON FUNCTION @extschema@.balance_at(@extschema@.address, int) IS
    'an address''s balance at the end of milestone `at` (default: the newest held), per output kind';

-- Rebuilds retired_outputs from the history tables (hot and archived): every output created by
-- one milestone and spent by a later one, and every Chrysalis output the Stardust genesis booked
-- again. The upgrade to 0.7.0 runs it once; ingest keeps the table from then on.
CREATE FUNCTION @extschema@.rebuild_retired_outputs() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    rows bigint;
BEGIN
    LOCK TABLE @extschema@.retired_outputs IN EXCLUSIVE MODE;
    TRUNCATE @extschema@.retired_outputs;
    INSERT INTO @extschema@.retired_outputs (output_id, output_kind, amount, address, sender,
        issuer, tag, state_controller, governor, dust_return_address, dust_return_amount,
        timelock, expiration, expiration_return_address, native_token_count, chain_id,
        foundry_id, milestone_index, ms_timestamp, message_id, spent_milestone_index)
    SELECT o.output_id, o.kind, o.amount, o.address, o.sender, o.issuer, o.tag,
           o.state_controller, o.governor, o.dust_return_address, o.dust_return_amount,
           o.timelock, o.expiration, o.expiration_return_address,
           coalesce(o.native_token_count, 0), o.chain_id, o.foundry_id, o.milestone_index,
           o.ms_timestamp, o.message_id, s.milestone_index
    FROM (SELECT output_id, 'basic' AS kind, amount, address, sender, NULL::@extschema@.address AS issuer,
                 tag, NULL::@extschema@.address AS state_controller,
                 NULL::@extschema@.address AS governor, dust_return_address, dust_return_amount,
                 timelock, expiration, expiration_return_address, native_token_count,
                 NULL::@extschema@.hash32 AS chain_id, NULL::@extschema@.foundry_id AS foundry_id,
                 milestone_index, ms_timestamp, message_id
          FROM @extschema@.basic_outputs
          UNION ALL
          SELECT output_id, 'alias', amount, state_controller, sender, issuer, NULL, state_controller,
                 governor, NULL, NULL, NULL, NULL, NULL, native_token_count, alias_id, NULL,
                 milestone_index, ms_timestamp, message_id
          FROM @extschema@.alias_outputs
          UNION ALL
          SELECT output_id, 'foundry', amount, address, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                 NULL, NULL, NULL, native_token_count, NULL, foundry_id, milestone_index,
                 ms_timestamp, message_id
          FROM @extschema@.foundry_outputs
          UNION ALL
          SELECT output_id, 'nft', amount, address, sender, issuer, tag, NULL, NULL,
                 dust_return_address, dust_return_amount, timelock, expiration,
                 expiration_return_address, native_token_count, nft_id, NULL, milestone_index,
                 ms_timestamp, message_id
          FROM @extschema@.nft_outputs) o
    JOIN @extschema@.spent_outputs s
      ON s.output_id = o.output_id AND s.milestone_index > o.milestone_index;
    -- Chrysalis outputs: until their used row, or until the Stardust genesis booked them again.
    INSERT INTO @extschema@.retired_outputs (output_id, output_kind, amount, address,
        milestone_index, ms_timestamp, message_id, spent_milestone_index, output_type)
    SELECT c.output_id, 'legacy', c.amount, c.address, c.milestone_index, c.ms_timestamp,
           c.message_id, least(u.milestone_index, b.milestone_index), c.output_type
    FROM @extschema@.legacy_outputs c
    LEFT JOIN @extschema@.legacy_outputs u ON u.output_id = c.output_id AND u.is_used
    LEFT JOIN @extschema@.basic_outputs b ON b.output_id = c.output_id
    WHERE NOT c.is_used AND least(u.milestone_index, b.milestone_index) > c.milestone_index;
    SELECT count(*) INTO rows FROM @extschema@.retired_outputs;
    RETURN rows;
END
$$;
REVOKE ALL ON FUNCTION @extschema@.rebuild_retired_outputs() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @extschema@.rebuild_retired_outputs() TO permanode_admin;

GRANT SELECT ON @extschema@.retired_outputs TO permanode_reader;

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
CREATE AGGREGATE @extschema@.row_digest(bytea, bytea) (SFUNC = @extschema@.digest_add, STYPE = bytea);

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
LANGUAGE plpgsql AS $$
DECLARE
    chunk int := (SELECT t.chunk_size FROM @extschema@.ledger_tables t WHERE t.table_name = 'messages');
    r int;
    lo int;
    hi int;
    stored text;
    differing int[];
BEGIN
    from_range := coalesce(from_range, (SELECT min(s.milestone_index) / chunk FROM @extschema@.sync s), 0);
    to_range := coalesce(to_range, (SELECT max(s.milestone_index) / chunk + 1 FROM @extschema@.sync s), 0);
    FOR r IN from_range .. to_range - 1 LOOP
        lo := r * chunk;
        hi := lo + chunk - 1;
        -- The stored rows of milestones lo..hi (those in $3, when it is not NULL), as (table,
        -- milestone, key, detail, block, range): one branch per table (identifiers by %I, the
        -- expressions are the constants below).
        -- The key is given twice: in text (0x-hex, as reported) and in bytes (as digested).
        stored := (SELECT string_agg(format(
                       'SELECT %L AS t, o.milestone_index, %s AS key, %s AS bkey, %s AS detail, '
                       '%s AS block, o.ms_range_id FROM @extschema@.%I o WHERE o.ms_range_id '
                       'BETWEEN %s AND %s AND o.milestone_index BETWEEN $1 AND $2 '
                       'AND ($3::int[] IS NULL OR o.milestone_index = ANY ($3))%s',
                       b.t, b.key, b.bkey, b.detail, b.block, b.t,
                       @extschema@.ms_range_id(b.t::name, lo),
                       @extschema@.ms_range_id(b.t::name, hi), b.filter), ' UNION ALL ')
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
                       b(t, key, bkey, detail, block, filter));

        -- Pass 1: each milestone's cone derived again, as problems and one digest per table,
        -- against the digests of the stored rows (outputs whose block is not one of the
        -- milestone's were booked from a snapshot: nothing derives them).
        PERFORM @extschema@.verify_derive(r, lo, hi, NULL, true);
        RETURN QUERY
        SELECT d.table_name, r, d.key, d.problem FROM pg_temp.verify_derived d
        WHERE d.problem IS NOT NULL;
        EXECUTE 'WITH stored AS (' || stored || $q$),
            kept AS (SELECT s.* FROM stored s
                     WHERE s.block IS NULL
                        OR EXISTS (SELECT 1 FROM @extschema@.messages m
                                   WHERE m.ms_range_id = $4 AND m.milestone_index = s.milestone_index
                                     AND m.message_id = s.block)),
            sums AS (SELECT k.t, k.milestone_index, count(*)::text AS n,
                            @extschema@.row_digest(k.bkey, k.detail) AS digest
                     FROM kept k GROUP BY 1, 2),
            derived AS (SELECT d.table_name AS t, d.milestone_index, d.key AS n, d.detail AS digest
                        FROM pg_temp.verify_derived d
                        WHERE d.table_name <> 'messages' AND d.problem IS NULL)
            SELECT array_agg(DISTINCT coalesce(s.milestone_index, d.milestone_index))
            FROM sums s FULL JOIN derived d ON d.t = s.t AND d.milestone_index = s.milestone_index
            WHERE s.n IS DISTINCT FROM d.n OR s.digest IS DISTINCT FROM d.digest$q$
            INTO differing USING lo, hi, NULL::int[], r;
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

-- The spent outputs of the history already held.
SELECT @extschema@.rebuild_retired_outputs();

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

