
-------------------------------------------------------------------------------------------------
-- Daily analytics: rolled up from metrics_cache, which ingest fills per milestone with the
-- distinct addresses that sent or received tokens and the tags used on each UTC day.
-------------------------------------------------------------------------------------------------

-- (Re)computes daily_analytics for the days from_date..to_date; returns the days written.
--   total_addresses: addresses that sent or received that day; send_addresses: that sent;
--   recv_addresses: that received.
CREATE OR REPLACE FUNCTION @extschema@.rollup_daily_analytics(from_date date, to_date date) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    days int;
BEGIN
    IF from_date IS NULL OR to_date IS NULL OR to_date < from_date THEN
        RAISE EXCEPTION 'invalid date range % to %', from_date, to_date
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    DELETE FROM @extschema@.daily_analytics d WHERE d.date BETWEEN from_date AND to_date;
    INSERT INTO @extschema@.daily_analytics (year, date, total_addresses, send_addresses, recv_addresses)
    SELECT extract(year FROM m.date)::int, m.date,
           count(*) FILTER (WHERE m.metric = 'sent_or_received'),
           count(*) FILTER (WHERE m.metric = 'sent'),
           count(*) FILTER (WHERE m.metric = 'received')
    FROM @extschema@.metrics_cache m
    WHERE m.date BETWEEN from_date AND to_date AND m.variant = 'address'
    GROUP BY m.date;
    GET DIAGNOSTICS days = ROW_COUNT;
    RETURN days;
END
$$;
COMMENT ON FUNCTION @extschema@.rollup_daily_analytics(date, date) IS
    '(re)computes daily_analytics from metrics_cache for a range of days; returns the days written';
