-- Recomputes inx-chronicle's measurements of sampled milestones straight from the ledger tables,
-- each the whole way (the ledger's figures from every output created and spent up to the
-- milestone, not from the milestone before), and fails naming each column that differs from
-- permanode.milestone_measurements. psql variable sample: the milestones to check, '{1,2,...}'.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;

CREATE TEMP VIEW every_output AS
SELECT 2 AS protocol, 'basic' AS kind, output_id, milestone_index, address AS owner, amount, data,
       timelock, expiration, dust_return_amount, NULL::bytea AS chain, NULL::int AS state_index,
       NULL::permanode.address AS governor
FROM permanode.basic_outputs
UNION ALL
SELECT 2, 'alias', output_id, milestone_index, state_controller, amount, data, NULL, NULL, NULL,
       permanode.hash32_send(alias_id), state_index, governor
FROM permanode.alias_outputs
UNION ALL
SELECT 2, 'foundry', output_id, milestone_index, address, amount, data, NULL, NULL, NULL,
       permanode.foundry_id_send(foundry_id), NULL, NULL
FROM permanode.foundry_outputs
UNION ALL
SELECT 2, 'nft', output_id, milestone_index, address, amount, data, timelock, expiration,
       dust_return_amount, permanode.hash32_send(nft_id), NULL, NULL
FROM permanode.nft_outputs
UNION ALL
SELECT 1, CASE output_type WHEN 1 THEN 'dust_allowance' ELSE 'basic' END, output_id,
       milestone_index, address, amount, data, NULL, NULL, NULL, NULL, NULL, NULL
FROM permanode.legacy_outputs WHERE NOT is_used;

-- Spends: Stardust's from spent_outputs, Chrysalis' from the legacy_outputs rows marked used.
CREATE TEMP VIEW every_spend AS
SELECT 2 AS protocol, s.output_id, s.milestone_index
FROM permanode.spent_outputs s JOIN permanode.milestone_protocols p USING (milestone_index)
WHERE p.protocol_version = 2
UNION ALL
SELECT 1, u.output_id, u.milestone_index FROM permanode.legacy_outputs u WHERE u.is_used;

-- The bucket of a transaction with v inputs (outputs): 1..7 alone, then one per power of two.
CREATE FUNCTION pg_temp.bucket(v bigint) RETURNS int LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN v < 8 THEN v::int ELSE least(11, floor(log(2, v))::int + 5) END
$$;

CREATE FUNCTION pg_temp.expected(m int) RETURNS jsonb LANGUAGE sql AS $$
WITH era AS (
    SELECT p.protocol_version AS protocol,
           (SELECT min(q.milestone_index) FROM permanode.milestone_protocols q
            WHERE q.protocol_version = p.protocol_version) AS genesis
    FROM permanode.milestone_protocols p WHERE p.milestone_index = m),
live AS (
    SELECT o.* FROM every_output o, era
    WHERE o.protocol = era.protocol AND o.milestone_index BETWEEN era.genesis AND m
      AND NOT EXISTS (SELECT 1 FROM every_spend s
                      WHERE s.protocol = era.protocol AND s.output_id = o.output_id
                        AND s.milestone_index <= m)),
txs AS (
    SELECT permanode.hash32_send(t.transaction_id) AS tx,
           count(*) FILTER (WHERE t.variant = 'input') AS inputs,
           count(*) FILTER (WHERE t.variant = 'output') AS outputs
    FROM permanode.transactions t
    WHERE t.milestone_index = m AND t.inclusion_state = 1 GROUP BY 1),
created AS (
    SELECT o.*, substr(permanode.output_id_send(o.output_id), 1, 32) AS tx
    FROM every_output o, era WHERE o.protocol = era.protocol AND o.milestone_index = m),
consumed AS (
    SELECT o.*, permanode.hash32_send(s.transaction_id) AS tx
    FROM permanode.spent_outputs s
    JOIN every_output o ON o.output_id = s.output_id
    JOIN era ON o.protocol = era.protocol
    WHERE s.milestone_index = m),
changes AS (
    SELECT tx, owner, sum(amount) AS change FROM (
        SELECT c.tx, c.owner, c.amount FROM created c WHERE c.tx IN (SELECT tx FROM txs)
        UNION ALL SELECT s.tx, s.owner, -s.amount FROM consumed s) f
    WHERE owner IS NOT NULL GROUP BY 1, 2),
chain_moves AS (
    SELECT coalesce(n.kind, o.kind) AS kind, o.chain IS NULL AS born, n.chain IS NULL AS died,
           n.state_index IS DISTINCT FROM o.state_index AS restated,
           n.governor IS DISTINCT FROM o.governor AS regoverned
    FROM (SELECT * FROM created WHERE chain IS NOT NULL AND tx IN (SELECT tx FROM txs)) n
    FULL JOIN (SELECT * FROM consumed WHERE chain IS NOT NULL) o USING (tx, chain, kind)),
