
-- The pending tier's partitions exist from the start.
DO $$
DECLARE
    t name;
BEGIN
    FOR t IN SELECT table_name FROM @extschema@.ledger_tables WHERE has_pending LOOP
        PERFORM @extschema@.create_partition(t, @extschema@.pending_range());
    END LOOP;
END
$$;
