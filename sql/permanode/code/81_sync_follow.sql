-- Rights on sync_follow (../schema/81_sync_follow.sql) and the health judged from it.
GRANT SELECT ON @extschema@.sync_follow TO permanode_reader;
GRANT INSERT, UPDATE ON @extschema@.sync_follow TO permanode_writer;
-- a source no longer followed is forgotten by hand (or its unclean stop would be reported on)
GRANT DELETE ON @extschema@.sync_follow TO permanode_admin;

-- Per node followed: how far the archive is behind it, and whether that is healthy. A bounded run
-- and a sync that stopped cleanly leave health as it was (the database answers); a live sync is
-- healthy while it reports (within max_silence) and the archive is at most max_lag milestones
-- behind the node; one that went silent without stopping (killed, stuck) or stopped on an error
-- is not: the archive falls behind and nobody else says so. The lag is against the archive's
-- newest milestone as held (a sync knows its commits only as their answers arrive).
CREATE OR REPLACE FUNCTION @extschema@.sync_health(max_lag int DEFAULT 3,
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
