-- permanode 0.8.0 -> 0.9.0: an as-of page reads its retired outputs newest first from their span
-- index (a point per output, read by distance, instead of a range per output, read whole and
-- sorted), and a read by tag finds its offsets from the tag index alone. This script is
-- generated (sql/CMakeLists.txt): this part, which drops 0.8.0's range spans and remakes the
-- stream tag indexes held, then the install script's parts that make the new ones.
\echo Use "ALTER EXTENSION permanode UPDATE TO '0.9.0'" to load this file. \quit
DO $$
DECLARE
    o record;
BEGIN
    FOR o IN SELECT s.stxname FROM pg_statistic_ext s
             WHERE s.stxrelid = '@extschema@.retired_outputs'::regclass LOOP
        EXECUTE format('DROP STATISTICS @extschema@.%I', o.stxname);
    END LOOP;
    FOR o IN SELECT c.relname FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
             JOIN pg_am a ON a.oid = c.relam AND a.amname = 'gist'
             WHERE x.indrelid = '@extschema@.retired_outputs'::regclass LOOP
        EXECUTE format('DROP INDEX @extschema@.%I', o.relname);
    END LOOP;
    -- The hot segments' tag index, with the segment included (archived ones keep theirs).
    FOR o IN SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
             WHERE i.inhparent = 'streams.record_tags'::regclass AND c.relkind = 'r' LOOP
        EXECUTE format('CREATE UNIQUE INDEX %I ON streams.%I (shard_id, tag, "offset") INCLUDE (segment)',
                       o.relname || '_key_0_9', o.relname);
        EXECUTE format('DROP INDEX streams.%I', o.relname || '_key');
        EXECUTE format('ALTER INDEX streams.%I RENAME TO %I', o.relname || '_key_0_9', o.relname || '_key');
    END LOOP;
END
$$;
DROP FUNCTION @extschema@.span(int, int, int);
DROP FUNCTION @extschema@.span_at(int, int);
DROP FUNCTION streams.read_keyed(text, text, bigint, text, text, bigint, bigint);

-------------------------------------------------------------------------------------------------
-- The span indexes of retired_outputs (84_as_of.sql) and the as-of functions that read them.
-- CREATE OR REPLACE and IF NOT EXISTS: the upgrade to 0.9.0 runs this file again, after dropping
-- 0.8.0's range spans.
-------------------------------------------------------------------------------------------------
-- A retired output of a lookup key as a point: x = the key's hash (its top 27 bits) * 2^26 +
-- the milestone that created it, y = the milestone that spent it / 2^31 (below 1); both exact in
-- a float8. The key's outputs alive at N and created in [from_ms, to_ms] are the points in
-- span_box(key, N, from_ms, to_ms); by distance from span_newest(key, to_ms) they come newest
-- first, as x differs by whole milestones and y by less than 1.
CREATE OR REPLACE FUNCTION @extschema@.span_point(key int, created int, spent int) RETURNS point
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN point((key >> 5)::float8 * 67108864 + created, spent::float8 / 2147483648);
CREATE OR REPLACE FUNCTION @extschema@.span_box(key int, at int, from_ms int, to_ms int) RETURNS box
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN box(point((key >> 5)::float8 * 67108864 + from_ms, (at + 1)::float8 / 2147483648),
           point((key >> 5)::float8 * 67108864 + least(to_ms, at), 1));
CREATE OR REPLACE FUNCTION @extschema@.span_newest(key int, to_ms int) RETURNS point
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN point((key >> 5)::float8 * 67108864 + to_ms, 0);
COMMENT ON FUNCTION @extschema@.span_point(int, int, int) IS
    'a retired output of a lookup key (its hash) as a point of (created, spent) milestones, which a GiST index finds in span_box(key, N, from, to) (alive at N) newest first from span_newest(key, to)';
DO $$
DECLARE
    k record;
BEGIN
    FOR k IN SELECT * FROM (VALUES
        ('address', '@extschema@.address_hash(address)'),
        ('sender', '@extschema@.address_hash(sender)'),
        ('issuer', '@extschema@.address_hash(issuer)'),
        ('tag', '@extschema@.tag_hash(tag)'),
        ('state_controller', '@extschema@.address_hash(state_controller)'),
        ('governor', '@extschema@.address_hash(governor)'),
        ('dust_return_address', '@extschema@.address_hash(dust_return_address)'),
        ('expiration_return_address', '@extschema@.address_hash(expiration_return_address)'),
        ('chain_id', '@extschema@.hash32_hash(chain_id)'),
        ('foundry_id', '@extschema@.foundry_id_hash(foundry_id)'),
        ('output_kind', 'hashtext(output_kind)')) AS v(col, key)
    LOOP
        -- k.key is one of the expressions above, never input.
        EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON @extschema@.retired_outputs USING gist '
                       '(@extschema@.span_point(%s, milestone_index, spent_milestone_index)) '
                       'WHERE %I IS NOT NULL', 'retired_outputs_by_' || k.col, k.key, k.col);
    END LOOP;