blocks AS (
    SELECT x.variant, x.inclusion_state, octet_length(x.message) AS bytes
    FROM permanode.messages x WHERE x.milestone_index = m),
holders AS (
    SELECT owner, sum(amount) AS balance FROM live WHERE owner IS NOT NULL GROUP BY owner
    HAVING sum(amount) > 0),
stardust AS (SELECT era.protocol = 2 AS yes FROM era)
SELECT jsonb_build_object(
    'protocol_version', (SELECT protocol FROM era),
    'blocks_no_payload', (SELECT count(*) FROM blocks WHERE variant IS NULL),
    'blocks_tagged_data', (SELECT count(*) FROM blocks WHERE variant IN ('tagged_data', 'indexation')),
    'blocks_transaction', (SELECT count(*) FROM blocks WHERE variant = 'transaction'),
    'blocks_milestone', (SELECT count(*) FROM blocks WHERE variant = 'milestone'),
    'blocks_treasury', (SELECT count(*) FROM blocks WHERE variant IN ('treasury_transaction', 'receipt')),
    'transactions_included', (SELECT count(*) FROM blocks WHERE variant = 'transaction' AND inclusion_state = 1),
    'transactions_conflicting', (SELECT count(*) FROM blocks WHERE variant = 'transaction' AND inclusion_state = 2),
    'bytes_total', (SELECT coalesce(sum(bytes), 0) FROM blocks),
    'bytes_transaction', (SELECT coalesce(sum(bytes), 0) FROM blocks WHERE variant = 'transaction'),
    'bytes_milestone', (SELECT coalesce(sum(bytes), 0) FROM blocks WHERE variant = 'milestone'),
    'bytes_tagged_data', (SELECT coalesce(sum(bytes), 0) FROM blocks WHERE variant IN ('tagged_data', 'indexation')),
    'bytes_treasury', (SELECT coalesce(sum(bytes), 0) FROM blocks WHERE variant IN ('treasury_transaction', 'receipt')),
    'input_buckets', (SELECT jsonb_agg((SELECT count(*) FROM txs WHERE pg_temp.bucket(inputs) = b) ORDER BY b)
                      FROM generate_series(1, 11) b),
    'output_buckets', (SELECT jsonb_agg((SELECT count(*) FROM txs WHERE pg_temp.bucket(outputs) = b) ORDER BY b)
                       FROM generate_series(1, 11) b),
    'booked_amount', (SELECT coalesce(sum(amount), 0) FROM created
                      WHERE owner IS NOT NULL AND tx IN (SELECT tx FROM txs)),
    'transferred_amount', (SELECT coalesce(sum(change), 0) FROM changes WHERE change > 0),
    'active_addresses', (SELECT count(DISTINCT owner) FROM (SELECT owner FROM created
                                                            UNION ALL SELECT owner FROM consumed) a),
    'alias_created', (SELECT CASE WHEN yes THEN (SELECT count(*) FROM chain_moves WHERE kind = 'alias' AND born) END FROM stardust),
    'alias_state_changed', (SELECT CASE WHEN yes THEN (SELECT count(*) FROM chain_moves WHERE kind = 'alias' AND NOT born AND NOT died AND restated) END FROM stardust),
    'alias_governor_changed', (SELECT CASE WHEN yes THEN (SELECT count(*) FROM chain_moves WHERE kind = 'alias' AND NOT born AND NOT died AND regoverned) END FROM stardust),
    'alias_destroyed', (SELECT CASE WHEN yes THEN (SELECT count(*) FROM chain_moves WHERE kind = 'alias' AND died) END FROM stardust),
    'nft_created', (SELECT CASE WHEN yes THEN (SELECT count(*) FROM chain_moves WHERE kind = 'nft' AND born) END FROM stardust),
    'nft_transferred', (SELECT CASE WHEN yes THEN (SELECT count(*) FROM chain_moves WHERE kind = 'nft' AND NOT born AND NOT died) END FROM stardust),
    'nft_destroyed', (SELECT CASE WHEN yes THEN (SELECT count(*) FROM chain_moves WHERE kind = 'nft' AND died) END FROM stardust),
    'foundry_created', (SELECT CASE WHEN yes THEN (SELECT count(*) FROM chain_moves WHERE kind = 'foundry' AND born) END FROM stardust),
    'foundry_transferred', (SELECT CASE WHEN yes THEN (SELECT count(*) FROM chain_moves WHERE kind = 'foundry' AND NOT born AND NOT died) END FROM stardust),
    'foundry_destroyed', (SELECT CASE WHEN yes THEN (SELECT count(*) FROM chain_moves WHERE kind = 'foundry' AND died) END FROM stardust),
    'addresses_with_balance', (SELECT count(*) FROM holders)) || jsonb_build_object(
    'balance_bucket_addresses', (SELECT jsonb_agg((SELECT count(*) FROM holders
                                                  WHERE balance >= 10::numeric ^ (k - 1)
                                                    AND balance < 10::numeric ^ k) ORDER BY k)
                                 FROM generate_series(1, 20) k),
    'balance_bucket_amounts', (SELECT jsonb_agg((SELECT coalesce(sum(balance), 0) FROM holders
                                                WHERE balance >= 10::numeric ^ (k - 1)
                                                  AND balance < 10::numeric ^ k) ORDER BY k)
                               FROM generate_series(1, 20) k),
    'basic_count', (SELECT count(*) FROM live WHERE kind = 'basic'),
    'basic_amount', (SELECT coalesce(sum(amount), 0) FROM live WHERE kind = 'basic'),
    'alias_count', (SELECT CASE WHEN yes THEN (SELECT count(*) FROM live WHERE kind = 'alias') END FROM stardust),
    'alias_amount', (SELECT CASE WHEN yes THEN (SELECT coalesce(sum(amount), 0) FROM live WHERE kind = 'alias') END FROM stardust),
    'foundry_count', (SELECT CASE WHEN yes THEN (SELECT count(*) FROM live WHERE kind = 'foundry') END FROM stardust),
    'foundry_amount', (SELECT CASE WHEN yes THEN (SELECT coalesce(sum(amount), 0) FROM live WHERE kind = 'foundry') END FROM stardust),
    'nft_count', (SELECT CASE WHEN yes THEN (SELECT count(*) FROM live WHERE kind = 'nft') END FROM stardust),
    'nft_amount', (SELECT CASE WHEN yes THEN (SELECT coalesce(sum(amount), 0) FROM live WHERE kind = 'nft') END FROM stardust),
    'dust_allowance_count', (SELECT CASE WHEN NOT yes THEN (SELECT count(*) FROM live WHERE kind = 'dust_allowance') END FROM stardust),
    'dust_allowance_amount', (SELECT CASE WHEN NOT yes THEN (SELECT coalesce(sum(amount), 0) FROM live WHERE kind = 'dust_allowance') END FROM stardust),
    'key_bytes', (SELECT 34 * count(*) FROM live),
    'data_bytes', (SELECT coalesce(sum(octet_length(data) + 40), 0) FROM live),
    'unclaimed_count', (SELECT CASE WHEN yes THEN (SELECT count(*) FROM live, era WHERE live.milestone_index = era.genesis) END FROM stardust),
    'unclaimed_amount', (SELECT CASE WHEN yes THEN (SELECT coalesce(sum(amount), 0) FROM live, era WHERE live.milestone_index = era.genesis) END FROM stardust),
    'timelock_count', (SELECT CASE WHEN yes THEN (SELECT count(*) FROM live WHERE timelock IS NOT NULL) END FROM stardust),
    'timelock_amount', (SELECT CASE WHEN yes THEN (SELECT coalesce(sum(amount), 0) FROM live WHERE timelock IS NOT NULL) END FROM stardust),
    'expiration_count', (SELECT CASE WHEN yes THEN (SELECT count(*) FROM live WHERE expiration IS NOT NULL) END FROM stardust),
    'expiration_amount', (SELECT CASE WHEN yes THEN (SELECT coalesce(sum(amount), 0) FROM live WHERE expiration IS NOT NULL) END FROM stardust),
    'storage_deposit_return_count', (SELECT CASE WHEN yes THEN (SELECT count(*) FROM live WHERE dust_return_amount IS NOT NULL) END FROM stardust),
    'storage_deposit_return_amount', (SELECT CASE WHEN yes THEN (SELECT coalesce(sum(amount), 0) FROM live WHERE dust_return_amount IS NOT NULL) END FROM stardust),
    'storage_deposit_return_inner_amount', (SELECT CASE WHEN yes THEN (SELECT coalesce(sum(dust_return_amount), 0) FROM live) END FROM stardust))
$$;

-- Every sampled milestone is measured, and each recomputed figure equals the stored one.
DO $$
DECLARE
    m int;
    expected jsonb;
    actual jsonb;
    k text;
    bad text[] := '{}';
BEGIN
    FOREACH m IN ARRAY current_setting('analytics.sample')::int[] LOOP
        SELECT to_jsonb(x) INTO actual FROM permanode.milestone_measurements x
        WHERE x.milestone_index = m;
        IF actual IS NULL THEN
            bad := bad || format('%s: not measured', m);
            CONTINUE;
        END IF;
        expected := pg_temp.expected(m);
        FOR k IN SELECT jsonb_object_keys(expected) LOOP
            IF actual->k IS DISTINCT FROM expected->k THEN
                bad := bad || format('%s %s: stored %s, recomputed %s', m, k, actual->k, expected->k);
            END IF;
        END LOOP;
    END LOOP;
    IF cardinality(bad) > 0 THEN
        RAISE EXCEPTION 'measurements differ: %', array_to_string(bad, E'\n');
    END IF;
END
$$;
SELECT 'recomputed ' || cardinality(current_setting('analytics.sample')::int[]) || ' milestones: equal' AS result;
