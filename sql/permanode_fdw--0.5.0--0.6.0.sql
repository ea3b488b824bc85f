-- permanode_fdw 0.5.0 -> 0.6.0: no change to its objects. The version follows permanode's, whose
-- 0.6.0 archives the legacy era's months through the same engine.
\echo Use "ALTER EXTENSION permanode_fdw UPDATE TO '0.6.0'" to load this file. \quit
