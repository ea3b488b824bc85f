-- Upgrades: a database made at 0.1.0 (its install script as released, built from its commit,
-- sql/releases) that ingested and archived, updated with ALTER EXTENSION ... UPDATE straight to
-- the newest, answers as before; its objects are then those of a fresh install. (The other
-- releases: extension_upgrade_releases.)
\set VERBOSITY terse
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS permanode CASCADE;
DROP EXTENSION IF EXISTS permanode_fdw CASCADE;
DROP SCHEMA IF EXISTS ingest_test, upgrade_test CASCADE;
CREATE EXTENSION permanode_fdw VERSION '0.1.0';
CREATE EXTENSION permanode VERSION '0.1.0';
RESET client_min_messages;
CREATE SCHEMA upgrade_test;
SET search_path = public, permanode;
SELECT extname, extversion FROM pg_extension WHERE extname LIKE 'permanode%' ORDER BY 1;

-- Ingest 17339-17341 (ranges 1733 and 1734 at 10 milestones a range), archive range 1733.
SELECT count(*) AS chunk_sizes_set FROM (SELECT set_chunk_size(table_name, 10) FROM ledger_tables) s;
\getenv fixtures PERMANODE_FIXTURES
\getenv abs_srcdir PG_ABS_SRCDIR
\set fixtures_sql :abs_srcdir '/sql/include/fixtures.sql'
\set upgrade_catalog :abs_srcdir '/sql/include/upgrade_catalog.sql'
\set ECHO none
\o /dev/null
\i :fixtures_sql
\i :upgrade_catalog
\o
\set ECHO all
SELECT count(*) AS milestones_ingested FROM (
    SELECT ingest_test.ingest(m) FROM unnest('{17339,17340,17341}'::int[]) m) s;
SET client_min_messages = warning;
SELECT table_name, rows FROM archive(1733, 1734) ORDER BY 1;
RESET client_min_messages;
SELECT address AS addr FROM basic_outputs WHERE address IS NOT NULL
GROUP BY address ORDER BY count(*) DESC, address LIMIT 1 \gset

-- Answers to keep: rows per table and tier, a point lookup and a first page on the cold range.
CREATE TABLE upgrade_test.answers (run text, query text, answer text);
CREATE FUNCTION upgrade_test.answer(run text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    q record;
    a text;
BEGIN
    FOR q IN SELECT * FROM (VALUES
        ('status', 'SELECT string_agg(format(''%s %s-%s %s %s'', table_name, from_range, to_range, tier, rows), ''; '' ORDER BY table_name::text, from_range, tier) FROM permanode.status'),
        ('messages', 'SELECT string_agg(message_id::text, '','' ORDER BY message_id) FROM permanode.messages'),
        ('point', format('SELECT string_agg(output_id::text || '' '' || amount, '','') FROM permanode.basic_outputs WHERE output_id = (SELECT min(output_id) FROM permanode.basic_outputs WHERE ms_range_id = 1733)')),
        ('first page', format('SELECT string_agg(output_id::text, '','') FROM (SELECT output_id FROM permanode.basic_outputs_by_address WHERE address = %L ORDER BY ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC LIMIT 5) s', current_setting('upgrade_test.addr')))) AS v(query, sql)
    LOOP
        EXECUTE q.sql INTO a;
        INSERT INTO upgrade_test.answers VALUES (run, q.query, a);
    END LOOP;
    RETURN (SELECT count(*) FROM upgrade_test.answers WHERE answers.run = answer.run AND answer IS NOT NULL);
END
$$;
SELECT set_config('upgrade_test.addr', :'addr', false) IS NOT NULL AS addr_set;
SELECT upgrade_test.answer('0.1.0') AS answered;

SET client_min_messages = warning;
ALTER EXTENSION permanode_fdw UPDATE;
ALTER EXTENSION permanode UPDATE;
RESET client_min_messages;
SELECT extname, extversion FROM pg_extension WHERE extname LIKE 'permanode%' ORDER BY 1;
SELECT upgrade_test.answer('updated') AS answered;
SELECT count(*) AS different_answers
FROM upgrade_test.answers a JOIN upgrade_test.answers b USING (query)
WHERE a.run = '0.1.0' AND b.run = 'updated' AND a.answer IS DISTINCT FROM b.answer;
-- 0.7.0 backfilled retired_outputs from the history held: the outputs created and then spent
-- by the milestones ingested before the update, as ingest books them (rebuilding agrees).
SELECT count(*) AS retired_backfilled,
       count(*) = (SELECT count(*) FROM spent_outputs s
                   JOIN (SELECT output_id, milestone_index FROM basic_outputs
                         UNION ALL SELECT output_id, milestone_index FROM alias_outputs
                         UNION ALL SELECT output_id, milestone_index FROM foundry_outputs
                         UNION ALL SELECT output_id, milestone_index FROM nft_outputs) o
                     USING (output_id)
                   WHERE o.milestone_index < s.milestone_index) AS as_history_says
FROM retired_outputs;
-- The updated database ingests a milestone of a new range (2418187: its partitions are made).
SELECT milestone, already_ingested, messages FROM ingest_test.ingest(2418187);
SELECT count(*) AS range_241818_messages FROM messages WHERE ms_range_id = 241818;

SELECT upgrade_test.keep('0.1.0') AS functions_kept;

SET client_min_messages = warning;
DROP EXTENSION permanode CASCADE;
SELECT count(*) >= 0 AS archives_removed FROM archive_gc();
DROP EXTENSION permanode_fdw CASCADE;
CREATE EXTENSION permanode_fdw;
CREATE EXTENSION permanode;
RESET client_min_messages;
SELECT upgrade_test.keep('fresh') AS functions_kept;
SELECT * FROM upgrade_test.counts ORDER BY install;
-- What differs, either way (none).
SELECT * FROM upgrade_test.differences() ORDER BY 1, 2;
SELECT count(*) FILTER (WHERE install = 'fresh' AND relation = 'partition_hints') AS hint_queries,
       count(*) FILTER (WHERE install = 'fresh' AND relation = 'addresses_hints') AS addresses_hints_columns,
       count(*) FILTER (WHERE install = 'fresh' AND relation = 'dumped') AS dumped_tables
FROM upgrade_test.shapes;

DROP SCHEMA ingest_test, upgrade_test CASCADE;
