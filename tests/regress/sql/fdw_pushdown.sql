-- What the wrapper pushes down, as EXPLAIN shows it: the archived family scanned (rows by the
-- row key, or an index), the key conditions, ms_range_id pruning, and the direction.
SET search_path = regress_fdw, permanode, public;

-- EXPLAIN without the parts that vary between runs: costs and archive directory names.
CREATE FUNCTION explain(query text, with_verbose bool DEFAULT false) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE format('EXPLAIN (COSTS OFF, VERBOSE %s) %s', CASE WHEN with_verbose THEN 'on' ELSE 'off' END, query) LOOP
        line := regexp_replace(line, '\(cost=[^)]*\)', '', 'g');
        line := regexp_replace(line, 'Archive: \S+', 'Archive: <dir>');
        RETURN NEXT line;
    END LOOP;
END $$;

-- A point lookup uses the row key (the partition's primary key).
SELECT explain($$SELECT * FROM outputs_archive_0_4 WHERE output_id = '\x1234'$$);
-- With ms_range_id too: both are key columns of the row key.
SELECT explain($$SELECT * FROM outputs_archive_0_4 WHERE output_id = '\x1234' AND ms_range_id = 3$$);
-- A range on the first key column.
SELECT explain($$SELECT * FROM outputs_archive_0_4 WHERE output_id >= '\x10' AND output_id < '\x12'$$);
-- ms_range_id alone prunes inside the archive.
SELECT explain($$SELECT count(*) FROM outputs_archive_0_4 WHERE ms_range_id BETWEEN 1 AND 2$$, true);
-- An equality on a lookup index.
SELECT explain($$SELECT * FROM outputs_archive_0_4 WHERE tag = 'tag3'$$);
SELECT explain($$SELECT * FROM outputs_archive_0_4 WHERE token = md5('4')::uuid$$);
-- When the index entries hold every column the query needs (key, row key, INCLUDE columns),
-- no row is looked up: an index-only scan.
SELECT explain($$SELECT count(*) FROM outputs_archive_0_4 WHERE tag = 'tag3'$$);
SELECT explain($$SELECT output_id, amount FROM outputs_archive_0_4 WHERE address = '\x01' AND ms_range_id = 2$$);
SELECT (SELECT array_agg(output_id || int8send(amount) ORDER BY ms_timestamp DESC, milestone_index DESC, output_id)
        FROM outputs_archive_0_4 WHERE address = decode(md5('3'), 'hex'))
     = (SELECT array_agg(output_id || int8send(amount) ORDER BY ms_timestamp DESC, milestone_index DESC, output_id)
        FROM (SELECT * FROM outputs_archive_0_4 WHERE address = decode(md5('3'), 'hex') AND tag IS DISTINCT FROM 'x' OFFSET 0) o)
       AS index_only_matches_rows;
-- Equality on the first column, range on the second.
SELECT explain($$SELECT * FROM outputs_archive_0_4 WHERE day = '2023-01-02' AND amount > 1500000$$);
-- Cross-type integer comparisons are pushed down too.
SELECT explain($$SELECT * FROM outputs_archive_0_4 WHERE ms_range_id = 1::bigint$$);

-- Newest first by address: the index order serves ORDER BY ... LIMIT without a sort, and
-- MergeAppend merges the cold partitions with the hot ones.
SELECT explain($$SELECT output_id FROM outputs WHERE address = decode(md5('3'), 'hex')
                 ORDER BY ms_timestamp DESC, milestone_index DESC LIMIT 10$$);
-- Oldest first reads the same index backward.
SELECT explain($$SELECT output_id FROM outputs_archive_0_4 WHERE address = decode(md5('3'), 'hex')
                 ORDER BY ms_timestamp, milestone_index LIMIT 10$$);
-- Row key order, both ways.
SELECT explain($$SELECT output_id FROM outputs_archive_0_4 ORDER BY output_id LIMIT 3$$);
SELECT explain($$SELECT output_id FROM outputs_archive_0_4 ORDER BY output_id DESC LIMIT 3$$);
-- Results of the backward scans match the forward ones reversed.
SELECT (SELECT array_agg(output_id ORDER BY output_id DESC) FROM
          (SELECT output_id FROM outputs_archive_0_4 ORDER BY output_id LIMIT 50) a)
     = (SELECT array_agg(output_id) FROM
          (SELECT output_id FROM outputs_archive_0_4 ORDER BY output_id DESC OFFSET 1950) b)
       AS backward_matches_forward;

-- Nested-loop joins get a parameterized path: each outer row is a keyed lookup.
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT explain($$SELECT o.amount FROM lookup l JOIN outputs_archive_0_4 o ON o.output_id = l.output_id$$);
SELECT count(*), sum(o.amount) FROM lookup l JOIN outputs_archive_0_4 o ON o.output_id = l.output_id;
SELECT explain($$SELECT o.amount FROM lookup l JOIN outputs o ON o.output_id = l.output_id AND o.ms_range_id = l.ms_range_id$$);
SELECT count(*), sum(o.amount) FROM lookup l JOIN outputs o
    ON o.output_id = l.output_id AND o.ms_range_id = l.ms_range_id;
RESET enable_hashjoin;
RESET enable_mergejoin;
-- A parameter that is NULL selects nothing (and is not an error).
PREPARE by_tag(text) AS SELECT count(*) FROM outputs_archive_0_4 WHERE tag = $1;
EXECUTE by_tag('tag3');
EXECUTE by_tag(NULL);
DEALLOCATE by_tag;

-- Quals that cannot go to the archive stay local: here, no key at all.
SELECT explain($$SELECT * FROM outputs_archive_0_4 WHERE amount + 1 = 2$$);
-- Every pushed qual is also rechecked, so out-of-range constants are still right.
SELECT count(*) FROM outputs_archive_0_4 WHERE milestone_index = 5000000000;
SELECT count(*) FROM outputs_archive_0_4 WHERE milestone_index < 5000000000 AND milestone_index > -5000000000;
SELECT count(*) FROM outputs_archive_0_4 WHERE ms_range_id > 3;
SELECT count(*) FROM outputs_archive_0_4 WHERE ms_range_id = 3 AND ms_range_id = 2;

-- EXPLAIN ANALYZE shows how much of the archive a scan read.
SELECT explain($$SELECT count(*) FROM outputs_archive_0_4 WHERE ms_range_id = 3$$);
CREATE FUNCTION analyze_counters(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || query LOOP
        IF line ~ 'Archive (Entries|Rows)|Foreign Scan' THEN
            RETURN NEXT regexp_replace(line, '\(actual.*\)', '');
        END IF;
    END LOOP;
END $$;
SELECT analyze_counters($$SELECT count(*) FROM outputs_archive_0_4 WHERE tag = 'tag3'$$);
SELECT analyze_counters($$SELECT * FROM outputs_archive_0_4 WHERE output_id = decode(md5('5') || md5('35'), 'hex')$$);
SELECT analyze_counters($$SELECT count(*) FROM outputs_archive_0_4 WHERE ms_range_id = 3$$);

-- IN lists: one key range per distinct element, in key order; NULLs and duplicates read nothing
-- more. (The reference query compares an expression, which stays local: every row is read.)
SELECT explain($$SELECT * FROM outputs_archive_0_4 WHERE output_id IN ('\x01', '\x02')$$);
SELECT ARRAY[decode(md5('5') || md5('35'), 'hex'), decode(md5('7') || md5('49'), 'hex'),
             decode(md5('7') || md5('49'), 'hex'), decode(md5('1999') || md5('13993'), 'hex'),
             '\x00', NULL]::text AS ids \gset
SELECT analyze_counters(format('SELECT * FROM outputs_archive_0_4 WHERE output_id = ANY (%L::bytea[])', :'ids'));
SELECT (SELECT array_agg(output_id ORDER BY output_id) FROM outputs_archive_0_4 WHERE output_id = ANY (:'ids'::bytea[]))
     = (SELECT array_agg(output_id ORDER BY output_id) FROM outputs_archive_0_4 WHERE output_id || '' = ANY (:'ids'::bytea[]))
       AS in_list_matches,
       (SELECT count(*) FROM outputs_archive_0_4 WHERE output_id = ANY (:'ids'::bytea[])) AS rows;
-- With a bound on the row key's next column, and on an index with a range on its next column.
SELECT analyze_counters(format('SELECT * FROM outputs_archive_0_4 WHERE output_id = ANY (%L::bytea[]) AND ms_range_id = 0', :'ids'));
SELECT analyze_counters($$SELECT * FROM outputs_archive_0_4 WHERE day IN ('2023-01-02', '2023-01-04') AND amount > 1500000$$);
SELECT (SELECT count(*) FROM outputs_archive_0_4 WHERE day IN ('2023-01-02', '2023-01-04') AND amount > 1500000)
     = (SELECT count(*) FROM outputs_archive_0_4 WHERE day + 0 IN ('2023-01-02', '2023-01-04') AND amount > 1500000)
       AS ranged_in_list_matches;
-- The ranges come in key order, so the family's order still serves ORDER BY, both ways.
SELECT explain($$SELECT output_id FROM outputs_archive_0_4 WHERE tag IN ('tag3', 'tag1', 'tag2') ORDER BY tag DESC LIMIT 5$$);
SELECT (SELECT array_agg(tag ORDER BY n) FROM (SELECT tag, row_number() OVER () n FROM
          (SELECT tag FROM outputs_archive_0_4 WHERE tag IN ('tag3', 'tag1', 'tag2') ORDER BY tag DESC) s) t)
     = (SELECT array_agg(tag ORDER BY tag DESC) FROM outputs_archive_0_4 WHERE tag || '' IN ('tag3', 'tag1', 'tag2'))
       AS ordered_in_list_matches;
-- An empty list, and a list of NULLs, select nothing.
SELECT count(*) FROM outputs_archive_0_4 WHERE output_id = ANY ('{}'::bytea[]);
SELECT count(*) FROM outputs_archive_0_4 WHERE output_id = ANY (ARRAY[NULL]::bytea[]);
-- A parameter list: planned once, read per execution.
PREPARE by_ids(bytea[]) AS SELECT count(*) FROM outputs_archive_0_4 WHERE output_id = ANY ($1);
EXECUTE by_ids(ARRAY[decode(md5('5') || md5('35'), 'hex'), decode(md5('9') || md5('63'), 'hex')]);
EXECUTE by_ids(NULL);
DEALLOCATE by_ids;

-- A row comparison on the key columns after the equality prefix (a keyset cursor) starts the
-- read at its encoded values: a deep page reads its own entries. Members of mixed directions
-- (ms_timestamp DESC, output_id ASC) are only rechecked. The reference queries push nothing.
SELECT ms_timestamp AS t20, milestone_index AS m20, output_id AS o20 FROM outputs_archive_0_4
WHERE address = decode(md5('3'), 'hex') ORDER BY ms_timestamp DESC, milestone_index DESC LIMIT 1 OFFSET 20 \gset
SELECT explain(format($$SELECT output_id FROM outputs_archive_0_4 WHERE address = decode(md5('3'), 'hex')
    AND (ms_timestamp, milestone_index) < (%L::timestamptz, %s) ORDER BY ms_timestamp DESC, milestone_index DESC LIMIT 3$$, :'t20', :'m20'));
SELECT analyze_counters(format($$SELECT output_id FROM outputs_archive_0_4 WHERE address = decode(md5('3'), 'hex')
    AND (ms_timestamp, milestone_index) < (%L::timestamptz, %s) ORDER BY ms_timestamp DESC, milestone_index DESC LIMIT 3$$, :'t20', :'m20'));
SELECT analyze_counters(format($$SELECT output_id FROM outputs_archive_0_4 WHERE address = decode(md5('3'), 'hex')
    AND (ms_timestamp, milestone_index) >= (%L::timestamptz, %s) ORDER BY ms_timestamp, milestone_index LIMIT 3$$, :'t20', :'m20'));
SELECT explain(format($$SELECT output_id FROM outputs_archive_0_4 WHERE address = decode(md5('3'), 'hex')
    AND (ms_timestamp, milestone_index, output_id) < (%L::timestamptz, %s, %L::bytea)$$, :'t20', :'m20', :'o20'));
SELECT (SELECT array_agg(output_id ORDER BY ms_timestamp DESC, milestone_index DESC, output_id) FROM outputs_archive_0_4
        WHERE address = decode(md5('3'), 'hex') AND (ms_timestamp, milestone_index) < (:'t20'::timestamptz, :m20))
     = (SELECT array_agg(output_id ORDER BY ms_timestamp DESC, milestone_index DESC, output_id) FROM outputs_archive_0_4
        WHERE address || '' = decode(md5('3'), 'hex') AND (ms_timestamp, milestone_index) < (:'t20'::timestamptz, :m20))
       AS seek_matches,
       (SELECT array_agg(output_id ORDER BY ms_timestamp, milestone_index, output_id) FROM outputs_archive_0_4
        WHERE address = decode(md5('3'), 'hex') AND (ms_timestamp, milestone_index) >= (:'t20'::timestamptz, :m20))
     = (SELECT array_agg(output_id ORDER BY ms_timestamp, milestone_index, output_id) FROM outputs_archive_0_4
        WHERE address || '' = decode(md5('3'), 'hex') AND (ms_timestamp, milestone_index) >= (:'t20'::timestamptz, :m20))
       AS end_bound_matches,
       (SELECT count(*) FROM outputs_archive_0_4 WHERE address = decode(md5('3'), 'hex')
        AND (ms_timestamp, milestone_index, output_id) < (:'t20'::timestamptz, :m20, :'o20'::bytea))
     = (SELECT count(*) FROM outputs_archive_0_4 WHERE address || '' = decode(md5('3'), 'hex')
        AND (ms_timestamp, milestone_index, output_id) < (:'t20'::timestamptz, :m20, :'o20'::bytea))
       AS mixed_matches;
-- On the row key (output_id, ms_range_id), ascending: > starts the read, < ends it; a NULL
-- member leaves the row comparison to the recheck.
SELECT analyze_counters($$SELECT output_id FROM outputs_archive_0_4 WHERE (output_id, ms_range_id) > ('\xf0', 0) ORDER BY output_id LIMIT 3$$);
SELECT (SELECT count(*) FROM outputs_archive_0_4 WHERE (output_id, ms_range_id) > ('\xf0', 0))
     = (SELECT count(*) FROM outputs_archive_0_4 WHERE output_id >= '\xf0') AS after_matches,
       (SELECT count(*) FROM outputs_archive_0_4 WHERE (output_id, ms_range_id) <= ('\x10', 3))
     = (SELECT count(*) FROM outputs_archive_0_4 WHERE output_id < '\x10') AS before_matches,
       (SELECT count(*) FROM outputs_archive_0_4 WHERE (output_id, ms_range_id) < ('\x10', NULL))
     = (SELECT count(*) FROM outputs_archive_0_4 WHERE output_id < '\x10') AS null_member_matches;
