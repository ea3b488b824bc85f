
-------------------------------------------------------------------------------------------------
-- The one archive and restore path of every partitioned family (ledger ranges, legacy months,
-- stream segments): archive_table moves a table's hot partitions, restore_ranges brings a
-- family's archives back. Each family's archive() and restore() say which ranges it may move.
-------------------------------------------------------------------------------------------------

-- Prepares the archives of the given hot partitions of one table, in range order: one archive
-- per run of adjacent ranges (archive_prepare needs partitions that tile its range, so a gap or
-- an already archived range between two runs splits them). Partitions without rows are left hot.
-- The archives are swapped in by archive_swap_prepared, with the call's others.
CREATE OR REPLACE FUNCTION @extschema@.prepare_runs(parent regclass, partitions regclass[], ranges int[])
RETURNS void
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
            PERFORM @extschema@.archive_prepare(parent, run_from, run_to);
        END IF;
        IF i <= cardinality(ranges) THEN
            run_from := ranges[i];
            run_to := ranges[i] + 1;
        END IF;
    END LOOP;
END
$$;

-- Prepares the archives of the hot partitions of one table of a family in [from_range,
-- to_range) that hold rows (never the ledger's pending one), a run of adjacent ranges at a time.
CREATE OR REPLACE FUNCTION @extschema@.prepare_table(family text, table_name name, from_range int, to_range int)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM @extschema@.prepare_runs(h.parent, h.parts, h.ranges)
    FROM (SELECT p.parent, array_agg(p.partition ORDER BY p.range_from) AS parts,
                 array_agg(p.range_from ORDER BY p.range_from) AS ranges
          FROM @extschema@.family_partitions p
          WHERE p.family = $1 AND p.table_name = $2 AND p.tier = 'hot' AND p.range_to IS NOT NULL
            AND p.range_from >= from_range AND p.range_from < to_range
          GROUP BY p.parent) h;
END
$$;

-- Swaps in every archive the transaction prepared, all tables at once (fdw/archive_swap.cpp
-- says why): a row per archive, with its table and rows, in the order prepared.
CREATE OR REPLACE FUNCTION @extschema@.swap_prepared()
RETURNS TABLE (parent regclass, archive regclass, rows bigint)
LANGUAGE plpgsql AS $$
DECLARE
    swapped regclass[] := @extschema@.archive_swap_prepared();
BEGIN
    -- a statement of its own, whose snapshot sees the foreign partitions just made
    RETURN QUERY
    SELECT s.parent_table, a.archive, s.rows
    FROM unnest(swapped) WITH ORDINALITY AS a(archive, n)
    JOIN @extschema@.archive_status s ON s.foreign_table = a.archive
    ORDER BY a.n;
END
$$;

-- Archives the hot partitions of one table of a family in [from_range, to_range) that hold rows
-- (never the ledger's pending one), a run of adjacent ranges at a time. SECURITY DEFINER: it runs
-- as the extension owner for permanode_admin (80_init_roles.sql).
CREATE OR REPLACE FUNCTION @extschema@.archive_table(family text, table_name name, from_range int, to_range int)
RETURNS TABLE (archive regclass, rows bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, @extschema@ AS $$
BEGIN
    PERFORM @extschema@.prepare_table($1, $2, from_range, to_range);
    RETURN QUERY SELECT s.archive, s.rows FROM @extschema@.swap_prepared() s;
END
$$;
REVOKE ALL ON FUNCTION @extschema@.prepare_runs(regclass, regclass[], int[]),
    @extschema@.prepare_table(text, name, int, int), @extschema@.swap_prepared() FROM PUBLIC;

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
