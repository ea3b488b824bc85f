-- Seed 002 compatibility: every SELECT, INSERT and DELETE of the seed runs with the keyspace
-- (test.) replaced by our schema (permanode.) and ? replaced by $n, over the real fixtures.
-- Keyed queries must not scan every partition (checked with EXPLAIN at the end).
--
-- Where the seed contradicts itself or speaks CQL, we chose, and say so here:
--  D1 messages: the second SELECT names variant, parents, is_solid, should_promote and
--     should_reattach, which the seed's CREATE TABLE lacks: we have those columns.
--  D2 basic_outputs: the seed's INSERT names amount and sender_type, missing from its CREATE
--     TABLE: we have both.
--  D3 CQL's `USING TTL 86400` is not SQL: pending rows (ms_range_id 2147483647) expire through
--     permanode.expire_pending(ttl) instead.
--  D4 addresses_hints INSERTs: the first lacks a comma and the second has 4 columns for 3
--     values; we run them corrected. The SELECT's `variant in ('address', 'sender', 'issuer', ..)`
--     is run with the full list. 'some_address' is not an address: a real one is passed as $1.
--  D5 tag_hints: table_kind is part of our key, so the seed's two-column INSERT gets the default
--     table_kind 'message'.
--  D6 parents INSERTs: our parents table is partitioned by the child's range, so the INSERT also
--     names ms_range_id (the seed's parents table has no partition column).
--  D7 the ms_analytics SELECT reads `test.analytics`: the table is ms_analytics.
--  D8 tags.inclusion_state is a smallint code like everywhere else, not a blob.
--  D9 the lookups are views with the seed's names over their tables, backed by indexes.
\set VERBOSITY terse
\getenv abs_srcdir PG_ABS_SRCDIR
\set fresh_extension :abs_srcdir '/sql/include/fresh_extension.sql'
\i :fresh_extension
\i :fixtures_sql
SELECT count(*) AS milestones_ingested FROM (
    SELECT ingest_test.ingest(m) FROM unnest('{17339,17340,17341,2418187}'::int[]) m) s;

-- Values to query with, taken from the ingested data.
SELECT message_id AS msg, milestone_index AS msg_ms FROM messages
WHERE variant = 'transaction' ORDER BY milestone_index, white_flag_index LIMIT 1 \gset
SELECT transaction_id AS tx FROM transactions WHERE message_id = :'msg' LIMIT 1 \gset
SELECT address AS addr, ms_range_id AS addr_range, ms_timestamp AS addr_ts FROM basic_outputs
WHERE address IS NOT NULL ORDER BY milestone_index DESC, output_id LIMIT 1 \gset
SELECT tag AS tag, ms_range_id AS tag_range, ms_timestamp AS tag_ts FROM tags
ORDER BY milestone_index, message_id LIMIT 1 \gset
SELECT parent_id AS parent, ms_timestamp AS parent_ts FROM parents ORDER BY milestone_index, message_id LIMIT 1 \gset
-- Statements whose rows are long (raw bytes) run with their output discarded; psql's ROW_COUNT
-- then says how many rows they returned.

-- Messages (D1)
PREPARE m1(block_id) AS SELECT message FROM permanode.messages WHERE message_id = $1;
EXECUTE m1(:'msg') \gset m1_
SELECT length(:'m1_message') > 100 AS m1_has_raw_block;
PREPARE m2(block_id) AS SELECT message_id, variant, parents, is_solid, milestone_index, inclusion_state, should_promote, should_reattach
FROM permanode.messages WHERE message_id = $1;
EXECUTE m2(:'msg');
PREPARE m3(block_id) AS SELECT * FROM permanode.messages WHERE message_id = $1;
\o /dev/null
EXECUTE m3(:'msg');
\o
SELECT :ROW_COUNT AS m3_rows;

-- Transactions
PREPARE t1(transaction_id, smallint) AS SELECT message_id, data, inclusion_state
FROM permanode.transactions WHERE transaction_id = $1 AND idx = $2 AND variant IN ('output', 'unlock');
EXECUTE t1(:'tx', 0);
PREPARE t2(transaction_id) AS SELECT message_id, data, idx, inclusion_state, milestone_index
FROM permanode.transactions WHERE transaction_id = $1;
\o /dev/null
EXECUTE t2(:'tx');
\o
SELECT :ROW_COUNT AS t2_rows;
PREPARE t3(transaction_id, smallint) AS SELECT message_id
FROM permanode.transactions_by_state WHERE transaction_id = $1 AND inclusion_state = $2 LIMIT 1;
EXECUTE t3(:'tx', 1);

-- Milestones
PREPARE ms1(int) AS SELECT message_id, timestamp FROM permanode.milestones WHERE milestone_index = $1;
EXECUTE ms1(17340);

-- Tag hints (D5)
PREPARE th1 AS SELECT ms_range_id FROM permanode.tag_hints WHERE tag = 'spam';
PREPARE th2 AS SELECT ms_range_id FROM permanode.tag_hints WHERE tag = 'my_output_special_tag' AND table_kind = 'ext_output';
PREPARE th3(int) AS INSERT INTO permanode.tag_hints (tag, ms_range_id) VALUES ('spam', $1);
PREPARE th4(int) AS INSERT INTO permanode.tag_hints (tag, ms_range_id) VALUES ('not_a_spam', $1);
EXECUTE th3(1);
EXECUTE th4(1);
EXECUTE th1;
EXECUTE th2;

-- Addresses hints (D4)
PREPARE ah1(address) AS SELECT ms_range_id FROM permanode.addresses_hints
WHERE address = $1 AND output_kind in ('extended', 'legacy', 'nft', 'foundry', 'alias')
  AND variant in ('address', 'sender', 'issuer', 'state_controller', 'governor', 'dust_return_address');
EXECUTE ah1(:'addr');
PREPARE ah2(address, text, text, int) AS INSERT INTO permanode.addresses_hints (address, output_kind, variant, ms_range_id)
VALUES ($1, $2, $3, $4);
EXECUTE ah2(:'addr', 'legacy', 'address', 1);

-- Outputs (D2, D3)
PREPARE o1(address, int) AS SELECT * FROM permanode.basic_outputs_by_address WHERE address = $1 AND ms_range_id = $2;
\o /dev/null
EXECUTE o1(:'addr', :addr_range);
\o
SELECT :ROW_COUNT AS o1_rows;
PREPARE o2(address, int, timestamptz, timestamptz) AS SELECT * FROM permanode.basic_outputs_by_address
WHERE address = $1 AND ms_range_id = $2 AND ms_timestamp >= $3 AND ms_timestamp < $4;
\o /dev/null
EXECUTE o2(:'addr', :addr_range, :'addr_ts', timestamptz :'addr_ts' + interval '1 second');
\o
SELECT :ROW_COUNT AS o2_rows;
\o /dev/null
EXECUTE o2(:'addr', :addr_range, timestamptz :'addr_ts' + interval '1 second', timestamptz :'addr_ts' + interval '1 day');
\o
SELECT :ROW_COUNT AS o2_rows_later;
PREPARE o3(output_id, timestamptz, int) AS INSERT INTO permanode.basic_outputs (
output_id, ms_range_id, ms_timestamp, milestone_index)
VALUES ($1, 2147483647, $2, $3);
EXECUTE o3('0x00000000000000000000000000000000000000000000000000000000000000010000', now(), 17342);
PREPARE o4(output_id, int, timestamptz, int, bigint, smallint, address, bytea, address, smallint) AS INSERT INTO permanode.basic_outputs (
output_id, ms_range_id, ms_timestamp, milestone_index, amount,
inclusion_state, address, tag, sender, sender_type)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);
EXECUTE o4('0x00000000000000000000000000000000000000000000000000000000000000020000', 1, '2022-09-28 17:30:00+00', 17342, 1000, 1, :'addr', 'spam', :'addr', 0);
SELECT count(*) AS pending_rows FROM basic_outputs WHERE ms_range_id = 2147483647;

