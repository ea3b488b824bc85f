
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
-- Dumped with their rows (95_dump_tables.sql does the same for the install's other tables).
SELECT pg_extension_config_dump('legacy.daily_analytics', '');
SELECT pg_extension_config_dump('legacy.daily_addresses', '');
SELECT pg_extension_config_dump('legacy.milestone_analytics', '');
