-- Ingest of real Shimmer milestones (17339, 17340, 17341 and 2418187) through
-- permanode.ingest_milestone(): every table and lookup is derived from the raw blocks, compared
-- with what inx-chronicle booked for the same milestones, re-ingest changes nothing, and the
-- order of milestones does not matter.
\getenv abs_srcdir PG_ABS_SRCDIR
\set fresh_extension :abs_srcdir '/sql/include/fresh_extension.sql'
\i :fresh_extension

\i :fixtures_sql

-- Ingest in milestone order.
SELECT * FROM ingest_test.ingest(17339);
SELECT * FROM ingest_test.ingest(17340);
SELECT * FROM ingest_test.ingest(17341);
SELECT * FROM ingest_test.ingest(2418187);

-- Rows per table (and per milestone where the table has one).
CREATE FUNCTION ingest_test.counts() RETURNS TABLE (table_name text, row_count bigint)
LANGUAGE plpgsql AS $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['messages', 'parents', 'tags', 'transactions', 'milestones',
        'basic_outputs', 'alias_outputs', 'foundry_outputs', 'nft_outputs', 'legacy_outputs',
        'spent_outputs', 'sync', 'ms_analytics', 'address_analytics', 'unspent_outputs',
        'block_locator', 'transaction_locator', 'milestone_locator', 'output_locator',
        'chain_locator', 'foundry_locator', 'addresses_hints', 'tag_hints', 'metrics_cache',
        'date_cache'] LOOP
        table_name := t;
        EXECUTE format('SELECT count(*) FROM permanode.%I', t) INTO row_count;
        RETURN NEXT;
    END LOOP;
END
$$;
SELECT * FROM ingest_test.counts();
SELECT milestone_index, count(*) AS messages, count(*) FILTER (WHERE variant = 'transaction') AS transactions,
       count(*) FILTER (WHERE variant = 'milestone') AS milestones, count(*) FILTER (WHERE variant IS NULL) AS no_payload,
       bool_and(is_solid AND NOT should_promote AND NOT should_reattach) AS flags,
       bool_and(version = 2) AS stardust,
       bool_and(ms_range_id = milestone_index / 10000) AS ranges,
       bool_and(message_id = (SELECT b.block_id FROM permanode.block_locator b WHERE b.block_id = m.message_id)) AS located,
       min(white_flag_index) AS first_wf, max(white_flag_index) AS last_wf
FROM permanode.messages m GROUP BY 1 ORDER BY 1;
SELECT inclusion_state, variant, count(*) FROM permanode.transactions GROUP BY 1, 2 ORDER BY 1, 2;
SELECT milestone_index, timestamp, to_timestamp(timestamp) AT TIME ZONE 'UTC' AS time, milestone_id,
       ms_range_id, (SELECT l.ms_range_id FROM permanode.milestone_locator l WHERE l.milestone_id = m.milestone_id) AS located
FROM permanode.milestones m ORDER BY 1;
-- The milestone IDs chain: each payload's previous_milestone_id as inx-chronicle recorded it.
SELECT m.milestone_index,
       m.milestone_id = ingest_test.hex(f.milestones->(m.milestone_index + 1)::text->'milestone_data'->'payload'->'essence'->'previous_milestone_id')::permanode.milestone_id AS id_matches,
       m.milestone_id::text = ingest_test.hex(f.milestones->m.milestone_index::text->'milestone_data'->'milestone_id') AS id_matches_own
FROM permanode.milestones m, ingest_test.fixture f
WHERE m.milestone_index BETWEEN 17339 AND 17340 ORDER BY 1;

