
-------------------------------------------------------------------------------------------------
-- Verification: proof that what is stored is what the network wrote. verify() recomputes every
-- stored block's ID from its bytes, derives each milestone's rows again from its stored cone
-- (by ingest's own derivation, verify_cone) and compares them with the stored rows, and checks
-- the cone's white-flag order and the Merkle roots of the milestone payload. Hot and archived
-- ranges alike, one range at a time (memory: one range's derived rows, in a temporary table).
-- legacy.verify() hashes the ternary transactions again. Design: docs/VERIFY.md.
-------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION @extschema@.blake2b256(bytes bytea) RETURNS bytea
AS 'MODULE_PATHNAME', 'permanode_blake2b256'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.blake2b256(bytea) IS 'BLAKE2b-256 of the bytes (block, message and transaction IDs)';

CREATE OR REPLACE FUNCTION @extschema@.verify_cone(milestone_index int, milestone_timestamp bigint, blocks bytea[],
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
CREATE OR REPLACE FUNCTION @extschema@.digest_add(state bytea, key bytea, detail bytea) RETURNS bytea
AS 'MODULE_PATHNAME', 'permanode_digest_add'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION @extschema@.digest_combine(a bytea, b bytea) RETURNS bytea
AS 'MODULE_PATHNAME', 'permanode_digest_combine'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE AGGREGATE @extschema@.row_digest(bytea, bytea) (SFUNC = @extschema@.digest_add, STYPE = bytea,
                                         COMBINEFUNC = @extschema@.digest_combine,
                                         PARALLEL = SAFE);

-- verify()'s derivation of range r's milestones lo..hi (those in `only`, if given) into the
-- temporary table verify_derived: verify_cone's rows (or digests), with a problem where the
-- white-flag indexes of a cone are not 0 to n-1.
CREATE OR REPLACE FUNCTION @extschema@.verify_derive(r int, lo int, hi int, milestones int[], digests boolean)
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
CREATE OR REPLACE FUNCTION @extschema@.verify(from_range int DEFAULT NULL, to_range int DEFAULT NULL)
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
CREATE OR REPLACE FUNCTION legacy.verify(from_month int DEFAULT NULL, to_month int DEFAULT NULL)
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
