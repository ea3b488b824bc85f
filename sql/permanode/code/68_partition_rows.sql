
-------------------------------------------------------------------------------------------------
-- Rows of a hot partition: counted when it is small or never analyzed, else reltuples.
-- SECURITY DEFINER because readers have no rights on the partitions. Any table of
-- permanode.partitioned_tables.
CREATE OR REPLACE FUNCTION @extschema@.partition_rows(part regclass) RETURNS bigint
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, @extschema@ AS $$
DECLARE
    n bigint;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_inherits i
                   JOIN pg_class c ON c.oid = i.inhrelid AND c.relkind = 'r'
                   JOIN pg_class pc ON pc.oid = i.inhparent
                   JOIN @extschema@.partitioned_tables t
                     ON t.table_name = pc.relname AND t.schema_name::regnamespace = pc.relnamespace
                   WHERE i.inhrelid = part) THEN
        RAISE EXCEPTION '% is not a hot partition of a partitioned table', part USING ERRCODE = 'wrong_object_type';
    END IF;
    SELECT c.reltuples::bigint INTO n FROM pg_class c WHERE c.oid = part;
    IF n < 0 OR pg_relation_size(part) < 8 * 1024 * 1024 THEN
        EXECUTE format('SELECT count(*) FROM %s', part) INTO n;
    END IF;
    RETURN n;
END
$$;
