-- Record streams (#25, seed 004): robustmq's StorageAdapter contract, point by point, on one set
-- of tables for every shard; retention by whole segments; archive and read back.
\set VERBOSITY terse
\getenv abs_srcdir PG_ABS_SRCDIR
\set fresh_extension :abs_srcdir '/sql/include/fresh_extension.sql'
\i :fresh_extension
-- One-second segments, so that a few seconds' writes span several partitions.
UPDATE settings SET value = '1' WHERE key = 'stream_segment_seconds';

-- Shards: created, listed (empty namespace: all; empty shard: the namespace's), names kept
-- apart exactly.
SELECT streams.create_shard('a_b', 'c');
SELECT streams.create_shard('a', 'b_c');
SELECT streams.create_shard('a', 'd', 3);
SELECT streams.create_shard('a', 'd');
SELECT streams.create_shard('', 'x');
SELECT namespace, shard, replica_num, first_offset, next_offset FROM streams.list_shard('', '');
SELECT namespace, shard FROM streams.list_shard('a', '');
SELECT namespace, shard FROM streams.list_shard('a', 'b_c');
SELECT namespace, shard FROM streams.list_shard('a_b', 'c');
SELECT count(*) AS none FROM streams.list_shard('a', 'c');

-- Writes: offsets from 0, contiguous, in input order; a missing shard is an error naming it.
SELECT streams.write('a', 'b_c', 'k1', '\x01', NULL, '{red}', '2026-01-01 00:00:00+00');
SELECT array_agg(o) AS offsets FROM streams.batch_write('a', 'b_c', ARRAY[
    ROW('k2', '\x0202', '[{"name": "h", "value": "v"}]', '{red,blue}', '2026-01-01 00:01:00+00'),
    ROW('k1', '\x030303', NULL, '{blue}', '2026-01-01 00:02:00+00'),
    ROW(NULL, '\x04', NULL, NULL, '2026-01-01 00:03:00+00')]::streams.record[]) o;
SELECT array_agg(o) AS offsets FROM streams.batch_write('a', 'b_c', ARRAY(
    SELECT ROW('n' || i, int4send(i), NULL, ARRAY['n', CASE WHEN i % 5 = 0 THEN 'five' END],
               '2026-01-01 01:00:00+00'::timestamptz + i * interval '1 minute')::streams.record
    FROM generate_series(4, 24) i)) o;
SELECT tags FROM streams.read_by_offset('a', 'b_c', 4, 2);
SELECT streams.write('a_b', 'c', 'other', '\xff', NULL, '{red}');
SELECT streams.write('a', 'nope', 'k', '\x00');
SELECT streams.batch_write('a', 'b_c', ARRAY[ROW('k', NULL, NULL, NULL, NULL)]::streams.record[]);
SELECT count(*) AS empty_batch FROM streams.batch_write('a', 'b_c', '{}');
SELECT namespace, shard, next_offset FROM streams.list_shard('a', 'b_c');
-- Every record is in the partitions of the segment it was written in (and the next is made).
SELECT table_name, tier, sum(rows) AS rows, count(*) >= 2 AS segments_ahead
FROM streams.status GROUP BY 1, 2 ORDER BY 1::text;
SELECT min(g.first_offset) AS first_offset, max(g.last_offset) AS last_offset,
       sum(g.last_offset - g.first_offset + 1) AS mapped
FROM streams.shard_segments g JOIN streams.shards s USING (shard_id)
WHERE s.namespace = 'a' AND s.shard = 'b_c';

-- read_by_offset: inclusive of its start, ascending, capped by count and by data bytes.
SELECT "offset", key, data, header, tags, ts FROM streams.read_by_offset('a', 'b_c', 0, 4);
SELECT array_agg("offset") AS from_8 FROM streams.read_by_offset('a', 'b_c', 8, 5);
SELECT array_agg("offset") AS past_the_end FROM streams.read_by_offset('a', 'b_c', 24, 100);
SELECT count(*) AS beyond FROM streams.read_by_offset('a', 'b_c', 25, 100);
-- max_size 6: 1 + 2 + 3 bytes make 6, the fourth record would make 7: three records.
SELECT array_agg("offset") AS six_bytes FROM streams.read_by_offset('a', 'b_c', 0, 100, 6);
SELECT array_agg("offset") AS two_bytes FROM streams.read_by_offset('a', 'b_c', 0, 100, 2);
SELECT count(*) AS zero_bytes FROM streams.read_by_offset('a', 'b_c', 0, 100, 0);
SELECT count(*) AS zero_records FROM streams.read_by_offset('a', 'b_c', 0, 0);
SELECT * FROM streams.read_by_offset('a', 'nope', 0);

-- read_by_tag: the shard's records with the tag, from the offset, across segments.
SELECT array_agg("offset") AS red FROM streams.read_by_tag('a', 'b_c', 0, 'red');
SELECT array_agg("offset") AS blue_from_2 FROM streams.read_by_tag('a', 'b_c', 2, 'blue');
SELECT array_agg("offset") AS five FROM streams.read_by_tag('a', 'b_c', 0, 'five');
SELECT array_agg("offset") AS five_capped FROM streams.read_by_tag('a', 'b_c', 6, 'five', 2);
SELECT array_agg("offset") AS five_by_size FROM streams.read_by_tag('a', 'b_c', 0, 'five', 100, 8);
SELECT count(*) AS no_tag FROM streams.read_by_tag('a', 'b_c', 0, 'green');
-- The other shard's red record is not this shard's.
SELECT array_agg("offset") AS other_red FROM streams.read_by_tag('a_b', 'c', 0, 'red');

-- read_by_key: no match is no rows; duplicate keys in offset order from the offset.
SELECT array_agg("offset") AS k1 FROM streams.read_by_key('a', 'b_c', 0, 'k1');
SELECT array_agg("offset") AS k1_from_1 FROM streams.read_by_key('a', 'b_c', 1, 'k1');
SELECT count(*) AS no_key FROM streams.read_by_key('a', 'b_c', 0, 'zz');
SELECT array_agg("offset") AS n17 FROM streams.read_by_key('a', 'b_c', 0, 'n17');

-- get_offset_by_timestamp: the smallest offset whose timestamp is at or after T, or none.
SELECT streams.get_offset_by_timestamp('a', 'b_c', '2025-01-01 00:00:00+00') AS before_all,
       streams.get_offset_by_timestamp('a', 'b_c', '2026-01-01 00:01:30+00') AS between,
       streams.get_offset_by_timestamp('a', 'b_c', '2026-01-01 01:10:00+00') AS exact,
       streams.get_offset_by_timestamp('a', 'b_c', '2027-01-01 00:00:00+00') AS after_all;
-- Timestamps need not grow with offsets: still the smallest offset.
SELECT streams.create_shard('t', 'unordered');
SELECT count(*) FROM streams.batch_write('t', 'unordered', ARRAY[
    ROW(NULL, '\x00', NULL, NULL, '2026-01-01 10:00:00+00'),
    ROW(NULL, '\x00', NULL, NULL, '2026-01-01 08:00:00+00'),
    ROW(NULL, '\x00', NULL, NULL, '2026-01-01 12:00:00+00')]::streams.record[]);
SELECT streams.get_offset_by_timestamp('t', 'unordered', '2026-01-01 09:00:00+00') AS first_at_or_after_9;

-- Consumer groups: the last committed offset per (group, namespace, shard), overwritten;
-- unknown shards accepted; robustmq's map form.
SELECT streams.commit_offset('g', 'a', 'b_c', 3);
SELECT streams.commit_offset('g', 'a', 'b_c', 7);
SELECT streams.commit_offset('g', 'a', 'nope', 1);
SELECT streams.commit_offset('g', 'a_b', '{"c": 0, "later": 5}');
SELECT streams.commit_offset('h', 'a', 'b_c', 1);
SELECT * FROM streams.get_offset_by_group('g');
SELECT count(*) AS unknown_group FROM streams.get_offset_by_group('zz');

-- delete_shard removes records, tags and marks; made again, the shard starts empty at 0.
SELECT streams.delete_shard('a', 'nope');
SELECT streams.delete_shard('a', 'b_c');
SELECT count(*) AS left_records FROM streams.records r
WHERE NOT EXISTS (SELECT 1 FROM streams.shards s WHERE s.shard_id = r.shard_id);
SELECT count(*) AS left_tags FROM streams.record_tags t
WHERE NOT EXISTS (SELECT 1 FROM streams.shards s WHERE s.shard_id = t.shard_id);
SELECT count(*) AS left_hints FROM streams.tag_hints t
WHERE NOT EXISTS (SELECT 1 FROM streams.shards s WHERE s.shard_id = t.shard_id);
SELECT streams.create_shard('a', 'b_c');
SELECT namespace, shard, first_offset, next_offset FROM streams.list_shard('a', 'b_c');
SELECT count(*) AS empty FROM streams.read_by_offset('a', 'b_c', 0);
SELECT count(*) AS no_old_tags FROM streams.read_by_tag('a', 'b_c', 0, 'red');
SELECT streams.write('a', 'b_c', 'new', '\x0a');
SELECT "offset", key FROM streams.read_by_offset('a', 'b_c', 0);

-- Retention: records older than it expire; reads below the first retained offset return
-- nothing; closed segments no shard keeps are dropped whole. (Segments of one second: the
-- sleeps close them.)
SELECT streams.create_shard('r', 'old', 1, '1 day');
SELECT pg_sleep(1.1);
SELECT count(*) FROM streams.batch_write('r', 'old', ARRAY(
    SELECT ROW(NULL, '\x00', NULL, '{r}', now() - interval '3 days' + i * interval '1 second')::streams.record
    FROM generate_series(1, 25) i));
SELECT g.segment AS old_segment FROM streams.shard_segments g JOIN streams.shards s USING (shard_id)
WHERE s.namespace = 'r' AND g.first_offset = 0 \gset
SELECT pg_sleep(1.1);
SELECT count(*) FROM streams.batch_write('r', 'old', ARRAY(
    SELECT ROW(NULL, '\x01', NULL, '{r}', clock_timestamp())::streams.record FROM generate_series(1, 3) i));
SELECT pg_sleep(2.1);
-- The expired records' segment goes (both tables; with it any closed segment written by no
-- one); the segments of the other shards' records stay, as does the one of the three kept
-- records.
SELECT streams.expire() >= 2 AS dropped;
SELECT count(*) AS old_segment_left FROM streams.status WHERE from_segment = :old_segment;
SELECT sum(g.last_offset - g.first_offset + 1) AS offsets_kept
FROM streams.shard_segments g JOIN streams.shards s USING (shard_id) WHERE g.last_offset >= s.first_offset;
SELECT first_offset, next_offset FROM streams.list_shard('r', 'old');
SELECT array_agg("offset") AS retained FROM streams.read_by_offset('r', 'old', 0);
SELECT array_agg("offset") AS tag_retained FROM streams.read_by_tag('r', 'old', 0, 'r');
SELECT streams.get_offset_by_timestamp('r', 'old', '-infinity') AS first_by_time;
-- With the other shards gone, no closed segment but the kept records' is left.
SELECT streams.delete_shard(namespace, shard) FROM streams.list_shard('', '') WHERE namespace <> 'r';
SELECT streams.expire() > 0 AS dropped_more;
SELECT table_name, sum(rows) AS rows FROM streams.status GROUP BY 1 ORDER BY 1::text;
SELECT array_agg("offset") AS still_retained FROM streams.read_by_offset('r', 'old', 0);

-- Archive: old segments move to RocksDB and read back through the same functions.
SELECT streams.create_shard('arch', 's');
SELECT count(*) FROM streams.batch_write('arch', 's', ARRAY(
    SELECT ROW('k' || i % 7, int4send(i), NULL, ARRAY['t' || i % 3], '2026-02-01'::timestamptz + i * interval '1 hour')::streams.record
    FROM generate_series(0, 44) i));
CREATE TABLE stream_before AS SELECT * FROM streams.read_by_offset('arch', 's', 0, 1000);
SELECT pg_sleep(2.1);
-- Every closed segment: the 45 records and their tags, and the 3 kept records of shard r/old.
SELECT table_name::text, sum(rows) AS rows FROM streams.archive(0, streams.current_segment())
GROUP BY 1 ORDER BY 1;
SELECT table_name, tier, sum(rows) AS rows FROM streams.status GROUP BY 1, 2 ORDER BY 1::text, 2;
SELECT count(*) AS same_rows FROM streams.read_by_offset('arch', 's', 0, 1000) r JOIN stream_before b USING ("offset")
WHERE (r.key, r.data, r.tags, r.ts) IS NOT DISTINCT FROM (b.key, b.data, b.tags, b.ts);
SELECT array_agg("offset") AS t1 FROM streams.read_by_tag('arch', 's', 0, 't1', 9);
SELECT array_agg("offset") AS t1_from_17 FROM streams.read_by_tag('arch', 's', 17, 't1', 3);
SELECT array_agg("offset") AS k3 FROM streams.read_by_key('arch', 's', 0, 'k3');
SELECT streams.get_offset_by_timestamp('arch', 's', '2026-02-01 10:30:00+00') AS by_time,
       streams.get_offset_by_timestamp('arch', 's', '2026-02-02 10:30:00+00') AS by_time_later;
-- Writing goes on, into the open segment.
SELECT streams.write('arch', 's', 'after', '\x00');
SELECT array_agg("offset") AS tail FROM streams.read_by_offset('arch', 's', 43);
SELECT table_name::text, sum(rows) AS rows FROM streams.restore(0, streams.current_segment())
GROUP BY 1 ORDER BY 1;
SELECT count(*) AS restored_same FROM streams.read_by_offset('arch', 's', 0, 1000) r JOIN stream_before b USING ("offset")
WHERE (r.key, r.data, r.tags, r.ts) IS NOT DISTINCT FROM (b.key, b.data, b.tags, b.ts);
SELECT streams.archive(3, 1);

-- Rights: a reader reads and commits, but does not write; the writer writes.
SET ROLE permanode_reader;
SELECT count(*) AS reader_reads FROM streams.read_by_offset('arch', 's', 0, 5);
SELECT streams.commit_offset('readers', 'arch', 's', 4);
SELECT streams.write('arch', 's', 'no', '\x00');
RESET ROLE;
SET ROLE permanode_writer;
SELECT streams.write('arch', 's', 'yes', '\x00');
SELECT streams.expire();
RESET ROLE;

-- The ledger as a stream: with shard ledger/events made, ingest appends each milestone's events
-- in its transaction (the real Shimmer blocks 17339-17341); an address's records are its outputs
-- created and spent, as the ledger tables say; ingesting a milestone again appends nothing.
\set ECHO none
\o /dev/null
\i :fixtures_sql
\o
\set ECHO all
SELECT count(*) AS milestones FROM (SELECT ingest_test.ingest(17339)) s;
SELECT count(*) AS no_stream_yet FROM streams.list_shard('ledger', '');
SELECT streams.create_shard('ledger', 'events');
SELECT count(*) AS milestones FROM (
    SELECT ingest_test.ingest(m) FROM unnest('{17340,17341,17340}'::int[]) m) s;
SELECT next_offset AS events FROM streams.list_shard('ledger', 'events');
SELECT (SELECT count(*) FROM basic_outputs WHERE milestone_index IN (17340, 17341))
     + (SELECT count(*) FROM alias_outputs WHERE milestone_index IN (17340, 17341))
     + (SELECT count(*) FROM foundry_outputs WHERE milestone_index IN (17340, 17341))
     + (SELECT count(*) FROM nft_outputs WHERE milestone_index IN (17340, 17341))
     + (SELECT count(*) FROM spent_outputs WHERE milestone_index IN (17340, 17341))
     + (SELECT count(*) FROM milestones WHERE milestone_index IN (17339, 17340)) AS from_the_tables;
SELECT convert_from(data, 'UTF8')::jsonb - 'milestoneId' AS first_event, tags
FROM streams.read_by_offset('ledger', 'events', 0, 1);
-- The address with the most events: its records, created and spent, are the tables' rows.
SELECT address::text AS addr FROM basic_outputs WHERE milestone_index IN (17340, 17341)
GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT convert_from(data, 'UTF8')::jsonb->>'type' AS type, count(*)
FROM streams.read_by_tag('ledger', 'events', 0, :'addr', 1000) GROUP BY 1 ORDER BY 1;
SELECT (SELECT count(*) FROM basic_outputs WHERE address::text = :'addr' AND milestone_index IN (17340, 17341)) AS created,
       (SELECT count(*) FROM spent_outputs s JOIN basic_outputs b USING (output_id)
        WHERE b.address::text = :'addr' AND s.milestone_index IN (17340, 17341)) AS spent;
SELECT count(*) AS keyed_by_output_id FROM streams.read_by_tag('ledger', 'events', 0, :'addr', 1000) r
WHERE r.key = (convert_from(r.data, 'UTF8')::jsonb->>'outputId');

SET client_min_messages = warning;
DROP SCHEMA ingest_test CASCADE;
DROP TABLE stream_before;
DROP EXTENSION permanode CASCADE;
DROP EXTENSION permanode_fdw CASCADE;