-- Created outputs: the cones' included transactions book exactly what inx-chronicle booked.
CREATE VIEW ingest_test.booked AS
SELECT output_id, milestone_index, data, 'basic' AS kind FROM permanode.basic_outputs
UNION ALL SELECT output_id, milestone_index, data, 'alias' FROM permanode.alias_outputs
UNION ALL SELECT output_id, milestone_index, data, 'foundry' FROM permanode.foundry_outputs
UNION ALL SELECT output_id, milestone_index, data, 'nft' FROM permanode.nft_outputs;
SELECT kind, count(*) FROM ingest_test.booked GROUP BY 1 ORDER BY 1;
-- (2418187 has no such list in the fixture.)
SELECT (SELECT count(*) FROM ingest_test.booked b WHERE b.output_id NOT IN (SELECT output_id FROM ingest_test.snapshot) AND b.milestone_index < 2418187) AS created_by_cones,
       (SELECT count(*) FROM ingest_test.created) AS created_in_fixture,
       (SELECT count(*) FROM ingest_test.booked b
        WHERE b.output_id NOT IN (SELECT output_id FROM ingest_test.snapshot) AND b.milestone_index < 2418187
          AND NOT EXISTS (SELECT 1 FROM ingest_test.created c WHERE c.output_id = b.output_id AND c.milestone_index = b.milestone_index)) AS not_in_fixture,
       (SELECT count(*) FROM ingest_test.created c
        WHERE NOT EXISTS (SELECT 1 FROM ingest_test.booked b WHERE b.output_id = c.output_id AND b.milestone_index = c.milestone_index)) AS missing;
-- The stored bytes are the fixture's outputs, serialized, and the transactions' output rows.
CREATE FUNCTION ingest_test.split(id permanode.output_id, OUT transaction_id permanode.transaction_id, OUT idx int)
LANGUAGE sql IMMUTABLE AS $$
    SELECT substring(id::text for 66)::permanode.transaction_id,
           get_byte(decode(substring(id::text from 67), 'hex'), 0) + 256 * get_byte(decode(substring(id::text from 67), 'hex'), 1)
$$;
SELECT count(*) AS compared,
       count(*) FILTER (WHERE b.data <> permanode.encode_output(ingest_test.output_json(c.output))) AS differing,
       count(*) FILTER (WHERE t.data IS DISTINCT FROM b.data) AS differing_from_transactions
FROM ingest_test.created c JOIN ingest_test.booked b USING (output_id)
CROSS JOIN LATERAL ingest_test.split(c.output_id) s
LEFT JOIN permanode.transactions t ON t.transaction_id = s.transaction_id AND t.idx = s.idx AND t.variant = 'output';
-- Consumed outputs: the spends are exactly inx-chronicle's, in the spending milestone's range.
SELECT (SELECT count(*) FROM permanode.spent_outputs WHERE milestone_index < 2418187) AS spent,
       (SELECT count(*) FROM ingest_test.consumed) AS consumed_in_fixture,
       (SELECT count(*) FROM permanode.spent_outputs s
        WHERE s.milestone_index < 2418187 AND NOT EXISTS (SELECT 1 FROM ingest_test.consumed c WHERE c.output_id = s.output_id AND c.milestone_index = s.milestone_index)) AS not_in_fixture,
       (SELECT count(*) FROM ingest_test.consumed c
        WHERE NOT EXISTS (SELECT 1 FROM permanode.spent_outputs s WHERE s.output_id = c.output_id AND s.milestone_index = c.milestone_index)) AS missing,
       (SELECT bool_and(s.ms_range_id = s.milestone_index / 10000 AND l.spent_ms_range_id = s.ms_range_id)
        FROM permanode.spent_outputs s JOIN permanode.output_locator l USING (output_id)) AS located;
-- The unspent set: everything booked (cones and snapshot) minus everything consumed.
SELECT (SELECT count(*) FROM permanode.unspent_outputs) AS unspent,
       (SELECT count(*) FROM ingest_test.booked b WHERE b.output_id NOT IN (SELECT output_id FROM ingest_test.consumed)) AS expected,
       (SELECT count(*) FROM permanode.unspent_outputs u WHERE u.output_id IN (SELECT output_id FROM ingest_test.consumed)) AS spent_but_unspent,
       (SELECT count(*) FROM ingest_test.booked b WHERE b.output_id NOT IN (SELECT output_id FROM ingest_test.consumed)
          AND b.output_id NOT IN (SELECT output_id FROM permanode.unspent_outputs)) AS missing;
