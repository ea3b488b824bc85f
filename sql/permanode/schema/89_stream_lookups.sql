
-- Within a shard an offset is unique: a read by tag joins each to one record (without this the
-- planner, counting every shard's offsets together, caches the lookups of records by offset).
ALTER TABLE streams.record_tags ALTER COLUMN "offset" SET (n_distinct_inherited = -1);
