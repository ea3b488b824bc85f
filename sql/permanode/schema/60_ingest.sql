
-------------------------------------------------------------------------------------------------
-- Ingest: one call per milestone. Everything is derived from the raw blocks by the codec inside
-- the backend (extension/ledger/); see ingest_milestone's comment for the contract.
--   sync.synced_by codes: 1 = permanode.ingest_milestone. sync.logged_by: NULL (not used yet).
-------------------------------------------------------------------------------------------------

-- An output a milestone books from outside its cone (the genesis or a snapshot): its ID, the
-- block ID the snapshot names for it, and its serialized bytes (TIP-18).
CREATE TYPE @extschema@.snapshot_output AS (
    output_id @extschema@.output_id,
    block_id @extschema@.block_id,
    output bytea
);
