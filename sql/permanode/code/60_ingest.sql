-- Ingest's functions and the codec's, over the tables of ../schema/60_ingest.sql.
CREATE OR REPLACE FUNCTION @extschema@.ingest_milestone(
    milestone_index int,
    milestone_timestamp bigint,
    blocks bytea[],
    inclusion_states smallint[],
    conflict_reasons smallint[] DEFAULT NULL,
    snapshot_outputs @extschema@.snapshot_output[] DEFAULT NULL,
    protocol_version smallint DEFAULT 2,
    OUT milestone int,
    OUT already_ingested boolean,
    OUT messages int,
    OUT outputs int,
    OUT spent int)
RETURNS record
AS 'MODULE_PATHNAME', 'permanode_ingest_milestone'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.ingest_milestone(int, bigint, bytea[], smallint[], smallint[], @extschema@.snapshot_output[], smallint) IS
$$ingests one milestone in the caller's transaction.
Arguments: milestone_index and milestone_timestamp (unix seconds) = the milestone's index and essence timestamp; blocks = the cone's raw blocks (TIP-24 bytes, or Chrysalis messages) in white-flag order; inclusion_states = per block 0 no_transaction, 1 included, 2 conflicting; conflict_reasons = per block TIP-25 codes (NULL: all 0); snapshot_outputs = outputs booked at this milestone from outside the cone, created before the cone's transactions apply; protocol_version = 2 (Stardust blocks) or 1 (Chrysalis messages, whose outputs go to legacy_outputs and whose snapshot outputs are SigLocked outputs).
In Stardust a milestone's own block is referenced by the next milestone, so the milestones row (and milestone_locator) of milestone N is written from the milestone payload found in the cone of N+1, in N's range; in Chrysalis the milestone message is in its own milestone's cone.
One network's eras do not overlap: a milestone is refused (22023) at or beyond a milestone of a later protocol, or at or before one of an earlier protocol, already held.
Derives messages, parents, tags, transactions, milestones, the output tables, spent_outputs, the unspent set, locators, hints, ms_analytics, address_analytics, metrics_cache, date_cache and the sync row (synced_by 1). Only included transactions create and spend outputs.
Idempotent: under an advisory lock on the milestone index it returns already_ingested = true, changing nothing, when the milestone's sync row exists. Milestones may come in any order.
Returns the rows it booked: messages (cone size), outputs (created and snapshot outputs), spent (consumed outputs); zeros when already ingested.
Errors: 22P02 for a block or snapshot output that does not decode (naming its position, the field and the byte offset); 22023 for arrays of different lengths, metadata that contradicts a payload, or a cone carrying the payload of a later milestone (or of this one with another timestamp).$$;

-- Called by ingest_milestone for outputs it creates that a milestone committed earlier already
-- spent (milestones commit out of order): that milestone could not know whose tokens it spent,
-- so its address_analytics rows get them now, as if the milestones had come in order. Returns
-- the rows booked, with whether each is new (ingest_milestone then adds their hints and the
-- day's 'sent' metrics, in the order it takes those rows' locks).
CREATE OR REPLACE FUNCTION @extschema@.book_late_spends(output_ids @extschema@.output_id[],
                                             owners @extschema@.address[], amounts bigint[])
RETURNS TABLE (owner @extschema@.address, ms_range_id int, inserted boolean,
               ms_timestamp timestamptz)
LANGUAGE plpgsql AS $$
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

-- Serializes an output given as core API JSON (TIP-25), e.g. for snapshot_outputs.
CREATE OR REPLACE FUNCTION @extschema@.encode_output(output jsonb) RETURNS bytea
AS 'MODULE_PATHNAME', 'permanode_encode_output'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.encode_output(jsonb) IS
    'serialized bytes (TIP-18) of an output given in the core API JSON shape (TIP-25)';

-- The core API's JSON (TIP-25) of a raw block, e.g. to read a milestone payload in SQL.
CREATE OR REPLACE FUNCTION @extschema@.decode_block(block bytea) RETURNS jsonb
AS 'MODULE_PATHNAME', 'permanode_decode_block'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.decode_block(bytea) IS
    'a raw block (TIP-24 bytes) in the core API JSON shape (TIP-25)';

-- The core API's JSON of serialized protocol parameters (TIP-32).
CREATE OR REPLACE FUNCTION @extschema@.decode_protocol_parameters(params bytea) RETURNS jsonb
AS 'MODULE_PATHNAME', 'permanode_decode_protocol_parameters'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.decode_protocol_parameters(bytea) IS
    'serialized protocol parameters (TIP-32) in the core API JSON shape';

-- The REST API v1's JSON (TIP-13) of a raw Chrysalis message (messages.message where version = 1).
CREATE OR REPLACE FUNCTION @extschema@.decode_message(message bytea) RETURNS jsonb
AS 'MODULE_PATHNAME', 'permanode_decode_message'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.decode_message(bytea) IS
    'a raw Chrysalis message (protocol v1) in the REST API v1 JSON shape (TIP-13)';
