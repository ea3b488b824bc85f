-- The Chrysalis era in the ledger (#22): real protocol-v1 messages ingested with
-- protocol_version 1 into the same tables as Stardust blocks, looked up the same way, archived
-- with the same answers, and fenced off from the Stardust era of the same network.
\set VERBOSITY terse
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS permanode CASCADE;
DROP EXTENSION IF EXISTS permanode_fdw CASCADE;
DROP SCHEMA IF EXISTS ingest_test, archive_test, chrysalis_test CASCADE;
CREATE EXTENSION permanode CASCADE;
RESET client_min_messages;
SET search_path = public, permanode;
SELECT init('iota') AS hrp;
-- Chunks of 1000 milestones: the Chrysalis milestones 16241-16242 are range 16.
SELECT count(*) AS chunk_sizes_set FROM (SELECT set_chunk_size(table_name, 1000) FROM ledger_tables) s;

-- The real messages of ../shared/fixtures/chrysalis, by the first 8 hex digits of their ID.
\getenv fixtures PERMANODE_FIXTURES
CREATE SCHEMA chrysalis_test;
CREATE TABLE chrysalis_test.messages AS
SELECT m->>'label' AS label, m->>'message_id_computed' AS id, decode(m->>'message_hex', 'hex') AS raw
FROM jsonb_array_elements(
    pg_read_file(:'fixtures' || '/../chrysalis/chrysalis_messages.json')::jsonb->'messages') m;
CREATE FUNCTION chrysalis_test.raw(prefix text) RETURNS bytea LANGUAGE sql AS $$
    SELECT raw FROM chrysalis_test.messages WHERE id LIKE prefix || '%'
$$;
SELECT count(*) AS fixture_messages FROM chrysalis_test.messages;

-- A testnet7 ledger of two milestones. 16241 (the TIP-13 milestone message last, in its own
-- cone as in Chrysalis): a message without payload, an indexation and three value transactions,
-- one of which (70a9a9bc) creates 16 outputs; 16242 spends its output 12 (1f7af3df).
SELECT * FROM ingest_milestone(16241, 1617959712,
    ARRAY[chrysalis_test.raw('10dbee9c'), chrysalis_test.raw('30d87fa9'),
          chrysalis_test.raw('70a9a9bc'), chrysalis_test.raw('92f427d6'),
          chrysalis_test.raw('89e4d40f'), chrysalis_test.raw('53e5f848')],
    '{0,0,1,1,1,0}', protocol_version => 1::smallint);
SELECT * FROM ingest_milestone(16242, 1617959722, ARRAY[chrysalis_test.raw('1f7af3df')], '{1}',
                               protocol_version => 1::smallint);
-- Idempotent.
SELECT * FROM ingest_milestone(16242, 1617959722, ARRAY[chrysalis_test.raw('1f7af3df')], '{1}',
                               protocol_version => 1::smallint);

-- Messages: version 1, their fixture IDs, the payload kinds, white-flag order.
SELECT m.milestone_index, m.white_flag_index, m.version, m.variant, m.inclusion_state,
       m.message_id = ('0x' || f.id)::block_id AS id_is_the_hash, cardinality(m.parents) AS parents
FROM messages m JOIN chrysalis_test.messages f ON m.message = f.raw
ORDER BY m.milestone_index, m.white_flag_index;
SELECT * FROM milestone_protocols ORDER BY 1;

-- The milestone: its own message, essence timestamp and milestone ID (BLAKE2b-256 of the essence).
SELECT milestone_index, message_id, timestamp, milestone_id, get_byte(payload, 0) AS payload_type
FROM milestones;

-- Stored messages read back in the REST API v1 shape (TIP-13), and bytes that are not one.
SELECT white_flag_index, j->>'networkId' AS network_id, j->'payload'->>'type' AS payload_type,
       j->'payload'->>'index' AS payload_index, -- a milestone's index, an indexation's key
       j->'payload'->'essence'->'payload'->>'index' AS essence_index
FROM messages, decode_message(message) j WHERE milestone_index = 16241 ORDER BY 1;
SELECT decode_message('\x0102');

-- The queries seed 000 serves, answered by the same lookups as Stardust blocks. The address
-- that received output 12 of 70a9a9bc's transaction, which 16242 spends:
SELECT address AS addr FROM legacy_outputs
WHERE output_id = '0x95535a4cc1976149d11a6e0b988118d1de435c50481749e351ef835d705ab1e70c00'
  AND NOT is_used \gset
SELECT :'addr' AS address;
CREATE TABLE chrysalis_test.queries (name text PRIMARY KEY, sql text NOT NULL);
INSERT INTO chrysalis_test.queries VALUES
    ('message by id', 'SELECT message_id, version, variant, milestone_index, inclusion_state, white_flag_index FROM messages WHERE message_id = ''0x1f7af3dfb1582d189e435983a00ecc2585327b22e7074721a37ee7f8cbfdc393'''),
    ('children of a message', 'SELECT milestone_index, message_id, inclusion_state FROM parents_by_ms WHERE parent_id = ''0x3e69f2d115293a33a1cd78e04d6a4ac39030310bd7ce4ec491fcbcdcb45afc49'''),
    ('messages by index, newest first', 'SELECT milestone_index, message_id FROM tags WHERE tag = ''\x484f524e4554205370616d6d6572'' ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, message_id DESC LIMIT 3'),
    ('messages by index, per era', 'SELECT m.version, count(*), min(t.milestone_index) FROM tags t JOIN messages m USING (message_id) WHERE t.tag = ''\x484f524e4554205370616d6d6572'' GROUP BY 1'),
    ('essence indexation', 'SELECT milestone_index, message_id FROM tags WHERE tag = convert_to(''FAUCET'', ''UTF8'')'),
    ('outputs of an address', format('SELECT output_id, output_type, is_used, milestone_index, amount, message_id FROM legacy_outputs_by_address WHERE address = %L ORDER BY output_type, is_used, ms_range_id DESC, ms_timestamp DESC', :'addr')),
    ('output by id', 'SELECT output_id, output_type, is_used, amount, address, encode(data, ''hex'') FROM legacy_outputs WHERE output_id = ''0x95535a4cc1976149d11a6e0b988118d1de435c50481749e351ef835d705ab1e70c00'''),
    ('spend of an output', 'SELECT milestone_index, transaction_id, message_id FROM spent_outputs WHERE output_id = ''0x95535a4cc1976149d11a6e0b988118d1de435c50481749e351ef835d705ab1e70c00'''),
    ('transaction parts', 'SELECT variant, count(*), sum(length(data)) FROM transactions WHERE transaction_id = ''0x95535a4cc1976149d11a6e0b988118d1de435c50481749e351ef835d705ab1e7'' GROUP BY 1'),
    ('milestone by index', 'SELECT message_id, timestamp, milestone_id FROM milestones WHERE milestone_index = 16241'),
    ('milestone by id', 'SELECT milestone_index FROM milestones WHERE milestone_id = ''0x870b7d75497fca8f8370702747d337a439b7984d5b1c5fd8ac26b8fb72ba2130'''),
    ('per milestone analytics', 'SELECT milestone_index, message_count, transaction_count, transferred_tokens FROM ms_analytics WHERE ms_range_id = 16'),
    ('address analytics', format('SELECT milestone_index, sent_tokens, recv_tokens FROM address_analytics WHERE address = %L', :'addr'));
CREATE TABLE chrysalis_test.results (run text, name text, row text);
CREATE FUNCTION chrysalis_test.run(run text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    q record;
BEGIN
    FOR q IN SELECT * FROM chrysalis_test.queries LOOP
        EXECUTE format('INSERT INTO chrysalis_test.results SELECT %L, %L, r::text FROM (%s) r',
                       run, q.name, q.sql);
    END LOOP;
    RETURN (SELECT count(*) FROM chrysalis_test.results r WHERE r.run = $1);
END
$$;
-- The unspent set holds the Chrysalis outputs (kind legacy) but the spent one.
SELECT output_kind, count(*), sum(amount) FROM unspent_outputs GROUP BY 1;
SELECT count(*) AS spent_is_unspent FROM unspent_outputs
WHERE output_id = '0x95535a4cc1976149d11a6e0b988118d1de435c50481749e351ef835d705ab1e70c00';

-- The Stardust era of the network follows: the real Shimmer fixtures (milestones 17339-17341
-- and 2418187) go in after the Chrysalis milestones.
\getenv abs_srcdir PG_ABS_SRCDIR
\set fixtures_sql :abs_srcdir '/sql/include/fixtures.sql'
\set ECHO none
\o /dev/null
\i :fixtures_sql
\o
\set ECHO all
SELECT count(*) AS stardust_milestones FROM (
    SELECT ingest_test.ingest(m) FROM unnest('{17339,17340,17341,2418187}'::int[]) m) s;
SELECT version, count(*) FROM messages GROUP BY 1 ORDER BY 1;
SELECT protocol_version, count(*), min(milestone_index), max(milestone_index)
FROM milestone_protocols GROUP BY 1 ORDER BY 1;

-- The queries, hot: the tag "HORNET Spammer" is used in both eras, newest (Stardust) first.
SELECT chrysalis_test.run('hot') AS hot_rows;
SELECT name, row FROM chrysalis_test.results WHERE run = 'hot' ORDER BY name, row;

-- Pages by index and by address, newest and oldest first, are read range after range in the
-- order of each range's index (tags: their unique key, read backwards), with no sort above, and
-- give what PostgreSQL's own plan over every partition gives.
EXPLAIN (COSTS OFF) SELECT message_id FROM tags WHERE tag = '\x484f524e4554205370616d6d6572'
ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, message_id DESC LIMIT 3;
EXPLAIN (COSTS OFF) SELECT output_id FROM legacy_outputs_by_address WHERE address = :'addr'
AND NOT is_used ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC
LIMIT 3;
CREATE FUNCTION chrysalis_test.page(sql text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    rows text;
BEGIN
    EXECUTE format('SELECT string_agg(r::text, '' '') FROM (%s) r', sql) INTO rows;
    RETURN rows;
END
$$;
CREATE TABLE chrysalis_test.pages (sql text);
INSERT INTO chrysalis_test.pages VALUES
    ('SELECT milestone_index, message_id FROM tags WHERE tag = ''\x484f524e4554205370616d6d6572'' ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, message_id DESC LIMIT 5'),
    ('SELECT milestone_index, message_id FROM tags WHERE tag = ''\x484f524e4554205370616d6d6572'' ORDER BY ms_range_id, ms_timestamp, milestone_index, message_id LIMIT 5'),
    ('SELECT milestone_index, message_id FROM parents WHERE parent_id = ''0x3e69f2d115293a33a1cd78e04d6a4ac39030310bd7ce4ec491fcbcdcb45afc49'' ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, message_id DESC LIMIT 5'),
    (format('SELECT output_id, is_used FROM legacy_outputs_by_address WHERE address = %L ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 5', :'addr'));
CREATE TABLE chrysalis_test.page_answers AS
SELECT sql, chrysalis_test.page(sql) AS range_scan FROM chrysalis_test.pages;
SET permanode.range_scan = off;
SELECT count(*) AS pages, count(*) FILTER (WHERE range_scan = chrysalis_test.page(sql)) AS same
FROM chrysalis_test.page_answers;
RESET permanode.range_scan;
SELECT substr(range_scan, 1, 90) AS newest_tag_page FROM chrysalis_test.page_answers
WHERE sql LIKE '%tags%DESC%';

-- Eras do not overlap: a Chrysalis milestone (the real mainnet milestone 76695) after Stardust
-- milestones is refused, and nothing of it is written.
SELECT * FROM ingest_milestone(76695, 1620387319, ARRAY[chrysalis_test.raw('2f9a04d5')], '{0}',
                               protocol_version => 1::smallint);
SELECT count(*) AS rows_of_76695 FROM messages WHERE milestone_index = 76695;
-- A Stardust milestone before the last Chrysalis one is refused too.
SELECT * FROM ingest_milestone(16240, 1617959702, ARRAY[]::bytea[], '{}');
-- A Stardust block given as a Chrysalis message, and a truncated message: 22P02 naming the field.
SELECT * FROM ingest_milestone(16243, 1617959732,
    ARRAY[(SELECT message FROM messages WHERE version = 2 LIMIT 1)], '{0}',
    protocol_version => 1::smallint);
SELECT * FROM ingest_milestone(16243, 1617959732,
    ARRAY[substring(chrysalis_test.raw('30d87fa9') FROM 1 FOR 100)], '{0}',
    protocol_version => 1::smallint);
SELECT * FROM ingest_milestone(16243, 1617959732, ARRAY[]::bytea[], '{}',
                               protocol_version => 3::smallint);

-- The era boundary: the Stardust genesis books the Chrysalis outputs still unspent again, as
-- basic outputs under their IDs. They leave the unspent set as Chrysalis outputs (not spent:
-- their legacy_outputs rows stay unused) and enter it as Stardust ones; a lookup by the ID finds
-- both creations.
SELECT output_id AS migrated, amount AS migrated_amount,
       '0x' || encode(substring(data FROM 3 FOR 32), 'hex') AS migrated_hash
FROM unspent_outputs WHERE output_kind = 'legacy' ORDER BY output_id LIMIT 1 \gset
SELECT milestone, outputs, spent FROM ingest_milestone(2418188,
    (SELECT milestone_timestamp + 5 FROM ingest_test.cone WHERE milestone_index = 2418187),
    ARRAY[]::bytea[], '{}', NULL,
    ARRAY[(:'migrated', '0x0000000000000000000000000000000000000000000000000000000000000000',
           encode_output(jsonb_build_object('type', 3, 'amount', :'migrated_amount',
               'unlockConditions', jsonb_build_array(jsonb_build_object('type', 0,
                   'address', jsonb_build_object('type', 0, 'pubKeyHash', :'migrated_hash'))))))
         ]::snapshot_output[]);
SELECT output_kind, amount = :migrated_amount AS same_amount FROM unspent_outputs
WHERE output_id = :'migrated';
SELECT milestone_index, is_used FROM legacy_outputs WHERE output_id = :'migrated';
SELECT milestone_index, amount = :migrated_amount AS same_amount FROM basic_outputs
WHERE output_id = :'migrated';
SELECT output_kind, count(*) FROM unspent_outputs GROUP BY 1 ORDER BY 1;

-- The cold tier: archive range 16 (the Chrysalis milestones) of every ledger table; every
-- query answers the same.
SET client_min_messages = warning;
SELECT table_name, rows FROM archive(16, 17) WHERE rows > 0 ORDER BY 1;
RESET client_min_messages;
SELECT table_name, tier FROM status WHERE from_range = 16 AND rows > 0 ORDER BY 1;
SELECT chrysalis_test.run('cold') AS cold_rows;
SELECT count(*) AS differences FROM (
    (SELECT name, row FROM chrysalis_test.results WHERE run = 'hot'
     EXCEPT ALL SELECT name, row FROM chrysalis_test.results WHERE run = 'cold')
    UNION ALL
    (SELECT name, row FROM chrysalis_test.results WHERE run = 'cold'
     EXCEPT ALL SELECT name, row FROM chrysalis_test.results WHERE run = 'hot')) d;

SET client_min_messages = warning;
DROP SCHEMA chrysalis_test, ingest_test CASCADE;
DROP EXTENSION permanode CASCADE;
DROP EXTENSION permanode_fdw CASCADE;
