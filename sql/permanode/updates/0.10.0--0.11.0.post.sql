-- The address counts of the days counted above (0.10.0--0.11.0.sql), by the new rollup.
SELECT legacy.rollup_daily_analytics();
-- The migrated funds of the receipts held (ingest writes them with each receipt from now on):
-- each entry's output ID is the milestone ID and the entry's index (u16 little endian); an entry
-- whose tail is not a legacy hash names no legacy transaction.
WITH receipt AS MATERIALIZED ( -- decoded only for the milestones that carry a receipt
    SELECT r.milestone_index, ms.milestone_id, m.message
    FROM @extschema@.receipts r
    JOIN @extschema@.milestones ms ON ms.milestone_index = r.milestone_index
    JOIN @extschema@.messages m ON m.message_id = ms.message_id)
INSERT INTO @extschema@.migrated_funds (output_id, tail_transaction_hash, milestone_index)
SELECT (r.milestone_id::text || lpad(to_hex((f.n - 1)::int & 255), 2, '0')
        || lpad(to_hex((f.n - 1)::int >> 8), 2, '0'))::@extschema@.output_id,
       f.tail, r.milestone_index
FROM receipt r
CROSS JOIN LATERAL (SELECT @extschema@.trytes81_from_t5b1(decode(e.entry ->> 'tailTransactionHash',
                                                                 'hex')) AS tail, e.n
                    FROM jsonb_array_elements(@extschema@.decode_message(r.message)
                                              #> '{payload,receipt,funds}')
                         WITH ORDINALITY AS e(entry, n)) f
WHERE f.tail IS NOT NULL
ON CONFLICT DO NOTHING;
