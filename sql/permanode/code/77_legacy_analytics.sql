-- The legacy era's analytics rollup (its tables are ../schema/77_legacy_analytics.sql).
-- Counts the addresses of the days not rolled up; returns the days rolled up. The days are
-- locked first: an ingest adding to one waits, and counts taken after the lock see every
-- address committed before it.
CREATE OR REPLACE FUNCTION legacy.rollup_daily_analytics() RETURNS int
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
