-- Deferred hint row counts (permanode.defer_hint_counts = on, which permanode ingest sets): a
-- session adds the counts of hint rows it knows are committed to sums, and writes them back with
-- permanode.flush_hint_counts(). Until then every key has its hint row and no count is above its
-- rows (the planner's pruning needs no more); after it, every count is exact. Sums follow the
-- transaction: a rolled-back ingest, savepoint or write-back never makes a count too high.
\getenv abs_srcdir PG_ABS_SRCDIR
\set fresh_extension :abs_srcdir '/sql/include/fresh_extension.sql'
\i :fresh_extension
\o /dev/null
\i :fixtures_sql
\o
SET search_path = public, permanode;

-- Per key of either hint table: its rows in the ledger tables, and its hint row's count.
CREATE FUNCTION ingest_test.hint_rows()
RETURNS TABLE (hints text, n bigint, row_count bigint)
LANGUAGE sql AS $$
    WITH rows_of AS (
        SELECT address, 'extended' AS output_kind, 'address' AS variant, ms_range_id FROM basic_outputs WHERE address IS NOT NULL
        UNION ALL SELECT sender, 'extended', 'sender', ms_range_id FROM basic_outputs WHERE sender IS NOT NULL
        UNION ALL SELECT dust_return_address, 'extended', 'dust_return_address', ms_range_id FROM basic_outputs WHERE dust_return_address IS NOT NULL
        UNION ALL SELECT sender, 'alias', 'sender', ms_range_id FROM alias_outputs WHERE sender IS NOT NULL
        UNION ALL SELECT issuer, 'alias', 'issuer', ms_range_id FROM alias_outputs WHERE issuer IS NOT NULL
        UNION ALL SELECT state_controller, 'alias', 'state_controller', ms_range_id FROM alias_outputs WHERE state_controller IS NOT NULL
        UNION ALL SELECT governor, 'alias', 'governor', ms_range_id FROM alias_outputs WHERE governor IS NOT NULL
        UNION ALL SELECT address, 'foundry', 'address', ms_range_id FROM foundry_outputs WHERE address IS NOT NULL
        UNION ALL SELECT address, 'nft', 'address', ms_range_id FROM nft_outputs WHERE address IS NOT NULL
        UNION ALL SELECT sender, 'nft', 'sender', ms_range_id FROM nft_outputs WHERE sender IS NOT NULL
        UNION ALL SELECT issuer, 'nft', 'issuer', ms_range_id FROM nft_outputs WHERE issuer IS NOT NULL
        UNION ALL SELECT dust_return_address, 'nft', 'dust_return_address', ms_range_id FROM nft_outputs WHERE dust_return_address IS NOT NULL
        UNION ALL SELECT address, 'analytics', 'address', ms_range_id FROM address_analytics),
    addresses AS (
        SELECT a.n, h.row_count FROM (SELECT address, output_kind, variant, ms_range_id, count(*) AS n
                                      FROM rows_of GROUP BY 1, 2, 3, 4) a
        LEFT JOIN addresses_hints h USING (address, output_kind, variant, ms_range_id)),
    tags AS (
        SELECT a.n, h.row_count FROM (
            SELECT tag, table_kind, ms_range_id, count(*) AS n FROM (
                SELECT tag, 'message' AS table_kind, ms_range_id FROM permanode.tags
                UNION ALL SELECT tag, 'basic_output', ms_range_id FROM basic_outputs WHERE tag IS NOT NULL
                UNION ALL SELECT tag, 'nft_output', ms_range_id FROM nft_outputs WHERE tag IS NOT NULL) t
            GROUP BY 1, 2, 3) a
        LEFT JOIN tag_hints h USING (tag, table_kind, ms_range_id))
    SELECT 'addresses_hints', n, row_count FROM addresses
    UNION ALL
    SELECT 'tag_hints', n, row_count FROM tags
$$;
-- Per hint table: keys with rows but no hint row, counts below their rows, counts above them.
CREATE FUNCTION ingest_test.hint_check()
RETURNS TABLE (hints text, keys bigint, missing bigint, below bigint, above bigint)
LANGUAGE sql AS $$
    SELECT hints, count(*), count(*) FILTER (WHERE row_count IS NULL),
           count(*) FILTER (WHERE row_count < n), count(*) FILTER (WHERE row_count > n)
    FROM ingest_test.hint_rows() GROUP BY hints ORDER BY hints
$$;
-- Per hint table: the rows that counts below their rows lack, in all.
CREATE FUNCTION ingest_test.hint_shortfall()
RETURNS TABLE (hints text, rows_short numeric)
LANGUAGE sql AS $$
    SELECT hints, sum(n - row_count) FILTER (WHERE row_count < n)
    FROM ingest_test.hint_rows() GROUP BY hints ORDER BY hints
$$;
\set empty_ledger :abs_srcdir '/sql/include/empty_ledger.sql'
\i :empty_ledger
-- One transaction per milestone, as permanode ingest runs them.
CREATE PROCEDURE ingest_test.ingest_each(first int, last int)
LANGUAGE plpgsql AS $$
BEGIN
    FOR m IN first..last LOOP
        PERFORM ingest_test.ingest(m);
        COMMIT;
    END LOOP;
END
$$;

-- Off (the default): every count is exact after each milestone, and there is nothing to write.
SHOW permanode.defer_hint_counts;
SELECT count(*) AS milestones FROM generate_series(17339, 17341) m, ingest_test.ingest(m);
SELECT * FROM ingest_test.hint_check();
SELECT flush_hint_counts() AS written;
-- recount_hints() counts as ingest does: nothing to change.
SELECT recount_hints() AS changed;

-- On, in a new session, one transaction per milestone: the rows written by 17339 are known
-- when 17340 and 17341 come, so their counts are deferred (below), never missing or above.
\c
SET search_path = public, permanode;
SELECT ingest_test.empty_ledger();
SET permanode.defer_hint_counts = on;
CALL ingest_test.ingest_each(17339, 17341);
SELECT * FROM ingest_test.hint_check();
-- A write-back rolled back: its sums wait for the next one.
BEGIN;
SELECT flush_hint_counts() > 0 AS wrote;
ROLLBACK;
SELECT * FROM ingest_test.hint_check();
SELECT flush_hint_counts() > 0 AS wrote;
SELECT * FROM ingest_test.hint_check();
SELECT flush_hint_counts() AS written_again;

-- A rolled-back ingest and an ingest in a rolled-back savepoint add nothing to the sums.
\c
SET search_path = public, permanode;
SELECT ingest_test.empty_ledger();
SET permanode.defer_hint_counts = on;
SELECT milestone FROM ingest_test.ingest(17339);
BEGIN;
SELECT milestone FROM ingest_test.ingest(17340);
ROLLBACK;
BEGIN;
SAVEPOINT before_ingest;
SELECT milestone FROM ingest_test.ingest(17340);
ROLLBACK TO SAVEPOINT before_ingest;
COMMIT;
SELECT milestone FROM ingest_test.ingest(17340);
SELECT milestone FROM ingest_test.ingest(17341);
SELECT flush_hint_counts() > 0 AS wrote;
SELECT * FROM ingest_test.hint_check();

-- A write-back in a savepoint rolled back: its sums are dropped (counts stay below, never
-- above), since which part of the transaction wrote them is not tracked.
\c
SET search_path = public, permanode;
SELECT ingest_test.empty_ledger();
SET permanode.defer_hint_counts = on;
CALL ingest_test.ingest_each(17339, 17341);
BEGIN;
SAVEPOINT before_write_back;
SELECT flush_hint_counts() > 0 AS wrote;
ROLLBACK TO SAVEPOINT before_write_back;
COMMIT;
SELECT flush_hint_counts() AS written_again;
SELECT (below > 0) AS some_below, missing, above FROM ingest_test.hint_check();

-- The hint tables emptied in a session with sums and known rows: the sums are dropped and the
-- next ingests write every row again.
\c
SET search_path = public, permanode;
SELECT ingest_test.empty_ledger();
SET permanode.defer_hint_counts = on;
CALL ingest_test.ingest_each(17339, 17341);
SELECT ingest_test.empty_ledger();
SELECT flush_hint_counts() AS written_after_truncate;
CALL ingest_test.ingest_each(17339, 17341);
SELECT * FROM ingest_test.hint_check();
SELECT flush_hint_counts() > 0 AS wrote;
SELECT * FROM ingest_test.hint_check();

-- Following a node, a write-back is also due once the oldest sum has waited
-- permanode.hint_counts_max_delay (default 1 min). Without it (the default's minute does not pass
-- here), the rows 17340 and 17341 deferred are short; with 0, each milestone writes back the sums
-- of those before it, and only 17341's are. (No autovacuum on the hint tables here: an ANALYZE
-- makes the session forget its known rows, and the next milestone writes its rows exactly.)
ALTER TABLE addresses_hints SET (autovacuum_enabled = off);
ALTER TABLE tag_hints SET (autovacuum_enabled = off);
\c
SET search_path = public, permanode;
SHOW permanode.hint_counts_max_delay;
SELECT ingest_test.empty_ledger();
SET permanode.defer_hint_counts = on;
CALL ingest_test.ingest_each(17339, 17341);
SELECT * FROM ingest_test.hint_shortfall();
SELECT flush_hint_counts() > 0 AS wrote;
SELECT ingest_test.empty_ledger();
SET permanode.hint_counts_max_delay = 0;
CALL ingest_test.ingest_each(17339, 17341);
SELECT * FROM ingest_test.hint_check();
SELECT * FROM ingest_test.hint_shortfall();
-- With 1 s, and a second between 17340 and 17341: 17341 writes back 17340's sums (short as with 0).
\c
SET search_path = public, permanode;
SELECT ingest_test.empty_ledger();
SET permanode.defer_hint_counts = on;
SET permanode.hint_counts_max_delay = '1s';
CALL ingest_test.ingest_each(17339, 17340);
SELECT pg_sleep(1.1);
CALL ingest_test.ingest_each(17341, 17341);
SELECT * FROM ingest_test.hint_check();
SELECT * FROM ingest_test.hint_shortfall();
SET permanode.hint_counts_max_delay = -1;

