-- The legacy era's functions and views (its tables are ../schema/75_legacy.sql).
COMMENT ON SCHEMA legacy IS 'permanode: the legacy (ternary) IOTA ledger, 2016-2021 (seed 003)';

-- The month of a time, and the first instant of a month.
CREATE OR REPLACE FUNCTION legacy.month_id(t timestamptz) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT ((extract(year FROM t AT TIME ZONE 'UTC') - 1970) * 12
            + extract(month FROM t AT TIME ZONE 'UTC') - 1)::int
$$;
CREATE OR REPLACE FUNCTION legacy.month_id(year int, month int) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT (year - 1970) * 12 + month - 1';
CREATE OR REPLACE FUNCTION legacy.month_start(month_id int) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT make_timestamptz(1970 + month_id / 12, month_id % 12 + 1, 1, 0, 0, 0, 'UTC')
$$;

-- A month as people write it: 2017-11.
CREATE OR REPLACE FUNCTION legacy.month_name(month_id int) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT to_char(legacy.month_start(month_id) AT TIME ZONE 'UTC', 'YYYY-MM')
$$;
COMMENT ON TABLE legacy.transactions IS
    'legacy transactions: t5b1 bytes (legacy.trytes() gives the 2673 trytes), decoded fields, confirming milestone';
CREATE OR REPLACE VIEW legacy.bundle_heads AS
SELECT bundle_hash, transaction_hash AS head_hash, month_id, issued_at, milestone_index
FROM legacy.bundles WHERE current_index = last_index;
-- The gaps: each incomplete bundle's missing indexes.
CREATE OR REPLACE VIEW legacy.incomplete_bundles AS
SELECT s.bundle_hash, s.last_index, cardinality(s.present) AS held,
       ARRAY(SELECT i FROM generate_series(0, s.last_index) i
             WHERE i <> ALL (s.present) ORDER BY i) AS missing
FROM legacy.bundle_state s WHERE NOT s.complete;

-------------------------------------------------------------------------------------------------
-- Month partitions: made ahead of ingest by legacy.ingest, never by hand.
-------------------------------------------------------------------------------------------------

-- transactions_m2017_11
CREATE OR REPLACE FUNCTION legacy.partition_name(table_name name, month_id int) RETURNS name
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@.partition_name('legacy', table_name, month_id)
$$;

-- Makes one table's partition for one month if missing (and not archived); true if it made it.
CREATE OR REPLACE FUNCTION legacy.create_partition(table_name name, month_id int) RETURNS boolean
LANGUAGE sql AS $$
    SELECT @extschema@.create_partition('legacy', table_name, month_id)
$$;

