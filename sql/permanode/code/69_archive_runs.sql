
-------------------------------------------------------------------------------------------------
-- Archiving runs of ranges, for the ledger's milestone ranges and the legacy era's months.
-------------------------------------------------------------------------------------------------

-- Archives the given hot partitions of one table, in range order: one archive per run of
-- adjacent ranges (archive_partitions needs partitions that tile its range, so a gap or an
-- already archived range between two runs splits them). Partitions without rows are left hot.
CREATE OR REPLACE FUNCTION @extschema@.archive_runs(parent regclass, partitions regclass[], ranges int[])
RETURNS TABLE (archive regclass, rows bigint)
LANGUAGE plpgsql AS $$
DECLARE
    i int;
    has_rows boolean;
    run_from int;
    run_to int;
BEGIN
    FOR i IN 1 .. coalesce(cardinality(ranges), 0) + 1 LOOP
        IF i <= cardinality(ranges) THEN
            EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s)', partitions[i]) INTO has_rows;
            CONTINUE WHEN NOT has_rows;
            IF run_to = ranges[i] THEN
                run_to := run_to + 1;
                CONTINUE;
            END IF;
        END IF;
        -- a run ends: before a range that does not follow it, or after the last
        IF run_from IS NOT NULL THEN
            archive := @extschema@.archive_partitions(parent, run_from, run_to);
            SELECT s.rows INTO rows FROM @extschema@.archive_status s
            WHERE s.foreign_table = archive_runs.archive;
            RETURN NEXT;
        END IF;
        IF i <= cardinality(ranges) THEN
            run_from := ranges[i];
            run_to := ranges[i] + 1;
        END IF;
    END LOOP;
END
$$;

-- Archives the hot partitions of one ledger table in [from_range, to_range) that hold rows
-- (never the pending one), a run of adjacent ranges at a time. SECURITY DEFINER: it runs as the
-- extension owner for permanode_admin (80_init_roles.sql).
CREATE OR REPLACE FUNCTION @extschema@.archive_table(table_name name, from_range int, to_range int)
RETURNS TABLE (archive regclass, rows bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, @extschema@ AS $$
BEGIN
    RETURN QUERY
    SELECT r.archive, r.rows
    FROM (SELECT array_agg(p.partition ORDER BY p.ms_range_id) AS parts,
                 array_agg(p.ms_range_id ORDER BY p.ms_range_id) AS ranges
          FROM @extschema@.partitions p
          WHERE p.table_name = format('@extschema@.%I', $1)::regclass AND p.tier = 'hot'
            AND p.ms_range_id >= from_range AND p.ms_range_id < to_range
            AND p.ms_range_id <> @extschema@.pending_range()) h
    CROSS JOIN LATERAL @extschema@.archive_runs(format('@extschema@.%I', $1)::regclass, h.parts,
                                                h.ranges) r;
END
$$;
REVOKE ALL ON FUNCTION @extschema@.archive_runs(regclass, regclass[], int[]) FROM PUBLIC;
