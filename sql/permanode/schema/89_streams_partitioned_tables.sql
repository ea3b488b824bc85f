-- The stream tables, partitioned by segment, in the catalog of partitioned tables: records with
-- their lookup by key, record_tags carrying the segment so that a read by tag needs the index only.
INSERT INTO @extschema@.partitioned_tables
    (family, schema_name, table_name, range_column, unique_columns, include_columns, after_create)
VALUES ('streams', 'streams', 'records', 'segment', '{shard_id,offset}', '{}', 'index_records_partition'),
       ('streams', 'streams', 'record_tags', 'segment', '{shard_id,tag,offset}', '{segment}', NULL);
