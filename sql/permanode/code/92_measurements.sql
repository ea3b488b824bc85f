
-------------------------------------------------------------------------------------------------
-- inx-chronicle's per-milestone measurements (milestone_measurements, 92_measurements.sql schema
-- part) and active addresses per day, week and month, computed from the ledger tables.
-------------------------------------------------------------------------------------------------

-- The outputs created by milestones lo..hi, of either era (one milestone, a constant: its index
-- is the key a Range Scan reads by, planned without the ledger's partitions): kind, owner (an alias's state
-- controller, a foundry's alias), amount, bytes, the creating transaction (the output ID's first
-- 32 bytes), the chain (alias, NFT or foundry ID) with an alias's state index and governor, and
-- the unlock conditions. Chrysalis outputs: basic (SigLockedSingleOutput) or dust_allowance.
CREATE OR REPLACE FUNCTION @extschema@.outputs_created(lo int, hi int)
RETURNS TABLE (kind text, output_id @extschema@.output_id, milestone_index int,
               tx bytea, owner @extschema@.address, amount bigint, bytes int, chain bytea,
               state_index int, governor @extschema@.address, has_timelock boolean,
               has_expiration boolean, return_amount bigint)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT 'basic', o.output_id, o.milestone_index, substr(@extschema@.output_id_send(o.output_id), 1, 32),
           o.address, o.amount, octet_length(o.data), NULL::bytea, NULL::int, NULL::@extschema@.address,
           o.timelock IS NOT NULL, o.expiration IS NOT NULL, o.dust_return_amount
    FROM @extschema@.basic_outputs o
    WHERE o.ms_range_id BETWEEN @extschema@.ms_range_id('basic_outputs', lo)
                            AND @extschema@.ms_range_id('basic_outputs', hi)
      AND o.milestone_index BETWEEN lo AND hi AND (hi > lo OR o.milestone_index = lo)
    UNION ALL
    SELECT 'alias', o.output_id, o.milestone_index, substr(@extschema@.output_id_send(o.output_id), 1, 32),
           o.state_controller, o.amount, octet_length(o.data), @extschema@.hash32_send(o.alias_id),
           o.state_index, o.governor, false, false, NULL
    FROM @extschema@.alias_outputs o
    WHERE o.ms_range_id BETWEEN @extschema@.ms_range_id('alias_outputs', lo)
                            AND @extschema@.ms_range_id('alias_outputs', hi)
      AND o.milestone_index BETWEEN lo AND hi AND (hi > lo OR o.milestone_index = lo)
    UNION ALL
    SELECT 'foundry', o.output_id, o.milestone_index, substr(@extschema@.output_id_send(o.output_id), 1, 32),
           o.address, o.amount, octet_length(o.data), @extschema@.foundry_id_send(o.foundry_id),
           NULL, NULL, false, false, NULL
    FROM @extschema@.foundry_outputs o
    WHERE o.ms_range_id BETWEEN @extschema@.ms_range_id('foundry_outputs', lo)
                            AND @extschema@.ms_range_id('foundry_outputs', hi)
      AND o.milestone_index BETWEEN lo AND hi AND (hi > lo OR o.milestone_index = lo)
    UNION ALL
    SELECT 'nft', o.output_id, o.milestone_index, substr(@extschema@.output_id_send(o.output_id), 1, 32),
           o.address, o.amount, octet_length(o.data), @extschema@.hash32_send(o.nft_id), NULL, NULL,
           o.timelock IS NOT NULL, o.expiration IS NOT NULL, o.dust_return_amount
    FROM @extschema@.nft_outputs o
    WHERE o.ms_range_id BETWEEN @extschema@.ms_range_id('nft_outputs', lo)
                            AND @extschema@.ms_range_id('nft_outputs', hi)
      AND o.milestone_index BETWEEN lo AND hi AND (hi > lo OR o.milestone_index = lo)
    UNION ALL
    SELECT CASE o.output_type WHEN 1 THEN 'dust_allowance' ELSE 'basic' END, o.output_id,
           o.milestone_index, substr(@extschema@.output_id_send(o.output_id), 1, 32), o.address,
           o.amount, octet_length(o.data), NULL, NULL, NULL, false, false, NULL
    FROM @extschema@.legacy_outputs o
    WHERE o.ms_range_id BETWEEN @extschema@.ms_range_id('legacy_outputs', lo)
                            AND @extschema@.ms_range_id('legacy_outputs', hi)
      AND o.milestone_index BETWEEN lo AND hi AND (hi > lo OR o.milestone_index = lo) AND NOT o.is_used
