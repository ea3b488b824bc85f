-- Health against the nodes `permanode sync` follows (81_sync_follow.sql): the rows a sync writes
-- to sync_follow, judged by sync_health(max_lag, max_silence) against the archive's newest
-- milestone (17341 of the real Shimmer fixtures): a live sync that reports and keeps up is
-- healthy; one behind, one silent without a stop, and one that stopped on an error are not;
-- a clean stop and a bounded run leave health to the database. Then who may read and write it.
\set VERBOSITY terse
\getenv abs_srcdir PG_ABS_SRCDIR
\set fresh_extension :abs_srcdir '/sql/include/fresh_extension.sql'
\set ECHO none
\i :fresh_extension
\o /dev/null
\i :fixtures_sql
\o
\set ECHO all
SELECT count(*) AS milestones_ingested FROM (
    SELECT ingest_test.ingest(m) FROM unnest('{17339,17340,17341}'::int[]) m) s;

-- No sync recorded: nothing to judge.
SELECT count(*) AS syncs FROM sync_health();

-- The node's confirmed milestone 50 s after the archive's newest, and one kept up with.
SELECT milestone_time(17341) AS newest_at \gset
INSERT INTO sync_follow (source, pid, live, started_at, updated_at, node_confirmed_index,
                         node_confirmed_timestamp, archived_index, stopped_at, exit_code) VALUES
    ('INX a', 1, true, now(), now(), 17342, :'newest_at'::timestamptz + interval '5 s', 17341, NULL, NULL),
    ('INX b', 2, true, now(), now(), 17351, :'newest_at'::timestamptz + interval '50 s', 17341, NULL, NULL),
    ('INX c', 3, true, now(), now() - interval '1 min', 17341, :'newest_at', 17341, NULL, NULL),
    ('INX d', 4, true, now(), now(), 17341, :'newest_at', 17341, now(), 130),
    ('INX e', 5, true, now(), now(), 17341, :'newest_at', 17341, now(), 10),
    ('INX f', 6, true, now(), now(), 17341, :'newest_at', 17341, now(), NULL),
    ('INX g', 7, true, now(), now(), 17341, :'newest_at', 17341, now(), 0),
    ('REST h', 8, false, now(), now() - interval '1 min', 17400, NULL, 17341, NULL, NULL);
-- Timestamps and the seconds of silence masked (they move with the clock).
CREATE FUNCTION pg_temp.masked(reason text) RETURNS text
LANGUAGE sql AS $$
    SELECT regexp_replace(regexp_replace(reason, '\d{4}-\d\d-\d\d \d\d:\d\d:\d\d', 'T', 'g'),
                          'for \d+ s', 'for N s')
$$;
SELECT source, live, state, healthy, pg_temp.masked(reason) AS reason, archived_index,
       node_confirmed_index, lag_milestones, lag_seconds, heartbeat_age >= interval '1 min' AS silent
FROM sync_health();
-- Looser limits: 10 milestones behind and a minute of silence pass.
SELECT source, state, healthy FROM sync_health(10, '2 min') WHERE source IN ('INX b', 'INX c');
-- Tighter: 1 milestone behind is too many.
SELECT source, state, healthy FROM sync_health(0) WHERE source = 'INX a';

-- The readers (the HTTP server) read it, the writer (the sync) writes it, the admin forgets a
-- source; nobody else.
SELECT r.rolname, p.privilege, has_table_privilege(r.rolname, 'permanode.sync_follow', p.privilege) AS granted
FROM (VALUES ('permanode_reader'), ('permanode_writer'), ('permanode_admin')) r(rolname),
     (VALUES ('SELECT'), ('INSERT'), ('UPDATE'), ('DELETE')) p(privilege)
ORDER BY 1, 2;
SELECT has_function_privilege('permanode_reader', 'permanode.sync_health(int, interval)', 'EXECUTE')
    AS reader_judges;

DELETE FROM sync_follow;
DROP SCHEMA ingest_test CASCADE;
