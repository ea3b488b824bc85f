-- The lookup views written out (the others are made by ../schema/50_lookups.sql).
-- parents_by_ms is backed by the partitions' unique key, (parent_id, ms_range_id, ms_timestamp,
-- milestone_index, message_id), scanned backwards.
CREATE OR REPLACE VIEW @extschema@.parents_by_ms AS
SELECT * FROM @extschema@.parents
WHERE parent_id IS NOT NULL AND message_id IS NOT NULL AND milestone_index IS NOT NULL
  AND ms_timestamp IS NOT NULL;

-- transactions_by_state keeps only the seed's columns; the partitions' unique key, which leads
-- with transaction_id, backs it (a transaction has a few parts to filter by inclusion_state).
CREATE OR REPLACE VIEW @extschema@.transactions_by_state AS
SELECT transaction_id, idx, variant, message_id, inclusion_state
FROM @extschema@.transactions
WHERE transaction_id IS NOT NULL AND idx IS NOT NULL AND variant IS NOT NULL
  AND message_id IS NOT NULL AND inclusion_state IS NOT NULL AND data IS NOT NULL;