-- Tags (D8)
PREPARE g1(bytea, int) AS SELECT milestone_index, message_id, inclusion_state FROM permanode.tags WHERE tag = $1 AND ms_range_id = $2;
\o /dev/null
EXECUTE g1(:'tag', :tag_range);
\o
SELECT :ROW_COUNT AS g1_rows;
PREPARE g2(bytea, int, timestamptz, timestamptz) AS SELECT milestone_index, message_id, inclusion_state
FROM permanode.tags WHERE tag = $1 AND ms_range_id = $2 AND ms_timestamp >= $3 AND ms_timestamp < $4;
\o /dev/null
EXECUTE g2(:'tag', :tag_range, :'tag_ts', timestamptz :'tag_ts' + interval '1 second');
\o
SELECT :ROW_COUNT AS g2_rows;

-- Parents (D6)
PREPARE p1(block_id) AS SELECT milestone_index, message_id, inclusion_state FROM permanode.parents_by_ms WHERE parent_id = $1;
\o /dev/null
EXECUTE p1(:'parent');
\o
SELECT :ROW_COUNT AS p1_rows;
PREPARE p2(block_id, timestamptz, timestamptz) AS SELECT milestone_index, message_id, inclusion_state
FROM permanode.parents_by_ms WHERE parent_id = $1 AND ms_timestamp >= $2 AND ms_timestamp < $3;
\o /dev/null
EXECUTE p2(:'parent', :'parent_ts', timestamptz :'parent_ts' + interval '1 second');
\o
SELECT :ROW_COUNT AS p2_rows;
PREPARE p3(block_id, block_id, int, timestamptz, int) AS INSERT INTO permanode.parents (parent_id, message_id, milestone_index, ms_timestamp, ms_range_id)
VALUES ($1, $2, $3, $4, $5);
PREPARE p4(block_id, block_id, int, timestamptz, smallint, int) AS INSERT INTO permanode.parents (parent_id, message_id, milestone_index, ms_timestamp, inclusion_state, ms_range_id)
VALUES ($1, $2, $3, $4, $5, $6);
EXECUTE p3('0x1111111111111111111111111111111111111111111111111111111111111111', '0x2222222222222222222222222222222222222222222222222222222222222222', NULL, now(), 2147483647);
EXECUTE p4('0x1111111111111111111111111111111111111111111111111111111111111111', '0x3333333333333333333333333333333333333333333333333333333333333333', 17342, '2022-09-28 17:30:00+00', 1, 1);
PREPARE p5(block_id) AS DELETE FROM permanode.parents WHERE parent_id = $1;
EXECUTE p5('0x1111111111111111111111111111111111111111111111111111111111111111');
SELECT count(*) AS deleted_parents_left FROM parents WHERE parent_id = '0x1111111111111111111111111111111111111111111111111111111111111111';

