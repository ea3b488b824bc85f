-- What a BI user sees, logged in as a member of permanode_bi (93_bi_views.sql): every table
-- and view it may read is documented, nothing it may reach is writable, and the views a BI user
-- starts from agree with the tables they sum (the real Shimmer fixtures).
\set VERBOSITY terse
\getenv abs_srcdir PG_ABS_SRCDIR
\set fresh_extension :abs_srcdir '/sql/include/fresh_extension.sql'
\set ECHO none
\i :fresh_extension
\o /dev/null
\i :fixtures_sql
\o
\set ECHO all

-- The schemas permanode_bi may read.
SELECT n.nspname FROM pg_namespace n
WHERE has_schema_privilege('permanode_bi', n.oid, 'USAGE')
  AND n.nspname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1;

-- Every table, view and materialized view in them it may SELECT from has a COMMENT (partitions
-- are made at run time: not the extension's). None lacks one.
SELECT n.nspname, c.relname, c.relkind
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition
  AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND has_schema_privilege('permanode_bi', n.oid, 'USAGE')
  AND has_table_privilege('permanode_bi', c.oid, 'SELECT')
  AND obj_description(c.oid, 'pg_class') IS NULL
ORDER BY 1, 2;
-- ... and they are not few.
SELECT count(*) > 50 AS many_readable
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition
  AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND has_table_privilege('permanode_bi', c.oid, 'SELECT');
-- The views a BI user starts from document every column.
SELECT c.relname, a.attname
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
WHERE c.oid IN ('permanode.daily_activity'::regclass, 'permanode.rich_list'::regclass)
  AND a.attnum > 0 AND col_description(c.oid, a.attnum) IS NULL;

-- Nothing writable: no table or view the role may change, no schema it may create in, and the
-- functions it may run with their owner's rights only read.
SELECT n.nspname, c.relname, p.privilege
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
CROSS JOIN unnest('{INSERT,UPDATE,DELETE,TRUNCATE,REFERENCES,TRIGGER}'::text[]) p(privilege)
WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND has_table_privilege('permanode_bi', c.oid, p.privilege)
ORDER BY 1, 2, 3;
SELECT n.nspname FROM pg_namespace n WHERE has_schema_privilege('permanode_bi', n.oid, 'CREATE');
SELECT p.oid::regprocedure AS security_definer_function
FROM pg_proc p
WHERE p.prosecdef AND p.pronamespace <> 'pg_catalog'::regnamespace
  AND has_function_privilege('permanode_bi', p.oid, 'EXECUTE')
ORDER BY 1::text;

-- The views, read as the role, agree with the tables they sum.
SELECT count(*) AS milestones_ingested FROM (
    SELECT ingest_test.ingest(m) FROM unnest('{17339,17340,17341,2418187}'::int[]) m) s;
SET ROLE permanode_bi;
SELECT era, day, milestones, blocks, transactions, tokens_moved, active_addresses
FROM permanode.daily_activity ORDER BY era, day;
SELECT (SELECT sum(blocks) FROM permanode.daily_activity)
           = (SELECT sum(message_count) FROM permanode.ms_analytics) AS blocks_add_up,
       (SELECT sum(tokens_moved) FROM permanode.daily_activity)
           = (SELECT sum(transferred_tokens) FROM permanode.ms_analytics) AS tokens_add_up;
SELECT count(*) AS stardust_addresses, sum(balance) = (
           SELECT sum(amount) FROM permanode.unspent_outputs
           WHERE address IS NOT NULL AND output_kind <> 'legacy') AS balances_add_up,
       min(rank) AS first_rank, max(rank) = count(*) AS ranks_dense
FROM permanode.rich_list WHERE era = 'stardust';
-- The history of the address with the most unspent outputs holds them all, and page_size is a
-- limit.
SELECT address AS busiest FROM permanode.rich_list WHERE era = 'stardust'
ORDER BY outputs DESC, rank LIMIT 1 \gset
SELECT count(*) AS history, count(*) FILTER (WHERE spent_milestone_index IS NULL) AS unspent,
       (SELECT outputs FROM permanode.rich_list WHERE address = :'busiest') AS unspent_in_rich_list
FROM permanode.address_history(:'busiest', 100000);
SELECT count(*) AS page_of_two FROM permanode.address_history(:'busiest', 2);
-- Writes are refused.
INSERT INTO permanode.settings (key, value) VALUES ('bi', 'written');
DELETE FROM legacy.daily_analytics;
UPDATE permanode.unspent_outputs SET amount = 0;
RESET ROLE;
