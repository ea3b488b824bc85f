
-------------------------------------------------------------------------------------------------
-- Where a BI tool (ODBC, JDBC, SQLAlchemy) starts, logged in as a member of permanode_bi (below):
-- the activity of each era per day and the rich list, as views of plain SQL types (the ledger's
-- own types would reach a BI tool as unknown), and permanode.address_history() for one address
-- (91_address_history.sql). The explorer's overview (GET /api/analytics/v2/overview) counts the
-- same days the same way.
-------------------------------------------------------------------------------------------------

-- Chrysalis and Stardust days: date_cache's first and last milestone of each day, the day's era
-- that of its last milestone (milestone_protocols), its blocks, transactions and tokens summed
-- from ms_analytics, its active addresses from daily_analytics or, for a day not rolled up yet,
-- counted from metrics_cache. Legacy days: legacy.daily_analytics, whose blocks are its
-- transactions and transactions those that move value, its addresses counted from
-- daily_addresses for a day not rolled up.
CREATE OR REPLACE VIEW @extschema@.daily_activity AS
WITH per_day AS (
    SELECT d.date, count(*) AS milestones, sum(a.message_count) AS blocks,
           sum(a.transaction_count) AS transactions, sum(a.transferred_tokens) AS tokens
    FROM @extschema@.date_cache d
    JOIN @extschema@.ms_analytics a ON a.milestone_index BETWEEN d.start_ms AND d.end_ms
    GROUP BY d.date),
active AS (
    SELECT a.date, a.total_addresses::bigint AS total, a.send_addresses::bigint AS sent,
           a.recv_addresses::bigint AS received
    FROM @extschema@.daily_analytics a
    UNION ALL
    SELECT c.date, x.*
    FROM @extschema@.date_cache c
    CROSS JOIN LATERAL (
        SELECT count(*) FILTER (WHERE m.metric = 'sent_or_received'),
               count(*) FILTER (WHERE m.metric = 'sent'),
               count(*) FILTER (WHERE m.metric = 'received')
        FROM @extschema@.metrics_cache m WHERE m.date = c.date AND m.variant = 'address') x
    WHERE NOT EXISTS (SELECT 1 FROM @extschema@.daily_analytics d WHERE d.date = c.date))
SELECT CASE e.protocol_version WHEN 1 THEN 'chrysalis' ELSE 'stardust' END AS era,
       coalesce(p.date, a.date) AS day, coalesce(p.milestones, 0) AS milestones,
       coalesce(p.blocks, 0)::bigint AS blocks, coalesce(p.transactions, 0)::bigint AS transactions,
       coalesce(p.tokens, 0)::numeric AS tokens_moved, coalesce(a.total, 0) AS active_addresses,
       coalesce(a.sent, 0) AS sending_addresses, coalesce(a.received, 0) AS receiving_addresses
FROM per_day p
FULL JOIN active a ON a.date = p.date
LEFT JOIN @extschema@.date_cache c ON c.date = coalesce(p.date, a.date)
LEFT JOIN @extschema@.milestone_protocols e ON e.milestone_index = c.end_ms
UNION ALL
SELECT 'legacy', l.date, l.milestones, l.transactions, l.value_transactions, l.tokens,
       coalesce(x.total, l.total_addresses), coalesce(x.sent, l.send_addresses),
       coalesce(x.received, l.recv_addresses)
FROM legacy.daily_analytics l
LEFT JOIN LATERAL (
    SELECT count(*) AS total, count(*) FILTER (WHERE d.sent) AS sent,
           count(*) FILTER (WHERE d.received) AS received
    FROM legacy.daily_addresses d WHERE d.date = l.date AND NOT l.rolled_up) x ON NOT l.rolled_up;
COMMENT ON VIEW @extschema@.daily_activity IS
    'one row per era and UTC day held: milestones, blocks, transactions, tokens moved and active addresses';
COMMENT ON COLUMN @extschema@.daily_activity.era IS
    'legacy, chrysalis or stardust (a Chrysalis or Stardust day is the era of its last milestone)';
COMMENT ON COLUMN @extschema@.daily_activity.day IS 'the UTC day';
COMMENT ON COLUMN @extschema@.daily_activity.milestones IS
    'milestones of the day (legacy: the Coordinator''s milestones found at ingest)';
COMMENT ON COLUMN @extschema@.daily_activity.blocks IS
    'Stardust blocks, Chrysalis messages or legacy transactions of the day''s milestones';
COMMENT ON COLUMN @extschema@.daily_activity.transactions IS
    'transactions included (legacy: transactions that move value)';
COMMENT ON COLUMN @extschema@.daily_activity.tokens_moved IS
    'tokens transferred, in the era''s base unit (legacy: the sum of positive values)';
COMMENT ON COLUMN @extschema@.daily_activity.active_addresses IS
    'distinct addresses that sent or received tokens that day';
COMMENT ON COLUMN @extschema@.daily_activity.sending_addresses IS
    'distinct addresses that sent tokens that day';
COMMENT ON COLUMN @extschema@.daily_activity.receiving_addresses IS
    'distinct addresses that received tokens that day';

-- The unspent set per address, as the explorer's richest addresses
-- (/api/explorer/v2/ledger/richest-addresses, ledger_analytics.cpp): an address's balance is the
-- sum of the unspent outputs whose `address` it is. Chrysalis outputs are output_kind 'legacy'.
CREATE OR REPLACE VIEW @extschema@.rich_list AS
SELECT b.era,
       row_number() OVER (PARTITION BY b.era ORDER BY b.balance DESC, b.address COLLATE "C") AS rank,
       b.address, b.balance, b.outputs
FROM (SELECT CASE WHEN u.output_kind = 'legacy' THEN 'chrysalis' ELSE 'stardust' END AS era,
             u.address::text AS address, sum(u.amount)::numeric AS balance, count(*) AS outputs
      FROM @extschema@.unspent_outputs u
      WHERE u.address IS NOT NULL
      GROUP BY 1, 2) b;
COMMENT ON VIEW @extschema@.rich_list IS
    'addresses by balance over the unspent outputs, per era (Stardust: WHERE era = ''stardust'')';
COMMENT ON COLUMN @extschema@.rich_list.era IS 'chrysalis or stardust';
COMMENT ON COLUMN @extschema@.rich_list.rank IS
    '1 for the richest address of the era; ties ordered by address';
COMMENT ON COLUMN @extschema@.rich_list.address IS 'the address, bech32';
COMMENT ON COLUMN @extschema@.rich_list.balance IS
    'the sum of its unspent outputs'' amounts, in the era''s base unit';
COMMENT ON COLUMN @extschema@.rich_list.outputs IS 'its unspent outputs';

-- permanode_bi: what a BI login is a member of. It reads the ledger of every era and the record
-- streams, as permanode_reader does, but none of the access stores (customers, subscriptions,
-- delegations) and none of the functions permanode_reader may run with their owner's rights to
-- write (access.count_request, streams.commit_offset): nothing it reaches is writable.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'permanode_bi') THEN
        CREATE ROLE permanode_bi NOLOGIN;
    END IF;
END
$$;
GRANT USAGE ON SCHEMA @extschema@, legacy, streams TO permanode_bi;
GRANT SELECT ON ALL TABLES IN SCHEMA @extschema@, legacy, streams TO permanode_bi;
-- the tiers' views count rows with it (it only reads)
GRANT EXECUTE ON FUNCTION @extschema@.partition_rows(regclass) TO permanode_bi;
GRANT SELECT ON @extschema@.daily_activity, @extschema@.rich_list TO permanode_reader;
