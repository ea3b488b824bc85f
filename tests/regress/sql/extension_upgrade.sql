-- Upgrades: a database made at 0.1.0 (sql/permanode--0.1.0.sql, kept as released) that ingested
-- and archived, updated with ALTER EXTENSION ... UPDATE (through 0.2.0 to the newest), answers as
-- before; its objects are then those of a fresh install: definitions, security, settings and
-- rights of every function, the columns of every table and view, and the hint catalog.
\set VERBOSITY terse
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS permanode CASCADE;
DROP EXTENSION IF EXISTS permanode_fdw CASCADE;
DROP SCHEMA IF EXISTS ingest_test, upgrade_test CASCADE;
CREATE EXTENSION permanode_fdw VERSION '0.1.0';
CREATE EXTENSION permanode VERSION '0.1.0';
RESET client_min_messages;
SET search_path = public, permanode;
SELECT extname, extversion FROM pg_extension WHERE extname LIKE 'permanode%' ORDER BY 1;

-- Ingest 17339-17341 (ranges 1733 and 1734 at 10 milestones a range), archive range 1733.
SELECT count(*) AS chunk_sizes_set FROM (SELECT set_chunk_size(table_name, 10) FROM ledger_tables) s;
\getenv fixtures PERMANODE_FIXTURES
\getenv abs_srcdir PG_ABS_SRCDIR
\set fixtures_sql :abs_srcdir '/sql/include/fixtures.sql'
\set ECHO none
\o /dev/null
\i :fixtures_sql
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
CREATE SCHEMA upgrade_test;
CREATE TABLE upgrade_test.answers (run text, query text, answer text);
CREATE FUNCTION upgrade_test.answer(run text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    q record;
    a text;
BEGIN
    FOR q IN SELECT * FROM (VALUES
        ('status', 'SELECT string_agg(r, ''; '' ORDER BY r) FROM (SELECT format(''%s %s-%s %s %s'', table_name, from_range, to_range, tier, rows) AS r FROM permanode.status) s'),
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

ALTER EXTENSION permanode_fdw UPDATE;
-- At 0.10.0, legacy transactions (the iota.js sample bundle's, of March 2018) are ingested
-- before the era's analytics were kept: 0.11.0 counts them when it makes its tables.
ALTER EXTENSION permanode UPDATE TO '0.10.0';
SELECT legacy.ingest(array_agg(legacy.t5b1(t->>'trytes')), array_agg((t->>'hash')::trytes81), array_agg(0)) AS legacy_ingested
FROM jsonb_array_elements(pg_read_file(:'fixtures' || '/../legacy/iotajs-samples-bundle.json')::jsonb->'transactions') t;
ALTER EXTENSION permanode UPDATE;
SELECT a.date, a.transactions, a.value_transactions, a.tokens, a.total_addresses, a.rolled_up,
       (a.transactions, a.value_transactions, a.tokens) = (
           SELECT count(*), count(*) FILTER (WHERE value <> 0), coalesce(sum(value) FILTER (WHERE value > 0), 0)
           FROM legacy.transactions t WHERE (t.issued_at AT TIME ZONE 'UTC')::date = a.date) AS as_held
FROM legacy.daily_analytics a ORDER BY 1;
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

-- The updated extension's functions equal a fresh install's (aggregates by their parts, types
-- by name: OIDs differ between the two installs).
CREATE FUNCTION upgrade_test.definition(f oid) RETURNS text
LANGUAGE sql AS $$
    SELECT CASE WHEN p.prokind = 'a'
                THEN (SELECT format('%s %s %s', a.aggtransfn, a.aggcombinefn, a.aggtranstype::regtype)
                      FROM pg_aggregate a WHERE a.aggfnoid = f)
                ELSE pg_get_functiondef(f) END
    FROM pg_proc p WHERE p.oid = f
$$;
CREATE TABLE upgrade_test.functions AS
SELECT 'updated'::text AS install, p.oid::regprocedure::text AS function, upgrade_test.definition(p.oid) AS definition,
       p.prosecdef, p.proconfig, p.proacl::text AS rights
FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'permanode';
-- So do its tables' and views' columns, the hint catalog, the tables pg_dump dumps, the indexes
-- of its tables (partitions aside) and its statistics objects.
CREATE FUNCTION upgrade_test.shape() RETURNS TABLE (relation text, shape text)
LANGUAGE sql AS $$
    SELECT c.relname::text, format('%s %s%s', a.attname, format_type(a.atttypid, a.atttypmod),
                                   CASE WHEN a.attnotnull THEN ' not null' ELSE '' END)
    FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    WHERE c.relnamespace IN ('permanode'::regnamespace, to_regnamespace('legacy'),
                             to_regnamespace('access'))
      AND c.relkind IN ('r', 'p', 'v') AND NOT c.relispartition
    UNION ALL
    SELECT 'partition_hints', format('%s.%s: %s', table_name, column_name, hint_query)
    FROM permanode.partition_hints
    UNION ALL
    SELECT 'dumped', cfg::regclass::text
    FROM pg_extension e CROSS JOIN LATERAL unnest(e.extconfig) cfg WHERE e.extname = 'permanode'
    UNION ALL
    SELECT 'index', pg_get_indexdef(x.indexrelid)
    FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid
    WHERE t.relnamespace IN ('permanode'::regnamespace, to_regnamespace('legacy'),
                             to_regnamespace('streams'), to_regnamespace('access'))
      AND NOT t.relispartition
    UNION ALL
    SELECT 'statistics', s.stxname::text
    FROM pg_statistic_ext s
    WHERE s.stxnamespace IN ('permanode'::regnamespace, to_regnamespace('legacy'),
                             to_regnamespace('streams'))
$$;
CREATE TABLE upgrade_test.shapes AS SELECT 'updated'::text AS install, * FROM upgrade_test.shape();
SET client_min_messages = warning;
DROP EXTENSION permanode CASCADE;
SELECT count(*) >= 0 AS archives_removed FROM archive_gc();
CREATE EXTENSION permanode;
RESET client_min_messages;
INSERT INTO upgrade_test.functions
SELECT 'fresh', p.oid::regprocedure::text, upgrade_test.definition(p.oid), p.prosecdef, p.proconfig, p.proacl::text
FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'permanode';
INSERT INTO upgrade_test.shapes SELECT 'fresh', * FROM upgrade_test.shape();
SELECT count(*) FILTER (WHERE install = 'fresh') AS functions,
       count(*) FILTER (WHERE install = 'fresh') = count(*) FILTER (WHERE install = 'updated') AS same_count
FROM upgrade_test.functions;
-- Functions that differ, either way (none).
(SELECT function, definition, prosecdef, proconfig, rights FROM upgrade_test.functions WHERE install = 'fresh'
 EXCEPT SELECT function, definition, prosecdef, proconfig, rights FROM upgrade_test.functions WHERE install = 'updated')
UNION ALL
(SELECT function, definition, prosecdef, proconfig, rights FROM upgrade_test.functions WHERE install = 'updated'
 EXCEPT SELECT function, definition, prosecdef, proconfig, rights FROM upgrade_test.functions WHERE install = 'fresh');

-- Columns and hint queries that differ, either way (none).
(SELECT relation, shape FROM upgrade_test.shapes WHERE install = 'fresh'
 EXCEPT SELECT relation, shape FROM upgrade_test.shapes WHERE install = 'updated')
UNION ALL
(SELECT relation, shape FROM upgrade_test.shapes WHERE install = 'updated'
 EXCEPT SELECT relation, shape FROM upgrade_test.shapes WHERE install = 'fresh');
SELECT count(*) FILTER (WHERE install = 'fresh' AND relation = 'partition_hints') AS hint_queries,
       count(*) FILTER (WHERE install = 'fresh' AND relation = 'addresses_hints') AS addresses_hints_columns,
       count(*) FILTER (WHERE install = 'fresh' AND relation = 'dumped') AS dumped_tables
FROM upgrade_test.shapes;

DROP SCHEMA ingest_test, upgrade_test CASCADE;
