-- permanode_fdw 0.2.0 -> 0.3.0: no SQL object changed (released with permanode 0.3.0, which keeps
-- one lookup mechanism; archives of 0.2.0 read as before).
\echo Use "ALTER EXTENSION permanode_fdw UPDATE TO '0.3.0'" to load this file. \quit
