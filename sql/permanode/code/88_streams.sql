-- Record streams: the functions and views over the tables of ../schema/88_streams.sql.
COMMENT ON SCHEMA streams IS 'permanode: record streams (seed 004), robustmq''s StorageAdapter on PostgreSQL';
COMMENT ON TABLE streams.records IS 'every shard''s records, by segment of offsets (docs/STREAMS.md)';

-- The segment of a time, and the one being written now.
CREATE OR REPLACE FUNCTION streams.segment_at(t timestamptz) RETURNS int
LANGUAGE sql STABLE PARALLEL SAFE
RETURN floor(extract(epoch FROM t)
             / (SELECT s.value::numeric FROM @extschema@.settings s WHERE s.key = 'stream_segment_seconds'))::int;
CREATE OR REPLACE FUNCTION streams.current_segment() RETURNS int
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN streams.segment_at(clock_timestamp());

-- The segments holding a shard's offsets [lo, hi] (NULLs when none does).
CREATE OR REPLACE FUNCTION streams.segments_of(shard_id bigint, lo bigint, hi bigint,
                                    OUT first_segment int, OUT last_segment int)
LANGUAGE sql STABLE AS $$
    SELECT min(g.segment), max(g.segment) FROM streams.shard_segments g
    WHERE g.shard_id = $1 AND g.last_offset >= $2 AND g.first_offset <= $3
$$;

-- records_s0000020418, record_tags_s0000020418
CREATE OR REPLACE FUNCTION streams.partition_name(table_name name, segment int) RETURNS name
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@.partition_name('streams', table_name, segment);

-- streams.create_partition(segment): 89_stream_lookups.sql.

-- The shard's row, locked for writing when `for_write`; a missing shard is an error naming it.
CREATE OR REPLACE FUNCTION streams.shard_of(namespace text, shard text, for_write boolean DEFAULT false)
RETURNS streams.shards
LANGUAGE plpgsql AS $$
DECLARE
    s streams.shards;
BEGIN
    IF for_write THEN
        SELECT * INTO s FROM streams.shards x WHERE x.namespace = $1 AND x.shard = $2 FOR NO KEY UPDATE;
    ELSE
        SELECT * INTO s FROM streams.shards x WHERE x.namespace = $1 AND x.shard = $2;
    END IF;
    IF NOT FOUND THEN
        PERFORM streams.missing_shard(namespace, shard);
    END IF;
    RETURN s;
END
$$;

