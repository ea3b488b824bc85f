
-------------------------------------------------------------------------------------------------
-- Remote ranges: old milestone ranges moved to another PostgreSQL node that runs permanode, and
-- served back from there as postgres_fdw foreign partitions. Like an archive, one foreign
-- partition serves a run of adjacent ranges, so a keyed lookup sends one query to the node for
-- the hinted ranges it holds. The other node holds the ranges in its own ledger table (hot, or
-- archived into its own cold tier) and shows them as views in schema permanode_remote: one per
-- range (what a move copies and compares) and one per run (what our foreign partition reads).
-- Sync, hints and locators stay here, so a keyed lookup reads a remote range only when the hints
-- name it.
--
-- A move runs as a procedure, in steps that each commit, so that a crash of either node leaves
-- every row readable exactly once and the move can be run again:
--   1. the other node makes a range's partition and view (remote_hold) and says what it holds:
--      rows and checksum (relation_checksum);
--   2. unless it holds exactly our rows already (a move that died after this step), the range's
--      rows are copied to it through postgres_fdw; the copy commits on both nodes or on neither,
--      but for a crash between the two commits, which leaves a copy there that nothing here reads;
--   3. once every range of a run is there, rows and checksums are compared again and the run's
--      partitions are swapped for one foreign partition, in one transaction.
-- Bringing a run back runs the same steps the other way, then drops the other node's copy.
-- Needs the postgres_fdw and dblink extensions (PostgreSQL's own) and a user mapping for the
-- server whose role may make partitions there; superuser only.
-------------------------------------------------------------------------------------------------

-- Where a node shows the ranges it holds for another: a view per range, named like the partition.
CREATE SCHEMA permanode_remote;

CREATE TABLE @extschema@.remote_ranges (
    table_name name NOT NULL,
    range_from int NOT NULL,   -- the run of ranges [range_from, range_to)
    range_to int NOT NULL,
    server name NOT NULL,
    foreign_table name NOT NULL, -- here, and the run's view there (schema permanode_remote)
    rows bigint NOT NULL,      -- counted on both nodes at the move
    checksum text NOT NULL,    -- relation_checksum of each range, on both nodes at the move
    bytes bigint,              -- the run's partitions on the other node, at the move
    moved_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_name, range_from)
);
SELECT pg_extension_config_dump('@extschema@.remote_ranges', '');
