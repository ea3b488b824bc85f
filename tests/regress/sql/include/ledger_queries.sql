-- The query suite of the ledger's tiers, shared by ledger_archive.sql and the TAP tests of
-- standbys, backups and dumps: keys from range 17 of the fixtures (chunks of 1000 milestones,
-- milestones 17339-17341 and 2418187 ingested), the queries in archive_test.queries, and
-- archive_test.answers(), which runs them all, reading only (it runs on standbys too).
-- Keys to query with, from range 17 (to be archived) unless said otherwise.
SELECT message_id AS msg FROM messages
WHERE variant = 'transaction' AND ms_range_id = 17 ORDER BY milestone_index, white_flag_index LIMIT 1 \gset
SELECT transaction_id AS tx FROM transactions WHERE message_id = :'msg' LIMIT 1 \gset
SELECT output_id AS out FROM basic_outputs WHERE ms_range_id = 17 ORDER BY output_id LIMIT 1 \gset
SELECT output_id AS spent FROM spent_outputs WHERE ms_range_id = 17 ORDER BY output_id LIMIT 1 \gset
SELECT parent_id AS parent FROM parents WHERE ms_range_id = 17 ORDER BY parent_id LIMIT 1 \gset
-- A block of the range that stays hot, for lookups of several IDs across the tiers.
SELECT message_id AS hot_msg FROM messages WHERE ms_range_id <> 17 ORDER BY message_id LIMIT 1 \gset
-- an address with outputs in both ranges, so its lookup spans both tiers
SELECT address AS addr FROM basic_outputs WHERE address IS NOT NULL
GROUP BY address ORDER BY count(DISTINCT ms_range_id) DESC, count(*) DESC, address LIMIT 1 \gset
SELECT count(DISTINCT ms_range_id) AS addr_ranges FROM basic_outputs WHERE address = :'addr';

-- The query suite: each query's rows as text, per run.
CREATE SCHEMA archive_test;
CREATE TABLE archive_test.queries (name text PRIMARY KEY, sql text NOT NULL);
INSERT INTO archive_test.queries VALUES
    ('seed messages by id', format('SELECT message_id, variant, parents, is_solid, milestone_index, inclusion_state FROM messages WHERE message_id = %L', :'msg')),
    ('seed transactions by id', format('SELECT message_id, data, idx, inclusion_state, milestone_index FROM transactions WHERE transaction_id = %L', :'tx')),
    ('seed transactions_by_state', format('SELECT message_id FROM transactions_by_state WHERE transaction_id = %L AND inclusion_state = 1', :'tx')),
    ('seed milestones by index', 'SELECT message_id, timestamp FROM milestones WHERE milestone_index = 17340'),
    ('seed sync', 'SELECT milestone_index, synced_by, logged_by FROM sync'),
    ('seed ms_analytics', 'SELECT milestone_index, message_count, transaction_count, transferred_tokens FROM ms_analytics WHERE ms_range_id = 17'),
    ('seed address_analytics', format('SELECT milestone_index, sent_tokens, recv_tokens FROM address_analytics WHERE address = %L', :'addr')),
    ('seed tags by range', 'SELECT milestone_index, message_id, inclusion_state, tag FROM tags WHERE ms_range_id = 17'),
    ('point block', format('SELECT * FROM messages WHERE message_id = %L', :'msg')),
    ('point transaction', format('SELECT * FROM transactions WHERE transaction_id = %L', :'tx')),
    ('point output', format('SELECT * FROM basic_outputs WHERE output_id = %L', :'out')),
    ('point spent output', format('SELECT * FROM spent_outputs WHERE output_id = %L', :'spent')),
    ('list of blocks', format('SELECT message_id, milestone_index FROM messages WHERE message_id IN (%L, %L, %L) ORDER BY 1', :'msg', :'hot_msg', '0x0000000000000000000000000000000000000000000000000000000000000000')),
    ('join messages transactions', 'SELECT m.message_id, m.milestone_index, t.transaction_id, t.idx, t.variant FROM messages m JOIN transactions t USING (message_id) WHERE m.milestone_index = 17340'),
    ('join outputs spent', 'SELECT b.output_id, b.amount, s.milestone_index FROM basic_outputs b JOIN spent_outputs s USING (output_id)'),
    ('aggregate per table', 'SELECT (SELECT count(*) FROM messages), (SELECT count(*) FROM transactions), (SELECT count(*) FROM milestones), (SELECT count(*) FROM basic_outputs), (SELECT count(*) FROM alias_outputs), (SELECT count(*) FROM foundry_outputs), (SELECT count(*) FROM nft_outputs), (SELECT count(*) FROM legacy_outputs), (SELECT count(*) FROM tags), (SELECT count(*) FROM parents), (SELECT count(*) FROM spent_outputs), (SELECT count(*) FROM ms_analytics), (SELECT count(*) FROM address_analytics)'),
    ('aggregate amounts per range', 'SELECT ms_range_id, count(*), sum(amount), min(milestone_index), max(milestone_index) FROM basic_outputs GROUP BY ms_range_id'),
    ('children via parents_by_ms', format('SELECT milestone_index, message_id, inclusion_state FROM parents_by_ms WHERE parent_id = %L', :'parent')),
    ('newest-first page', format('SELECT output_id, milestone_index, amount FROM basic_outputs_by_address WHERE address = %L ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 5', :'addr'));
-- Every lookup view by a key it holds (the smallest).
DO $$
DECLARE
    v record;
    k text;
BEGIN
    FOR v IN SELECT * FROM (VALUES
            ('basic_outputs_by_address', 'address'), ('basic_outputs_by_tag', 'tag'),
            ('basic_outputs_by_sender', 'sender'), ('alias_outputs_by_sender', 'sender'),
            ('alias_outputs_by_issuer', 'issuer'), ('alias_outputs_by_state_controller', 'state_controller'),
            ('alias_outputs_by_governor', 'governor'), ('foundry_outputs_by_address', 'address'),
            ('nft_outputs_by_address', 'address'), ('nft_outputs_by_dust_return_address', 'dust_return_address'),
            ('nft_outputs_by_sender', 'sender'), ('nft_outputs_by_issuer', 'issuer'),
            ('nft_outputs_by_tag', 'tag'), ('legacy_outputs_by_address', 'address'),
            ('parents_by_ms', 'parent_id'), ('transactions_by_state', 'transaction_id')) l(view_name, key) LOOP
        EXECUTE format('SELECT %I::text FROM permanode.%I WHERE %I IS NOT NULL ORDER BY 1 LIMIT 1',
                       v.key, v.view_name, v.key) INTO k;
        INSERT INTO archive_test.queries VALUES ('lookup ' || v.view_name,
            format('SELECT * FROM %I WHERE %I = %L', v.view_name, v.key, k));
    END LOOP;
END
$$;
CREATE FUNCTION archive_test.answers() RETURNS TABLE (name text, "row" text)
LANGUAGE plpgsql STABLE AS $$
DECLARE
    q record;
BEGIN
    FOR q IN SELECT * FROM archive_test.queries ORDER BY 1 LOOP
        RETURN QUERY EXECUTE format('SELECT %L, r::text FROM (%s) r', q.name, q.sql);
    END LOOP;
END
$$;
