-- Full scans of the rows family are read ahead in chunks (cut at split keys recorded every
-- 2 MB while the SST is written) by parallel helper threads: every row comes back once, in key
-- order forward and backward, as from the heap.
SET search_path = regress_fdw, permanode, public;
CREATE TABLE wide (id int NOT NULL, r int NOT NULL, payload text NOT NULL) PARTITION BY RANGE (r);
CREATE TABLE wide_0 PARTITION OF wide FOR VALUES FROM (0) TO (4);
ALTER TABLE wide_0 ADD PRIMARY KEY (id, r);
-- About 10 MB of incompressible rows: several chunks.
INSERT INTO wide
SELECT g, g % 4, (SELECT string_agg(md5((g * 10 + i)::text), '') FROM generate_series(1, 10) i)
FROM generate_series(1, 30000) g;
CREATE TABLE wide_heap AS SELECT * FROM wide;
SELECT archive_partitions('wide', 0, 4);

-- The same rows, in the same order, as the heap gave.
SET max_parallel_workers_per_gather = 0;
SELECT count(*), sum(id), sum(length(payload)) FROM wide;
SELECT explain($$SELECT id, r FROM wide ORDER BY id, r$$);
SELECT (SELECT md5(string_agg(id || ':' || r || ':' || payload, ','))
        FROM (SELECT * FROM wide ORDER BY id, r) s) =
       (SELECT md5(string_agg(id || ':' || r || ':' || payload, ',' ORDER BY id, r))
        FROM wide_heap) AS forward_same;
SELECT explain($$SELECT id, r FROM wide ORDER BY id DESC, r DESC$$);
SELECT (SELECT md5(string_agg(id || ':' || r || ':' || payload, ','))
        FROM (SELECT * FROM wide ORDER BY id DESC, r DESC) s) =
       (SELECT md5(string_agg(id || ':' || r || ':' || payload, ',' ORDER BY id DESC, r DESC))
        FROM wide_heap) AS backward_same;
-- A scan stopped early (LIMIT) stops its threads.
SELECT id FROM wide ORDER BY id, r LIMIT 3;
SELECT id FROM wide ORDER BY id DESC, r DESC LIMIT 3;
-- Rescans (the inner side of a nested loop) start over.
SELECT count(*) FROM (VALUES (1), (2), (3)) v(x), LATERAL (SELECT count(*) FROM wide WHERE length(payload) > x) s;
RESET max_parallel_workers_per_gather;

-- Restoring reads the archive the same way.
SELECT restore_partitions('wide_archive_0_4');
SELECT count(*) FROM (SELECT * FROM wide EXCEPT SELECT * FROM wide_heap) d;
DROP TABLE wide, wide_heap;
SELECT count(*) AS removed FROM archive_gc();
