
-------------------------------------------------------------------------------------------------
-- The ledger's cold tier: archive and restore whole milestone ranges of every ledger table at
-- once, the archiving policy, and the status of each range. The engine is permanode_fdw
-- (fdw/DESIGN.md): archive_partitions moves adjacent heap partitions into one RocksDB archive
-- served as a foreign partition; restore_partitions puts them back.
--
-- Ranges are ms_range_id values, half-open like the engine's: [from_range, to_range).
-- Only ranges below the range of the newest synced milestone are archived (ingest may still
-- write that one and later ones). sync is never archived: it stays hot, so ingest's "already
-- present" check stays cheap and never reads an archive. Hints and locators stay hot too.
-------------------------------------------------------------------------------------------------

-- The newest range of a table that may be archived: the one before the range of the newest
-- synced milestone; NULL when nothing is synced.
CREATE OR REPLACE FUNCTION @extschema@.newest_archivable_range(table_name name) RETURNS int
LANGUAGE sql STABLE AS $$
    SELECT (SELECT max(s.milestone_index) FROM @extschema@.sync s) / t.chunk_size - 1
    FROM @extschema@.ledger_tables t WHERE t.table_name = $1
$$;

-- Archives the ranges [from_range, to_range) of every ledger table but sync; returns a row per
-- archive made (tables without rows there are skipped). Refuses ranges ingest may still write.
CREATE OR REPLACE FUNCTION @extschema@.archive(from_range int, to_range int)
RETURNS TABLE (table_name name, archive regclass, rows bigint)
LANGUAGE plpgsql AS $$
DECLARE
    t record;
    newest int;
BEGIN
    IF from_range IS NULL OR to_range IS NULL OR from_range < 0 OR to_range <= from_range THEN
        RAISE EXCEPTION 'invalid range [%, %)', from_range, to_range
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Ranges are ms_range_id values, from_range included, to_range excluded.';
    END IF;
    FOR t IN SELECT l.table_name, l.chunk_size FROM @extschema@.ledger_tables l
             WHERE l.table_name <> 'sync' ORDER BY l.table_name LOOP
        newest := @extschema@.newest_archivable_range(t.table_name);
        IF newest IS NULL OR to_range - 1 > newest THEN
            RAISE EXCEPTION 'cannot archive range % of %: ingest may still write it', to_range - 1, t.table_name
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      DETAIL = CASE WHEN newest IS NULL THEN 'No milestone is synced yet.'
                                    ELSE format('The newest synced milestone is in range %s (chunk size %s).',
                                                newest + 1, t.chunk_size) END,
                      HINT = 'Archive only ranges below the range of the newest synced milestone.';
        END IF;
    END LOOP;
    -- Every table copied first, then all swapped at once (fdw/archive_swap.cpp says why).
    FOR t IN SELECT l.table_name FROM @extschema@.ledger_tables l
             WHERE l.table_name <> 'sync' ORDER BY l.table_name LOOP
        PERFORM @extschema@.prepare_table('ledger', t.table_name, from_range, to_range);
    END LOOP;
    RETURN QUERY SELECT c.relname, s.archive, s.rows
                 FROM @extschema@.swap_prepared() s JOIN pg_class c ON c.oid = s.parent;
END
$$;
COMMENT ON FUNCTION @extschema@.archive(int, int) IS
    'archives the ranges [from_range, to_range) of every ledger table but sync into RocksDB; a row per archive';

-- Archives every hot range, of every ledger table but sync, whose milestones are all older than
-- max(sync.milestone_index) - older_than.
CREATE OR REPLACE FUNCTION @extschema@.archive(older_than int)
RETURNS TABLE (table_name name, archive regclass, rows bigint)
LANGUAGE plpgsql AS $$
DECLARE
    t record;
    cutoff int;
BEGIN
    IF older_than IS NULL OR older_than < 0 THEN
        RAISE EXCEPTION 'invalid age % (milestones)', older_than USING ERRCODE = 'invalid_parameter_value';
    END IF;
    cutoff := (SELECT max(s.milestone_index) FROM @extschema@.sync s) - older_than;
    -- Every table copied first, then all swapped at once (fdw/archive_swap.cpp says why).
    FOR t IN SELECT l.table_name, l.chunk_size FROM @extschema@.ledger_tables l
             WHERE l.table_name <> 'sync' AND cutoff > 0 ORDER BY l.table_name LOOP
        -- ranges r < cutoff / chunk_size end before the cutoff milestone
        PERFORM @extschema@.prepare_table('ledger', t.table_name, 0,
            least(cutoff / t.chunk_size, @extschema@.newest_archivable_range(t.table_name) + 1));
    END LOOP;
    RETURN QUERY SELECT c.relname, s.archive, s.rows
                 FROM @extschema@.swap_prepared() s JOIN pg_class c ON c.oid = s.parent;
END
$$;
COMMENT ON FUNCTION @extschema@.archive(int) IS
    'archives every hot range (all ledger tables but sync) whose milestones are older than the newest synced one minus older_than';

-- Restores the archives of every ledger table that overlap [from_range, to_range). An archive is
-- restored whole, so ranges outside the given ones may come back too (a notice says which).
CREATE OR REPLACE FUNCTION @extschema@.restore(from_range int, to_range int)
RETURNS TABLE (table_name name, archive text, from_archived int, to_archived int, rows bigint)
LANGUAGE sql AS $$
    SELECT r.table_name, r.archive, r.from_archived, r.to_archived, r.rows
    FROM @extschema@.restore_ranges('ledger', from_range, to_range) r
$$;
COMMENT ON FUNCTION @extschema@.restore(int, int) IS
    'restores the archives overlapping [from_range, to_range) to heap partitions; each archive is restored whole';
