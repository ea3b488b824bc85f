-- The ledger as of any milestone (#24): retired_outputs keeps the unspent set's rows once spent,
-- with the spending milestone; outputs_at and balance_at answer at the end of any milestone
-- held. On the real Chrysalis messages (testnet7 16241-16242: 16242 spends output 12 of
-- 70a9a9bc) and the real Shimmer blocks (17339-17341), ingested in milestone order and in
-- reverse, hot and archived.
\set VERBOSITY terse
\getenv abs_srcdir PG_ABS_SRCDIR
SET client_min_messages = warning;
DROP SCHEMA IF EXISTS as_of_test, testnet7 CASCADE;
RESET client_min_messages;
\set fresh_extension :abs_srcdir '/sql/include/fresh_extension.sql'
\set ECHO none
\i :fresh_extension
\set ECHO all
SELECT init('iota') AS hrp;
SELECT count(*) AS chunk_sizes_set FROM (SELECT set_chunk_size(table_name, 1000) FROM ledger_tables) s;

CREATE SCHEMA as_of_test;
\set testnet7_sql :abs_srcdir '/sql/include/testnet7.sql'
\set ECHO none
\i :testnet7_sql
\set ECHO all

-- In milestone order: 16242's spend moves output 12 from the unspent set to retired_outputs,
-- alive from 16241 (created) to 16242 (spent), with its output type (0: SigLockedSingleOutput).
SELECT testnet7.ingest_16241() AS created, testnet7.ingest_16242() AS spent;
SELECT output_id, output_kind, amount, milestone_index, spent_milestone_index, output_type
FROM retired_outputs;
SELECT address AS addr FROM retired_outputs \gset

-- The address at the end of each milestone: its outputs (NULL spent_milestone_index: unspent
-- still) and its balance per kind. At 16241 it holds output 12; at 16242 no longer.
SELECT 16241 AS at, * FROM outputs_at(:'addr', 16241) ORDER BY output_id;
SELECT 16242 AS at, * FROM outputs_at(:'addr', 16242) ORDER BY output_id;
SELECT 16241 AS at, * FROM balance_at(:'addr', 16241);
SELECT 16242 AS at, * FROM balance_at(:'addr', 16242);
-- Without a milestone: the newest held.
SELECT count(*) AS newest_outputs FROM outputs_at(:'addr');
-- Every address of 16241, both milestones: outputs_at is the history's answer (created by then,
-- not spent by then), read from the history tables here as a check.
-- (Functions, not views: their bodies outlive the extension, which this test installs twice.)
CREATE FUNCTION as_of_test.history_answer() RETURNS TABLE (address text, at int, outputs bigint, balance numeric)
LANGUAGE sql AS $$
    SELECT a.address::text, n.at, count(*), sum(c.amount)
    FROM (SELECT DISTINCT address FROM permanode.legacy_outputs) a
    CROSS JOIN (VALUES (16241), (16242)) n(at)
    JOIN permanode.legacy_outputs c ON c.address = a.address AND NOT c.is_used
                                   AND c.milestone_index <= n.at
    WHERE NOT EXISTS (SELECT 1 FROM permanode.legacy_outputs u
                      WHERE u.output_id = c.output_id AND u.is_used AND u.milestone_index <= n.at)
    GROUP BY 1, 2
$$;
CREATE FUNCTION as_of_test.differing() RETURNS bigint LANGUAGE sql AS $$
    WITH h AS (SELECT * FROM as_of_test.history_answer()),
         a AS (SELECT x.address::text, n.at, sum(b.outputs) AS outputs, sum(b.balance) AS balance
               FROM (SELECT DISTINCT address FROM permanode.legacy_outputs) x
               CROSS JOIN (VALUES (16241), (16242)) n(at)
               CROSS JOIN LATERAL permanode.balance_at(x.address, n.at) b GROUP BY 1, 2)
    SELECT count(*) FROM ((TABLE h EXCEPT TABLE a) UNION ALL (TABLE a EXCEPT TABLE h)) d
$$;
SELECT (SELECT count(*) FROM as_of_test.history_answer()) AS pairs,
       as_of_test.differing() AS differing;

