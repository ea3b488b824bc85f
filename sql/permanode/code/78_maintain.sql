
-------------------------------------------------------------------------------------------------
-- The maintenance job: applies the archiving policies (settings keys archive_older_than, in
-- milestones, and legacy_archive_older_than, in months; no row, no archiving), expires pending
-- rows, the legacy tags' months past their TTL (legacy_tag_ttl) and expired delegations, rolls up
-- the daily analytics of both eras, and makes the partitions of the next range ahead of ingest.
-- `permanode ingest` calls it after each file it finishes.
-- SECURITY DEFINER: it runs as the extension owner for permanode_admin (80_init_roles.sql).
CREATE OR REPLACE FUNCTION @extschema@.maintain()
RETURNS TABLE (task text, done bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, @extschema@ AS $$
DECLARE
    older_than int := (SELECT s.value::int FROM @extschema@.settings s WHERE s.key = 'archive_older_than');
    legacy_older_than int := (SELECT s.value::int FROM @extschema@.settings s
                              WHERE s.key = 'legacy_archive_older_than');
    newest int := (SELECT max(s.milestone_index) FROM @extschema@.sync s);
    newest_month int := (SELECT max(p.range_to) - 1 FROM @extschema@.family_partitions p
                         WHERE p.family = 'legacy' AND p.table_name = 'transactions');
BEGIN
    -- Archiving gives way in a deadlock with the sessions reading and writing the ledger
    -- (permanode_fdw: SQLSTATE 40P01, nothing of it kept): the next run archives those ranges.
    IF older_than IS NOT NULL THEN
        BEGIN
            task := 'archived rows';
            SELECT coalesce(sum(a.rows), 0) INTO done FROM @extschema@.archive(older_than) a;
        EXCEPTION WHEN deadlock_detected THEN
            task := 'archiving deferred (gave way to other sessions)';
            done := 0;
        END;
        RETURN NEXT;
    END IF;
    IF legacy_older_than IS NOT NULL AND newest_month IS NOT NULL THEN
        BEGIN
            task := 'archived legacy rows';
            SELECT coalesce(sum(a.rows), 0) INTO done
            FROM legacy.archive(0, newest_month - legacy_older_than) a;
        EXCEPTION WHEN deadlock_detected THEN
            task := 'legacy archiving deferred (gave way to other sessions)';
            done := 0;
        END;
        RETURN NEXT;
    END IF;
    task := 'expired pending rows';
    done := @extschema@.expire_pending();
    RETURN NEXT;
    task := 'expired legacy tag months';
    done := legacy.expire_tags();
    RETURN NEXT;
    task := 'expired delegations';
    done := access.expire_delegations();
    RETURN NEXT;
    -- Complete days (a later day has milestones: ingest goes in milestone order) not rolled up.
    task := 'rolled up days';
    SELECT coalesce(sum(@extschema@.rollup_daily_analytics(c.date, c.date)), 0) INTO done
    FROM @extschema@.date_cache c
    WHERE c.date < (SELECT max(l.date) FROM @extschema@.date_cache l)
      AND NOT EXISTS (SELECT 1 FROM @extschema@.daily_analytics d WHERE d.date = c.date);
    RETURN NEXT;
    task := 'rolled up legacy days';
    done := legacy.rollup_daily_analytics();
    RETURN NEXT;
    IF newest IS NOT NULL THEN
        task := 'partitions made';
        done := @extschema@.premake(newest, newest, 1);
        RETURN NEXT;
    END IF;
END
$$;
COMMENT ON FUNCTION @extschema@.maintain() IS
    'archives by the policies in settings (archive_older_than, legacy_archive_older_than), expires pending rows, legacy tag months and delegations, rolls up daily analytics, premakes the next range';
