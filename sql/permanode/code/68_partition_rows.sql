
-------------------------------------------------------------------------------------------------
-- Rows of a hot partition: counted when it is small or never analyzed, else reltuples.
-- SECURITY DEFINER because readers have no rights on the partitions. Ledger tables, the legacy
-- ones (75_legacy.sql) and the stream tables (88_streams.sql).
CREATE OR REPLACE FUNCTION @extschema@.partition_rows(part regclass) RETURNS bigint
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, @extschema@ AS $$
DECLARE
    n bigint;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM @extschema@.partitions p WHERE p.partition = part AND p.tier = 'hot')
       AND NOT EXISTS (SELECT 1 FROM legacy.partitions p WHERE p.partition = part AND p.tier = 'hot')
       AND NOT EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid AND c.relkind = 'r'
                       WHERE i.inhrelid = part
                         AND i.inhparent IN (to_regclass('streams.records'), to_regclass('streams.record_tags'))) THEN
        RAISE EXCEPTION '% is not a hot partition of a ledger table', part USING ERRCODE = 'wrong_object_type';
    END IF;
    SELECT c.reltuples::bigint INTO n FROM pg_class c WHERE c.oid = part;
    IF n < 0 OR pg_relation_size(part) < 8 * 1024 * 1024 THEN
        EXECUTE format('SELECT count(*) FROM %s', part) INTO n;
    END IF;
    RETURN n;
END
$$;
