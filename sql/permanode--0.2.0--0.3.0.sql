-- permanode 0.2.0 -> 0.3.0: one lookup mechanism. The plan-time rewrite (and its setting
-- permanode.partition_hints) is gone: the Permanode Range Scan answers keyed lookups, and it never
-- read the hint tables' row counts. So the counts go, and with them flush_hint_counts(),
-- recount_hints(), permanode.defer_hint_counts and permanode.hint_counts_max_delay. Hint rows are
-- what seed 002 lays out again: a key and the ranges holding it.
\echo Use "ALTER EXTENSION permanode UPDATE TO '0.3.0'" to load this file. \quit

DROP FUNCTION @extschema@.flush_hint_counts();
DROP FUNCTION @extschema@.recount_hints();

ALTER TABLE @extschema@.tag_hints DROP COLUMN row_count;
ALTER TABLE @extschema@.addresses_hints DROP COLUMN row_count;

-- Every backend keeps the hint queries it has read (extension/lookup/hint_catalog.c): a change of
-- these rows tells them to read them again.
CREATE FUNCTION @extschema@.partition_hints_changed() RETURNS trigger
AS 'MODULE_PATHNAME', 'permanode_partition_hints_changed' LANGUAGE C;
CREATE TRIGGER partition_hints_changed
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON @extschema@.partition_hints
    FOR EACH STATEMENT EXECUTE FUNCTION @extschema@.partition_hints_changed();

-- The hint queries name ranges only.
UPDATE @extschema@.partition_hints
SET hint_query = replace(hint_query, 'SELECT ms_range_id, row_count FROM', 'SELECT ms_range_id FROM')
WHERE hint_query LIKE 'SELECT ms_range_id, row_count FROM%';
