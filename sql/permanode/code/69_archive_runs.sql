
-------------------------------------------------------------------------------------------------
-- The one archive and restore path of every partitioned family (ledger ranges, legacy months,
-- stream segments): archive_table moves a table's hot partitions, restore_ranges brings a
-- family's archives back. Each family's archive() and restore() say which ranges it may move.
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

-- Archives the hot partitions of one table of a family in [from_range, to_range) that hold rows
-- (never the ledger's pending one), a run of adjacent ranges at a time. SECURITY DEFINER: it runs
-- as the extension owner for permanode_admin (80_init_roles.sql).
CREATE OR REPLACE FUNCTION @extschema@.archive_table(family text, table_name name, from_range int, to_range int)
RETURNS TABLE (archive regclass, rows bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, @extschema@ AS $$
BEGIN
    RETURN QUERY
    SELECT r.archive, r.rows
    FROM (SELECT p.parent, array_agg(p.partition ORDER BY p.range_from) AS parts,
                 array_agg(p.range_from ORDER BY p.range_from) AS ranges
          FROM @extschema@.family_partitions p
          WHERE p.family = $1 AND p.table_name = $2 AND p.tier = 'hot' AND p.range_to IS NOT NULL
            AND p.range_from >= from_range AND p.range_from < to_range
          GROUP BY p.parent) h
    CROSS JOIN LATERAL @extschema@.archive_runs(h.parent, h.parts, h.ranges) r;
END
$$;
REVOKE ALL ON FUNCTION @extschema@.archive_runs(regclass, regclass[], int[]) FROM PUBLIC;

-- The ledger's archive_table, by its table name alone.
CREATE OR REPLACE FUNCTION @extschema@.archive_table(table_name name, from_range int, to_range int)
RETURNS TABLE (archive regclass, rows bigint)
LANGUAGE sql AS $$
    SELECT * FROM @extschema@.archive_table('ledger', table_name, from_range, to_range)
$$;

-- Restores the archives of a family's tables that overlap [from_range, to_range), in table and
-- range order. An archive is restored whole, so ranges outside the given ones may come back too
-- (a notice says which).
CREATE OR REPLACE FUNCTION @extschema@.restore_ranges(family text, from_range int, to_range int)
RETURNS TABLE (table_name name, parent regclass, archive text, from_archived int, to_archived int,
               rows bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, @extschema@ AS $$
DECLARE
    a record;
BEGIN
    IF from_range IS NULL OR to_range IS NULL OR to_range <= from_range THEN
        RAISE EXCEPTION 'invalid range [%, %)', from_range, to_range
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOR a IN SELECT s.table_name, s.parent, s.partition, s.from_range, s.to_range
             FROM @extschema@.family_status s
             WHERE s.family = $1 AND s.tier = 'cold'
               AND s.from_range < $3 AND s.to_range > $2
             ORDER BY s.table_name, s.from_range LOOP
        IF a.from_range < $2 OR a.to_range > $3 THEN
            RAISE NOTICE 'archive % holds ranges [%, %): restoring all of them',
                a.partition, a.from_range, a.to_range;
        END IF;
        table_name := a.table_name;
        parent := a.parent;
        archive := a.partition::text;
        from_archived := a.from_range;
        to_archived := a.to_range;
        rows := @extschema@.restore_partitions(a.partition);
        RETURN NEXT;
    END LOOP;
END
$$;
