-- permanode 0.9.0 -> 0.10.0: remote ranges (old ranges on other permanode nodes, served back as
-- postgres_fdw foreign partitions) and the tier `remote` in permanode.partitions and
-- permanode.status; schema access (seed 001: delegations, subscriptions, consumers) and its
-- expiry in maintain(). This script is generated (sql/CMakeLists.txt): this part, then the install
-- script's parts that make what 0.10.0 adds or changes.
\echo Use "ALTER EXTENSION permanode UPDATE TO '0.10.0'" to load this file. \quit
