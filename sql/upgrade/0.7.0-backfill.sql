
-- The spent outputs of the history already held.
SELECT @extschema@.rebuild_retired_outputs();
