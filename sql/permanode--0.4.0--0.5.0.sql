-- permanode 0.4.0 -> 0.5.0: the Chrysalis era. ingest_milestone() takes the protocol version of
-- its cone; milestone_protocols records each milestone's; the unspent set holds Chrysalis
-- (legacy) outputs.
\echo Use "ALTER EXTENSION permanode UPDATE TO '0.5.0'" to load this file. \quit

CREATE TABLE @extschema@.milestone_protocols (
    milestone_index int PRIMARY KEY,
    protocol_version smallint NOT NULL CHECK (protocol_version IN (1, 2))
);
CREATE INDEX milestone_protocols_by_version
    ON @extschema@.milestone_protocols (protocol_version, milestone_index);
-- Every milestone ingested so far is a Stardust one.
INSERT INTO @extschema@.milestone_protocols SELECT milestone_index, 2 FROM @extschema@.sync;
SELECT pg_extension_config_dump('@extschema@.milestone_protocols', '');
GRANT SELECT ON @extschema@.milestone_protocols TO permanode_reader;

CREATE TABLE @extschema@.receipts (
    milestone_index int PRIMARY KEY,
    migrated_at int NOT NULL,
    final boolean NOT NULL
);
CREATE INDEX receipts_by_migrated_at ON @extschema@.receipts (migrated_at, milestone_index);
SELECT pg_extension_config_dump('@extschema@.receipts', '');
GRANT SELECT ON @extschema@.receipts TO permanode_reader;

ALTER TABLE @extschema@.unspent_outputs DROP CONSTRAINT unspent_outputs_output_kind_check;
ALTER TABLE @extschema@.unspent_outputs ADD CONSTRAINT unspent_outputs_output_kind_check
    CHECK (output_kind IN ('basic', 'alias', 'foundry', 'nft', 'treasury', 'legacy'));

DROP FUNCTION @extschema@.ingest_milestone(int, bigint, bytea[], smallint[], smallint[],
                                           @extschema@.snapshot_output[]);
CREATE FUNCTION @extschema@.ingest_milestone(
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
ALTER FUNCTION @extschema@.ingest_milestone(int, bigint, bytea[], smallint[], smallint[],
                                            @extschema@.snapshot_output[], smallint)
    SECURITY DEFINER SET search_path = pg_catalog, @extschema@;
REVOKE ALL ON FUNCTION @extschema@.ingest_milestone(int, bigint, bytea[], smallint[], smallint[],
                                                    @extschema@.snapshot_output[], smallint)
    FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @extschema@.ingest_milestone(int, bigint, bytea[], smallint[],
                                                       smallint[], @extschema@.snapshot_output[],
                                                       smallint)
    TO permanode_writer;

-- The REST API v1's JSON (TIP-13) of a raw Chrysalis message (messages.message where version = 1).
CREATE FUNCTION @extschema@.decode_message(message bytea) RETURNS jsonb
AS 'MODULE_PATHNAME', 'permanode_decode_message'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.decode_message(bytea) IS
    'a raw Chrysalis message (protocol v1) in the REST API v1 JSON shape (TIP-13)';

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
GRANT SELECT ON @extschema@.legacy_outputs_by_address TO permanode_reader;

-- A Chrysalis output's creating range, kept apart from the Stardust creation of the same output
-- ID (the genesis of the Stardust era books the Chrysalis outputs again). Nothing wrote
-- legacy_outputs before 0.5.0: no row to fill.
ALTER TABLE @extschema@.output_locator ADD COLUMN legacy_ms_range_id int;
UPDATE @extschema@.partition_hints
SET hint_query = 'SELECT legacy_ms_range_id FROM @extschema@.output_locator WHERE output_id = $1 AND legacy_ms_range_id IS NOT NULL'
WHERE table_name = 'legacy_outputs' AND column_name = 'output_id';