-- Sums lost with their session (no write-back): the counts stay below until recount_hints().
\c
SET search_path = public, permanode;
SELECT ingest_test.empty_ledger();
SET permanode.defer_hint_counts = on;
CALL ingest_test.ingest_each(17339, 17341);
\c
SET search_path = public, permanode;
SELECT * FROM ingest_test.hint_check();
SELECT recount_hints() AS changed;
SELECT * FROM ingest_test.hint_check();
SELECT recount_hints() AS changed_again;
-- A session that holds sums when the recount runs drops them (the recount has their rows) rather
-- than add them again: nothing is written back, and no count is above its rows.
SET permanode.defer_hint_counts = on;
SELECT ingest_test.empty_ledger();
CALL ingest_test.ingest_each(17339, 17341);
SELECT recount_hints() > 0 AS changed;
SELECT flush_hint_counts() AS written_after_recount;
SELECT * FROM ingest_test.hint_check();

-- The writer role may write back; the reader may not. Only the admin recounts.
SELECT has_function_privilege('permanode_writer', 'permanode.flush_hint_counts()', 'EXECUTE') AS writer,
       has_function_privilege('permanode_reader', 'permanode.flush_hint_counts()', 'EXECUTE') AS reader;
SELECT has_function_privilege('permanode_admin', 'permanode.recount_hints()', 'EXECUTE') AS admin,
       has_function_privilege('permanode_writer', 'permanode.recount_hints()', 'EXECUTE') AS writer,
       has_function_privilege('permanode_reader', 'permanode.recount_hints()', 'EXECUTE') AS reader;

SET client_min_messages = warning;
DROP SCHEMA ingest_test CASCADE;
DROP EXTENSION permanode CASCADE;
DROP EXTENSION permanode_fdw CASCADE;
