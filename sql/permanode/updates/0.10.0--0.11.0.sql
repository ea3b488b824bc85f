-- permanode 0.10.0 -> 0.11.0: the legacy era's analytics (per day and per milestone) and
-- sync_follow, where a sync reports how it follows its node; the catalog of partitioned tables, of
-- every era, that the one create_partition serves.
\ir ../schema/35_partitioned_tables.sql
\ir ../schema/76_legacy_partitioned_tables.sql
\ir ../schema/89_streams_partitioned_tables.sql
-- The catalog is now the only place of the ledger tables' unique keys (as the database had them).
UPDATE @extschema@.partitioned_tables p SET unique_columns = l.unique_columns
FROM @extschema@.ledger_tables l WHERE p.family = 'ledger' AND p.table_name = l.table_name;
ALTER TABLE @extschema@.ledger_tables DROP COLUMN unique_columns;
\ir ../schema/77_legacy_analytics.sql
\ir ../schema/81_sync_follow.sql
\ir ../schema/31_migrated_funds.sql
\ir ../schema/92_measurements.sql

-- The legacy transactions held, counted as legacy.ingest counts the new ones.
INSERT INTO legacy.daily_analytics (date, transactions, value_transactions, tokens, rolled_up)
SELECT (t.issued_at AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE t.value <> 0),
       coalesce(sum(t.value) FILTER (WHERE t.value > 0), 0), bool_and(t.value = 0)
FROM legacy.transactions t GROUP BY 1;
INSERT INTO legacy.daily_addresses (date, address, sent, received)
SELECT (t.issued_at AT TIME ZONE 'UTC')::date, t.address, bool_or(t.value < 0), bool_or(t.value > 0)
FROM legacy.transactions t WHERE t.value <> 0 GROUP BY 1, 2;
INSERT INTO legacy.milestone_analytics (milestone_index, transactions, value_transactions, tokens)
SELECT t.milestone_index, count(*), count(*) FILTER (WHERE t.value <> 0),
       coalesce(sum(t.value) FILTER (WHERE t.value > 0), 0)
FROM legacy.transactions t WHERE t.milestone_index IS NOT NULL GROUP BY 1;
UPDATE legacy.daily_analytics d SET milestones = m.n
FROM (SELECT (issued_at AT TIME ZONE 'UTC')::date AS date, count(*) AS n FROM legacy.milestones GROUP BY 1) m
WHERE d.date = m.date;

-- A Chrysalis output's used row lies in its spend's range: a lookup by output_id reads it there
-- too (it read only the creating range, and missed the spend when it fell in another range).
UPDATE @extschema@.partition_hints
SET hint_query = 'SELECT r FROM @extschema@.output_locator, LATERAL (VALUES (legacy_ms_range_id), (spent_ms_range_id)) AS v(r) WHERE output_id = $1 AND legacy_ms_range_id IS NOT NULL AND r IS NOT NULL'
WHERE table_name = 'legacy_outputs' AND column_name = 'output_id';

-- archive_runs became prepare_runs: archiving copies every table first and swaps them all at
-- once (fdw/archive_swap.cpp).
DROP FUNCTION IF EXISTS @extschema@.archive_runs(regclass, regclass[], int[]);
