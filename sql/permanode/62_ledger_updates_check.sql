
-------------------------------------------------------------------------------------------------
-- The node's own word on a milestone (`permanode sync`): the outputs a node says it created and
-- consumed at a milestone must be those ingest derived from the cone. Called in the milestone's
-- own transaction, after ingest_milestone: a difference raises, and nothing of the milestone is
-- committed. With `previous`, that milestone must be archived already: a sync sends several
-- milestones at once, and one that failed must not leave a hole below those after it. A sync
-- calls it in one statement with ingest_milestone, passing what that returned; VOLATILE, so that
-- its queries see the rows that call wrote earlier in the same statement.
-------------------------------------------------------------------------------------------------
CREATE FUNCTION @extschema@.check_ledger_updates(milestone_index int,
                                                 created @extschema@.output_id[],
                                                 consumed @extschema@.output_id[],
                                                 previous int DEFAULT NULL,
                                                 created_count int DEFAULT NULL,
                                                 consumed_count int DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    first record;
BEGIN
    IF previous IS NOT NULL AND NOT EXISTS (SELECT FROM @extschema@.sync s WHERE s.milestone_index = previous) THEN
        RAISE EXCEPTION 'milestone %: milestone % before it is not archived', $1, previous
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'Milestones are archived in order: archive the one before first.';
    END IF;
    -- The common case, by lookups of the node's output IDs: each is one ingest wrote at this
    -- milestone, and ingest wrote as many as the node names (created_count and consumed_count,
    -- what ingest_milestone returned). Only otherwise does the whole comparison below run, over
    -- every row of the milestone's ranges, to name the first difference. (The operator is named:
    -- the caller's search_path need not hold the extension's schema.)
    IF created_count = coalesce(cardinality(created), 0)
       AND consumed_count = coalesce(cardinality(consumed), 0)
       AND NOT EXISTS (
           SELECT FROM unnest(created) n(output_id)
           WHERE NOT EXISTS (SELECT FROM @extschema@.basic_outputs o WHERE o.output_id OPERATOR(@extschema@.=) n.output_id AND o.milestone_index = $1)
             AND NOT EXISTS (SELECT FROM @extschema@.alias_outputs o WHERE o.output_id OPERATOR(@extschema@.=) n.output_id AND o.milestone_index = $1)
             AND NOT EXISTS (SELECT FROM @extschema@.foundry_outputs o WHERE o.output_id OPERATOR(@extschema@.=) n.output_id AND o.milestone_index = $1)
             AND NOT EXISTS (SELECT FROM @extschema@.nft_outputs o WHERE o.output_id OPERATOR(@extschema@.=) n.output_id AND o.milestone_index = $1)
             AND NOT EXISTS (SELECT FROM @extschema@.legacy_outputs o
                             WHERE o.output_id OPERATOR(@extschema@.=) n.output_id AND o.milestone_index = $1 AND NOT o.is_used))
       AND NOT EXISTS (
           SELECT FROM unnest(consumed) n(output_id)
           WHERE NOT EXISTS (SELECT FROM @extschema@.spent_outputs s WHERE s.output_id OPERATOR(@extschema@.=) n.output_id AND s.milestone_index = $1))
    THEN
        RETURN;
    END IF;
    WITH ours_created AS (
        SELECT o.output_id FROM @extschema@.basic_outputs o WHERE o.milestone_index = $1
        UNION ALL SELECT o.output_id FROM @extschema@.alias_outputs o WHERE o.milestone_index = $1
        UNION ALL SELECT o.output_id FROM @extschema@.foundry_outputs o WHERE o.milestone_index = $1
        UNION ALL SELECT o.output_id FROM @extschema@.nft_outputs o WHERE o.milestone_index = $1
        UNION ALL SELECT o.output_id FROM @extschema@.legacy_outputs o
                  WHERE o.milestone_index = $1 AND NOT o.is_used),
    ours_consumed AS (
        SELECT s.output_id FROM @extschema@.spent_outputs s WHERE s.milestone_index = $1),
    differences AS (
        (SELECT 'created' AS kind, n AS output_id, 'the node created it and the cone does not' AS why
         FROM unnest(created) n EXCEPT SELECT 'created', o.output_id, 'the node created it and the cone does not' FROM ours_created o)
        UNION ALL
        (SELECT 'created', o.output_id, 'the cone created it and the node did not' FROM ours_created o
         EXCEPT SELECT 'created', n, 'the cone created it and the node did not' FROM unnest(created) n)
        UNION ALL
        (SELECT 'consumed', n, 'the node consumed it and the cone does not' FROM unnest(consumed) n
         EXCEPT SELECT 'consumed', s.output_id, 'the node consumed it and the cone does not' FROM ours_consumed s)
        UNION ALL
        (SELECT 'consumed', s.output_id, 'the cone consumed it and the node did not' FROM ours_consumed s
         EXCEPT SELECT 'consumed', n, 'the cone consumed it and the node did not' FROM unnest(consumed) n))
    SELECT d.kind, d.output_id, d.why, (SELECT count(*) FROM differences) AS n
    INTO first FROM differences d ORDER BY d.output_id, d.kind LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'milestone %: the node''s ledger updates differ from its cone: % output %: %',
                $1, first.kind, first.output_id, first.why
            USING ERRCODE = 'data_exception',
                  DETAIL = format('%s outputs differ; the node reported %s created and %s consumed.',
                                  first.n, coalesce(cardinality(created), 0), coalesce(cardinality(consumed), 0)),
                  HINT = 'Nothing of this milestone was archived. The node or this archive''s derivation is wrong: compare with another node.';
    END IF;
END
$$;
COMMENT ON FUNCTION @extschema@.check_ledger_updates(int, @extschema@.output_id[], @extschema@.output_id[], int, int, int) IS
    'raises (SQLSTATE 22000) unless the outputs a node says it created and consumed at a milestone are those ingest derived (created_count and consumed_count: the outputs and spent ingest_milestone returned, for a check by lookups); (55000) when previous is given and not archived';
