
-------------------------------------------------------------------------------------------------
-- The legacy era's analytics, for the explorer's overview (GET /api/analytics/v2/overview): per
-- day (UTC, of a transaction's time) and per confirming milestone, the transactions, those that
-- move value and the tokens deposited (the sum of positive values); per day, the Coordinator's
-- milestones and the addresses that sent, received, or either. legacy.ingest counts each new transaction once (held ones are
-- skipped, so a batch sent again counts nothing). The address counts are rolled up from
-- daily_addresses by legacy.rollup_daily_analytics (maintain() and `permanode import-dmp` call
-- it); a day not rolled up is counted from daily_addresses when read.
-- Not partitioned: a row per day or milestone, a row per address and day that moved value.
-------------------------------------------------------------------------------------------------
CREATE TABLE legacy.daily_analytics (
    date date PRIMARY KEY,
    milestones bigint NOT NULL DEFAULT 0, -- of the Coordinator, found at ingest
    transactions bigint NOT NULL,
    value_transactions bigint NOT NULL,
    tokens numeric NOT NULL,
    total_addresses bigint NOT NULL DEFAULT 0,
    send_addresses bigint NOT NULL DEFAULT 0,
    recv_addresses bigint NOT NULL DEFAULT 0,
    rolled_up boolean NOT NULL -- the address counts are daily_addresses'
);
CREATE INDEX daily_analytics_not_rolled_up ON legacy.daily_analytics (date) WHERE NOT rolled_up;

CREATE TABLE legacy.daily_addresses (
    date date NOT NULL,
    address @extschema@.trytes81 NOT NULL,
    sent boolean NOT NULL,
    received boolean NOT NULL,
    PRIMARY KEY (date, address)
);

CREATE TABLE legacy.milestone_analytics (
    milestone_index int PRIMARY KEY,
    transactions bigint NOT NULL,
    value_transactions bigint NOT NULL,
    tokens numeric NOT NULL
);

-- Counts the addresses of the days not rolled up; returns the days rolled up. The days are
-- locked first: an ingest adding to one waits, and counts taken after the lock see every
-- address committed before it.
CREATE FUNCTION legacy.rollup_daily_analytics() RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    days date[];
BEGIN
    SELECT array_agg(d.date ORDER BY d.date) INTO days
    FROM (SELECT a.date FROM legacy.daily_analytics a WHERE NOT a.rolled_up
          ORDER BY a.date FOR UPDATE) d;
    IF days IS NULL THEN
        RETURN 0;
    END IF;
    UPDATE legacy.daily_analytics d
    SET total_addresses = coalesce(c.total, 0), send_addresses = coalesce(c.sent, 0),
        recv_addresses = coalesce(c.received, 0), rolled_up = true
    FROM unnest(days) u(date)
    LEFT JOIN LATERAL (
        SELECT count(*) AS total, count(*) FILTER (WHERE a.sent) AS sent,
               count(*) FILTER (WHERE a.received) AS received
        FROM legacy.daily_addresses a WHERE a.date = u.date) c ON true
    WHERE d.date = u.date;
    RETURN cardinality(days);
END
$$;
COMMENT ON FUNCTION legacy.rollup_daily_analytics() IS
    'counts the active addresses of the legacy days not rolled up (legacy.daily_analytics); returns the days';

-- A database updated from 0.10.0 holds transactions ingested before the counts were kept.
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
SELECT legacy.rollup_daily_analytics();
-- Dumped with their rows (95_dump_tables.sql does the same for the install's other tables).
SELECT pg_extension_config_dump('legacy.daily_analytics', '');
SELECT pg_extension_config_dump('legacy.daily_addresses', '');
SELECT pg_extension_config_dump('legacy.milestone_analytics', '');
