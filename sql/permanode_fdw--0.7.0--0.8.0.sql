-- permanode_fdw 0.7.0 -> 0.8.0: no change to its objects. The version follows permanode's, whose
-- 0.8.0 adds record streams.
\echo Use "ALTER EXTENSION permanode_fdw UPDATE TO '0.8.0'" to load this file. \quit
