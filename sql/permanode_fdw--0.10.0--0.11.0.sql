-- permanode_fdw 0.10.0 -> 0.11.0: no change to its objects. The version follows permanode's.
\echo Use "ALTER EXTENSION permanode_fdw UPDATE TO '0.11.0'" to load this file. \quit