-- Sync
PREPARE s1 AS SELECT milestone_index, synced_by, logged_by FROM permanode.sync;
\o /dev/null
EXECUTE s1;
\o
SELECT :ROW_COUNT AS s1_rows;
PREPARE s2(int, int, int) AS SELECT milestone_index, synced_by, logged_by FROM permanode.sync
WHERE ms_range_id = $1 AND milestone_index >= $2 AND milestone_index < $3;
EXECUTE s2(1, 17339, 17342);

-- Milestone-based analytics (D7)
PREPARE a1(int, int, int) AS SELECT milestone_index, message_count, transaction_count, transferred_tokens
FROM permanode.ms_analytics WHERE ms_range_id = $1 AND milestone_index >= $2 AND milestone_index < $3;
EXECUTE a1(1, 17339, 17342);

-- Daily analytics
SELECT count(*) >= 0 AS rolled_up FROM (SELECT rollup_daily_analytics('2022-09-28', '2022-09-28')) s;
PREPARE d1(int, date, date) AS SELECT date, total_addresses, send_addresses, recv_addresses
FROM permanode.daily_analytics WHERE year = $1 AND date >= $2 AND date <= $3;
EXECUTE d1(2022, '2022-09-01', '2022-09-30');

-- Address analytics
PREPARE aa1(address, int, int) AS SELECT milestone_index, sent_tokens, recv_tokens
FROM permanode.address_analytics WHERE address = $1 AND milestone_index >= $2 AND milestone_index < $3;
EXECUTE aa1(:'addr', 0, 3000000);

-- Date cache
PREPARE dc1(date) AS SELECT start_ms, end_ms FROM permanode.date_cache WHERE date = $1;
EXECUTE dc1('2022-09-28');

