-- permanode_fdw 0.4.0 -> 0.5.0: released with permanode 0.5.0 (the Chrysalis era); no SQL change.
\echo Use "ALTER EXTENSION permanode_fdw UPDATE TO '0.5.0'" to load this file. \quit
