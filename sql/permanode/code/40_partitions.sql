
-------------------------------------------------------------------------------------------------
-- Partition lifecycle: partitions are made ahead of ingest by these functions, never by hand.
-------------------------------------------------------------------------------------------------

-- The range of a milestone in a table: milestone_index / chunk_size.
CREATE OR REPLACE FUNCTION @extschema@.ms_range_id(table_name name, milestone_index int) RETURNS int
LANGUAGE sql STABLE STRICT PARALLEL SAFE AS $$
    SELECT milestone_index / chunk_size FROM @extschema@.ledger_tables t WHERE t.table_name = $1
$$;

-- The name of a partitioned table's partition for a range id, by the table's family (see
-- permanode.partitioned_tables): messages_r000241, messages_pending, transactions_m2017_11,
-- records_s0000020418.
CREATE OR REPLACE FUNCTION @extschema@.partition_name(family text, table_name name, range_id int) RETURNS name
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT (table_name || CASE family
        WHEN 'ledger' THEN
            CASE WHEN range_id = @extschema@.pending_range() THEN '_pending'
                 -- lpad alone would cut ranges of 7+ digits down to 6, and names would collide.
                 ELSE '_r' || lpad(range_id::text, greatest(6, length(range_id::text)), '0') END
        WHEN 'legacy' THEN '_m' || to_char(make_date(1970 + range_id / 12, range_id % 12 + 1, 1), 'YYYY_MM')
        WHEN 'streams' THEN '_s' || lpad(range_id::text, 10, '0') END)::name
$$;

-- The name of a ledger table's partition for a range.
CREATE OR REPLACE FUNCTION @extschema@.partition_name(table_name name, ms_range_id int) RETURNS name
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT @extschema@.partition_name('ledger', table_name, ms_range_id)
$$;

-- Creates the partition of a partitioned table (of any family) for one range id if it is missing
-- and not archived; returns true if it made it. The table is created apart and then attached,
-- which takes only a SHARE UPDATE EXCLUSIVE lock on the parent, so reads and writes to other
-- partitions go on meanwhile. Another session's partition descriptor may then lack the partition
-- for a while: a session that writes to a ledger table goes through ensure_partition().
CREATE OR REPLACE FUNCTION @extschema@.create_partition(family text, table_name name, range_id int)
RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    t @extschema@.partitioned_tables;
    part name := @extschema@.partition_name(family, table_name, range_id);
BEGIN
    SELECT * INTO t FROM @extschema@.partitioned_tables p WHERE p.family = $1 AND p.table_name = $2;
    IF NOT FOUND THEN
        RAISE EXCEPTION '"%" is not a % table', table_name, family
            USING ERRCODE = 'undefined_table',
                  HINT = 'The partitioned tables are listed in permanode.partitioned_tables.';
    END IF;
    -- Made already: no lock, so writers to a range made before do not wait for each other.
    IF to_regclass(format('%I.%I', t.schema_name, part)) IS NOT NULL THEN
        RETURN false;
    END IF;
    -- Serialize creators of the same partition; the lock ends with the transaction. A creator
    -- that waited looks in pg_class with a fresh snapshot: to_regclass() goes through the
    -- catalog cache, which may not have seen the other creator's commit yet.
    PERFORM pg_advisory_xact_lock(hashtext('permanode.partition'), hashtext(t.schema_name || '.' || part));
    IF EXISTS (SELECT 1 FROM pg_class c
               WHERE c.relname = part AND c.relnamespace = t.schema_name::regnamespace)
       -- An archived range keeps its foreign partition (writes to it fail with a hint to restore).
       OR EXISTS (SELECT 1 FROM @extschema@.archive_status s
                  WHERE s.parent_table = format('%I.%I', t.schema_name, t.table_name)::regclass
                    AND range_id >= s.range_from AND range_id < s.range_to) THEN
        RETURN false;
    END IF;
    EXECUTE format('CREATE TABLE %I.%I (LIKE %I.%I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)',
                   t.schema_name, part, t.schema_name, t.table_name);
    EXECUTE format('CREATE UNIQUE INDEX %I ON %I.%I (%s)%s', part || '_key', t.schema_name, part,
                   (SELECT string_agg(quote_ident(c), ', ') FROM unnest(t.unique_columns) c),
                   (SELECT ' INCLUDE (' || string_agg(quote_ident(c), ', ') || ')'
                    FROM unnest(t.include_columns) c));
    IF t.after_create IS NOT NULL THEN
        EXECUTE format('SELECT %I.%I($1)', t.schema_name, t.after_create)
            USING format('%I.%I', t.schema_name, part)::regclass;
    END IF;
    EXECUTE format('ALTER TABLE %I.%I ATTACH PARTITION %I.%I FOR VALUES FROM (%s) TO (%s)',
                   t.schema_name, t.table_name, t.schema_name, part, range_id,
                   CASE WHEN family = 'ledger' AND range_id = @extschema@.pending_range() THEN 'MAXVALUE'
                        ELSE (range_id + 1)::text END);
    RETURN true;