-- The partitions of the legacy tables: month (the first of an archive's), tier, rows (estimated)
-- and bytes.
CREATE OR REPLACE VIEW legacy.partitions AS
SELECT p.parent AS table_name, p.partition, p.range_from AS month_id, p.tier, p.estimated_rows, p.bytes
FROM @extschema@.family_partitions p
WHERE p.family = 'legacy';

-- Each legacy table's months [from_month, to_month): tier, rows and bytes, hot or archived.
CREATE OR REPLACE VIEW legacy.status AS
SELECT s.parent AS table_name, s.from_range AS from_month, s.to_range AS to_month, s.tier,
       s.partition, s.rows, s.bytes
FROM @extschema@.family_status s
WHERE s.family = 'legacy';

-------------------------------------------------------------------------------------------------
-- Decoding: stored transactions (t5b1 bytes) to their fields, each hash computed again
-- (legacy.ingest, in 76_legacy_ingest.sql, writes the rows).
-------------------------------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION legacy.decode_transactions(transactions bytea[], hashes @extschema@.trytes81[] DEFAULT NULL,
                                           layout text DEFAULT NULL)
RETURNS TABLE (ord int, hash @extschema@.trytes81, month_id int, issued_at timestamptz,
               old_layout boolean, address @extschema@.trytes81, value bigint,
               obsolete_tag @extschema@.trytes27, "timestamp" bigint, current_index bigint,
               last_index bigint, bundle @extschema@.trytes81, trunk @extschema@.trytes81,
               branch @extschema@.trytes81, tag @extschema@.trytes27, attachment_timestamp bigint,
               attachment_timestamp_lower_bound bigint, attachment_timestamp_upper_bound bigint,
               nonce text)
AS 'MODULE_PATHNAME', 'permanode_legacy_decode_transactions'
LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL SAFE;
COMMENT ON FUNCTION legacy.decode_transactions(bytea[], @extschema@.trytes81[], text) IS
    'decodes stored legacy transactions (t5b1) and hashes them with Curl-P-81, checking the hashes given';

CREATE OR REPLACE FUNCTION legacy.trytes(t5b1 bytea) RETURNS text
AS 'MODULE_PATHNAME', 'permanode_legacy_trytes'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION legacy.trytes(bytea) IS 'a stored legacy transaction as its 2673 trytes';
CREATE OR REPLACE FUNCTION legacy.t5b1(trytes text) RETURNS bytea
AS 'MODULE_PATHNAME', 'permanode_legacy_t5b1'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION legacy.t5b1(text) IS 'a legacy transaction''s 2673 trytes as stored (t5b1, 1604 bytes)';

-- The IOTA Area Code prefix of a tag: its first n trytes when all are IAC characters.
CREATE OR REPLACE FUNCTION legacy.iac_prefix(tag text, n int) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT CASE WHEN left(tag, n) ~ ('^[FGHJKLMNOPQRSTUVWXYZ]{' || n || '}$') THEN left(tag, n) END
$$;

-- The Coordinator's address (milestones are found by it) and the tags' time to live.
CREATE OR REPLACE FUNCTION legacy.configure(coordinator @extschema@.trytes81 DEFAULT NULL,
                                 tag_ttl interval DEFAULT NULL)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF coordinator IS NOT NULL THEN
        INSERT INTO @extschema@.settings VALUES ('legacy_coordinator', coordinator::text)
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;
    END IF;
    IF tag_ttl IS NOT NULL THEN
        IF tag_ttl <= interval '0' THEN
            RAISE EXCEPTION 'invalid tag TTL %: it must be positive', tag_ttl
                USING ERRCODE = 'invalid_parameter_value';
        END IF;
        INSERT INTO @extschema@.settings VALUES ('legacy_tag_ttl', tag_ttl::text)
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;
    END IF;
END
$$;

-- Loads a global snapshot's balances ("ADDRESS;BALANCE" lines, as IRI's Snapshot.txt).
CREATE OR REPLACE FUNCTION legacy.load_snapshot(addresses @extschema@.trytes81[], balances bigint[])
RETURNS int LANGUAGE sql AS $$
    INSERT INTO legacy.snapshot SELECT * FROM unnest(addresses, balances)
    ON CONFLICT (address) DO UPDATE SET balance = EXCLUDED.balance;
    SELECT cardinality(addresses);
$$;

-------------------------------------------------------------------------------------------------
-- Queries.
-------------------------------------------------------------------------------------------------

-- An address's balance at the end of a milestone (NULL: the newest): its snapshot balance plus
-- the values its transactions confirmed by then moved.
CREATE OR REPLACE FUNCTION legacy.balance(address @extschema@.trytes81, milestone_index int DEFAULT NULL)
RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT s.balance FROM legacy.snapshot s WHERE s.address = $1), 0)
         + coalesce((SELECT sum(e.value) FROM legacy.edges e
                     WHERE e.address = $1 AND e.milestone_index IS NOT NULL
                       AND ($2 IS NULL OR e.milestone_index <= $2)), 0)::bigint
$$;

-- Whether an address was ever spent from (an input of it was confirmed).
CREATE OR REPLACE FUNCTION legacy.was_spent_from(address @extschema@.trytes81) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM legacy.edges e
                   WHERE e.address = $1 AND e.value < 0 AND e.milestone_index IS NOT NULL)
$$;

