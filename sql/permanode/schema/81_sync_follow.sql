
-------------------------------------------------------------------------------------------------
-- Following a node, as the sync says it goes (`permanode sync`, client/sync/sync_report.cpp): one
-- row per node followed, written about once a second while a sync runs, so that health (the HTTP
-- server's /health and isHealthy, /metrics, `permanode status`) can tell whether the archive
-- keeps up with the node. After 80_init_roles.sql: it grants to those roles. Part of the upgrade
-- to 0.11.0.
-------------------------------------------------------------------------------------------------
CREATE TABLE @extschema@.sync_follow (
    source text PRIMARY KEY,            -- the node, as the sync names it: "INX localhost:9029"
    pid int NOT NULL,                   -- the sync's process, on its own host
    live boolean NOT NULL,              -- follows the tip (not a bounded --to/--until-synced run)
    started_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,    -- the heartbeat: the server's now() at each write
    node_confirmed_index int NOT NULL,  -- the node's confirmed milestone, as last heard
    node_confirmed_timestamp timestamptz,
    archived_index int,                 -- the newest milestone the sync knows committed
    milestones_per_s float8 NOT NULL DEFAULT 0, -- archived, over the last seconds
    blocks_per_s float8 NOT NULL DEFAULT 0,
    reconnects bigint NOT NULL DEFAULT 0, -- of the node's confirmation stream, since started_at
    stopped_at timestamptz,             -- when the sync stopped and said so (NULL: runs, or died)
    -- its exit code then (`permanode sync --help`): 0 and 130 (interrupted) are clean stops;
    -- NULL with stopped_at: it stopped on an error it did not name
    exit_code int
);
-- as every table of the extension (95_dump_tables.sql in a fresh install; here for an upgrade)
SELECT pg_extension_config_dump('@extschema@.sync_follow', '');
