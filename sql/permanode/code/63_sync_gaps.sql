
-------------------------------------------------------------------------------------------------
-- Which milestones the archive holds and which it misses. The history it should hold starts at
-- the lowest milestone ingested, or earlier where the setting history_from says so: a sync that
-- starts an empty archive after a network's first milestone (from a pruned node, or --from)
-- records 1 there, so that what came before stays visible as a gap (`permanode sync --gaps`
-- fills it from a node that has it).
-------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION @extschema@.sync_gaps()
RETURNS TABLE (from_milestone int, to_milestone int)
LANGUAGE sql STABLE AS $$
    SELECT s.milestone_index + 1, s.next_index - 1
    FROM (SELECT milestone_index,
                 lead(milestone_index) OVER (ORDER BY milestone_index) AS next_index
          FROM (SELECT milestone_index FROM @extschema@.sync
                UNION ALL
                -- the milestone before the history's start, as if held
                SELECT h.value::int - 1 FROM @extschema@.settings h
                WHERE h.key = 'history_from' AND h.value ~ '^[0-9]{1,9}$'
                  AND h.value::int - 1 < (SELECT min(milestone_index) FROM @extschema@.sync)) held) s
    WHERE s.next_index > s.milestone_index + 1
    ORDER BY 1
$$;
COMMENT ON FUNCTION @extschema@.sync_gaps() IS
    'ranges of milestones missing between the history''s start (the setting history_from, else the lowest ingested milestone) and the highest ingested milestone';

CREATE OR REPLACE FUNCTION @extschema@.sync_ranges()
RETURNS TABLE (from_milestone int, to_milestone int)
LANGUAGE sql STABLE AS $$
    SELECT min(milestone_index), max(milestone_index)
    FROM (SELECT milestone_index,
                 milestone_index - row_number() OVER (ORDER BY milestone_index) AS island
          FROM @extschema@.sync) s
    GROUP BY island
    ORDER BY 1
$$;
COMMENT ON FUNCTION @extschema@.sync_ranges() IS 'contiguous ranges of ingested milestones';
