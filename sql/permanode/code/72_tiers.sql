
-------------------------------------------------------------------------------------------------
-- Where each range of the ledger is: hot (a heap partition here), cold (a RocksDB archive here,
-- 70_archive.sql) or remote (a partition on another node, 71_remote_ranges.sql).
-------------------------------------------------------------------------------------------------

-- The partitions of every partitioned table of every family (permanode.partitioned_tables):
-- the ranges [range_from, range_to) of its bound (range_to NULL up to MAXVALUE: the ledger's
-- pending tier), tier, the server of a remote one, rows (estimated) and bytes. The bound is read
-- from the catalog, so no family's partition names are parsed.
CREATE OR REPLACE VIEW @extschema@.family_partitions AS
SELECT t.family, t.table_name, p.inhparent::regclass AS parent, c.oid::regclass AS partition,
       b[1]::int AS range_from, nullif(b[2], 'MAXVALUE')::int AS range_to,
       CASE WHEN c.relkind <> 'f' THEN 'hot' WHEN w.fdwname = 'permanode_fdw' THEN 'cold'
            ELSE 'remote' END AS tier,
       c.reltuples::bigint AS estimated_rows,
       CASE c.relkind WHEN 'f' THEN NULL ELSE pg_total_relation_size(c.oid) END AS bytes,
       CASE WHEN w.fdwname <> 'permanode_fdw' THEN s.srvname END AS server
FROM @extschema@.partitioned_tables t
JOIN pg_class pc ON pc.relname = t.table_name AND pc.relnamespace = t.schema_name::regnamespace
JOIN pg_inherits p ON p.inhparent = pc.oid
JOIN pg_class c ON c.oid = p.inhrelid
CROSS JOIN LATERAL regexp_match(pg_get_expr(c.relpartbound, c.oid),
                                'FROM \((-?[0-9]+)\) TO \((-?[0-9]+|MAXVALUE)\)') b
LEFT JOIN pg_foreign_table f ON f.ftrelid = c.oid
LEFT JOIN pg_foreign_server s ON s.oid = f.ftserver
LEFT JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw;
COMMENT ON VIEW @extschema@.family_partitions IS
    'every partition of every partitioned table (ledger, legacy, streams): range bound, tier, server, rows and bytes';

-- Each range [from_range, to_range) of every partitioned table: tier, rows and bytes on disk
-- (hot: the partition with its indexes; cold: the archive, which may hold several ranges;
-- remote: a run of ledger ranges on another node, as counted when it moved there, and that
-- node's server). permanode.status, legacy.status and streams.status are its families.
CREATE OR REPLACE VIEW @extschema@.family_status AS
SELECT h.family, h.table_name, h.parent, h.range_from AS from_range, h.range_to AS to_range,
       'hot'::text AS tier, h.partition, @extschema@.partition_rows(h.partition) AS rows,
       pg_total_relation_size(h.partition) AS bytes, NULL::name AS server
-- OFFSET 0 keeps the caller's filters on rows out of the catalog scans below
FROM (SELECT * FROM @extschema@.family_partitions WHERE tier = 'hot' OFFSET 0) h
UNION ALL
SELECT t.family, t.table_name, s.parent_table, s.range_from::int, s.range_to::int, 'cold',
       s.foreign_table, s.rows, s.bytes, NULL
FROM @extschema@.partitioned_tables t
JOIN @extschema@.archive_status s ON s.parent_table = format('%I.%I', t.schema_name, t.table_name)::regclass
UNION ALL
SELECT 'ledger', m.table_name, format('@extschema@.%I', m.table_name)::regclass, m.range_from,
       m.range_to, 'remote', format('@extschema@.%I', m.foreign_table)::regclass, m.rows, m.bytes,
       m.server
FROM @extschema@.remote_ranges m;
COMMENT ON VIEW @extschema@.family_status IS
    'per partitioned table (ledger, legacy, streams) and range [from_range, to_range): tier, rows and bytes on disk, the server of a remote range';

-- The partitions of the ledger tables: range, tier, the server of a remote one, rows and bytes.
CREATE OR REPLACE VIEW @extschema@.partitions AS
SELECT p.parent AS table_name, p.partition, p.range_from AS ms_range_id, p.tier, p.estimated_rows, p.bytes, p.server
FROM @extschema@.family_partitions p
WHERE p.family = 'ledger';

-- Each ledger table's ranges: tier, rows and bytes on disk. ms_range_id 2147483647 is the
-- pending tier.
CREATE OR REPLACE VIEW @extschema@.status AS
SELECT s.table_name, s.from_range, s.to_range, s.tier, s.partition, s.rows, s.bytes, s.server
FROM @extschema@.family_status s
WHERE s.family = 'ledger';
COMMENT ON VIEW @extschema@.status IS
    'per ledger table and range [from_range, to_range): tier (hot, cold or remote), rows and bytes on disk, the server of a remote range';
