
-------------------------------------------------------------------------------------------------
-- A segment's partitions of the record streams (88_streams.sql). CREATE OR REPLACE: the upgrade
-- to 0.9.0 runs this file again (the tag index gained its INCLUDE).
-------------------------------------------------------------------------------------------------
-- Makes a segment's partitions of records and record_tags if missing (and not archived), each
-- made apart and attached, with its unique key (the cold tier's row key) and lookups.
CREATE OR REPLACE FUNCTION streams.create_partition(segment int) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, @extschema@ AS $$
DECLARE
    t name;
    part name;
    made boolean := false;
BEGIN
    FOREACH t IN ARRAY ARRAY['records', 'record_tags']::name[] LOOP
        part := streams.partition_name(t, segment);
        -- Made already: no lock, so writers of other shards in this segment do not wait for
        -- each other's commits.
        CONTINUE WHEN to_regclass(format('streams.%I', part)) IS NOT NULL;
        PERFORM pg_advisory_xact_lock(hashtext('permanode.partition'), hashtext('streams.' || part));
        CONTINUE WHEN EXISTS (SELECT 1 FROM pg_class c
                              WHERE c.relname = part AND c.relnamespace = 'streams'::regnamespace)
                   OR EXISTS (SELECT 1 FROM @extschema@.archive_status s
                              WHERE s.parent_table = format('streams.%I', t)::regclass
                                AND segment >= s.range_from AND segment < s.range_to);
        EXECUTE format('CREATE TABLE streams.%I (LIKE streams.%I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)',
                       part, t);
        IF t = 'records' THEN
            EXECUTE format('CREATE UNIQUE INDEX %I ON streams.%I (shard_id, "offset")', part || '_key', part);
            EXECUTE format('CREATE INDEX %I ON streams.%I (shard_id, key, "offset") WHERE key IS NOT NULL',
                           part || '_by_key', part);
        ELSE
            -- The segment included: a read by tag finds its offsets from the index alone.
            EXECUTE format('CREATE UNIQUE INDEX %I ON streams.%I (shard_id, tag, "offset") INCLUDE (segment)',
                           part || '_key', part);
        END IF;
        EXECUTE format('ALTER TABLE streams.%I ATTACH PARTITION streams.%I FOR VALUES FROM (%s) TO (%s)',
                       t, part, segment, segment + 1);
        made := true;
    END LOOP;
    RETURN made;
END
$$;
REVOKE ALL ON FUNCTION streams.create_partition(int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION streams.create_partition(int) TO permanode_writer, permanode_admin;
