-- The spent outputs of the history already held (by the code this upgrade installs).
SELECT @extschema@.rebuild_retired_outputs();
