
-------------------------------------------------------------------------------------------------
-- The time of a milestone, which bounds the as-of queries (84_as_of.sql) by time.
-------------------------------------------------------------------------------------------------
-- The time of milestone N: that of its blocks (the Range Scan reads N's range only); infinity
-- when none of its blocks is held, which bounds nothing.
-- PL/pgSQL, not SQL: an inlined subquery is planned over every messages partition each time a
-- query that bounds a scan by it is planned (the planner runs it to estimate), 16 ms at 500
-- ranges; here its plan is made once per session.
CREATE OR REPLACE FUNCTION @extschema@.milestone_time(at int) RETURNS timestamptz
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
    RETURN coalesce((SELECT m.ms_timestamp FROM @extschema@.messages m
                     WHERE m.milestone_index = at LIMIT 1), 'infinity');
END
$$;
