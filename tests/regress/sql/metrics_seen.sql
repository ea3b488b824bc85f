-- A backend remembers which metrics_cache rows are committed and sends only new ones. What it
-- remembers must follow the transaction: rows of a rolled-back ingest, or of a rolled-back
-- savepoint, are not there, and the next ingest of the same day must write them.
\getenv abs_srcdir PG_ABS_SRCDIR
\set fresh_extension :abs_srcdir '/sql/include/fresh_extension.sql'
\i :fresh_extension
\o /dev/null
\i :fixtures_sql
\o

-- The reference: the day's rows after 17339, 17340 and 17341, ingested in a new session.
\c
SET search_path = public, permanode;
SELECT count(*) AS milestones FROM generate_series(17339, 17341) m, ingest_test.ingest(m);
CREATE TABLE ingest_test.reference AS SELECT date, variant, metric, value FROM metrics_cache;
SELECT variant, metric, count(*) FROM ingest_test.reference GROUP BY 1, 2 ORDER BY 1, 2;
CREATE FUNCTION ingest_test.compare() RETURNS TABLE (missing bigint, extra bigint)
LANGUAGE sql AS $$
    SELECT (SELECT count(*) FROM (SELECT * FROM ingest_test.reference
                                  EXCEPT SELECT date, variant, metric, value FROM metrics_cache) x),
           (SELECT count(*) FROM (SELECT date, variant, metric, value FROM metrics_cache
                                  EXCEPT SELECT * FROM ingest_test.reference) x)
$$;
\set empty_ledger :abs_srcdir '/sql/include/empty_ledger.sql'
\i :empty_ledger

-- A new session again: each case below starts with nothing known.
\c
SET search_path = public, permanode;
SELECT ingest_test.empty_ledger();
-- An ingest rolled back, then done again.
BEGIN;
SELECT milestone, messages FROM ingest_test.ingest(17339);
ROLLBACK;
SELECT count(*) AS metrics_rows FROM metrics_cache;
SELECT count(*) AS milestones FROM generate_series(17339, 17341) m, ingest_test.ingest(m);
SELECT * FROM ingest_test.compare();

\c
SET search_path = public, permanode;
SELECT ingest_test.empty_ledger();
-- An ingest in a savepoint rolled back, in a transaction that commits.
BEGIN;
SAVEPOINT before_ingest;
SELECT milestone, messages FROM ingest_test.ingest(17339);
ROLLBACK TO SAVEPOINT before_ingest;
COMMIT;
SELECT count(*) AS metrics_rows FROM metrics_cache;
SELECT count(*) AS milestones FROM generate_series(17339, 17341) m, ingest_test.ingest(m);
SELECT * FROM ingest_test.compare();

-- metrics_cache emptied in the session that knows every row: the next ingests write them all.
SELECT ingest_test.empty_ledger();
SELECT count(*) AS milestones FROM generate_series(17339, 17341) m, ingest_test.ingest(m);
SELECT * FROM ingest_test.compare();

SET client_min_messages = warning;
DROP SCHEMA ingest_test CASCADE;
DROP EXTENSION permanode CASCADE;
DROP EXTENSION permanode_fdw CASCADE;