SELECT output_kind, count(*), sum(amount) FROM permanode.unspent_outputs GROUP BY 1 ORDER BY 1;
-- Indexed columns agree with the fixture's model.
CREATE FUNCTION ingest_test.address(a jsonb) RETURNS permanode.address
LANGUAGE sql IMMUTABLE AS $$
    SELECT (CASE WHEN a ? 'ed25519' THEN '0x00' || encode(ingest_test.bin(a->'ed25519'), 'hex')
                 WHEN a ? 'alias' THEN '0x08' || encode(ingest_test.bin(a->'alias'), 'hex')
                 ELSE '0x10' || encode(ingest_test.bin(a->'nft'), 'hex') END)::permanode.address
$$;
SELECT count(*) AS basic,
       count(*) FILTER (WHERE b.address IS DISTINCT FROM ingest_test.address(c.output->'address_unlock_condition'->'address')) AS wrong_address,
       count(*) FILTER (WHERE b.amount <> (c.output->>'amount')::bigint) AS wrong_amount,
       count(*) FILTER (WHERE b.tag IS DISTINCT FROM (SELECT ingest_test.bin(f->'data') FROM jsonb_array_elements(c.output->'features') f WHERE f->>'kind' = 'tag')) AS wrong_tag,
       count(*) FILTER (WHERE b.dust_return_address IS DISTINCT FROM ingest_test.address(c.output->'storage_deposit_return_unlock_condition'->'return_address')) AS wrong_return_address,
       count(*) FILTER (WHERE b.dust_return_amount IS DISTINCT FROM (c.output->'storage_deposit_return_unlock_condition'->>'amount')::bigint) AS wrong_return_amount,
       count(*) FILTER (WHERE b.dust_return_address IS NOT NULL) AS with_return
FROM ingest_test.created c JOIN permanode.basic_outputs b USING (output_id);
SELECT count(*) AS nft,
       count(*) FILTER (WHERE n.address IS DISTINCT FROM ingest_test.address(c.output->'address_unlock_condition'->'address')) AS wrong_address,
       count(*) FILTER (WHERE n.issuer IS DISTINCT FROM (SELECT ingest_test.address(f->'address') FROM jsonb_array_elements(c.output->'immutable_features') f WHERE f->>'kind' = 'issuer')) AS wrong_issuer,
       count(*) FILTER (WHERE n.nft_id::text <> ingest_test.hex(c.output->'nft_id') AND ingest_test.hex(c.output->'nft_id') <> '0x' || repeat('0', 64)) AS wrong_nft_id,
       count(*) FILTER (WHERE ingest_test.hex(c.output->'nft_id') = '0x' || repeat('0', 64)) AS minted,
       count(*) FILTER (WHERE n.expiration IS NOT NULL) AS with_expiration
FROM ingest_test.created c JOIN permanode.nft_outputs n USING (output_id);
SELECT a.alias_id, a.state_index, a.foundry_counter, a.state_controller = a.governor AS same_controller,
       a.issuer IS NOT NULL AS has_issuer, a.milestone_index
FROM permanode.alias_outputs a ORDER BY a.milestone_index, a.alias_id;