END
$$;

-- The outputs an address holds (the `address` column: owner, state controller, alias of a
-- foundry) at the end of milestone N, N's era only: the Chrysalis outputs before the Stardust
-- genesis, the Stardust outputs from it. Without N: the newest milestone held.
CREATE OR REPLACE FUNCTION @extschema@.outputs_at(address @extschema@.address, at int DEFAULT NULL)
RETURNS TABLE (output_id @extschema@.output_id, output_kind text, amount bigint,
               sig_locked boolean, milestone_index int, ms_timestamp timestamptz,
               spent_milestone_index int, output_type smallint)
LANGUAGE sql STABLE AS $$
    WITH n AS (SELECT coalesce(at, (SELECT max(p.milestone_index) FROM @extschema@.milestone_protocols p)) AS at),
         era AS (SELECT n.at, coalesce(@extschema@.protocol_at(n.at), 2) = 1 AS chrysalis,
                        @extschema@.milestone_time(n.at) AS at_time FROM n)
    SELECT u.output_id, u.output_kind, u.amount,
           u.dust_return_address IS NULL AND u.timelock IS NULL AND u.expiration IS NULL,
           u.milestone_index, u.ms_timestamp, NULL::int,
           CASE WHEN u.output_kind = 'legacy' THEN get_byte(u.data, 0)::smallint END
    FROM era, @extschema@.unspent_outputs u
    WHERE u.address = outputs_at.address AND u.ms_timestamp <= era.at_time
      AND u.milestone_index <= era.at AND (u.output_kind = 'legacy') = era.chrysalis
    UNION ALL
    SELECT r.output_id, r.output_kind, r.amount,
           r.dust_return_address IS NULL AND r.timelock IS NULL AND r.expiration IS NULL,
           r.milestone_index, r.ms_timestamp, r.spent_milestone_index, r.output_type
    FROM era, @extschema@.retired_outputs r
    WHERE r.address IS NOT NULL
      AND @extschema@.span_point(@extschema@.address_hash(r.address), r.milestone_index,
                                 r.spent_milestone_index)
          <@ @extschema@.span_box(@extschema@.address_hash(outputs_at.address), era.at, 0, era.at)
      AND r.address = outputs_at.address
      AND (r.output_kind = 'legacy') = era.chrysalis
$$;
COMMENT ON FUNCTION @extschema@.outputs_at(@extschema@.address, int) IS
    'the outputs an address holds at the end of milestone `at` (default: the newest held), of that milestone''s era; spent_milestone_index is NULL for outputs still unspent';

-- An address's balance at the end of milestone N, per output kind: total, the part without
-- unlock conditions beyond the address (sig-locked), and the outputs counted.
CREATE OR REPLACE FUNCTION @extschema@.balance_at(address @extschema@.address, at int DEFAULT NULL)
RETURNS TABLE (output_kind text, balance numeric, sig_locked_balance numeric, outputs bigint)
LANGUAGE sql STABLE AS $$
    SELECT o.output_kind, sum(o.amount), coalesce(sum(o.amount) FILTER (WHERE o.sig_locked), 0),
           count(*)
    FROM @extschema@.outputs_at(address, at) o
    GROUP BY o.output_kind ORDER BY o.output_kind
$$;
COMMENT ON FUNCTION @extschema@.balance_at(@extschema@.address, int) IS
    'an address''s balance at the end of milestone `at` (default: the newest held), per output kind';

-------------------------------------------------------------------------------------------------
-- The record streams' lookups (88_streams.sql): a segment's partitions with their indexes, and the
-- reads by tag and by key. CREATE OR REPLACE: the upgrade to 0.9.0 runs this file again.
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

-- Within a shard an offset is unique: a read by tag joins each to one record (without this the
-- planner, counting every shard's offsets together, caches the lookups of records by offset).
ALTER TABLE streams.record_tags ALTER COLUMN "offset" SET (n_distinct_inherited = -1);

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
