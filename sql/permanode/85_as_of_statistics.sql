
-------------------------------------------------------------------------------------------------
-- Statistics on the expression of each span index of retired_outputs (84_as_of.sql). The planner
-- takes no statistics from a partial index: without these it guessed that 0.5% of the rows hold
-- any point and planned a parallel scan for a page of ten rows (7 ms instead of 0.3 ms).
-------------------------------------------------------------------------------------------------
DO $$
DECLARE
    i record;
BEGIN
    FOR i IN SELECT c.relname AS index_name, pg_get_expr(x.indexprs, x.indrelid) AS expression
             FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
             JOIN pg_am a ON a.oid = c.relam AND a.amname = 'gist'
             WHERE x.indrelid = '@extschema@.retired_outputs'::regclass
             ORDER BY c.relname LOOP
        -- The expression is the index's own, as the catalog prints it.
        EXECUTE format('CREATE STATISTICS IF NOT EXISTS @extschema@.%I ON (%s) FROM @extschema@.retired_outputs',
                       replace(i.index_name, '_by_', '_span_'), i.expression);
    END LOOP;
END
$$;
