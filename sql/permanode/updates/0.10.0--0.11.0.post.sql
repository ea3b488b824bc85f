-- The address counts of the days counted above (0.10.0--0.11.0.sql), by the new rollup.
SELECT legacy.rollup_daily_analytics();
