-- permanode 0.8.0 -> 0.9.0: an as-of page reads its retired outputs newest first from their span
-- index (a point per output instead of a range), and a read by tag finds its offsets from the tag
-- index alone. Drops the range spans (0.7.0's indexes, 0.8.0's statistics on them, their
-- functions) and remakes the stream tag indexes held; the new span indexes are made after the
-- code (0.8.0--0.9.0.post.sql).
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

DROP FUNCTION IF EXISTS @extschema@.span(int, int, int);
DROP FUNCTION IF EXISTS @extschema@.span_at(int, int);
DROP FUNCTION IF EXISTS streams.read_keyed(text, text, bigint, text, text, bigint, bigint);
\ir ../schema/89_stream_lookups.sql
