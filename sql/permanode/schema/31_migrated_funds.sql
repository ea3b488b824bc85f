
-------------------------------------------------------------------------------------------------
-- Funds migrated from the legacy network (TIP-17): each entry of a Chrysalis receipt, by the
-- output it booked (legacy_outputs; ID: the milestone ID and the entry's index) and the legacy
-- bundle's tail transaction it names. Written by ingest with the receipt; links an Ed25519
-- address's history back to the legacy bundle and addresses, and a legacy address forward.
-------------------------------------------------------------------------------------------------
CREATE TABLE @extschema@.migrated_funds (
    output_id @extschema@.output_id PRIMARY KEY,
    tail_transaction_hash @extschema@.trytes81 NOT NULL,
    milestone_index int NOT NULL               -- the milestone carrying the receipt
);
CREATE INDEX migrated_funds_by_tail ON @extschema@.migrated_funds (tail_transaction_hash);
