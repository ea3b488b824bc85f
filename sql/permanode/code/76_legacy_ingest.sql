-------------------------------------------------------------------------------------------------
-- Ingest: a batch of transactions (t5b1 bytes), with the hashes the caller read them under and
-- the milestones that confirmed them (0: not known). Every hash is computed again and checked
-- (legacy.decode_transactions); transactions held already are skipped, so a batch can be sent
-- again. One batch commits whole. Returns how many transactions were new.
-------------------------------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION legacy.ingest(transactions bytea[], hashes @extschema@.trytes81[],
                              milestone_indexes int[], layout text DEFAULT NULL)
RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    coordinator @extschema@.trytes81 :=
        (SELECT s.value::@extschema@.trytes81 FROM @extschema@.settings s WHERE s.key = 'legacy_coordinator');
    m int;
    t name;
    n int;
BEGIN
    IF transactions IS NULL OR hashes IS NULL OR milestone_indexes IS NULL
       OR cardinality(hashes) <> cardinality(transactions)
       OR cardinality(milestone_indexes) <> cardinality(transactions) THEN
        RAISE EXCEPTION 'a batch needs as many hashes and milestone indexes as transactions'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- The batch, decoded (dropped at commit: a session's table would hold its types, and so
    -- the extension, until the session ends).
    IF to_regclass('pg_temp.legacy_batch') IS NULL THEN
        CREATE TEMP TABLE legacy_batch ON COMMIT DROP AS
            SELECT d.*, 0 AS milestone_index FROM legacy.decode_transactions('{}') d WITH NO DATA;
    END IF;
    TRUNCATE pg_temp.legacy_batch;
    INSERT INTO pg_temp.legacy_batch
    SELECT d.*, nullif(u.milestone_index, 0)
    FROM legacy.decode_transactions(transactions, hashes, layout) d
    JOIN unnest(milestone_indexes) WITH ORDINALITY AS u(milestone_index, ord) ON u.ord = d.ord;
    -- once each, and only those not held yet
    DELETE FROM pg_temp.legacy_batch a USING pg_temp.legacy_batch b
    WHERE a.hash = b.hash AND a.ord > b.ord;
    WITH new AS (
        INSERT INTO legacy.transaction_locator (hash, month_id)
        SELECT b.hash, b.month_id FROM pg_temp.legacy_batch b ORDER BY b.hash
        ON CONFLICT DO NOTHING RETURNING hash)
    DELETE FROM pg_temp.legacy_batch b WHERE NOT EXISTS (SELECT 1 FROM new WHERE new.hash = b.hash);
    SELECT count(*) INTO n FROM pg_temp.legacy_batch;
    IF n = 0 THEN
        RETURN 0;
    END IF;

    -- Missing partitions are made by one ingest at a time: each holds its attaches' locks on
    -- the parents until it commits, so two making partitions of different months at once could
    -- wait for each other.
    FOR m IN SELECT DISTINCT b.month_id FROM pg_temp.legacy_batch b ORDER BY 1 LOOP
        FOR t IN SELECT l.table_name FROM legacy.tables l ORDER BY 1 LOOP
            IF to_regclass(format('legacy.%I', legacy.partition_name(t, m))) IS NULL THEN
                PERFORM pg_advisory_xact_lock(hashtext('permanode.legacy_partitions'));
                PERFORM legacy.create_partition(t, m);
            END IF;
        END LOOP;
    END LOOP;

    INSERT INTO legacy.transactions
    SELECT b.month_id, b.hash, b.issued_at, x.t5b1, b.old_layout, b.address, b.value, b.obsolete_tag,
           b.timestamp, b.current_index, b.last_index, b.bundle, b.trunk, b.branch, b.tag,
           b.attachment_timestamp, b.attachment_timestamp_lower_bound,
           b.attachment_timestamp_upper_bound, b.nonce, b.milestone_index
    FROM pg_temp.legacy_batch b
    JOIN unnest(transactions) WITH ORDINALITY AS x(t5b1, ord) ON x.ord = b.ord;

    INSERT INTO legacy.bundles
    SELECT b.month_id, b.bundle, b.current_index, b.last_index, b.hash,
           CASE WHEN b.value < 0 THEN 'input' ELSE 'output' END, b.address, b.value, b.trunk,
           b.issued_at, b.milestone_index
    FROM pg_temp.legacy_batch b;

    INSERT INTO legacy.edges
    SELECT b.month_id, b.hash, e.edge, e.address, e.approvee, b.issued_at, b.bundle,
           b.current_index, b.value, b.milestone_index
    FROM pg_temp.legacy_batch b
    CROSS JOIN LATERAL (VALUES ('address', b.address, NULL::@extschema@.trytes81),
                               ('trunk', NULL, b.trunk),
                               ('branch', NULL, b.branch)) e(edge, address, approvee)
    WHERE CASE e.edge WHEN 'address' THEN b.value <> 0
                      WHEN 'branch' THEN b.branch <> b.trunk ELSE true END;

    INSERT INTO legacy.zero_value
    SELECT b.month_id, b.hash, b.address,
           1970 + b.month_id / 12, b.month_id % 12 + 1, b.issued_at, b.bundle, b.current_index,
           b.tag, b.milestone_index
    FROM pg_temp.legacy_batch b WHERE b.value = 0;

    INSERT INTO legacy.tags
    SELECT b.month_id, b.hash, b.tag, legacy.iac_prefix(b.tag::text, 4),
           legacy.iac_prefix(b.tag::text, 6), legacy.iac_prefix(b.tag::text, 8), b.issued_at,
           b.address, b.bundle, b.milestone_index
    FROM pg_temp.legacy_batch b WHERE b.tag::text <> repeat('9', 27);

    INSERT INTO legacy.hints
    SELECT DISTINCT h.key, h.kind, b.month_id
    FROM pg_temp.legacy_batch b
    CROSS JOIN LATERAL (VALUES (b.bundle, 'b'::"char"),
                               (b.address, CASE WHEN b.value = 0 THEN 'z' ELSE 'a' END::"char"),
                               (b.trunk, 'p'::"char"), (b.branch, 'p'::"char")) h(key, kind)
    ORDER BY 1, 2, 3
    ON CONFLICT DO NOTHING;

    INSERT INTO legacy.tag_hints
    SELECT DISTINCT h.tag, b.month_id
    FROM pg_temp.legacy_batch b
    CROSS JOIN LATERAL (VALUES (b.tag::text), (legacy.iac_prefix(b.tag::text, 4)),
                               (legacy.iac_prefix(b.tag::text, 6)),
                               (legacy.iac_prefix(b.tag::text, 8))) h(tag)
    WHERE b.tag::text <> repeat('9', 27) AND h.tag IS NOT NULL
    ORDER BY 1, 2
    ON CONFLICT DO NOTHING;

    INSERT INTO legacy.bundle_state AS s (bundle_hash, last_index, present)
    SELECT b.bundle, b.last_index, array_agg(DISTINCT b.current_index ORDER BY b.current_index)
    FROM pg_temp.legacy_batch b
    WHERE b.current_index >= 0 AND b.current_index <= b.last_index AND b.last_index < 10000
    GROUP BY b.bundle, b.last_index
    ORDER BY 1, 2
    ON CONFLICT (bundle_hash, last_index) DO UPDATE
        SET present = ARRAY(SELECT DISTINCT i FROM unnest(s.present || EXCLUDED.present) i ORDER BY i)
        WHERE NOT s.complete;

    -- The era's analytics (77_legacy_analytics.sql), counted from the new transactions only:
    -- per day (UTC) of their time and per confirming milestone; the addresses that moved value
    -- each day (their counts are rolled up by legacy.rollup_daily_analytics); the milestones
    -- found, on their day.
    INSERT INTO legacy.daily_analytics AS d (date, transactions, value_transactions, tokens, rolled_up)
    SELECT (b.issued_at AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE b.value <> 0),
           coalesce(sum(b.value) FILTER (WHERE b.value > 0), 0), bool_and(b.value = 0)
    FROM pg_temp.legacy_batch b
    GROUP BY 1 ORDER BY 1
    ON CONFLICT (date) DO UPDATE
        SET transactions = d.transactions + EXCLUDED.transactions,
            value_transactions = d.value_transactions + EXCLUDED.value_transactions,
            tokens = d.tokens + EXCLUDED.tokens,
            rolled_up = d.rolled_up AND EXCLUDED.rolled_up;
    INSERT INTO legacy.daily_addresses AS a (date, address, sent, received)
    SELECT (b.issued_at AT TIME ZONE 'UTC')::date, b.address, bool_or(b.value < 0), bool_or(b.value > 0)
    FROM pg_temp.legacy_batch b WHERE b.value <> 0
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (date, address) DO UPDATE
        SET sent = a.sent OR EXCLUDED.sent, received = a.received OR EXCLUDED.received
        WHERE (EXCLUDED.sent AND NOT a.sent) OR (EXCLUDED.received AND NOT a.received);
    INSERT INTO legacy.milestone_analytics AS m (milestone_index, transactions, value_transactions, tokens)
    SELECT b.milestone_index, count(*), count(*) FILTER (WHERE b.value <> 0),
           coalesce(sum(b.value) FILTER (WHERE b.value > 0), 0)
    FROM pg_temp.legacy_batch b WHERE b.milestone_index IS NOT NULL
    GROUP BY 1 ORDER BY 1
    ON CONFLICT (milestone_index) DO UPDATE
        SET transactions = m.transactions + EXCLUDED.transactions,
            value_transactions = m.value_transactions + EXCLUDED.value_transactions,
            tokens = m.tokens + EXCLUDED.tokens;

    IF coordinator IS NOT NULL THEN
        WITH found AS (
            INSERT INTO legacy.milestones
            SELECT b.milestone_index, b.hash, b.issued_at FROM pg_temp.legacy_batch b
            WHERE b.address = coordinator AND b.current_index = 0 AND b.milestone_index IS NOT NULL
            ON CONFLICT DO NOTHING
            RETURNING issued_at)
        UPDATE legacy.daily_analytics d SET milestones = d.milestones + f.n
        FROM (SELECT (issued_at AT TIME ZONE 'UTC')::date AS date, count(*) AS n FROM found GROUP BY 1) f
        WHERE d.date = f.date;
    END IF;

    RETURN n;
END
$$;
COMMENT ON FUNCTION legacy.ingest(bytea[], @extschema@.trytes81[], int[], text) IS
    'ingests a batch of legacy transactions (t5b1) with their hashes (checked) and confirming milestones; returns how many were new';
