
-------------------------------------------------------------------------------------------------
-- Where each range of the ledger is: hot (a heap partition here), cold (a RocksDB archive here,
-- 70_archive.sql) or remote (a partition on another node, 71_remote_ranges.sql).
-------------------------------------------------------------------------------------------------

-- The partitions of the ledger tables: range, tier, the server of a remote one, rows and bytes.
CREATE OR REPLACE VIEW @extschema@.partitions AS
SELECT p.inhparent::regclass AS table_name,
       c.oid::regclass AS partition,
       CASE WHEN c.relname ~ '_pending$' THEN @extschema@.pending_range()
            ELSE substring(c.relname from '_r([0-9]+)$')::int END AS ms_range_id,
       CASE WHEN c.relkind <> 'f' THEN 'hot' WHEN w.fdwname = 'permanode_fdw' THEN 'cold'
            ELSE 'remote' END AS tier,
       c.reltuples::bigint AS estimated_rows,
       CASE c.relkind WHEN 'f' THEN NULL ELSE pg_total_relation_size(c.oid) END AS bytes,
       CASE WHEN w.fdwname <> 'permanode_fdw' THEN s.srvname END AS server
FROM pg_inherits p
JOIN pg_class c ON c.oid = p.inhrelid
JOIN @extschema@.ledger_tables t ON p.inhparent = format('@extschema@.%I', t.table_name)::regclass
LEFT JOIN pg_foreign_table f ON f.ftrelid = c.oid
LEFT JOIN pg_foreign_server s ON s.oid = f.ftserver
LEFT JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw;

-- Each ledger table's ranges: tier, rows and bytes on disk (hot: the partition with its
-- indexes; cold: the archive, which may hold several ranges; remote: a run of ranges on another
-- node, as counted when it moved there, and that node's server). ms_range_id 2147483647 is the
-- pending tier.
CREATE OR REPLACE VIEW @extschema@.status AS
SELECT h.table_name, h.from_range, h.to_range, 'hot'::text AS tier, h.partition,
       @extschema@.partition_rows(h.partition) AS rows, pg_total_relation_size(h.partition) AS bytes,
       NULL::name AS server
-- OFFSET 0 keeps the caller's filters on rows out of the catalog scans below
FROM (SELECT l.table_name, p.ms_range_id AS from_range,
             CASE WHEN p.ms_range_id = @extschema@.pending_range() THEN NULL
                  ELSE p.ms_range_id + 1 END AS to_range,
             p.partition
      FROM @extschema@.ledger_tables l
      JOIN @extschema@.partitions p ON p.table_name = format('@extschema@.%I', l.table_name)::regclass
      WHERE p.tier = 'hot' OFFSET 0) h
UNION ALL
SELECT l.table_name, s.range_from::int, s.range_to::int, 'cold', s.foreign_table, s.rows, s.bytes, NULL
FROM @extschema@.ledger_tables l
JOIN @extschema@.archive_status s ON s.parent_table = format('@extschema@.%I', l.table_name)::regclass
UNION ALL
SELECT m.table_name, m.range_from, m.range_to, 'remote', format('@extschema@.%I', m.foreign_table)::regclass,
       m.rows, m.bytes, m.server
FROM @extschema@.remote_ranges m;
COMMENT ON VIEW @extschema@.status IS
    'per ledger table and range [from_range, to_range): tier (hot, cold or remote), rows and bytes on disk, the server of a remote range';
