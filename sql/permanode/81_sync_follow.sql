
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
GRANT SELECT ON @extschema@.sync_follow TO permanode_reader;
GRANT INSERT, UPDATE ON @extschema@.sync_follow TO permanode_writer;
-- a source no longer followed is forgotten by hand (or its unclean stop would be reported on)
GRANT DELETE ON @extschema@.sync_follow TO permanode_admin;
-- as every table of the extension (95_dump_tables.sql in a fresh install; here for an upgrade)
SELECT pg_extension_config_dump('@extschema@.sync_follow', '');

-- Per node followed: how far the archive is behind it, and whether that is healthy. A bounded run
-- and a sync that stopped cleanly leave health as it was (the database answers); a live sync is
-- healthy while it reports (within max_silence) and the archive is at most max_lag milestones
-- behind the node; one that went silent without stopping (killed, stuck) or stopped on an error
-- is not: the archive falls behind and nobody else says so. The lag is against the archive's
-- newest milestone as held (a sync knows its commits only as their answers arrive).
CREATE FUNCTION @extschema@.sync_health(max_lag int DEFAULT 3,
                                        max_silence interval DEFAULT '30 s')
RETURNS TABLE (source text, live boolean, state text, healthy boolean, reason text,
               archived_index int, node_confirmed_index int, lag_milestones int,
               lag_seconds int, milestones_per_s float8, blocks_per_s float8, reconnects bigint,
               heartbeat_age interval, started_at timestamptz, updated_at timestamptz,
               stopped_at timestamptz, exit_code int)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
DECLARE
    newest int := (SELECT max(p.milestone_index) FROM @extschema@.milestone_protocols p);
    -- from its blocks (its own payload is in the next milestone's cone); NULL when not held
    newest_at timestamptz := nullif(@extschema@.milestone_time(newest), 'infinity');
BEGIN
    RETURN QUERY
    WITH lags AS (
        SELECT f.*, greatest(f.node_confirmed_index - coalesce(newest, 0), 0) AS lag,
               now() - f.updated_at AS age
        FROM @extschema@.sync_follow f
    ), states AS (
        SELECT l.*,
               CASE WHEN l.lag = 0 THEN 0
                    WHEN l.node_confirmed_timestamp IS NULL OR newest_at IS NULL THEN NULL
                    ELSE greatest(extract(epoch FROM l.node_confirmed_timestamp - newest_at), 0)::int
               END AS lag_s,
               CASE WHEN l.stopped_at IS NOT NULL THEN 'stopped'
                    WHEN l.age > max_silence THEN 'not reporting'
                    WHEN l.lag > max_lag THEN 'behind'
                    ELSE 'following' END AS state
        FROM lags l
    ), judged AS (
        SELECT s.*,
               NOT s.live OR s.state = 'following'
               OR (s.state = 'stopped' AND coalesce(s.exit_code IN (0, 130), false)) AS ok
        FROM states s
    )
    SELECT j.source, j.live, j.state, j.ok,
           CASE WHEN j.ok THEN NULL
                WHEN j.state = 'behind'
                THEN format('the archive is %s milestones behind %s%s', j.lag, j.source,
                            coalesce(' (' || j.lag_s || ' s)', ''))
                WHEN j.state = 'not reporting'
                THEN format('the sync from %s has not reported for %s s (since %s UTC): killed or stuck',
                            j.source, extract(epoch FROM j.age)::bigint,
                            to_char(j.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'))
                ELSE format('the sync from %s stopped at %s UTC %s', j.source,
                            to_char(j.stopped_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
                            coalesce('with exit code ' || j.exit_code, 'on an error'))
           END,
           newest, j.node_confirmed_index, j.lag, j.lag_s, j.milestones_per_s, j.blocks_per_s,
           j.reconnects, j.age, j.started_at, j.updated_at, j.stopped_at, j.exit_code
    FROM judged j
    ORDER BY j.source;
END
$$;
COMMENT ON FUNCTION @extschema@.sync_health(int, interval) IS
    'per node followed by permanode sync: how far the archive is behind it, and whether healthy';
