
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
                                        stored_ids text[] DEFAULT NULL)
RETURNS TABLE (table_name text, block_index int, key text, detail bytea, problem text)
AS 'MODULE_PATHNAME', 'permanode_verify_cone'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.verify_cone(int, bigint, bytea[], smallint[], smallint[], smallint, bytea, text[]) IS
$$what one milestone's cone derives: each block's ID computed from its bytes (messages), the outputs it creates (their table, ID and bytes), spends (spent_outputs), tags and parents; problem rows for IDs other than stored_ids, parents after their children in the white-flag order, Merkle roots of milestone_payload (TIP-4) other than the cone's, or a cone that does not derive$$;

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
BEGIN
    from_range := coalesce(from_range, (SELECT min(s.milestone_index) / chunk FROM @extschema@.sync s), 0);
    to_range := coalesce(to_range, (SELECT max(s.milestone_index) / chunk + 1 FROM @extschema@.sync s), 0);
    FOR r IN from_range .. to_range - 1 LOOP
        lo := r * chunk;
        hi := lo + chunk - 1;
        IF to_regclass('pg_temp.verify_derived') IS NOT NULL THEN
            DROP TABLE pg_temp.verify_derived;
        END IF;
        CREATE TEMP TABLE verify_derived (milestone_index int, table_name text, block_index int,
                                          key text, detail bytea, problem text);
        -- Each milestone's cone in white-flag order, derived again.
        INSERT INTO pg_temp.verify_derived
        SELECT c.milestone_index, d.table_name, d.block_index, d.key, d.detail,
               coalesce(d.problem, CASE WHEN d.table_name = 'messages' AND d.block_index = 0
                                         AND c.orders <> array(SELECT generate_series(0, cardinality(c.orders) - 1))
                                        THEN 'the white-flag indexes of milestone ' || c.milestone_index
                                             || ' are not 0 to ' || cardinality(c.orders) - 1 END)
        FROM (SELECT m.milestone_index,
                     array_agg(m.message ORDER BY m.white_flag_index) AS blocks,
                     array_agg(m.message_id::text ORDER BY m.white_flag_index) AS ids,
                     array_agg(coalesce(m.inclusion_state, 0)::smallint ORDER BY m.white_flag_index) AS states,
                     array_agg(coalesce(m.conflict_reason, 0)::smallint ORDER BY m.white_flag_index) AS reasons,
                     array_agg(m.white_flag_index ORDER BY m.white_flag_index) AS orders,
                     max(m.version)::smallint AS version,
                     extract(epoch FROM min(m.ms_timestamp))::bigint AS ts
              FROM @extschema@.messages m
              WHERE m.ms_range_id = r AND m.milestone_index BETWEEN lo AND hi
              GROUP BY m.milestone_index) c
        CROSS JOIN LATERAL @extschema@.verify_cone(
            c.milestone_index, c.ts, c.blocks, c.states, c.reasons, c.version,
            (SELECT p.payload FROM @extschema@.milestones p
             WHERE p.milestone_index = c.milestone_index LIMIT 1), c.ids) d;
        ANALYZE pg_temp.verify_derived;

        RETURN QUERY
        SELECT d.table_name, r, d.key, d.problem FROM pg_temp.verify_derived d
        WHERE d.problem IS NOT NULL;

        -- The stored rows of the range's milestones, against the derived ones, as (table,
        -- milestone, key, detail, block, range): one branch per table (identifiers by %I, the
        -- expressions are the constants below). Stored outputs whose block is not in their
        -- milestone's cone were booked from a snapshot: nothing derives them (a stored output
        -- moved out of its cone still shows, as not stored).
        stored := (SELECT string_agg(format(
                       'SELECT %L AS t, o.milestone_index, %s AS key, %s AS detail, %s AS block, '
                       'o.ms_range_id FROM @extschema@.%I o WHERE o.ms_range_id BETWEEN %s AND %s '
                       'AND o.milestone_index BETWEEN $1 AND $2%s',
                       b.t, b.key, b.detail, b.block, b.t, @extschema@.ms_range_id(b.t::name, lo),
                       @extschema@.ms_range_id(b.t::name, hi), b.filter), ' UNION ALL ')
                   FROM (VALUES
                       ('basic_outputs', 'o.output_id::text', 'o.data', 'o.message_id::text', ''),
                       ('alias_outputs', 'o.output_id::text', 'o.data', 'o.message_id::text', ''),
                       ('foundry_outputs', 'o.output_id::text', 'o.data', 'o.message_id::text', ''),
                       ('nft_outputs', 'o.output_id::text', 'o.data', 'o.message_id::text', ''),
                       ('legacy_outputs', 'o.output_id::text', 'o.data', 'o.message_id::text',
                        ' AND NOT o.is_used'),
                       ('spent_outputs', 'o.output_id::text',
                        'decode(substr(o.transaction_id::text, 3), ''hex'')', 'NULL', ''),
                       ('tags', 'o.message_id::text', 'o.tag', 'NULL', ''),
                       ('parents', 'o.parent_id::text || ''>'' || o.message_id::text',
                        'NULL::bytea', 'NULL', '')) b(t, key, detail, block, filter));
        RETURN QUERY EXECUTE 'WITH stored AS (' || stored || '), ' || $q$
        cone AS (SELECT c.milestone_index, c.key FROM pg_temp.verify_derived c
                 WHERE c.table_name = 'messages' AND c.problem IS NULL),
        derived AS (SELECT d.table_name AS t, d.milestone_index, d.key, d.detail
                    FROM pg_temp.verify_derived d
                    WHERE d.table_name <> 'messages' AND d.table_name <> 'milestones'
                      AND d.problem IS NULL),
        kept AS (SELECT s.* FROM stored s
                 WHERE s.block IS NULL
                    OR EXISTS (SELECT 1 FROM cone c WHERE c.milestone_index = s.milestone_index
                                                      AND c.key = s.block))
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
            USING lo, hi;
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