-- Every lookup view, with a key taken from the data; each answers within the key's ranges.
SELECT count(*) FROM permanode.basic_outputs_by_address
WHERE address = (SELECT address FROM permanode.basic_outputs GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) AND ms_range_id = 1;
SELECT count(*), min(milestone_index), max(milestone_index) FROM permanode.basic_outputs_by_tag WHERE tag = 'Soonaverse' AND ms_range_id = 1;
SELECT count(*) FROM permanode.basic_outputs_by_sender WHERE sender IS NOT NULL;
SELECT count(*) FROM permanode.alias_outputs_by_sender WHERE sender IS NOT NULL;
SELECT count(*) FROM permanode.alias_outputs_by_issuer WHERE issuer = (SELECT issuer FROM permanode.alias_outputs LIMIT 1) AND ms_range_id = 1;
SELECT count(*) FROM permanode.alias_outputs_by_state_controller
WHERE state_controller = (SELECT state_controller FROM permanode.alias_outputs LIMIT 1) AND ms_range_id = 1
  AND ms_timestamp >= '2022-09-28' AND ms_timestamp < '2022-09-29';
SELECT count(*) FROM permanode.alias_outputs_by_governor WHERE governor = (SELECT governor FROM permanode.alias_outputs LIMIT 1) AND ms_range_id = 1;
SELECT count(*) FROM permanode.foundry_outputs_by_address WHERE address IS NOT NULL;
SELECT count(*) FROM permanode.nft_outputs_by_address WHERE address = (SELECT address FROM permanode.nft_outputs GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) AND ms_range_id = 1;
SELECT count(*) FROM permanode.nft_outputs_by_dust_return_address WHERE dust_return_address IS NOT NULL;
SELECT count(*) FROM permanode.nft_outputs_by_sender WHERE sender IS NOT NULL;
SELECT count(*) FROM permanode.nft_outputs_by_issuer WHERE issuer = (SELECT issuer FROM permanode.nft_outputs GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) AND ms_range_id = 1;
SELECT count(*) FROM permanode.nft_outputs_by_tag WHERE tag IS NOT NULL;
SELECT count(*) FROM permanode.legacy_outputs_by_address WHERE address IS NOT NULL;
SELECT milestone_index, count(*) FROM permanode.parents_by_ms
WHERE parent_id = (SELECT parent_id FROM permanode.parents GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) GROUP BY 1;
SELECT inclusion_state, variant, count(*) FROM permanode.transactions_by_state
WHERE transaction_id = (SELECT transaction_id FROM permanode.spent_outputs WHERE milestone_index = 17340 ORDER BY output_id LIMIT 1)
GROUP BY 1, 2 ORDER BY 1, 2;

-- Hints name the ranges of each key; every output table's key has its hint.
SELECT output_kind, variant, count(*) FROM permanode.addresses_hints GROUP BY 1, 2 ORDER BY 1, 2;
SELECT convert_from(tag, 'UTF8') AS tag, table_kind, ms_range_id FROM permanode.tag_hints ORDER BY 1, 2, 3;
SELECT count(*) AS basic_addresses_without_hint FROM permanode.basic_outputs b
WHERE NOT EXISTS (SELECT 1 FROM permanode.addresses_hints h WHERE h.address = b.address
                  AND h.output_kind = 'extended' AND h.variant = 'address' AND h.ms_range_id = b.ms_range_id);
SELECT count(*) AS chains, count(DISTINCT chain_id) FROM permanode.chain_locator;

-- Seed 002's queries.
SELECT milestone_index, message_id, inclusion_state FROM permanode.tags
WHERE tag = 'HORNET Spammer' AND ms_range_id = 241 ORDER BY message_id LIMIT 3;
SELECT count(*) FROM permanode.tags WHERE tag = 'HORNET Spammer' AND ms_range_id = 1
  AND ms_timestamp >= '2022-09-28 17:25:00+00' AND ms_timestamp < '2022-09-28 17:25:06+00';
