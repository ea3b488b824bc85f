-- Ingest makes the partitions of a milestone's ranges, and remembers per session which ranges
-- have them all; a partition dropped meanwhile must make it look again, not fail on a missing
-- partition.
\getenv abs_srcdir PG_ABS_SRCDIR
\set fresh_extension :abs_srcdir '/sql/include/fresh_extension.sql'
\i :fresh_extension
\o /dev/null
\i :fixtures_sql
\o

SELECT count(set_chunk_size(table_name, 1000)) AS tables_resized FROM ledger_tables;
-- 17339 makes range 17's partitions; 17340 finds them all, and the session remembers it.
SELECT milestone, messages FROM ingest_test.ingest(17339);
SELECT milestone, messages FROM ingest_test.ingest(17340);
-- A partition of range 17 goes away (with its rows), in this session.
DROP TABLE permanode.tags_r000017;
SELECT milestone, messages FROM ingest_test.ingest(17341);
SELECT milestone_index, count(*) AS tags FROM tags GROUP BY 1 ORDER BY 1;
