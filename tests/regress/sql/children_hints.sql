-- Children lookups across ranges: ingest writes a parent_hints row only for a parent outside the
-- milestone's cone (a parent inside it has its children in its own range, which the lookup takes
-- from block_locator). With one milestone per range, the real milestones 17339-17341 approve
-- blocks of earlier milestones, so children sit both in their parent's range and in later ones.
-- Every parent's children must be those of the unhinted query.
\getenv abs_srcdir PG_ABS_SRCDIR
\set fresh_extension :abs_srcdir '/sql/include/fresh_extension.sql'
\i :fresh_extension
\i :fixtures_sql

SELECT count(set_chunk_size(table_name, 1)) AS tables_resized FROM ledger_tables;
SELECT count(*) > 0 AS ingested FROM (SELECT ingest_test.ingest(m) FROM unnest('{17339,17340,17341}'::int[]) m) s;

-- The cases the test needs: children in their parent's own range, and in later ranges.
SELECT count(*) FILTER (WHERE l.ms_range_id = p.ms_range_id) > 0 AS children_in_own_range,
       count(*) FILTER (WHERE l.ms_range_id < p.ms_range_id) > 0 AS children_in_later_ranges
FROM parents p JOIN block_locator l ON l.block_id = p.parent_id;
-- Hint rows only for parents outside the child's cone: none for a (parent, range) that is the
-- parent's own range, one for every other range that holds its children.
SELECT count(*) AS hints_for_own_range FROM parent_hints h JOIN block_locator l ON l.block_id = h.parent_id
WHERE l.ms_range_id = h.ms_range_id;
SELECT count(*) AS missing_hints FROM (SELECT DISTINCT p.parent_id, p.ms_range_id FROM parents p
    LEFT JOIN block_locator l ON l.block_id = p.parent_id
    WHERE l.ms_range_id IS DISTINCT FROM p.ms_range_id) c
WHERE NOT EXISTS (SELECT 1 FROM parent_hints h WHERE h.parent_id = c.parent_id AND h.ms_range_id = c.ms_range_id);

-- Every parent's children, newest first, through the hints and through every partition.
PREPARE children(block_id) AS SELECT string_agg(message_id::text, ',' ORDER BY ms_range_id DESC,
    ms_timestamp DESC, milestone_index DESC, message_id DESC) FROM parents_by_ms WHERE parent_id = $1;
CREATE FUNCTION pg_temp.children_differ() RETURNS TABLE (parents bigint, differ bigint)
LANGUAGE plpgsql AS $$
DECLARE
    parent text;
    hinted text;
    plain text;
BEGIN
    parents := 0;
    differ := 0;
    FOR parent IN SELECT DISTINCT parent_id::text FROM permanode.parents LOOP
        EXECUTE format('EXECUTE children(%L)', parent) INTO hinted;
        SET LOCAL permanode.range_scan = off;
        EXECUTE format('EXECUTE children(%L)', parent) INTO plain;
        SET LOCAL permanode.range_scan = on;
        parents := parents + 1;
        differ := differ + (hinted IS DISTINCT FROM plain)::int;
    END LOOP;
    RETURN NEXT;
END
$$;
SELECT parents > 100 AS many_parents, differ FROM pg_temp.children_differ();

-- With chunk sizes that differ between parents and messages, a block's own messages range says
-- nothing about the parents table: every parent gets its hint.
DEALLOCATE children;
SET client_min_messages = warning;
DROP EXTENSION permanode CASCADE;
DROP SCHEMA ingest_test CASCADE;
CREATE EXTENSION permanode CASCADE;
RESET client_min_messages;
\i :fixtures_sql
SELECT count(set_chunk_size(table_name, CASE table_name WHEN 'parents' THEN 2 ELSE 1 END)) AS tables_resized FROM ledger_tables;
SELECT count(*) > 0 AS ingested FROM (SELECT ingest_test.ingest(m) FROM unnest('{17339,17340,17341}'::int[]) m) s;
PREPARE children(block_id) AS SELECT string_agg(message_id::text, ',' ORDER BY ms_range_id DESC,
    ms_timestamp DESC, milestone_index DESC, message_id DESC) FROM parents_by_ms WHERE parent_id = $1;
SELECT count(*) AS missing_hints FROM (SELECT DISTINCT parent_id, ms_range_id FROM parents) c
WHERE NOT EXISTS (SELECT 1 FROM parent_hints h WHERE h.parent_id = c.parent_id AND h.ms_range_id = c.ms_range_id);
SELECT parents > 100 AS many_parents, differ FROM pg_temp.children_differ();