$$;

-- The row that created an output, as outputs_created describes it, found by its ID (the Range
-- Scan reads the range its locator hints): a spend of protocol 1 reads the Chrysalis row, a spend
-- of protocol 2 the Stardust one (the Stardust genesis books an unspent Chrysalis output again
-- under its ID).
CREATE OR REPLACE FUNCTION @extschema@.created_row(id @extschema@.output_id, protocol smallint)
RETURNS TABLE (kind text, output_id @extschema@.output_id, milestone_index int,
               tx bytea, owner @extschema@.address, amount bigint, bytes int, chain bytea,
               state_index int, governor @extschema@.address, has_timelock boolean,
               has_expiration boolean, return_amount bigint)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT 'basic', o.output_id, o.milestone_index, substr(@extschema@.output_id_send(o.output_id), 1, 32),
           o.address, o.amount, octet_length(o.data), NULL::bytea, NULL::int, NULL::@extschema@.address,
           o.timelock IS NOT NULL, o.expiration IS NOT NULL, o.dust_return_amount
    FROM @extschema@.basic_outputs o
    WHERE protocol = 2 AND o.output_id OPERATOR(@extschema@.=) id
    UNION ALL
    SELECT 'alias', o.output_id, o.milestone_index, substr(@extschema@.output_id_send(o.output_id), 1, 32),
           o.state_controller, o.amount, octet_length(o.data), @extschema@.hash32_send(o.alias_id),
           o.state_index, o.governor, false, false, NULL
    FROM @extschema@.alias_outputs o
    WHERE protocol = 2 AND o.output_id OPERATOR(@extschema@.=) id
    UNION ALL
    SELECT 'foundry', o.output_id, o.milestone_index, substr(@extschema@.output_id_send(o.output_id), 1, 32),
           o.address, o.amount, octet_length(o.data), @extschema@.foundry_id_send(o.foundry_id),
           NULL, NULL, false, false, NULL
    FROM @extschema@.foundry_outputs o
    WHERE protocol = 2 AND o.output_id OPERATOR(@extschema@.=) id
    UNION ALL
    SELECT 'nft', o.output_id, o.milestone_index, substr(@extschema@.output_id_send(o.output_id), 1, 32),
           o.address, o.amount, octet_length(o.data), @extschema@.hash32_send(o.nft_id), NULL, NULL,
           o.timelock IS NOT NULL, o.expiration IS NOT NULL, o.dust_return_amount
    FROM @extschema@.nft_outputs o
    WHERE protocol = 2 AND o.output_id OPERATOR(@extschema@.=) id
    UNION ALL
    SELECT CASE o.output_type WHEN 1 THEN 'dust_allowance' ELSE 'basic' END, o.output_id,
           o.milestone_index, substr(@extschema@.output_id_send(o.output_id), 1, 32), o.address,
           o.amount, octet_length(o.data), NULL, NULL, NULL, false, false, NULL
    FROM @extschema@.legacy_outputs o
    WHERE protocol = 1 AND o.output_id OPERATOR(@extschema@.=) id
      AND NOT o.is_used
$$;

-- The outputs spent by milestones lo..hi, as outputs_created describes them (milestone_index:
-- the creating milestone), with the spending milestone and transaction. An output whose
-- creation the database lacks (it starts after it) is left out.
CREATE OR REPLACE FUNCTION @extschema@.outputs_consumed(lo int, hi int)
RETURNS TABLE (kind text, output_id @extschema@.output_id, milestone_index int,
               tx bytea, owner @extschema@.address, amount bigint, bytes int, chain bytea,
               state_index int, governor @extschema@.address, has_timelock boolean,
               has_expiration boolean, return_amount bigint, spent_milestone_index int,
               spent_tx bytea)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT c.*, s.milestone_index, @extschema@.hash32_send(s.transaction_id)
    FROM @extschema@.spent_outputs s
    JOIN @extschema@.milestone_protocols p ON p.milestone_index = s.milestone_index
    CROSS JOIN LATERAL @extschema@.created_row(s.output_id, p.protocol_version) c
    WHERE s.ms_range_id BETWEEN @extschema@.ms_range_id('spent_outputs', lo)
                            AND @extschema@.ms_range_id('spent_outputs', hi)
      AND s.milestone_index BETWEEN lo AND hi AND (hi > lo OR s.milestone_index = lo)
