-- Bad input to permanode.ingest_milestone(): every error has its SQLSTATE, names what is wrong
-- (the block's position, the codec's field and byte offset, both milestone indexes), and leaves
-- nothing behind, even when it strikes after most rows were written.
\getenv abs_srcdir PG_ABS_SRCDIR
\set fresh_extension :abs_srcdir '/sql/include/fresh_extension.sql'
\i :fresh_extension

CREATE SCHEMA ingest_errors;
CREATE FUNCTION ingest_errors.bin(value jsonb) RETURNS bytea
LANGUAGE sql IMMUTABLE AS $$ SELECT decode(value->'$binary'->>'base64', 'base64') $$;
CREATE TABLE ingest_errors.cone AS
SELECT m::int AS milestone_index, (v->'milestone_data'->'at'->>'milestone_timestamp')::bigint AS ts,
       array_agg(ingest_errors.bin(b->'raw') ORDER BY k::int) AS blocks,
       array_agg(CASE b->'metadata'->>'inclusion_state' WHEN 'included' THEN 1 ELSE 0 END::smallint ORDER BY k::int) AS states
FROM jsonb_each(pg_read_file(:'fixtures' || '/in_memory_data.json')::jsonb) ms(m, v), jsonb_each(v->'cone') c(k, b)
WHERE m = '17340' GROUP BY m, v;