END
$$;

-- Creates the partition of one ledger table for one range if it is missing; returns true if it
-- made it (ingest's ensure_partition() calls it, extension/ledger/partitions.cpp).
CREATE OR REPLACE FUNCTION @extschema@.create_partition(table_name name, ms_range_id int) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    -- The ledger's own words for a table it does not have and for a range that cannot be
    -- (partitions.out shows this function's line of the latter); the partition is then made as
    -- every family's is.
    IF NOT EXISTS (SELECT 1 FROM @extschema@.ledger_tables t WHERE t.table_name = $1) THEN
        RAISE EXCEPTION '"%" is not a ledger table', table_name
            USING ERRCODE = 'undefined_table',
                  HINT = 'The ledger tables are listed in permanode.ledger_tables.';
    END IF;
    -- Ranges are milestone_index / chunk_size, and milestone indexes start at 0 (the pending
    -- tier's range is the greatest int).
    IF ms_range_id < 0 THEN
        RAISE EXCEPTION 'invalid ms_range_id %: ranges start at 0', ms_range_id
            USING ERRCODE = 'numeric_value_out_of_range';
    END IF;
    RETURN @extschema@.create_partition('ledger', table_name, ms_range_id);
END
$$;

-- Makes sure the partition of one table for one range exists and that this session routes rows
-- to it: a partition another session attached can be missing from this session's partition
-- descriptor of the parent (see extension/ledger/partitions.hpp), which is then built anew.
-- Returns false when the range has no heap partition to write to (it is archived).
CREATE OR REPLACE FUNCTION @extschema@.ensure_partition(table_name name, ms_range_id int) RETURNS boolean
AS 'MODULE_PATHNAME', 'permanode_ensure_partition'
LANGUAGE C STRICT;

-- Makes sure every ledger table has partitions for the ranges of milestones from..to, plus
-- `ahead` ranges after it. Returns how many partitions it created. The maintenance job calls it
-- ahead of time; ingest makes sure of its own milestone's partitions through ensure_partition().
CREATE OR REPLACE FUNCTION @extschema@.premake(from_milestone int, to_milestone int, ahead int DEFAULT 1)
RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    t record;
    r int;
    made int := 0;
BEGIN
    IF from_milestone < 0 OR to_milestone < from_milestone THEN
        RAISE EXCEPTION 'invalid milestone range % to %', from_milestone, to_milestone
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOR t IN SELECT table_name, chunk_size FROM @extschema@.ledger_tables ORDER BY table_name LOOP
        FOR r IN from_milestone / t.chunk_size .. to_milestone / t.chunk_size + ahead LOOP
            IF to_regclass(format('@extschema@.%I', @extschema@.partition_name(t.table_name, r))) IS NULL
               AND @extschema@.create_partition(t.table_name, r) THEN
                made := made + 1;
            END IF;
        END LOOP;
    END LOOP;
    RETURN made;
END
$$;

-- Changes a table's chunk size; an error once the table holds data. Empty partitions made with
-- the old size are dropped (premake makes new ones).
CREATE OR REPLACE FUNCTION @extschema@.set_chunk_size(table_name name, chunk_size int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    part regclass;
BEGIN
    IF chunk_size <= 0 THEN
        RAISE EXCEPTION 'invalid chunk size %: it must be positive', chunk_size
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    UPDATE @extschema@.ledger_tables t SET chunk_size = $2 WHERE t.table_name = $1;
    IF NOT FOUND THEN
        RAISE EXCEPTION '"%" is not a ledger table', table_name USING ERRCODE = 'undefined_table';
    END IF;
    FOR part IN SELECT p.partition FROM @extschema@.partitions p
                WHERE p.table_name = format('@extschema@.%I', $1)::regclass AND p.tier = 'hot'
                  AND p.ms_range_id <> @extschema@.pending_range() LOOP
        EXECUTE format('DROP TABLE %s', part);
    END LOOP;
END
$$;

-- Deletes pending rows (milestone still unknown) older than the TTL (seed 002: USING TTL 86400).
CREATE OR REPLACE FUNCTION @extschema@.expire_pending(ttl interval DEFAULT interval '1 day') RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    t name;
    n bigint;
    total bigint := 0;
BEGIN
    FOR t IN SELECT table_name FROM @extschema@.ledger_tables WHERE has_pending LOOP
        EXECUTE format('DELETE FROM @extschema@.%I WHERE ms_timestamp < now() - $1',
                       @extschema@.partition_name(t, @extschema@.pending_range())) USING ttl;
        GET DIAGNOSTICS n = ROW_COUNT;
        total := total + n;
    END LOOP;
    RETURN total;
END
$$;