SELECT message_id, timestamp FROM permanode.milestones WHERE milestone_index = 17339;
SELECT milestone_index, synced_by, logged_by FROM permanode.sync ORDER BY 1;
SELECT milestone_index, message_count, transaction_count, transferred_tokens
FROM permanode.ms_analytics WHERE ms_range_id = 1 AND milestone_index >= 17339 AND milestone_index < 17342 ORDER BY 1;
-- With the snapshot every spent output is known, so each fixture milestone sends what it receives.
SELECT milestone_index, count(*) AS addresses, sum(sent_tokens) AS sent, sum(recv_tokens) AS received
FROM permanode.address_analytics GROUP BY 1 ORDER BY 1;
-- Transferred tokens are the amounts of the outputs the included transactions created.
SELECT a.milestone_index, a.transferred_tokens,
       a.transferred_tokens = (SELECT sum((c.output->>'amount')::bigint) FROM ingest_test.created c WHERE c.milestone_index = a.milestone_index) AS matches
FROM permanode.ms_analytics a ORDER BY 1;
SELECT date, variant, metric, count(*) FROM permanode.metrics_cache GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
SELECT start_ms, end_ms FROM permanode.date_cache WHERE date = '2022-09-28';
SELECT permanode.rollup_daily_analytics('2022-09-01', '2023-03-01') AS days;
SELECT date, total_addresses, send_addresses, recv_addresses
FROM permanode.daily_analytics WHERE year = 2022 AND date >= '2022-09-01' AND date <= '2022-12-31';
SELECT count(1) FROM permanode.metrics_cache WHERE date = '2022-09-28' AND variant = 'index' AND metric = 'used';

-- Sync: the completed ranges and the gap between them.
SELECT * FROM permanode.sync_ranges();
SELECT * FROM permanode.sync_gaps();

-- Re-ingest changes nothing: every table's checksum is the same afterwards.
CREATE FUNCTION ingest_test.checksums() RETURNS TABLE (table_name text, checksum text)
LANGUAGE plpgsql AS $$
DECLARE
    t text;
BEGIN
    FOR t IN SELECT c.table_name FROM ingest_test.counts() c LOOP
        table_name := t;
        EXECUTE format($q$SELECT md5(coalesce(string_agg(x::text, ',' ORDER BY x::text), '')) FROM permanode.%I x$q$, t)
            INTO checksum;
        RETURN NEXT;
    END LOOP;
END
$$;
CREATE TABLE ingest_test.before AS SELECT * FROM ingest_test.checksums();
SELECT * FROM ingest_test.ingest(17339);
SELECT * FROM ingest_test.ingest(17340);
SELECT * FROM ingest_test.ingest(17341);
SELECT * FROM ingest_test.ingest(2418187);
SELECT count(*) AS tables, count(*) FILTER (WHERE a.checksum <> b.checksum) AS changed
FROM ingest_test.before b JOIN ingest_test.checksums() a USING (table_name);

-- Any order: ingest again into empty tables, newest first, 17339 last but one.
DO $$
DECLARE
    t text;
BEGIN
    FOR t IN SELECT c.table_name FROM ingest_test.counts() c LOOP
        EXECUTE format('TRUNCATE permanode.%I', t);
    END LOOP;
END
$$;
SELECT * FROM ingest_test.ingest(2418187);
SELECT * FROM ingest_test.ingest(17341);
SELECT * FROM ingest_test.ingest(17339);
SELECT * FROM ingest_test.ingest(17340);
-- The same rows, analytics too: 17341 spends outputs that 17339, with its snapshot, and 17340
-- create, and when those come later they book the tokens 17341 spent as sent at 17341.
SELECT table_name FROM ingest_test.before b JOIN ingest_test.checksums() a USING (table_name)
WHERE a.checksum <> b.checksum ORDER BY 1;
SELECT milestone_index, sum(sent_tokens) AS sent, sum(recv_tokens) AS received
FROM permanode.address_analytics GROUP BY 1 ORDER BY 1;

SET client_min_messages = warning;
DROP SCHEMA ingest_test CASCADE;
DROP EXTENSION permanode CASCADE;
DROP EXTENSION permanode_fdw CASCADE;
