-- Hint rows a session knows are committed: ingest sends only the others (ledger/known_hints.hpp).
-- Whatever the sessions and transactions, every key of the ledger tables has its hint row, and
-- there is no hint row without rows (a hint names only ranges that hold its key).
\getenv abs_srcdir PG_ABS_SRCDIR
\set fresh_extension :abs_srcdir '/sql/include/fresh_extension.sql'
\i :fresh_extension
\o /dev/null
\i :fixtures_sql
\o
SET search_path = public, permanode;

-- Per key of either hint table: its rows in the ledger tables, and whether it has a hint row.
CREATE FUNCTION ingest_test.hint_rows()
RETURNS TABLE (hints text, n bigint, hinted boolean)
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
        SELECT a.n, h.address IS NOT NULL AS hinted
        FROM (SELECT address, output_kind, variant, ms_range_id, count(*) AS n FROM rows_of GROUP BY 1, 2, 3, 4) a
        LEFT JOIN addresses_hints h USING (address, output_kind, variant, ms_range_id)),
    tags AS (
        SELECT a.n, h.tag IS NOT NULL AS hinted FROM (
            SELECT tag, table_kind, ms_range_id, count(*) AS n FROM (
                SELECT tag, 'message' AS table_kind, ms_range_id FROM permanode.tags
                UNION ALL SELECT tag, 'basic_output', ms_range_id FROM basic_outputs WHERE tag IS NOT NULL
                UNION ALL SELECT tag, 'nft_output', ms_range_id FROM nft_outputs WHERE tag IS NOT NULL) t
            GROUP BY 1, 2, 3) a
        LEFT JOIN tag_hints h USING (tag, table_kind, ms_range_id))
    SELECT 'addresses_hints', n, hinted FROM addresses
    UNION ALL
    SELECT 'tag_hints', n, hinted FROM tags
$$;
-- Per hint table: keys with rows, those without a hint row, and hint rows without rows.
CREATE FUNCTION ingest_test.hint_check()
RETURNS TABLE (hints text, keys bigint, missing bigint, stale bigint)
LANGUAGE sql AS $$
    SELECT r.hints, count(*), count(*) FILTER (WHERE NOT r.hinted), max(s.stale)
    FROM ingest_test.hint_rows() r
    JOIN (SELECT 'addresses_hints' AS hints, count(*) AS stale FROM addresses_hints h
          WHERE NOT EXISTS (SELECT FROM basic_outputs b WHERE h.output_kind = 'extended' AND h.ms_range_id = b.ms_range_id
                            AND h.address = CASE h.variant WHEN 'address' THEN b.address WHEN 'sender' THEN b.sender
                                                           WHEN 'dust_return_address' THEN b.dust_return_address END)
            AND NOT EXISTS (SELECT FROM alias_outputs a WHERE h.output_kind = 'alias' AND h.ms_range_id = a.ms_range_id
                            AND h.address = CASE h.variant WHEN 'sender' THEN a.sender WHEN 'issuer' THEN a.issuer
                                                           WHEN 'state_controller' THEN a.state_controller WHEN 'governor' THEN a.governor END)
            AND NOT EXISTS (SELECT FROM foundry_outputs f WHERE h.output_kind = 'foundry' AND h.ms_range_id = f.ms_range_id AND h.address = f.address)
            AND NOT EXISTS (SELECT FROM nft_outputs n WHERE h.output_kind = 'nft' AND h.ms_range_id = n.ms_range_id
                            AND h.address = CASE h.variant WHEN 'address' THEN n.address WHEN 'sender' THEN n.sender
                                                           WHEN 'issuer' THEN n.issuer WHEN 'dust_return_address' THEN n.dust_return_address END)
            AND NOT EXISTS (SELECT FROM address_analytics x WHERE h.output_kind = 'analytics' AND h.ms_range_id = x.ms_range_id AND h.address = x.address)
          UNION ALL
          SELECT 'tag_hints', count(*) FROM tag_hints h
          WHERE NOT EXISTS (SELECT FROM permanode.tags t WHERE h.table_kind = 'message' AND h.ms_range_id = t.ms_range_id AND h.tag = t.tag)
            AND NOT EXISTS (SELECT FROM basic_outputs b WHERE h.table_kind = 'basic_output' AND h.ms_range_id = b.ms_range_id AND h.tag = b.tag)
            AND NOT EXISTS (SELECT FROM nft_outputs n WHERE h.table_kind = 'nft_output' AND h.ms_range_id = n.ms_range_id AND h.tag = n.tag)) s
      ON s.hints = r.hints
    GROUP BY r.hints ORDER BY r.hints
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

-- One session, one transaction per milestone: the rows written by 17339 are known when 17340 and
-- 17341 come, and those are not sent again.
CALL ingest_test.ingest_each(17339, 17341);
SELECT * FROM ingest_test.hint_check();
-- The whole range of milestones in one transaction: the same rows.
\c
SET search_path = public, permanode;
SELECT ingest_test.empty_ledger();
SELECT count(*) AS milestones FROM generate_series(17339, 17341) m, ingest_test.ingest(m);
SELECT * FROM ingest_test.hint_check();

-- The session does skip what it knows: hint rows deleted by hand (no invalidation tells it) and a
-- milestone of the same range that shares their keys leaves those keys without a hint row. (This
-- is why hint rows must not be deleted by hand; permanode never deletes one.)
\c
SET search_path = public, permanode;
SELECT ingest_test.empty_ledger();
CALL ingest_test.ingest_each(17339, 17339);
DELETE FROM addresses_hints;
DELETE FROM tag_hints;
CALL ingest_test.ingest_each(17340, 17340);
SELECT hints, missing > 0 AS skipped_known FROM ingest_test.hint_check();

-- A rolled-back ingest and an ingest in a rolled-back savepoint make nothing known: the hint rows
-- they wrote are gone, and the next ingest of those milestones writes them again.
\c
SET search_path = public, permanode;
SELECT ingest_test.empty_ledger();
SELECT milestone FROM ingest_test.ingest(17339);
BEGIN;
SELECT milestone FROM ingest_test.ingest(17340);
ROLLBACK;
BEGIN;
SAVEPOINT before_ingest;
SELECT milestone FROM ingest_test.ingest(17341);
ROLLBACK TO SAVEPOINT before_ingest;
COMMIT;
SELECT milestone FROM ingest_test.ingest(17340);
SELECT milestone FROM ingest_test.ingest(17341);
SELECT * FROM ingest_test.hint_check();

-- The hint tables emptied (TRUNCATE) in a session that knows rows: it forgets them, and the next
-- ingests write every row again.
\c
SET search_path = public, permanode;
SELECT ingest_test.empty_ledger();
CALL ingest_test.ingest_each(17339, 17341);
SELECT ingest_test.empty_ledger();
CALL ingest_test.ingest_each(17339, 17341);
SELECT * FROM ingest_test.hint_check();

SET client_min_messages = warning;
DROP SCHEMA ingest_test CASCADE;
DROP EXTENSION permanode CASCADE;
DROP EXTENSION permanode_fdw CASCADE;
