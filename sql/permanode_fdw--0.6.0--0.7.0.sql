-- permanode_fdw 0.6.0 -> 0.7.0: no change to its objects. The version follows permanode's, whose
-- 0.7.0 keeps the ledger as of any milestone.
\echo Use "ALTER EXTENSION permanode_fdw UPDATE TO '0.7.0'" to load this file. \quit
