-- permanode 0.6.0 -> 0.7.0: the ledger as of any milestone (retired_outputs, outputs_at,
-- balance_at) and its verification (verify). This script is generated (sql/CMakeLists.txt): this
-- part, then the install script's parts that make them, then a backfill from the history held.
\echo Use "ALTER EXTENSION permanode UPDATE TO '0.7.0'" to load this file. \quit
