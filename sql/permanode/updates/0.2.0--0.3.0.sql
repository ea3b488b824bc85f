-- permanode 0.2.0 -> 0.3.0: one lookup mechanism. The plan-time rewrite is gone, and with it the
-- hint tables' row counts and the functions that kept them. Hint rows are a key and the ranges
-- holding it.
DROP FUNCTION @extschema@.flush_hint_counts();
DROP FUNCTION @extschema@.recount_hints();
ALTER TABLE @extschema@.tag_hints DROP COLUMN row_count;
ALTER TABLE @extschema@.addresses_hints DROP COLUMN row_count;

-- The hint queries name ranges only.
UPDATE @extschema@.partition_hints
SET hint_query = replace(hint_query, 'SELECT ms_range_id, row_count FROM', 'SELECT ms_range_id FROM')
WHERE hint_query LIKE 'SELECT ms_range_id, row_count FROM%';
