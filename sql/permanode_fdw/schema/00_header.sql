-- permanode_fdw's install script: the parts of sql/permanode_fdw/schema and code, joined by
-- sql/CMakeLists.txt.
\echo Use "CREATE EXTENSION permanode_fdw" to load this file. \quit
