
-------------------------------------------------------------------------------------------------
-- The node's own word on a milestone (`permanode sync`): ingest_milestone, refused unless the
-- outputs the node says the milestone created and consumed are those its cone derives (compared
-- in memory, before anything is written). With `previous`, that milestone must be archived
-- already: a sync sends several milestones at once, and one that failed must not leave a hole
-- below those after it. After 80_init_roles.sql: the writer may call it, with the rights of
-- ingest_milestone (whose treatment there it repeats for this one).
-------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION @extschema@.ingest_node_milestone(
    milestone_index int,
    milestone_timestamp bigint,
    blocks bytea[],
    inclusion_states smallint[],
    conflict_reasons smallint[],
    snapshot_outputs @extschema@.snapshot_output[],
    protocol_version smallint,
    created @extschema@.output_id[],
    consumed @extschema@.output_id[],
    previous int DEFAULT NULL,
    OUT milestone int,
    OUT already_ingested boolean,
    OUT messages int,
    OUT outputs int,
    OUT spent int)
RETURNS record
AS 'MODULE_PATHNAME', 'permanode_ingest_node_milestone'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION @extschema@.ingest_node_milestone(int, bigint, bytea[], smallint[], smallint[], @extschema@.snapshot_output[], smallint, @extschema@.output_id[], @extschema@.output_id[], int) IS
    'ingest_milestone (the first seven arguments are its own), refused (SQLSTATE 22000, naming the first difference) unless created and consumed, the outputs a node says the milestone created (with those booked from outside the cone) and consumed, are those the cone derives; refused (55000) while previous, when given, is not archived';
ALTER FUNCTION @extschema@.ingest_node_milestone(int, bigint, bytea[], smallint[], smallint[], @extschema@.snapshot_output[], smallint, @extschema@.output_id[], @extschema@.output_id[], int)
    SECURITY DEFINER SET search_path = pg_catalog, @extschema@;
REVOKE ALL ON FUNCTION @extschema@.ingest_node_milestone(int, bigint, bytea[], smallint[], smallint[], @extschema@.snapshot_output[], smallint, @extschema@.output_id[], @extschema@.output_id[], int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @extschema@.ingest_node_milestone(int, bigint, bytea[], smallint[], smallint[], @extschema@.snapshot_output[], smallint, @extschema@.output_id[], @extschema@.output_id[], int) TO permanode_writer;