-- One month of an address's zero-value transactions (seed 003's key: address, year, month).
CREATE OR REPLACE FUNCTION legacy.zero_value_of(address @extschema@.trytes81, year int, month int)
RETURNS SETOF legacy.zero_value LANGUAGE sql STABLE AS $$
    SELECT * FROM legacy.zero_value z
    WHERE z.address = $1 AND z.month_id = legacy.month_id($2, $3)
    ORDER BY z.issued_at DESC, z.transaction_hash DESC
$$;

-------------------------------------------------------------------------------------------------
-- The cold tier and the tags' TTL, by month.
-------------------------------------------------------------------------------------------------

-- Archives the hot months [from_month, to_month) of every legacy table that hold rows, a run of
-- adjacent months at a time.
CREATE OR REPLACE FUNCTION legacy.archive(from_month int, to_month int)
RETURNS TABLE (table_name regclass, archive regclass, rows bigint)
LANGUAGE plpgsql AS $$
BEGIN
    IF from_month IS NULL OR to_month IS NULL OR to_month <= from_month THEN
        RAISE EXCEPTION 'invalid months [%, %)', from_month, to_month
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Months are legacy.month_id values, from_month included, to_month excluded.';
    END IF;
    -- Every table copied first, then all swapped at once (fdw/archive_swap.cpp says why).
    PERFORM @extschema@.prepare_table('legacy', t.table_name, from_month, to_month)
    FROM (SELECT l.table_name FROM legacy.tables l ORDER BY format('legacy.%I', l.table_name)) t;
    RETURN QUERY SELECT s.parent, s.archive, s.rows FROM @extschema@.swap_prepared() s;
END
$$;
COMMENT ON FUNCTION legacy.archive(int, int) IS
    'archives the months [from_month, to_month) of every legacy table into RocksDB; a row per archive';

-- Restores the archives of the legacy tables that overlap [from_month, to_month), each whole.
CREATE OR REPLACE FUNCTION legacy.restore(from_month int, to_month int)
RETURNS TABLE (table_name regclass, archive text, rows bigint)
LANGUAGE sql AS $$
    SELECT r.parent, r.archive, r.rows FROM @extschema@.restore_ranges('legacy', from_month, to_month) r
$$;

-- Drops the tags' months older than the TTL (settings key legacy_tag_ttl) counted back from the
-- newest month the ledger holds: whole partitions, hot or archived, and their tag hints. Returns
-- the months dropped. (Ledger time, not wall time: an archive of 2017 keeps its tags until newer
-- months come in.)
CREATE OR REPLACE FUNCTION legacy.expire_tags() RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    ttl interval := (SELECT s.value::interval FROM @extschema@.settings s WHERE s.key = 'legacy_tag_ttl');
    newest int := (SELECT max(p.range_to) - 1 FROM @extschema@.family_partitions p
                   WHERE p.family = 'legacy' AND p.table_name = 'transactions');
    cutoff int;
    part record;
    dropped int := 0;
BEGIN
    IF ttl IS NULL OR newest IS NULL THEN
        RETURN 0;
    END IF;
    -- months that ended before (end of the newest month) - ttl
    cutoff := legacy.month_id(legacy.month_start(newest + 1) - ttl);
    FOR part IN SELECT p.partition, p.range_from AS month_id, p.range_to AS to_month,
                       CASE p.tier WHEN 'hot' THEN 'TABLE' ELSE 'FOREIGN TABLE' END AS kind
                FROM @extschema@.family_partitions p
                WHERE p.family = 'legacy' AND p.table_name = 'tags' AND p.range_to <= cutoff LOOP
        -- (an archive's directory goes with permanode.archive_gc())
        EXECUTE format('DROP %s %s', part.kind, part.partition);
        DELETE FROM legacy.tag_hints h WHERE h.month_id >= part.month_id AND h.month_id < part.to_month;
        dropped := dropped + part.to_month - part.month_id;
    END LOOP;
    RETURN dropped;
END
$$;
COMMENT ON FUNCTION legacy.expire_tags() IS
    'drops the tags'' month partitions older than the legacy_tag_ttl setting; returns the months dropped';
