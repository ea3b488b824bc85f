-- permanode 0.6.0 -> 0.7.0: the ledger as of any milestone (retired_outputs, outputs_at,
-- balance_at). This script is generated (sql/CMakeLists.txt): this part, then the install
-- script's part that makes it, then a backfill from the history already held.
\echo Use "ALTER EXTENSION permanode UPDATE TO '0.7.0'" to load this file. \quit
