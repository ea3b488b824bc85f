-- Upgrades from every release but 0.1.0 (extension_upgrade's), in a database of its own: a
-- database made at the release (its install scripts as released, built from its commit,
-- sql/releases) and updated with ALTER EXTENSION ... UPDATE straight to the newest holds the
-- objects of a fresh install. The one made at 0.10.0 holds legacy transactions, which 0.11.0
-- counts in the era's analytics.
\set VERBOSITY terse
SELECT current_database() AS regress_db \gset
SET client_min_messages = warning;
DROP DATABASE IF EXISTS permanode_regress_releases;
CREATE DATABASE permanode_regress_releases;
\c permanode_regress_releases
\set VERBOSITY terse
CREATE SCHEMA upgrade_test;
\getenv fixtures PERMANODE_FIXTURES
\getenv abs_srcdir PG_ABS_SRCDIR
\set upgrade_catalog :abs_srcdir '/sql/include/upgrade_catalog.sql'
\set ECHO none
\o /dev/null
\i :upgrade_catalog
\o
\set ECHO all
RESET client_min_messages;

-- Every release's install scripts are installed: the build makes them from the repository's
-- history, which a tarball lacks.
CREATE TABLE upgrade_test.releases AS
SELECT split_part(line, ' ', 1) AS version, n
FROM regexp_split_to_table(pg_read_file(:'abs_srcdir' || '/../../sql/releases'), E'\n')
     WITH ORDINALITY AS l(line, n)
WHERE line ~ '^[0-9]';
DO $$
DECLARE
    missing text := (SELECT string_agg(r.version, ', ' ORDER BY r.n) FROM upgrade_test.releases r
                     WHERE (SELECT count(*) FROM pg_available_extension_versions v
                            WHERE v.name IN ('permanode', 'permanode_fdw')
                              AND v.version = r.version) < 2);
BEGIN
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION 'no install scripts for the releases %: the build had no git history (sql/releases names their commits)', missing;
    END IF;
END
$$;
SELECT count(*) AS releases, min(version) AS oldest FROM upgrade_test.releases;

-- Makes both extensions at a release, updates them to the newest and keeps their objects.
CREATE FUNCTION upgrade_test.update_from(release text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    DROP EXTENSION IF EXISTS permanode_fdw CASCADE;
    EXECUTE format('CREATE EXTENSION permanode_fdw VERSION %L', release);
    EXECUTE format('CREATE EXTENSION permanode VERSION %L', release);
    IF release = '0.10.0' THEN
        -- Legacy transactions (the iota.js sample bundle's, of March 2018) ingested before the
        -- era's analytics were kept: 0.11.0 counts them when it makes its tables.
        PERFORM legacy.ingest(array_agg(legacy.t5b1(t->>'trytes')), array_agg((t->>'hash')::permanode.trytes81), array_agg(0))
        FROM jsonb_array_elements(pg_read_file(current_setting('upgrade_test.fixtures') || '/../legacy/iotajs-samples-bundle.json')::jsonb->'transactions') t;
    END IF;
    ALTER EXTENSION permanode_fdw UPDATE;
    ALTER EXTENSION permanode UPDATE;
    PERFORM upgrade_test.keep(release);
    RETURN (SELECT string_agg(extversion, ' ' ORDER BY extname) FROM pg_extension
            WHERE extname LIKE 'permanode%');
END
$$;
SELECT set_config('upgrade_test.fixtures', :'fixtures', false) IS NOT NULL AS fixtures_set;
SET client_min_messages = warning;
SELECT version AS release, upgrade_test.update_from(version) AS updated_to
FROM upgrade_test.releases WHERE version <> '0.1.0' ORDER BY n;
RESET client_min_messages;
-- The database made at 0.10.0 counted its legacy transactions when it was updated.
SELECT a.date, a.transactions, a.value_transactions, a.tokens, a.total_addresses, a.rolled_up,
       (a.transactions, a.value_transactions, a.tokens) = (
           SELECT count(*), count(*) FILTER (WHERE value <> 0), coalesce(sum(value) FILTER (WHERE value > 0), 0)
           FROM legacy.transactions t WHERE (t.issued_at AT TIME ZONE 'UTC')::date = a.date) AS as_held
FROM legacy.daily_analytics a ORDER BY 1;

SET client_min_messages = warning;
DROP EXTENSION permanode_fdw CASCADE;
CREATE EXTENSION permanode CASCADE;
RESET client_min_messages;
SELECT upgrade_test.keep('fresh') AS functions_kept;
SELECT c.* FROM upgrade_test.counts c LEFT JOIN upgrade_test.releases r ON r.version = c.install
ORDER BY r.n;
-- What differs, either way (none).
SELECT * FROM upgrade_test.differences() ORDER BY 1, 2;

\c :regress_db
DROP DATABASE permanode_regress_releases;
