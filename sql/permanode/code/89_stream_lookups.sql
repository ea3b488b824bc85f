
-------------------------------------------------------------------------------------------------
-- The record streams' lookups (88_streams.sql): a segment's partitions with their indexes, and the
-- reads by tag and by key.
-------------------------------------------------------------------------------------------------
-- Makes a segment's partitions of records and record_tags if missing (and not archived), as every
-- partitioned family's are (permanode.create_partition); true if it made one.
CREATE OR REPLACE FUNCTION streams.create_partition(segment int) RETURNS boolean
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, @extschema@ AS $$
    SELECT coalesce(bool_or(@extschema@.create_partition('streams', t.table_name, segment)), false)
    FROM @extschema@.partitioned_tables t WHERE t.family = 'streams'
$$;
-- A new partition of records gets its lookup by key (run by create_partition, as the catalog's
-- after_create says).
CREATE OR REPLACE FUNCTION streams.index_records_partition(part regclass) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('CREATE INDEX %I ON %s (shard_id, key, "offset") WHERE key IS NOT NULL',
                   (SELECT c.relname || '_by_key' FROM pg_class c WHERE c.oid = part), part);
END
$$;
REVOKE ALL ON FUNCTION streams.index_records_partition(regclass) FROM PUBLIC;
REVOKE ALL ON FUNCTION streams.create_partition(int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION streams.create_partition(int) TO permanode_writer, permanode_admin;

-- Where a read of a shard from offset on starts: the shard (an error naming it when missing), the
-- first offset retained at or after offset, and the first segment holding it. Inlined into the
-- reads below, as one statement with them.
CREATE OR REPLACE FUNCTION streams.read_start(namespace text, shard text, "offset" bigint)
RETURNS TABLE (shard_id bigint, lo bigint, first_segment int)
LANGUAGE sql STABLE AS $$
    SELECT s.shard_id, s.lo,
           (SELECT min(g.segment) FROM streams.shard_segments g
            WHERE g.shard_id = s.shard_id AND g.last_offset >= s.lo)
    FROM (SELECT coalesce(s.shard_id, streams.missing_shard($1, $2)) AS shard_id,
                 greatest($3, s.first_offset) AS lo
          FROM (SELECT 1) one
          LEFT JOIN streams.shards s ON s.namespace = $1 AND s.shard = $2) s
$$;

-- A shard's records with a tag from offset on: tag_page over the segments tag_hints names,
-- ascending, until max_record_num records, then cut before the data bytes would pass max_size.
-- One SQL statement, inlined into its caller: the segments are read in order and the LIMIT stops
-- the nested loop once a page is full, so later segments are not opened. (read_by_key is the
-- same over key_page and every segment of the shard: each its own statement, so that a plan
-- holds the partitions of one lookup only.)
CREATE OR REPLACE FUNCTION streams.read_by_tag(namespace text, shard text, "offset" bigint, tag text,
                                    max_record_num bigint DEFAULT 100, max_size bigint DEFAULT NULL)
RETURNS SETOF streams.stored_record
LANGUAGE sql STABLE AS $$
    SELECT x."offset", x.key, x.data, x.header, x.tags, x.ts
    FROM (SELECT p.*, sum(length(p.data)) OVER (ORDER BY p."offset") AS upto
          FROM (SELECT p.*
                FROM streams.read_start($1, $2, $3) s
                CROSS JOIN LATERAL (SELECT h.segment FROM streams.tag_hints h
                                    WHERE h.shard_id = s.shard_id AND h.tag = $4
                                      AND h.segment >= s.first_segment
                                    ORDER BY h.segment) h
                CROSS JOIN LATERAL streams.tag_page(s.shard_id, h.segment, s.lo, $4, greatest($5, 0)) p
                LIMIT greatest($5, 0)) p) x
    WHERE $6 IS NULL OR x.upto <= $6
    ORDER BY x."offset"
$$;
CREATE OR REPLACE FUNCTION streams.read_by_key(namespace text, shard text, "offset" bigint, key text,
                                    max_record_num bigint DEFAULT 100, max_size bigint DEFAULT NULL)
RETURNS SETOF streams.stored_record
LANGUAGE sql STABLE AS $$
    SELECT x."offset", x.key, x.data, x.header, x.tags, x.ts
    FROM (SELECT p.*, sum(length(p.data)) OVER (ORDER BY p."offset") AS upto
          FROM (SELECT p.*
                FROM streams.read_start($1, $2, $3) s
                CROSS JOIN LATERAL (SELECT g.segment FROM streams.shard_segments g
                                    WHERE g.shard_id = s.shard_id AND g.segment >= s.first_segment
                                    ORDER BY g.segment) h
                CROSS JOIN LATERAL streams.key_page(s.shard_id, h.segment, s.lo, $4, greatest($5, 0)) p
                LIMIT greatest($5, 0)) p) x
    WHERE $6 IS NULL OR x.upto <= $6
    ORDER BY x."offset"
$$;