-- The plan: the unspent set's address index bounded by the milestone's time, and the span
-- index of retired_outputs probed at (address, milestone): entries alive then only.
EXPLAIN (COSTS OFF) SELECT * FROM outputs_at(:'addr', 16241);
CREATE TABLE as_of_test.probe (plan text);
DO $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE format('EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) '
                               'SELECT * FROM permanode.outputs_at(%L, 16241)',
                               (SELECT address FROM permanode.retired_outputs)) LOOP
        INSERT INTO as_of_test.probe VALUES (line);
    END LOOP;
END
$$;
SELECT trim(plan) AS retired_probe FROM as_of_test.probe
WHERE plan LIKE '%retired_outputs_by_address%';

-- The same ledger ingested in reverse: 16242's spend arrives first (the output is not known
-- yet); 16241 then books output 12 straight into retired_outputs, with the same row.
-- (As text: the extension's types go with it.)
CREATE TABLE as_of_test.in_order AS SELECT r::text AS row FROM retired_outputs r;
SET client_min_messages = warning;
DROP EXTENSION permanode CASCADE;
DROP EXTENSION permanode_fdw CASCADE;
CREATE EXTENSION permanode CASCADE;
RESET client_min_messages;
SELECT init('iota') AS hrp;
SELECT count(*) AS chunk_sizes_set FROM (SELECT set_chunk_size(table_name, 1000) FROM ledger_tables) s;
SELECT testnet7.ingest_16242() AS spent, testnet7.ingest_16241() AS created;
SELECT count(*) AS unspent_has_it FROM unspent_outputs
WHERE output_id = '0x95535a4cc1976149d11a6e0b988118d1de435c50481749e351ef835d705ab1e70c00';
SELECT count(*) AS retired, count(*) FILTER (WHERE r::text IN (SELECT row FROM as_of_test.in_order)) AS same
FROM retired_outputs r;
SELECT as_of_test.differing() AS differing;

-- rebuild_retired_outputs (what the upgrade to 0.7.0 runs) derives the same rows from history.
SELECT rebuild_retired_outputs() AS rebuilt;
SELECT count(*) AS same_as_ingest FROM retired_outputs r WHERE r::text IN (SELECT row FROM as_of_test.in_order);

-- The Stardust era follows (the real Shimmer blocks 17339-17341). At a Stardust milestone the
-- Chrysalis outputs are not the address's (each milestone answers for its own era).
\set ECHO none
\o /dev/null
\i :fixtures_sql
\o
\set ECHO all
SELECT count(*) AS stardust_milestones FROM (
    SELECT ingest_test.ingest(m) FROM unnest('{17339,17340,17341}'::int[]) m) s;
SELECT protocol_at(16242) AS era_16242, protocol_at(17339) AS era_17339, protocol_at(1) AS era_1;
SELECT address AS caddr FROM unspent_outputs WHERE output_kind = 'legacy'
GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT (SELECT count(*) FROM unspent_outputs WHERE address = :'caddr') AS unspent_chrysalis_outputs,
       (SELECT count(*) FROM outputs_at(:'caddr', 16242)) AS held_at_16242,
       (SELECT count(*) FROM outputs_at(:'caddr', 17341)) AS held_at_17341;
-- A Stardust address of 17341's unspent set: its balance at 17341 is the unspent set's.
SELECT address AS saddr FROM unspent_outputs WHERE output_kind = 'basic' AND address IS NOT NULL
GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT (SELECT sum(balance) FROM balance_at(:'saddr', 17341))
     = (SELECT sum(amount) FROM unspent_outputs WHERE address = :'saddr' AND output_kind <> 'legacy')
       AS newest_is_the_unspent_set;
-- Before its outputs were created, the address held none of them.
SELECT count(*) AS held_before FROM outputs_at(:'saddr', 16242);

-- Archived: the Chrysalis range goes to the cold tier; answers stay (the as-of tables are hot,
-- and the milestone's time is read from the archived messages).
SELECT table_name, rows FROM archive(16, 17) WHERE rows > 0 ORDER BY 1;
SELECT milestone_time(16241) AS time_16241;
SELECT as_of_test.differing() AS differing_archived;

-- Readers may ask; rebuilding is the admin's.
SET ROLE permanode_reader;
SELECT count(*) AS reader_reads FROM outputs_at(:'addr', 16241);
SELECT rebuild_retired_outputs();
RESET ROLE;

SET client_min_messages = warning;
DROP SCHEMA ingest_test, as_of_test, testnet7 CASCADE;
DROP EXTENSION permanode CASCADE;
DROP EXTENSION permanode_fdw CASCADE;
