-- permanode 0.1.0 -> 0.2.0: ensure_partition(), with which ingest makes sure of a partition in its
-- own partition descriptor (issue #29), and book_late_spends() using it for the spender's range.
\echo Use "ALTER EXTENSION permanode UPDATE TO '0.2.0'" to load this file. \quit

-- Makes sure the partition of one table for one range exists and that this session routes rows
-- to it: a partition another session attached can be missing from this session's partition
-- descriptor of the parent (see extension/ledger/partitions.hpp), which is then built anew.
-- Returns false when the range has no heap partition to write to (it is archived).
CREATE FUNCTION @extschema@.ensure_partition(table_name name, ms_range_id int) RETURNS boolean
AS 'MODULE_PATHNAME', 'permanode_ensure_partition'
LANGUAGE C STRICT SECURITY DEFINER SET search_path = pg_catalog, @extschema@;
REVOKE ALL ON FUNCTION @extschema@.ensure_partition(name, int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @extschema@.ensure_partition(name, int) TO permanode_admin, permanode_writer;

CREATE OR REPLACE FUNCTION @extschema@.book_late_spends(output_ids @extschema@.output_id[],
                                             owners @extschema@.address[], amounts bigint[])
RETURNS TABLE (owner @extschema@.address, ms_range_id int, inserted boolean,
               ms_timestamp timestamptz)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, @extschema@ AS $$
DECLARE
    s record;
    updated int;
BEGIN
    FOR s IN SELECT u.owner, sp.milestone_index, sum(u.amount) AS amount,
                    min(sp.ms_timestamp) AS ms_timestamp
             FROM unnest(output_ids, owners, amounts) AS u(output_id, owner, amount)
             JOIN @extschema@.output_locator l
               ON l.output_id = u.output_id AND l.spent_ms_range_id IS NOT NULL
             CROSS JOIN LATERAL (SELECT o.milestone_index, o.ms_timestamp
                                 FROM @extschema@.spent_outputs o
                                 WHERE o.output_id = u.output_id
                                   AND o.ms_range_id = l.spent_ms_range_id LIMIT 1) sp
             WHERE u.owner IS NOT NULL
             GROUP BY 1, 2 ORDER BY 1, 2 LOOP
        owner := s.owner;
        ms_range_id := @extschema@.ms_range_id('address_analytics', s.milestone_index);
        ms_timestamp := s.ms_timestamp;
        -- The spender's range, which this milestone's own partitions do not cover.
        PERFORM @extschema@.ensure_partition('address_analytics', ms_range_id);
        -- Add to the row, or make it. Another milestone may make the same row meanwhile: the
        -- insert then waits for it, does nothing, and the update goes round again.
        inserted := false;
        LOOP
            -- One range's partition: EXECUTE plans with the values, so only it is touched.
            EXECUTE 'UPDATE @extschema@.address_analytics SET sent_tokens = sent_tokens + $1 '
                    'WHERE address = $2 AND milestone_index = $3 AND ms_range_id = $4'
                USING s.amount, s.owner, s.milestone_index, ms_range_id;
            GET DIAGNOSTICS updated = ROW_COUNT;
            EXIT WHEN updated > 0;
            INSERT INTO @extschema@.address_analytics (address, sent_tokens, recv_tokens,
                                                       milestone_index, ms_range_id)
            VALUES (s.owner, s.amount, 0, s.milestone_index, book_late_spends.ms_range_id)
            ON CONFLICT DO NOTHING;
            GET DIAGNOSTICS updated = ROW_COUNT;
            inserted := updated > 0;
            EXIT WHEN inserted;
        END LOOP;
        RETURN NEXT;
    END LOOP;
END
$$;
