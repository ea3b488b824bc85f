-- permanode 0.4.0 -> 0.5.0: the Chrysalis era. Each milestone's protocol version, receipts,
-- Chrysalis outputs in legacy_outputs (kind 'legacy'), found by address newest first, and
-- ingest_milestone's new protocol_version argument (its old signature dropped).
CREATE TABLE @extschema@.milestone_protocols (
    milestone_index int PRIMARY KEY,
    protocol_version smallint NOT NULL CHECK (protocol_version IN (1, 2))
);
CREATE INDEX milestone_protocols_by_version
    ON @extschema@.milestone_protocols (protocol_version, milestone_index);
-- Every milestone ingested so far is a Stardust one.
INSERT INTO @extschema@.milestone_protocols SELECT milestone_index, 2 FROM @extschema@.sync;
SELECT pg_extension_config_dump('@extschema@.milestone_protocols', '');
CREATE TABLE @extschema@.receipts (
    milestone_index int PRIMARY KEY,
    migrated_at int NOT NULL,
    final boolean NOT NULL
);
CREATE INDEX receipts_by_migrated_at ON @extschema@.receipts (migrated_at, milestone_index);
SELECT pg_extension_config_dump('@extschema@.receipts', '');
ALTER TABLE @extschema@.unspent_outputs DROP CONSTRAINT unspent_outputs_output_kind_check;
ALTER TABLE @extschema@.unspent_outputs ADD CONSTRAINT unspent_outputs_output_kind_check
    CHECK (output_kind IN ('basic', 'alias', 'foundry', 'nft', 'treasury', 'legacy'));
DROP FUNCTION @extschema@.ingest_milestone(int, bigint, bytea[], smallint[], smallint[],
                                           @extschema@.snapshot_output[]);
-- legacy_outputs_by_address in the order of every other lookup (address, ms_range_id DESC, ...),
-- so that a page newest first reads the newest ranges only. Nothing wrote legacy_outputs before
-- 0.5.0, so no archive holds the old index.
DROP VIEW @extschema@.legacy_outputs_by_address;
DROP INDEX @extschema@.legacy_outputs_by_address_idx;
-- (What create_lookup(), gone after the install script, makes.)
CREATE VIEW @extschema@.legacy_outputs_by_address AS SELECT * FROM @extschema@.legacy_outputs
WHERE address IS NOT NULL AND output_type IS NOT NULL AND is_used IS NOT NULL
  AND ms_range_id IS NOT NULL AND ms_timestamp IS NOT NULL AND milestone_index IS NOT NULL;
CREATE INDEX legacy_outputs_by_address_idx ON @extschema@.legacy_outputs
    (address, ms_range_id DESC, ms_timestamp DESC, milestone_index DESC, output_id DESC)
    WHERE address IS NOT NULL;
-- A Chrysalis output's creating range, kept apart from the Stardust creation of the same output
-- ID (the genesis of the Stardust era books the Chrysalis outputs again). Nothing wrote
-- legacy_outputs before 0.5.0: no row to fill.
ALTER TABLE @extschema@.output_locator ADD COLUMN legacy_ms_range_id int;
UPDATE @extschema@.partition_hints
SET hint_query = 'SELECT legacy_ms_range_id FROM @extschema@.output_locator WHERE output_id = $1 AND legacy_ms_range_id IS NOT NULL'
WHERE table_name = 'legacy_outputs' AND column_name = 'output_id';
