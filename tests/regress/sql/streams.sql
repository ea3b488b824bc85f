-- Record streams (#25, seed 004): robustmq's StorageAdapter contract, point by point, on one set
-- of tables for every shard; retention by whole segments; archive and read back.
\set VERBOSITY terse
\getenv abs_srcdir PG_ABS_SRCDIR
\set fresh_extension :abs_srcdir '/sql/include/fresh_extension.sql'
\i :fresh_extension
-- Small segments, so that a few records span several partitions.
UPDATE settings SET value = '10' WHERE key = 'stream_segment_size';

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
-- The shard's records span segments 0 to 2 (10 offsets each).
SELECT table_name, from_segment, tier, rows FROM streams.status ORDER BY 1::text, 2;

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
-- nothing; segments no shard keeps are dropped whole.
SELECT streams.create_shard('r', 'old', 1, '1 day');
SELECT count(*) FROM streams.batch_write('r', 'old', ARRAY(
    SELECT ROW(NULL, '\x00', NULL, '{r}', now() - interval '3 days' + i * interval '1 second')::streams.record
    FROM generate_series(1, 25) i));
SELECT count(*) FROM streams.batch_write('r', 'old', ARRAY(
    SELECT ROW(NULL, '\x01', NULL, '{r}', now())::streams.record FROM generate_series(1, 3) i));
-- Segment 0 holds other shards' records, which they keep; segment 1 holds only expired ones.
SELECT streams.expire() AS partitions_dropped;
SELECT first_offset, next_offset FROM streams.list_shard('r', 'old');
SELECT array_agg("offset") AS retained FROM streams.read_by_offset('r', 'old', 0);
SELECT array_agg("offset") AS tag_retained FROM streams.read_by_tag('r', 'old', 0, 'r');
SELECT streams.get_offset_by_timestamp('r', 'old', '-infinity') AS first_by_time;
-- With the other shards gone, segment 0 holds no retained record either.
SELECT streams.delete_shard(namespace, shard) FROM streams.list_shard('', '') WHERE namespace <> 'r';
SELECT streams.expire() AS partitions_dropped;
SELECT table_name, from_segment, tier FROM streams.status ORDER BY 1::text, 2;
SELECT array_agg("offset") AS still_retained FROM streams.read_by_offset('r', 'old', 0);

-- Archive: old segments move to RocksDB and read back through the same functions.
SELECT streams.create_shard('arch', 's');
SELECT count(*) FROM streams.batch_write('arch', 's', ARRAY(
    SELECT ROW('k' || i % 7, int4send(i), NULL, ARRAY['t' || i % 3], '2026-02-01'::timestamptz + i * interval '1 hour')::streams.record
    FROM generate_series(0, 44) i));
CREATE TABLE stream_before AS SELECT * FROM streams.read_by_offset('arch', 's', 0, 1000);
SELECT table_name::text, rows FROM streams.archive(0, 4) ORDER BY 1;
SELECT table_name, from_segment, to_segment, tier FROM streams.status ORDER BY 1::text, 2;
SELECT count(*) AS same_rows FROM streams.read_by_offset('arch', 's', 0, 1000) r JOIN stream_before b USING ("offset")
WHERE (r.key, r.data, r.tags, r.ts) IS NOT DISTINCT FROM (b.key, b.data, b.tags, b.ts);
SELECT array_agg("offset") AS t1 FROM streams.read_by_tag('arch', 's', 0, 't1', 9);
SELECT array_agg("offset") AS t1_from_17 FROM streams.read_by_tag('arch', 's', 17, 't1', 3);
SELECT array_agg("offset") AS k3 FROM streams.read_by_key('arch', 's', 0, 'k3');
SELECT streams.get_offset_by_timestamp('arch', 's', '2026-02-01 10:30:00+00') AS by_time,
       streams.get_offset_by_timestamp('arch', 's', '2026-02-02 10:30:00+00') AS by_time_hot;
-- The open segment stays hot; writing goes on.
SELECT streams.write('arch', 's', 'after', '\x00');
SELECT array_agg("offset") AS tail FROM streams.read_by_offset('arch', 's', 43);
SELECT table_name::text, rows FROM streams.restore(0, 4) ORDER BY 1;
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

SET client_min_messages = warning;
DROP TABLE stream_before;
DROP EXTENSION permanode CASCADE;
DROP EXTENSION permanode_fdw CASCADE;