-------------------------------------------------------------------------------------------------
-- The StorageAdapter's operations.
-------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION streams.create_shard(namespace text, shard text, replica_num int DEFAULT 1,
                                     retention interval DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF coalesce(namespace, '') = '' OR coalesce(shard, '') = '' THEN
        RAISE EXCEPTION 'a shard needs a namespace and a name, not "%" and "%"', namespace, shard
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO streams.shards (namespace, shard, replica_num, retention)
    VALUES ($1, $2, $3, $4);
EXCEPTION WHEN unique_violation THEN
    RAISE EXCEPTION 'shard "%" already exists in namespace "%"', shard, namespace
        USING ERRCODE = 'duplicate_object';
END
$$;

-- The shards of a namespace ('' for all) named shard ('' for all of the namespace's).
CREATE OR REPLACE FUNCTION streams.list_shard(namespace text DEFAULT '', shard text DEFAULT '')
RETURNS TABLE (namespace text, shard text, replica_num int, first_offset bigint,
               next_offset bigint, retention interval, created_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT s.namespace, s.shard, s.replica_num, s.first_offset, s.next_offset, s.retention,
           s.created_at
    FROM streams.shards s
    WHERE (coalesce($1, '') = '' OR s.namespace = $1)
      AND (coalesce($1, '') = '' OR coalesce($2, '') = '' OR s.shard = $2)
    ORDER BY s.namespace, s.shard
$$;

-- Removes the shard, its records, tags and marks. Archived segments are read-only: their rows
-- of the shard stay in the archive, unreachable (a shard made again has another shard_id), until
-- the segment is dropped.
CREATE OR REPLACE FUNCTION streams.delete_shard(namespace text, shard text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    s streams.shards := streams.shard_of(namespace, shard, true);
    part regclass;
BEGIN
    FOR part IN SELECT c.oid::regclass FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                WHERE i.inhparent IN ('streams.records'::regclass, 'streams.record_tags'::regclass)
                  AND c.relkind = 'r' LOOP
        EXECUTE format('DELETE FROM %s WHERE shard_id = $1', part) USING s.shard_id;
    END LOOP;
    DELETE FROM streams.tag_hints h WHERE h.shard_id = s.shard_id;
    DELETE FROM streams.time_marks m WHERE m.shard_id = s.shard_id;
    DELETE FROM streams.shard_segments g WHERE g.shard_id = s.shard_id;
    DELETE FROM streams.shards x WHERE x.shard_id = s.shard_id;
END
$$;

-- Appends records to a shard: offsets next_offset .. next_offset + n - 1, in input order,
-- returned in that order. The shard's row stays locked to commit, so concurrent batches take
-- consecutive runs of offsets in commit order, and a batch rolled back leaves no gap.
-- The records as arrays of their fields, one element per record (tags: a JSON array of strings
-- each; headers, tags and ts may be NULL or hold NULLs), for clients that bind arrays.
CREATE OR REPLACE FUNCTION streams.batch_write(namespace text, shard text, keys text[], data bytea[],
                                    headers jsonb[] DEFAULT NULL, tags jsonb[] DEFAULT NULL,
                                    ts timestamptz[] DEFAULT NULL)
RETURNS SETOF bigint
LANGUAGE plpgsql AS $$
DECLARE
    n bigint := coalesce(cardinality(data), 0);
    s streams.shards;
    seg int;
BEGIN
    s := streams.shard_of(namespace, shard, true);
    IF n = 0 THEN
        RETURN;
    END IF;
    IF coalesce(cardinality(keys), n) <> n OR coalesce(cardinality(headers), n) <> n
       OR coalesce(cardinality(tags), n) <> n OR coalesce(cardinality(ts), n) <> n THEN
        RAISE EXCEPTION 'the field arrays of a batch to shard "%" in namespace "%" differ in length', shard, namespace
            USING ERRCODE = 'array_subscript_error';
    END IF;
    IF array_position(data, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'a record to shard "%" in namespace "%" has no data', shard, namespace
            USING ERRCODE = 'null_value_not_allowed', HINT = 'Write an empty bytea for no data.';
    END IF;
    UPDATE streams.shards x SET next_offset = x.next_offset + n WHERE x.shard_id = s.shard_id;
    -- The segment of now, taken under the shard's lock: a shard's segments follow its offsets.
    -- Its partitions, and the next segment's ahead (a writer that makes a segment holds it to its
    -- commit; one made ahead is made before anyone writes to it).
    seg := streams.current_segment();
    PERFORM streams.create_partition(seg);
    PERFORM streams.create_partition(seg + 1);
    INSERT INTO streams.shard_segments AS g (shard_id, segment, first_offset, last_offset)
    VALUES (s.shard_id, seg, s.next_offset, s.next_offset + n - 1)
    ON CONFLICT (shard_id, segment) DO UPDATE SET last_offset = excluded.last_offset;
    RETURN QUERY
    WITH b AS MATERIALIZED (
        SELECT seg AS segment, s.next_offset + r.ord - 1 AS "offset",
               keys[r.ord] AS key, r.data, headers[r.ord] AS header,
               ARRAY(SELECT t FROM jsonb_array_elements_text(tags[r.ord]) t WHERE t IS NOT NULL) AS tags,
               coalesce(ts[r.ord], clock_timestamp()) AS ts
        FROM unnest(data) WITH ORDINALITY r(data, ord)),
    written AS (
        INSERT INTO streams.records (segment, shard_id, "offset", key, data, header, tags, ts)
        SELECT b.segment, s.shard_id, b."offset", b.key, b.data, b.header, b.tags, b.ts FROM b),
    tagged AS (
        INSERT INTO streams.record_tags (segment, shard_id, tag, "offset")
        SELECT DISTINCT b.segment, s.shard_id, t.tag, b."offset"
        FROM b, unnest(b.tags) t(tag)),
    hinted AS (
        INSERT INTO streams.tag_hints (shard_id, tag, segment)
        SELECT DISTINCT s.shard_id, t.tag, b.segment
        FROM b, unnest(b.tags) t(tag)
        ORDER BY 2, 3
        ON CONFLICT DO NOTHING),
    marked AS (
        INSERT INTO streams.time_marks AS m (shard_id, block, min_ts, max_ts)
        SELECT s.shard_id, b."offset" / 4096, min(b.ts), max(b.ts) FROM b GROUP BY 2 ORDER BY 2
        ON CONFLICT (shard_id, block) DO UPDATE
            SET min_ts = least(m.min_ts, excluded.min_ts), max_ts = greatest(m.max_ts, excluded.max_ts))
    SELECT b."offset" FROM b ORDER BY b."offset";
    -- Followers wake at commit (permanode follow).
    PERFORM pg_notify('permanode_streams', json_build_array(namespace, shard, s.next_offset + n - 1)::text);
END
$$;

-- The records as streams.record values.
CREATE OR REPLACE FUNCTION streams.batch_write(namespace text, shard text, records streams.record[])
RETURNS SETOF bigint
LANGUAGE sql AS $$
    SELECT streams.batch_write($1, $2, ARRAY(SELECT r.key FROM unnest($3) WITH ORDINALITY r ORDER BY r.ordinality),
                               ARRAY(SELECT r.data FROM unnest($3) WITH ORDINALITY r ORDER BY r.ordinality),
                               ARRAY(SELECT r.header FROM unnest($3) WITH ORDINALITY r ORDER BY r.ordinality),
                               ARRAY(SELECT to_jsonb(r.tags) FROM unnest($3) WITH ORDINALITY r ORDER BY r.ordinality),
                               ARRAY(SELECT r.ts FROM unnest($3) WITH ORDINALITY r ORDER BY r.ordinality))
$$;

CREATE OR REPLACE FUNCTION streams.write(namespace text, shard text, key text, data bytea,
                              header jsonb DEFAULT NULL, tags text[] DEFAULT '{}',
                              ts timestamptz DEFAULT NULL)
RETURNS bigint
LANGUAGE sql AS $$
    SELECT o FROM streams.batch_write($1, $2, ARRAY[ROW($3, $4, $5, $6, $7)::streams.record]) o
$$;

-- Up to max_record_num records from offset on (below the first retained: from it).
CREATE OR REPLACE FUNCTION streams.read_by_offset(namespace text, shard text, "offset" bigint,
                                       max_record_num bigint DEFAULT 100, max_size bigint DEFAULT NULL)
RETURNS SETOF streams.stored_record
LANGUAGE plpgsql STABLE AS $$
DECLARE
    s streams.shards := streams.shard_of(namespace, shard);
    lo bigint := greatest(read_by_offset."offset", s.first_offset);
    hi bigint := least(lo + greatest(max_record_num, 0), s.next_offset) - 1;
    segs record := streams.segments_of(s.shard_id, lo, hi);
BEGIN
    IF hi < lo THEN
        RETURN;
    END IF;
    RETURN QUERY
    SELECT x."offset", x.key, x.data, x.header, x.tags, x.ts
    FROM (SELECT r.*, sum(length(r.data)) OVER (ORDER BY r."offset") AS upto
          FROM streams.records r
          WHERE r.segment BETWEEN segs.first_segment AND segs.last_segment
            AND r.shard_id = s.shard_id AND r."offset" BETWEEN lo AND hi) x
    WHERE max_size IS NULL OR x.upto <= max_size
    ORDER BY x."offset";
END
$$;

-- One segment's page of a shard's records with a tag, or with a key, from offset lo on: n records
-- in offset order. A query of its own per segment: both tables are pruned to that segment's
-- partition before the join runs (inlined into the caller's statement).
CREATE OR REPLACE FUNCTION streams.tag_page(shard_id bigint, segment int, lo bigint, tag text, n bigint)
RETURNS SETOF streams.stored_record
LANGUAGE sql STABLE AS $$
    SELECT x."offset", x.key, x.data, x.header, x.tags, x.ts
    FROM streams.record_tags t
    JOIN streams.records x ON x.segment = $2 AND x.shard_id = $1 AND x."offset" = t."offset"
    WHERE t.segment = $2 AND t.shard_id = $1 AND t.tag = $4 AND t."offset" >= $3
    ORDER BY t."offset" LIMIT $5
$$;
CREATE OR REPLACE FUNCTION streams.key_page(shard_id bigint, segment int, lo bigint, key text, n bigint)
RETURNS SETOF streams.stored_record
LANGUAGE sql STABLE AS $$
    SELECT x."offset", x.key, x.data, x.header, x.tags, x.ts
    FROM streams.records x
    WHERE x.segment = $2 AND x.shard_id = $1 AND x.key = $4 AND x."offset" >= $3
    ORDER BY x."offset" LIMIT $5
$$;

-- The error of a read from a shard that does not exist (a read is one SQL statement that calls
-- this only then). VOLATILE: the planner must not run it to estimate a plan.
CREATE OR REPLACE FUNCTION streams.missing_shard(namespace text, shard text) RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    RAISE EXCEPTION 'shard "%" does not exist in namespace "%"', shard, namespace
        USING ERRCODE = 'undefined_object', HINT = 'Create it with streams.create_shard().';
END
$$;

-- streams.read_by_tag and streams.read_by_key: 89_stream_lookups.sql.

-- The smallest retained offset whose timestamp is at or after ts; NULL when there is none.
CREATE OR REPLACE FUNCTION streams.get_offset_by_timestamp(namespace text, shard text, ts timestamptz)
RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
    s streams.shards := streams.shard_of(namespace, shard);
    b bigint;
    segs record;
    found_offset bigint;
BEGIN
    -- The blocks holding a record at or after ts, in offset order; the first whose retained
    -- records hold one has the answer.
    FOR b IN SELECT m.block FROM streams.time_marks m
             WHERE m.shard_id = s.shard_id AND m.block >= s.first_offset / 4096
               AND m.max_ts >= get_offset_by_timestamp.ts
             ORDER BY m.block LOOP
        segs := streams.segments_of(s.shard_id, greatest(b * 4096, s.first_offset), b * 4096 + 4095);
        SELECT min(r."offset") INTO found_offset FROM streams.records r
        WHERE r.segment BETWEEN segs.first_segment AND segs.last_segment
          AND r.shard_id = s.shard_id
          AND r."offset" BETWEEN greatest(b * 4096, s.first_offset) AND b * 4096 + 4095
          AND r.ts >= get_offset_by_timestamp.ts;
        IF found_offset IS NOT NULL THEN
            RETURN found_offset;
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;

-- Stores a group's last consumed offset of a shard (overwriting).
CREATE OR REPLACE FUNCTION streams.commit_offset(group_name text, namespace text, shard text, "offset" bigint)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO streams.group_offsets AS g (group_name, namespace, shard, "offset")
    VALUES ($1, $2, $3, $4)
    ON CONFLICT (group_name, namespace, shard)
    DO UPDATE SET "offset" = excluded."offset", committed_at = now()
$$;
-- robustmq's form: a namespace's offsets by shard name, {"shard": offset, ...}.
CREATE OR REPLACE FUNCTION streams.commit_offset(group_name text, namespace text, offsets jsonb)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO streams.group_offsets AS g (group_name, namespace, shard, "offset")
    SELECT $1, $2, o.key, o.value::bigint FROM jsonb_each_text($3) o ORDER BY o.key
    ON CONFLICT (group_name, namespace, shard)
    DO UPDATE SET "offset" = excluded."offset", committed_at = now()
$$;

CREATE OR REPLACE FUNCTION streams.get_offset_by_group(group_name text)
RETURNS TABLE (namespace text, shard text, "offset" bigint)
LANGUAGE sql STABLE AS $$
    SELECT g.namespace, g.shard, g."offset" FROM streams.group_offsets g
    WHERE g.group_name = $1 ORDER BY g.namespace, g.shard
$$;

-------------------------------------------------------------------------------------------------
-- The ledger as a stream: where shard "events" of namespace "ledger" exists, ingest appends, in
-- the milestone's transaction, one record per milestone payload the cone confirms (key: the
-- milestone ID, tag "milestone"), per output created and per output spent (key: the output ID,
-- tags: its address, its tag in 0x-hex, its kind), in that order. The data is the event in JSON.
-- A spend ingested before the output it spends (milestones ingested out of order) is appended
-- with the output, naming the milestone that spent it.
-------------------------------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION streams.append_ledger(milestone_index int, ms_timestamp timestamptz, events text[],
                                      milestone_ids @extschema@.hash32[], confirmed_indexes int[],
                                      output_ids @extschema@.output_id[], kinds text[],
                                      addresses @extschema@.address[], amounts bigint[], tags bytea[])
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    appended bigint;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM streams.shards s WHERE s.namespace = 'ledger' AND s.shard = 'events') THEN
        RETURN 0;
    END IF;
    WITH e AS (
        SELECT e.ord,
               coalesce(e.milestone_id::text, e.output_id::text) AS key,
               CASE WHEN e.event = 'milestone'
                    THEN jsonb_build_object('type', 'milestone', 'milestoneIndex', e.confirmed,
                                            'milestoneId', e.milestone_id::text,
                                            'confirmedAt', milestone_index)
                    ELSE jsonb_strip_nulls(jsonb_build_object(
                        'type', CASE e.event WHEN 'spent_before' THEN 'spent' ELSE e.event END,
                        'outputId', e.output_id::text, 'kind', e.kind,
                        'address', e.address::text, 'amount', e.amount::text,
                        'tag', '0x' || encode(e.tag, 'hex'),
                        -- a spend ingested before its output: the milestone that spent it
                        'milestoneIndex', CASE WHEN e.event = 'spent_before'
                                               THEN (SELECT p.milestone_index FROM @extschema@.spent_outputs p
                                                     WHERE p.output_id = e.output_id LIMIT 1)
                                               ELSE milestone_index END)) END AS doc,
               CASE WHEN e.event = 'milestone' THEN jsonb_build_array('milestone')
                    ELSE to_jsonb(array_remove(ARRAY[e.address::text, '0x' || encode(e.tag, 'hex'), e.kind], NULL)) END AS tags
        FROM unnest(events, milestone_ids, confirmed_indexes, output_ids, kinds, addresses, amounts, tags)
             WITH ORDINALITY e(event, milestone_id, confirmed, output_id, kind, address, amount, tag, ord))
    SELECT count(*) INTO appended
    FROM streams.batch_write('ledger', 'events',
                             ARRAY(SELECT e.key FROM e ORDER BY e.ord),
                             ARRAY(SELECT convert_to(e.doc::text, 'UTF8') FROM e ORDER BY e.ord),
                             NULL,
                             ARRAY(SELECT e.tags FROM e ORDER BY e.ord),
                             array_fill(ms_timestamp, ARRAY[cardinality(events)]));
    RETURN appended;
END
$$;

-------------------------------------------------------------------------------------------------
-- Retention and the cold tier, by segment.
-------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION streams.set_retention(namespace text, shard text, retention interval)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    s streams.shards := streams.shard_of(namespace, shard, true);
BEGIN
    UPDATE streams.shards x SET retention = set_retention.retention WHERE x.shard_id = s.shard_id;
END
$$;

-- Expires what each shard's retention no longer keeps: its first retained offset moves to the
-- first record younger than the retention (reads below it return nothing at once), and every
-- segment, hot or archived, that holds no retained record of any shard is dropped whole, with its
-- hints. Returns the partitions dropped (a segment has two: records and record_tags).
CREATE OR REPLACE FUNCTION streams.expire() RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    s streams.shards;
    -- Closed segments only: no batch writes into a segment once the next but one has begun.
    open_from int := streams.current_segment() - 1;
    keep_from bigint;
    part record;
    dropped int := 0;
BEGIN
    FOR s IN SELECT * FROM streams.shards x WHERE x.retention IS NOT NULL ORDER BY x.shard_id FOR NO KEY UPDATE LOOP
        keep_from := coalesce(streams.get_offset_by_timestamp(s.namespace, s.shard, now() - s.retention),
                              s.next_offset);
        UPDATE streams.shards x SET first_offset = greatest(x.first_offset, keep_from)
        WHERE x.shard_id = s.shard_id;
        DELETE FROM streams.time_marks m WHERE m.shard_id = s.shard_id AND (m.block + 1) * 4096 <= keep_from;
    END LOOP;
    -- A closed segment can go when no shard keeps a record in it.
    FOR part IN
        SELECT p.partition, p.kind, p.from_segment, p.to_segment
        FROM (SELECT f.partition, CASE f.tier WHEN 'hot' THEN 'TABLE' ELSE 'FOREIGN TABLE' END AS kind,
                     f.range_from AS from_segment, f.range_to AS to_segment
              FROM @extschema@.family_partitions f WHERE f.family = 'streams') p
        WHERE p.to_segment <= open_from
          AND NOT EXISTS (SELECT 1 FROM streams.shard_segments g
                          JOIN streams.shards x ON x.shard_id = g.shard_id
                          WHERE g.segment >= p.from_segment AND g.segment < p.to_segment
                            AND g.last_offset >= x.first_offset)
        ORDER BY p.from_segment
    LOOP
        -- (an archive's directory goes with permanode.archive_gc())
        EXECUTE format('DROP %s %s', part.kind, part.partition);
        DELETE FROM streams.tag_hints h WHERE h.segment >= part.from_segment AND h.segment < part.to_segment;
        DELETE FROM streams.shard_segments g WHERE g.segment >= part.from_segment AND g.segment < part.to_segment;
        dropped := dropped + 1;
    END LOOP;
    RETURN dropped;
END
$$;

-- The partitions of the stream tables: segments, tier, rows and bytes.
CREATE OR REPLACE VIEW streams.status AS
SELECT s.parent AS table_name, s.from_range AS from_segment, s.to_range AS to_segment, s.tier,
       s.partition, s.rows, s.bytes
FROM @extschema@.family_status s
WHERE s.family = 'streams';

-- Archives the hot segments [from_segment, to_segment) of both stream tables that hold rows, a
-- run of adjacent segments at a time; the segments still open (the current one and the one
-- before it) stay hot.
CREATE OR REPLACE FUNCTION streams.archive(from_segment int, to_segment int)
RETURNS TABLE (table_name regclass, archive regclass, rows bigint)
LANGUAGE plpgsql AS $$
DECLARE
    -- Closed segments only: no batch writes into a segment once the next but one has begun.
    open_from int := streams.current_segment() - 1;
BEGIN
    IF from_segment IS NULL OR to_segment IS NULL OR to_segment <= from_segment THEN
        RAISE EXCEPTION 'invalid segments [%, %)', from_segment, to_segment
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Segments are streams.segment_at(time), from_segment included, to_segment excluded.';
    END IF;
    -- Every table copied first, then all swapped at once (fdw/archive_swap.cpp says why).
    PERFORM @extschema@.prepare_table('streams', t.table_name, from_segment,
                                      least(to_segment, open_from))
    FROM (SELECT p.table_name FROM @extschema@.partitioned_tables p WHERE p.family = 'streams'
          ORDER BY format('streams.%I', p.table_name)) t;
    RETURN QUERY SELECT s.parent, s.archive, s.rows FROM @extschema@.swap_prepared() s;
END
$$;

CREATE OR REPLACE FUNCTION streams.restore(from_segment int, to_segment int)
RETURNS TABLE (table_name regclass, archive text, rows bigint)
LANGUAGE sql AS $$
    SELECT r.parent, r.archive, r.rows FROM @extschema@.restore_ranges('streams', from_segment, to_segment) r
$$;

-------------------------------------------------------------------------------------------------
-- Rights: readers read and commit their offsets, the writer writes and makes shards, the admin
-- also sets retention, expires, archives and restores.
-------------------------------------------------------------------------------------------------
GRANT USAGE ON SCHEMA streams TO permanode_reader;
GRANT SELECT ON ALL TABLES IN SCHEMA streams TO permanode_reader;
DO $$
DECLARE
    f regprocedure;
    grantees text[];
BEGIN
    FOR f, grantees IN
        SELECT p.oid::regprocedure,
               CASE WHEN p.proname IN ('commit_offset')
                    THEN '{permanode_reader}'
                    WHEN p.proname IN ('create_shard', 'delete_shard', 'batch_write', 'write')
                    THEN '{permanode_writer,permanode_admin}'
                    ELSE '{permanode_admin}' END::text[]
        FROM pg_proc p
        WHERE p.pronamespace = 'streams'::regnamespace
          AND p.proname IN ('commit_offset', 'create_shard', 'delete_shard', 'batch_write', 'write',
                            'set_retention', 'expire', 'archive', 'restore')
    LOOP
        EXECUTE format('ALTER FUNCTION %s SECURITY DEFINER SET search_path = pg_catalog, @extschema@', f);
        EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', f);
        EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO %s', f,
                       (SELECT string_agg(quote_ident(g), ', ') FROM unnest(grantees) g));
    END LOOP;
END
$$;
