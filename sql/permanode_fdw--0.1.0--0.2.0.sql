-- permanode_fdw 0.1.0 -> 0.2.0: no SQL object changed (the module now archives partial NOT NULL
-- indexes and refuses other unarchivable ones; archives of 0.1.0 read as before).
\echo Use "ALTER EXTENSION permanode_fdw UPDATE TO '0.2.0'" to load this file. \quit
