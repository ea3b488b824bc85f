-- permanode 0.10.0 -> 0.11.0: the legacy era's analytics (per day and per milestone, kept by
-- legacy.ingest, their address counts rolled up by legacy.rollup_daily_analytics) for the
-- explorer's overview; maintain() rolls up the daily analytics of both eras;
-- ingest_node_milestone, which `permanode sync` calls for each milestone; sync_gaps() from the
-- history's start (setting history_from); sync_follow,
-- where a sync reports how it follows its node, and sync_health, which judges it. This script is
-- generated (sql/CMakeLists.txt): this part, then the install script's parts that make what
-- 0.11.0 adds or changes.
\echo Use "ALTER EXTENSION permanode UPDATE TO '0.11.0'" to load this file. \quit