-- Runs a statement and shows its SQLSTATE and message instead of failing.
CREATE FUNCTION ingest_errors.try(statement text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE statement;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;
CREATE FUNCTION ingest_errors.rows() RETURNS bigint
LANGUAGE sql AS $$
    SELECT (SELECT count(*) FROM permanode.messages) + (SELECT count(*) FROM permanode.transactions)
         + (SELECT count(*) FROM permanode.basic_outputs) + (SELECT count(*) FROM permanode.spent_outputs)
         + (SELECT count(*) FROM permanode.unspent_outputs) + (SELECT count(*) FROM permanode.sync)
         + (SELECT count(*) FROM permanode.output_locator) + (SELECT count(*) FROM permanode.block_locator)
         + (SELECT count(*) FROM permanode.addresses_hints) + (SELECT count(*) FROM permanode.metrics_cache)
$$;

-- A truncated block (the fifth), a block with an unknown version (the first).
SELECT ingest_errors.try($$SELECT permanode.ingest_milestone(17340, ts, blocks[1:4] || substring(blocks[5] for 60) || blocks[6:], states) FROM ingest_errors.cone$$);
SELECT ingest_errors.try($$SELECT permanode.ingest_milestone(17340, ts, '\x01'::bytea || substring(blocks[1] from 2) || blocks[2:], states) FROM ingest_errors.cone$$);
-- The block's position is also a field of the error: the first line of its context, which
-- permanode ingest reads to name the block by its ID.
CREATE FUNCTION ingest_errors.context(statement text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    context text;
BEGIN
    EXECUTE statement;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS context = PG_EXCEPTION_CONTEXT;
    RETURN split_part(context, E'\n', 1);
END
$$;
SELECT ingest_errors.context($$SELECT permanode.ingest_milestone(17340, ts, blocks[1:4] || substring(blocks[5] for 60) || blocks[6:], states) FROM ingest_errors.cone$$);
-- The cone of 17340 carries milestone 17339's payload: it cannot be the cone of 17338, and its
-- payload's timestamp contradicts a wrong one for 17339.
SELECT ingest_errors.try($$SELECT permanode.ingest_milestone(17338, ts, blocks, states) FROM ingest_errors.cone$$);
SELECT ingest_errors.try($$SELECT permanode.ingest_milestone(17339, ts, blocks, states) FROM ingest_errors.cone$$);
-- Arrays of different lengths, nulls, metadata that contradicts the payloads.
SELECT ingest_errors.try($$SELECT permanode.ingest_milestone(17340, ts, blocks, states[2:]) FROM ingest_errors.cone$$);
SELECT ingest_errors.try($$SELECT permanode.ingest_milestone(17340, ts, blocks, states, '{0}') FROM ingest_errors.cone$$);
SELECT ingest_errors.try($$SELECT permanode.ingest_milestone(17340, ts, blocks[1:2] || NULL::bytea, states[1:3]) FROM ingest_errors.cone$$);
SELECT ingest_errors.try($$SELECT permanode.ingest_milestone(17340, ts, blocks, array_fill(1::smallint, ARRAY[cardinality(blocks)])) FROM ingest_errors.cone$$);
SELECT ingest_errors.try($$SELECT permanode.ingest_milestone(17340, ts, blocks, array_fill(7::smallint, ARRAY[cardinality(blocks)])) FROM ingest_errors.cone$$);
SELECT ingest_errors.try($$SELECT permanode.ingest_milestone(NULL, ts, blocks, states) FROM ingest_errors.cone$$);
SELECT ingest_errors.try($$SELECT permanode.ingest_milestone(-1, ts, blocks, states) FROM ingest_errors.cone$$);
SELECT ingest_errors.try($$SELECT permanode.ingest_milestone(17340, -5, blocks, states) FROM ingest_errors.cone$$);
-- A snapshot output that does not decode.
SELECT ingest_errors.try($$SELECT permanode.ingest_milestone(17340, ts, blocks, states, NULL,
    ARRAY[('0x' || repeat('ab', 34), '0x' || repeat('cd', 32), '\x0300'::bytea)::permanode.snapshot_output]) FROM ingest_errors.cone$$);
-- Output JSON that is not TIP-25.
SELECT ingest_errors.try($$SELECT permanode.encode_output('{"type": 3, "amount": "1"}')$$);
SELECT ingest_errors.try($$SELECT permanode.decode_block('\x02'::bytea)$$);
SELECT ingest_errors.rows() AS rows_after_errors;

-- An error after the last table but one was written (the sync row breaks a constraint) takes
-- every row of the milestone with it.
ALTER TABLE permanode.sync ADD CONSTRAINT no_17340 CHECK (milestone_index <> 17340);
SELECT ingest_errors.try($$SELECT permanode.ingest_milestone(17340, ts, blocks, states) FROM ingest_errors.cone$$);
SELECT ingest_errors.rows() AS rows_after_late_error;
-- Such an error keeps its context: the statement of ingest's that it came from.
SELECT permanode.ingest_milestone(17340, ts, blocks, states) FROM ingest_errors.cone;
ALTER TABLE permanode.sync DROP CONSTRAINT no_17340;

-- The caller's transaction decides: a rolled back ingest leaves nothing; a committed one stays.
BEGIN;
SELECT milestone, already_ingested, messages FROM ingest_errors.cone, permanode.ingest_milestone(17340, ts, blocks, states);
ROLLBACK;
SELECT ingest_errors.rows() AS rows_after_rollback;
SELECT milestone, already_ingested, messages FROM ingest_errors.cone, permanode.ingest_milestone(17340, ts, blocks, states);
SELECT ingest_errors.rows() > 0 AS rows_after_commit;

-- ingest_node_milestone (`permanode sync`): the outputs the node says the milestone created and
-- consumed must be those of its cone. Those of 17340, as ingest wrote them:
CREATE TABLE ingest_errors.updates AS
SELECT (SELECT array_agg(output_id ORDER BY output_id) FROM (
            SELECT output_id FROM permanode.basic_outputs WHERE milestone_index = 17340
            UNION ALL SELECT output_id FROM permanode.alias_outputs WHERE milestone_index = 17340
            UNION ALL SELECT output_id FROM permanode.foundry_outputs WHERE milestone_index = 17340
            UNION ALL SELECT output_id FROM permanode.nft_outputs WHERE milestone_index = 17340) o) AS created,
       (SELECT array_agg(output_id ORDER BY output_id) FROM permanode.spent_outputs WHERE milestone_index = 17340) AS consumed;
SELECT cardinality(created) AS created, cardinality(consumed) AS consumed FROM ingest_errors.updates;
SELECT ingest_errors.rows() AS rows_before_node_checks \gset
-- The node agrees: the milestone is already archived, and nothing changes.
SELECT milestone, already_ingested FROM ingest_errors.cone, ingest_errors.updates,
    permanode.ingest_node_milestone(17340, ts, blocks, states, NULL, NULL, 2::smallint, created, consumed);
-- It does not: an output the node did not create, one more it says was consumed, none at all.
SELECT ingest_errors.try($$SELECT permanode.ingest_node_milestone(17340, ts, blocks, states, NULL, NULL, 2::smallint, created[2:], consumed) FROM ingest_errors.cone, ingest_errors.updates$$);
SELECT ingest_errors.try($$SELECT permanode.ingest_node_milestone(17340, ts, blocks, states, NULL, NULL, 2::smallint, created, consumed || ('0x' || repeat('00', 34))::permanode.output_id) FROM ingest_errors.cone, ingest_errors.updates$$);
SELECT ingest_errors.try($$SELECT permanode.ingest_node_milestone(17340, ts, blocks, states, NULL, NULL, 2::smallint, '{}', '{}') FROM ingest_errors.cone$$);
SELECT ingest_errors.try($$SELECT permanode.ingest_node_milestone(17340, ts, blocks, states, NULL, NULL, 2::smallint, created || NULL::permanode.output_id, consumed) FROM ingest_errors.cone, ingest_errors.updates$$);
-- Milestones are archived in order: 17340 sent as following 17339 is refused, 17339 not being
-- archived; as following nothing, or 17340 itself (archived), it is taken.
SELECT ingest_errors.try($$SELECT permanode.ingest_node_milestone(17340, ts, blocks, states, NULL, NULL, 2::smallint, created, consumed, 17339) FROM ingest_errors.cone, ingest_errors.updates$$);
SELECT ingest_errors.try($$SELECT permanode.ingest_node_milestone(17340, ts, blocks, states, NULL, NULL, 2::smallint, created, consumed, 17340) FROM ingest_errors.cone, ingest_errors.updates$$);
SELECT ingest_errors.rows() = :rows_before_node_checks AS node_checks_changed_nothing;

SET client_min_messages = warning;
DROP SCHEMA ingest_errors CASCADE;
DROP EXTENSION permanode CASCADE;
DROP EXTENSION permanode_fdw CASCADE;
