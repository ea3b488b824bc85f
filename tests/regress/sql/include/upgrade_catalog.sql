-- The upgrade tests' record of installs, in schema upgrade_test (which the test makes): the
-- objects of each install, kept by upgrade_test.keep(install) after an update and after a fresh
-- install, and what differs from the fresh one. An install's objects are its functions, those of
-- both extensions (aggregates by their parts, types by name: OIDs differ between installs), its
-- tables' and views' columns, the hint catalog, the tables pg_dump dumps, the indexes of its
-- tables (partitions aside) and its statistics objects. Their bodies are checked when run: an
-- install may come after them.
SET check_function_bodies = off;
CREATE FUNCTION upgrade_test.definition(f oid) RETURNS text
LANGUAGE sql AS $$
    SELECT CASE WHEN p.prokind = 'a'
                THEN (SELECT format('%s %s %s', a.aggtransfn, a.aggcombinefn, a.aggtranstype::regtype)
                      FROM pg_aggregate a WHERE a.aggfnoid = f)
                ELSE pg_get_functiondef(f) END
    FROM pg_proc p WHERE p.oid = f
$$;
CREATE FUNCTION upgrade_test.functions() RETURNS TABLE (function text, definition text,
                                                        prosecdef boolean, proconfig text[], rights text)
LANGUAGE sql AS $$
    SELECT p.oid::regprocedure::text, upgrade_test.definition(p.oid), p.prosecdef, p.proconfig,
           p.proacl::text
    FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname IN ('permanode', 'permanode_fdw')
$$;
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
CREATE TABLE upgrade_test.functions AS SELECT ''::text AS install, * FROM upgrade_test.functions() WHERE false;
CREATE TABLE upgrade_test.shapes AS SELECT ''::text AS install, * FROM upgrade_test.shape() WHERE false;
CREATE FUNCTION upgrade_test.keep(install text) RETURNS bigint
LANGUAGE sql AS $$
    INSERT INTO upgrade_test.functions SELECT install, * FROM upgrade_test.functions();
    INSERT INTO upgrade_test.shapes SELECT install, * FROM upgrade_test.shape();
    SELECT count(*) FROM upgrade_test.functions f WHERE f.install = keep.install;
$$;
-- The functions and objects of an updated install that the fresh one lacks or has otherwise, and
-- those of the fresh one that it lacks ('missing ...').
CREATE FUNCTION upgrade_test.differences() RETURNS TABLE (install text, what text)
LANGUAGE sql AS $$
    WITH objects AS (
        SELECT install, function AS what,
               row(function, definition, prosecdef, proconfig, rights)::text AS object
        FROM upgrade_test.functions
        UNION ALL
        SELECT install, relation || ': ' || shape, relation || ': ' || shape FROM upgrade_test.shapes),
    fresh AS (SELECT what, object FROM objects WHERE install = 'fresh'),
    updated AS (SELECT * FROM objects WHERE install <> 'fresh')
    SELECT u.install, u.what FROM updated u
    WHERE NOT EXISTS (SELECT FROM fresh f WHERE f.object = u.object)
    UNION ALL
    SELECT i.install, 'missing ' || f.what FROM fresh f CROSS JOIN (SELECT DISTINCT install FROM updated) i
    WHERE NOT EXISTS (SELECT FROM updated u WHERE u.install = i.install AND u.object = f.object)
$$;
-- Per install: its functions and other objects.
CREATE VIEW upgrade_test.counts AS
SELECT f.install, f.functions, (SELECT count(*) FROM upgrade_test.shapes o WHERE o.install = f.install) AS objects
FROM (SELECT install, count(*) AS functions FROM upgrade_test.functions GROUP BY install) f;
RESET check_function_bodies;