$$;

-- The distinct owners of the outputs that milestones lo..hi created or consumed.
CREATE OR REPLACE FUNCTION @extschema@.active_addresses_between(lo int, hi int) RETURNS bigint
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT count(DISTINCT a.owner) FROM (
        SELECT c.owner FROM @extschema@.outputs_created(lo, hi) c
        UNION ALL
        SELECT s.owner FROM @extschema@.outputs_consumed(lo, hi) s) a
$$;

-- Counts of 1, 2, ..., 7, [8, 16), [16, 32), [32, 64) and 64+ (transaction size buckets).
CREATE OR REPLACE FUNCTION @extschema@.size_buckets(sizes bigint[]) RETURNS int[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT array_agg(coalesce(n, 0)::int ORDER BY b)
    FROM generate_series(1, 11) b
    LEFT JOIN (SELECT CASE WHEN v < 8 THEN v WHEN v < 16 THEN 8 WHEN v < 32 THEN 9
                           WHEN v < 64 THEN 10 ELSE 11 END AS bucket, count(*) AS n
               FROM unnest(sizes) v WHERE v > 0 GROUP BY 1) c ON c.bucket = b
$$;

-- One measuring transaction at a time, until it ends: whether a milestone starts its protocol's
-- chain of figures (no milestone of its protocol below it) is decided on what is committed.
CREATE OR REPLACE FUNCTION @extschema@.lock_measurements() RETURNS void
LANGUAGE sql AS $$
    SELECT pg_advisory_xact_lock(hashtext('permanode.milestone_measurements'))
$$;

-- a + b element by element (a NULL: zeros).
CREATE OR REPLACE FUNCTION @extschema@.add_elementwise(a bigint[], b numeric[]) RETURNS bigint[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT array_agg((coalesce(x, 0) + coalesce(y, 0))::bigint ORDER BY i)
    FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i)
$$;

-- measured_balances of a protocol as the ledger has them at the end of milestone `at`: the
-- owners of the outputs its milestones from genesis to `at` created and did not consume.
CREATE OR REPLACE FUNCTION @extschema@.rebuild_measured_balances(protocol smallint, genesis int,
                                                                 at int)
RETURNS void LANGUAGE sql AS $$
    DELETE FROM @extschema@.measured_balances mb WHERE mb.protocol_version = protocol;
    INSERT INTO @extschema@.measured_balances
    SELECT protocol, c.owner, sum(c.amount)
    FROM @extschema@.outputs_created(genesis, at) c
    LEFT JOIN (SELECT s.output_id FROM @extschema@.outputs_consumed(genesis, at) s) s
      ON s.output_id OPERATOR(@extschema@.=) c.output_id
    WHERE s.output_id IS NULL AND c.owner IS NOT NULL AND genesis <= at
    GROUP BY c.owner HAVING sum(c.amount) > 0;
    INSERT INTO @extschema@.measured_balances_at AS a VALUES (protocol, at)
    ON CONFLICT (protocol_version) DO UPDATE SET milestone_index = EXCLUDED.milestone_index;
$$;

-- Measures milestone m from the ledger tables; returns 'measured', 'already' (it has its row),
-- 'pending' (the milestone before it of its protocol is not measured, or not held: measure that
-- one first) or 'missing' (m is not ingested). The ledger's figures are m - 1's plus m's created
-- minus its consumed outputs, from zero at the first milestone held of a protocol (a new era's
-- genesis books its ledger whole). Rows of milestones measured concurrently are left alone.
CREATE OR REPLACE FUNCTION @extschema@.measure_milestone(m int) RETURNS text
LANGUAGE plpgsql
-- Planned for m: its lookups are then Range Scans by milestone and output ID, whose plans do not
-- hold every partition of the ledger (a generic plan did: 2 s a milestone with 2,100 partitions).
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
    protocol smallint;
    stardust boolean;
    prev @extschema@.milestone_measurements%ROWTYPE;
    genesis int;
    d record;
    b record;
BEGIN
    IF m IS NULL THEN
        RAISE EXCEPTION 'milestone index must not be null' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT p.protocol_version INTO protocol FROM @extschema@.milestone_protocols p
    WHERE p.milestone_index = m;
    IF NOT FOUND THEN
        RETURN 'missing';
    END IF;
    PERFORM @extschema@.lock_measurements();
    IF EXISTS (SELECT 1 FROM @extschema@.milestone_measurements x WHERE x.milestone_index = m) THEN
        RETURN 'already';
    END IF;
    stardust := protocol = 2;
    SELECT min(p.milestone_index) INTO genesis FROM @extschema@.milestone_protocols p
    WHERE p.protocol_version = protocol;
    IF genesis < m THEN
        SELECT * INTO prev FROM @extschema@.milestone_measurements x
        WHERE x.milestone_index = m - 1 AND x.protocol_version = protocol;
        IF NOT FOUND THEN
            RETURN 'pending';
        END IF;
    END IF;
    IF (SELECT a.milestone_index FROM @extschema@.measured_balances_at a
        WHERE a.protocol_version = protocol) IS DISTINCT FROM m - 1 THEN
        PERFORM @extschema@.rebuild_measured_balances(protocol, genesis, m - 1);
    END IF;


    WITH c AS MATERIALIZED (SELECT * FROM @extschema@.outputs_created(m, m)),
    s AS MATERIALIZED (SELECT * FROM @extschema@.outputs_consumed(m, m)),
    -- created rows count up, consumed rows down
    delta AS (SELECT c.kind, 1 AS n, c.amount, c.bytes, c.milestone_index, c.has_timelock,
                     c.has_expiration, c.return_amount FROM c
              UNION ALL
              SELECT s.kind, -1, -s.amount, -s.bytes, s.milestone_index, s.has_timelock,
                     s.has_expiration, -s.return_amount FROM s),
    -- the milestone's transactions: those that spent outputs
    txs AS (SELECT s.spent_tx AS tx, count(*) AS inputs FROM s GROUP BY 1),
    tx_outputs AS (SELECT c.tx, count(*) AS outputs FROM c JOIN txs USING (tx) GROUP BY 1),
    flows AS (SELECT f.tx, f.owner, sum(f.amount) AS change FROM (
                  SELECT c.tx, c.owner, c.amount FROM c JOIN txs USING (tx)
                  UNION ALL
                  SELECT s.spent_tx, s.owner, -s.amount FROM s) f
              WHERE f.owner IS NOT NULL GROUP BY 1, 2),
    chains AS (SELECT coalesce(n.kind, o.kind) AS kind, n.chain IS NULL AS is_gone,
                      o.chain IS NULL AS is_new, n.state_index IS DISTINCT FROM o.state_index AS state,
                      n.governor IS DISTINCT FROM o.governor AS governor
               FROM (SELECT c.* FROM c JOIN txs USING (tx) WHERE c.chain IS NOT NULL) n
               FULL JOIN (SELECT s.* FROM s WHERE s.chain IS NOT NULL) o
                 ON o.spent_tx = n.tx AND o.chain = n.chain AND o.kind = n.kind),
    -- the balances of the addresses it touched, before (measured_balances: the end of the
    -- milestone before) and after
    moves AS (SELECT x.owner, sum(x.amount) AS change
              FROM (SELECT c.owner, c.amount FROM c UNION ALL SELECT s.owner, -s.amount FROM s) x
              WHERE x.owner IS NOT NULL GROUP BY 1),
    -- (a lookup per address touched, never a join over every balance)
    balances AS MATERIALIZED (
        SELECT w.owner, w.bal_before, w.bal_before + w.change AS bal_after
        FROM (SELECT v.owner, v.change,
                     coalesce((SELECT mb.balance FROM @extschema@.measured_balances mb
                               WHERE mb.protocol_version = protocol AND mb.address = v.owner),
                              0) AS bal_before
              FROM moves v) w),
    kept AS (INSERT INTO @extschema@.measured_balances AS mb
             SELECT protocol, x.owner, x.bal_after FROM balances x WHERE x.bal_after > 0
             ON CONFLICT (protocol_version, address) DO UPDATE SET balance = EXCLUDED.balance),
    emptied AS (DELETE FROM @extschema@.measured_balances mb
                WHERE mb.protocol_version = protocol
                  AND mb.address = ANY (ARRAY(SELECT x.owner FROM balances x
                                              WHERE x.bal_after <= 0))),
    balance_moves AS (SELECT length(bal_before::text) AS bucket, -1 AS n, -bal_before AS amount
                      FROM balances WHERE bal_before > 0
                      UNION ALL
                      SELECT length(bal_after::text), 1, bal_after FROM balances WHERE bal_after > 0)
    SELECT * INTO d FROM
        (SELECT sum(n) FILTER (WHERE kind = 'basic') AS basic_n,
                sum(amount) FILTER (WHERE kind = 'basic') AS basic_a,
                sum(n) FILTER (WHERE kind = 'alias') AS alias_n,
                sum(amount) FILTER (WHERE kind = 'alias') AS alias_a,
                sum(n) FILTER (WHERE kind = 'foundry') AS foundry_n,
                sum(amount) FILTER (WHERE kind = 'foundry') AS foundry_a,
                sum(n) FILTER (WHERE kind = 'nft') AS nft_n,
                sum(amount) FILTER (WHERE kind = 'nft') AS nft_a,
                sum(n) FILTER (WHERE kind = 'dust_allowance') AS dust_n,
                sum(amount) FILTER (WHERE kind = 'dust_allowance') AS dust_a,
                34 * sum(n) AS key_b, sum(bytes + 40 * n) AS data_b,
                sum(n) FILTER (WHERE milestone_index = genesis) AS unclaimed_n,
                sum(amount) FILTER (WHERE milestone_index = genesis) AS unclaimed_a,
                sum(n) FILTER (WHERE has_timelock) AS timelock_n,
                sum(amount) FILTER (WHERE has_timelock) AS timelock_a,
                sum(n) FILTER (WHERE has_expiration) AS expiration_n,
                sum(amount) FILTER (WHERE has_expiration) AS expiration_a,
                sum(n) FILTER (WHERE return_amount IS NOT NULL) AS sdr_n,
                sum(amount) FILTER (WHERE return_amount IS NOT NULL) AS sdr_a,
                sum(return_amount) AS sdr_inner
         FROM delta) ledger,
        (SELECT @extschema@.size_buckets(array_agg(txs.inputs)) AS input_buckets,
                @extschema@.size_buckets(array_agg(coalesce(o.outputs, 0))) AS output_buckets
         FROM txs LEFT JOIN tx_outputs o USING (tx)) sizes,
        (SELECT coalesce((SELECT sum(c.amount) FROM c JOIN txs USING (tx)
                          WHERE c.owner IS NOT NULL), 0) AS booked,
                coalesce(sum(greatest(change, 0)), 0) AS transferred FROM flows) tokens,
        (SELECT count(*) FILTER (WHERE kind = 'alias' AND is_new) AS alias_created,
                count(*) FILTER (WHERE kind = 'alias' AND NOT is_new AND NOT is_gone AND state) AS alias_state,
                count(*) FILTER (WHERE kind = 'alias' AND NOT is_new AND NOT is_gone AND governor) AS alias_governor,
                count(*) FILTER (WHERE kind = 'alias' AND is_gone) AS alias_destroyed,
                count(*) FILTER (WHERE kind = 'nft' AND is_new) AS nft_created,
                count(*) FILTER (WHERE kind = 'nft' AND NOT is_new AND NOT is_gone) AS nft_transferred,
                count(*) FILTER (WHERE kind = 'nft' AND is_gone) AS nft_destroyed,
                count(*) FILTER (WHERE kind = 'foundry' AND is_new) AS foundry_created,
                count(*) FILTER (WHERE kind = 'foundry' AND NOT is_new AND NOT is_gone) AS foundry_transferred,
                count(*) FILTER (WHERE kind = 'foundry' AND is_gone) AS foundry_destroyed
         FROM chains) activity,
        (SELECT count(DISTINCT x.owner) AS actives
         FROM (SELECT c.owner FROM c UNION ALL SELECT s.owner FROM s) x) owners,
        (SELECT (SELECT coalesce(sum(v.n), 0) FROM balance_moves v) AS holders,
                array_agg(coalesce((SELECT sum(v.n) FROM balance_moves v WHERE v.bucket = k), 0)
                          ORDER BY k)::numeric[] AS bucket_holders,
                array_agg(coalesce((SELECT sum(v.amount) FROM balance_moves v WHERE v.bucket = k), 0)
                          ORDER BY k)::numeric[] AS bucket_amounts
         FROM generate_series(1, 20) k) holdings;

    SELECT coalesce(min(x.ms_timestamp), (SELECT to_timestamp(min(ms.timestamp))
                                           FROM @extschema@.milestones ms
                                           WHERE ms.milestone_index = m)) AS at,
           count(*) FILTER (WHERE x.variant IS NULL) AS no_payload,
           count(*) FILTER (WHERE x.variant IN ('tagged_data', 'indexation')) AS tagged_data,
           count(*) FILTER (WHERE x.variant = 'transaction') AS transaction,
           count(*) FILTER (WHERE x.variant = 'milestone') AS milestone,
           count(*) FILTER (WHERE x.variant IN ('treasury_transaction', 'receipt')) AS treasury,
           count(*) FILTER (WHERE x.variant = 'transaction' AND x.inclusion_state = 1) AS included,
           count(*) FILTER (WHERE x.variant = 'transaction' AND x.inclusion_state = 2) AS conflicting,
           coalesce(sum(octet_length(x.message)), 0) AS bytes,
           coalesce(sum(octet_length(x.message)) FILTER (WHERE x.variant IN ('tagged_data', 'indexation')), 0) AS tagged_data_bytes,
           coalesce(sum(octet_length(x.message)) FILTER (WHERE x.variant = 'transaction'), 0) AS transaction_bytes,
           coalesce(sum(octet_length(x.message)) FILTER (WHERE x.variant = 'milestone'), 0) AS milestone_bytes,
           coalesce(sum(octet_length(x.message)) FILTER (WHERE x.variant IN ('treasury_transaction', 'receipt')), 0) AS treasury_bytes
    INTO b
    FROM @extschema@.messages x
    WHERE x.milestone_index = m;

    INSERT INTO @extschema@.milestone_measurements VALUES (
        m, protocol, coalesce(b.at, 'epoch'),
        b.no_payload, b.tagged_data, b.transaction, b.milestone, b.treasury, b.included,
        b.conflicting, b.bytes, b.tagged_data_bytes, b.transaction_bytes, b.milestone_bytes,
        b.treasury_bytes,
        coalesce(d.input_buckets, @extschema@.size_buckets('{}')),
        coalesce(d.output_buckets, @extschema@.size_buckets('{}')),
        d.booked, d.transferred, d.actives,
        CASE WHEN stardust THEN d.alias_created END, CASE WHEN stardust THEN d.alias_state END,
        CASE WHEN stardust THEN d.alias_governor END, CASE WHEN stardust THEN d.alias_destroyed END,
        CASE WHEN stardust THEN d.nft_created END, CASE WHEN stardust THEN d.nft_transferred END,
        CASE WHEN stardust THEN d.nft_destroyed END, CASE WHEN stardust THEN d.foundry_created END,
        CASE WHEN stardust THEN d.foundry_transferred END, CASE WHEN stardust THEN d.foundry_destroyed END,
        coalesce(prev.addresses_with_balance, 0) + d.holders,
        @extschema@.add_elementwise(prev.balance_bucket_addresses, d.bucket_holders),
        @extschema@.add_elementwise(prev.balance_bucket_amounts, d.bucket_amounts),
        coalesce(prev.basic_count, 0) + coalesce(d.basic_n, 0),
        coalesce(prev.basic_amount, 0) + coalesce(d.basic_a, 0),
        CASE WHEN stardust THEN coalesce(prev.alias_count, 0) + coalesce(d.alias_n, 0) END,
        CASE WHEN stardust THEN coalesce(prev.alias_amount, 0) + coalesce(d.alias_a, 0) END,
        CASE WHEN stardust THEN coalesce(prev.foundry_count, 0) + coalesce(d.foundry_n, 0) END,
        CASE WHEN stardust THEN coalesce(prev.foundry_amount, 0) + coalesce(d.foundry_a, 0) END,
        CASE WHEN stardust THEN coalesce(prev.nft_count, 0) + coalesce(d.nft_n, 0) END,
        CASE WHEN stardust THEN coalesce(prev.nft_amount, 0) + coalesce(d.nft_a, 0) END,
        CASE WHEN NOT stardust THEN coalesce(prev.dust_allowance_count, 0) + coalesce(d.dust_n, 0) END,
        CASE WHEN NOT stardust THEN coalesce(prev.dust_allowance_amount, 0) + coalesce(d.dust_a, 0) END,
        coalesce(prev.key_bytes, 0) + coalesce(d.key_b, 0),
        coalesce(prev.data_bytes, 0) + coalesce(d.data_b, 0),
        CASE WHEN stardust THEN coalesce(prev.unclaimed_count, 0) + coalesce(d.unclaimed_n, 0) END,
        CASE WHEN stardust THEN coalesce(prev.unclaimed_amount, 0) + coalesce(d.unclaimed_a, 0) END,
        CASE WHEN stardust THEN coalesce(prev.timelock_count, 0) + coalesce(d.timelock_n, 0) END,
        CASE WHEN stardust THEN coalesce(prev.timelock_amount, 0) + coalesce(d.timelock_a, 0) END,
        CASE WHEN stardust THEN coalesce(prev.expiration_count, 0) + coalesce(d.expiration_n, 0) END,
        CASE WHEN stardust THEN coalesce(prev.expiration_amount, 0) + coalesce(d.expiration_a, 0) END,
        CASE WHEN stardust THEN coalesce(prev.storage_deposit_return_count, 0) + coalesce(d.sdr_n, 0) END,
        CASE WHEN stardust THEN coalesce(prev.storage_deposit_return_amount, 0) + coalesce(d.sdr_a, 0) END,
        CASE WHEN stardust THEN coalesce(prev.storage_deposit_return_inner_amount, 0) + coalesce(d.sdr_inner, 0) END)
    ON CONFLICT (milestone_index) DO NOTHING;
    INSERT INTO @extschema@.measured_balances_at AS a VALUES (protocol, m)
    ON CONFLICT (protocol_version) DO UPDATE SET milestone_index = EXCLUDED.milestone_index;
    RETURN 'measured';
END
$$;
COMMENT ON FUNCTION @extschema@.measure_milestone(int) IS
    'measures a milestone (milestone_measurements) from the ledger tables; returns measured, already, pending (measure the one before first) or missing';

-- Measures the milestones held in from_index..to_index not measured yet, in order, at most
-- max_count of them; returns how many it measured, the last milestone it measured, and the
-- first it could not measure (its predecessor is neither measured nor held: measure or ingest
-- that one first), NULL when none. A caller commits after each call: `permanode analytics
-- --fill` resumes where it stopped.
CREATE OR REPLACE FUNCTION @extschema@.measure_milestones(from_index int, to_index int,
                                                          max_count int DEFAULT 1000)
RETURNS TABLE (measured int, last_measured int, blocked_at int)
LANGUAGE plpgsql AS $$
DECLARE
    m int;
BEGIN
    IF from_index IS NULL OR to_index IS NULL OR to_index < from_index OR max_count IS NULL
       OR max_count < 1 THEN
        RAISE EXCEPTION 'invalid milestone range % to % (max %)', from_index, to_index, max_count
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    PERFORM @extschema@.lock_measurements();
    measured := 0;
    FOR m IN SELECT p.milestone_index FROM @extschema@.milestone_protocols p
             WHERE p.milestone_index BETWEEN from_index AND to_index
               AND NOT EXISTS (SELECT 1 FROM @extschema@.milestone_measurements x
                               WHERE x.milestone_index = p.milestone_index)
             ORDER BY p.milestone_index LIMIT max_count
    LOOP
        IF @extschema@.measure_milestone(m) = 'pending' THEN
            blocked_at := m;
            RETURN NEXT;
            RETURN;
        END IF;
        measured := measured + 1;
        last_measured := m;
    END LOOP;
    RETURN NEXT;
END
$$;
COMMENT ON FUNCTION @extschema@.measure_milestones(int, int, int) IS
    'measures the unmeasured milestones of a range in order, at most max_count; returns measured, last_measured, blocked_at';

-- (Re)computes active_addresses for the days, ISO weeks and months that overlap
-- from_date..to_date, from the milestones of those days (date_cache); returns the rows written.
CREATE OR REPLACE FUNCTION @extschema@.rollup_active_addresses(from_date date, to_date date)
RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    written int;
BEGIN
    IF from_date IS NULL OR to_date IS NULL OR to_date < from_date THEN
        RAISE EXCEPTION 'invalid date range % to %', from_date, to_date
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    WITH periods AS (
        SELECT DISTINCT k.period, date_trunc(k.period, g)::date AS period_start
        FROM generate_series(from_date::timestamp, to_date::timestamp, interval '1 day') g,
             (VALUES ('day'), ('week'), ('month')) k(period)),
    bounds AS (
        SELECT p.period, p.period_start, min(dc.start_ms) AS lo, max(dc.end_ms) AS hi
        FROM periods p
        JOIN @extschema@.date_cache dc
          ON dc.date >= p.period_start
         AND dc.date < p.period_start + ('1 ' || p.period)::interval
        GROUP BY 1, 2)
    INSERT INTO @extschema@.active_addresses (period, period_start, addresses)
    SELECT b.period, b.period_start, @extschema@.active_addresses_between(b.lo, b.hi)
    FROM bounds b
    ON CONFLICT (period, period_start) DO UPDATE SET addresses = EXCLUDED.addresses;
    GET DIAGNOSTICS written = ROW_COUNT;
    RETURN written;
END
$$;
COMMENT ON FUNCTION @extschema@.rollup_active_addresses(date, date) IS
    '(re)computes active_addresses for the days, weeks and months overlapping a date range';

-- The protocol parameters in force at the end of milestone m, as JSON (NULL: none recorded).
CREATE OR REPLACE FUNCTION @extschema@.protocol_parameters_at(m int) RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT @extschema@.decode_protocol_parameters(p.params)
    FROM @extschema@.protocol_parameters p
    WHERE p.milestone_index <= m ORDER BY p.milestone_index DESC LIMIT 1
$$;
COMMENT ON FUNCTION @extschema@.protocol_parameters_at(int) IS
    'the protocol parameters in force at the end of a milestone (core API JSON), NULL when none are recorded';

-- Records protocol parameters in force from milestone m on, unless the ones in force there are
-- the same; returns whether it recorded them. Bytes that do not decode are refused (22P02).
CREATE OR REPLACE FUNCTION @extschema@.record_protocol_parameters(m int, version smallint,
                                                                  params bytea)
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    PERFORM @extschema@.decode_protocol_parameters(params);
    IF (SELECT p.params FROM @extschema@.protocol_parameters p WHERE p.milestone_index <= m
        ORDER BY p.milestone_index DESC LIMIT 1) IS NOT DISTINCT FROM params THEN
        RETURN false;
    END IF;
    INSERT INTO @extschema@.protocol_parameters AS p VALUES (m, version, params)
    ON CONFLICT (milestone_index)
    DO UPDATE SET protocol_version = EXCLUDED.protocol_version, params = EXCLUDED.params;
    RETURN true;
END
$$;
COMMENT ON FUNCTION @extschema@.record_protocol_parameters(int, smallint, bytea) IS
    'records the protocol parameters in force from a milestone on, when they differ from those in force there';

-- The fill and the roll-up are the administrator's (`permanode analytics --fill`) and the
-- writer's (ingest and sync measure what they commit), with the extension owner's rights, as
-- 80_init_roles.sql sets the other maintenance functions.
DO $$
DECLARE
    f regprocedure;
BEGIN
    FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
             WHERE p.pronamespace = '@extschema@'::regnamespace
               AND p.proname IN ('measure_milestones', 'rollup_active_addresses',
                                 'record_protocol_parameters')
    LOOP
        EXECUTE format('ALTER FUNCTION %s SECURITY DEFINER SET search_path = pg_catalog, @extschema@', f);
        EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', f);
        EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO permanode_admin, permanode_writer', f);
    END LOOP;
END
$$;
-- (made after 80_init_roles.sql's grant on every table)
GRANT SELECT ON @extschema@.milestone_measurements, @extschema@.active_addresses,
    @extschema@.measured_balances, @extschema@.measured_balances_at,
    @extschema@.protocol_parameters TO permanode_reader;

COMMENT ON TABLE @extschema@.milestone_measurements IS
    'inx-chronicle''s per-milestone measurements (block activity, sizes, token and output activity, active addresses, balance buckets, ledger outputs and size, unclaimed tokens, unlock conditions), kept by ingest and permanode analytics --fill';
COMMENT ON TABLE @extschema@.active_addresses IS
    'distinct addresses that sent or received per UTC day, ISO week and month, rolled up by permanode analytics --fill';
COMMENT ON TABLE @extschema@.measured_balances IS
    'the balance of each address holding tokens at the end of the newest measured milestone of each protocol, kept by measure_milestone for the address balance buckets';
COMMENT ON TABLE @extschema@.measured_balances_at IS
    'the milestone measured_balances are at, per protocol';
COMMENT ON TABLE @extschema@.protocol_parameters IS
    'the protocol parameters (TIP-32 bytes) in force from a milestone on, as a node or a bundle gave them';