-- Metric cache
PREPARE mc1(date) AS SELECT count(1) FROM permanode.metrics_cache WHERE date = $1 AND variant = 'address' AND metric = 'sent';
PREPARE mc2(date) AS SELECT count(1) FROM permanode.metrics_cache WHERE date = $1 AND variant = 'address' AND metric = 'received';
PREPARE mc3(date) AS SELECT count(1) FROM permanode.metrics_cache WHERE date = $1 AND variant = 'address' AND metric = 'sent_or_received';
PREPARE mc4(date) AS SELECT count(1) FROM permanode.metrics_cache WHERE date = $1 AND variant = 'index' AND metric = 'used';
EXECUTE mc1('2022-09-28');
EXECUTE mc2('2022-09-28');
EXECUTE mc3('2022-09-28');
EXECUTE mc4('2022-09-28');
PREPARE mi1(date, text) AS INSERT INTO permanode.metrics_cache (date, variant, value, metric) VALUES ($1, 'address', $2, 'sent');
PREPARE mi2(date, text) AS INSERT INTO permanode.metrics_cache (date, variant, value, metric) VALUES ($1, 'address', $2, 'received');
PREPARE mi3(date, text) AS INSERT INTO permanode.metrics_cache (date, variant, value, metric) VALUES ($1, 'address', $2, 'sent_or_received');
PREPARE mi4(date, text) AS INSERT INTO permanode.metrics_cache (date, variant, value, metric) VALUES ($1, 'index', $2, 'used');
EXECUTE mi1('2001-01-01', 'a'); EXECUTE mi2('2001-01-01', 'a'); EXECUTE mi3('2001-01-01', 'a'); EXECUTE mi4('2001-01-01', 'a');
EXECUTE mc1('2001-01-01');
PREPARE md1(date) AS DELETE FROM permanode.metrics_cache WHERE date = $1;
EXECUTE md1('2001-01-01');
EXECUTE mc3('2001-01-01');

-- No keyed query scans every partition: the keyed seed queries, with the partitions they read
-- (in the plan, or opened at execution by a Permanode Range Scan: its "Read:" line). There are
-- partitions for ranges 1, 2, 241, 242 and the pending tier.
CREATE FUNCTION pg_temp.scanned(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    parts text[] := '{}';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || query LOOP
        IF line ~ ' on [a-z_]+_(r[0-9]+|pending)' THEN
            parts := parts || substring(line from ' on ([a-z_]+_(?:r[0-9]+|pending))');
        ELSIF line ~ '^ *Read: ' THEN
            -- the partitions a Permanode Range Scan opened at execution
            parts := parts || regexp_split_to_array(substring(line from 'Read: (.*)$'), ' ');
        END IF;
    END LOOP;
    RETURN array_to_string(ARRAY(SELECT DISTINCT p FROM unnest(parts) p ORDER BY 1), ' ');
END
$$;
SELECT name, pg_temp.scanned(q) AS partitions FROM (VALUES
    ('m1 messages by message_id', format('EXECUTE m1(%L)', :'msg')),
    ('m2 messages by message_id', format('EXECUTE m2(%L)', :'msg')),
    ('t1 transactions by transaction_id, idx', format('EXECUTE t1(%L, 0)', :'tx')),
    ('t2 transactions by transaction_id', format('EXECUTE t2(%L)', :'tx')),
    ('t3 transactions_by_state', format('EXECUTE t3(%L, 1)', :'tx')),
    ('ms1 milestones by milestone_index', 'EXECUTE ms1(17340)'),
    ('ah1 addresses_hints', format('EXECUTE ah1(%L)', :'addr')),
    ('o1 basic_outputs_by_address, range', format('EXECUTE o1(%L, %s)', :'addr', :addr_range)),
    ('g1 tags by tag, range', format('EXECUTE g1(%L, %s)', :'tag', :tag_range)),
    ('p1 parents_by_ms by parent_id', format('EXECUTE p1(%L)', :'parent')),
    ('s2 sync by range', 'EXECUTE s2(1, 17339, 17342)'),
    ('a1 ms_analytics by range', 'EXECUTE a1(1, 17339, 17342)'),
    ('aa1 address_analytics by address', format('EXECUTE aa1(%L, 0, 3000000)', :'addr'))) AS v(name, q)
ORDER BY 1;

SET client_min_messages = warning;
DROP SCHEMA ingest_test CASCADE;
DROP EXTENSION permanode CASCADE;
DROP EXTENSION permanode_fdw CASCADE;
