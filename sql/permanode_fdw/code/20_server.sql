-- The archive server (../schema/20_server.sql).
COMMENT ON SERVER permanode_archive IS 'RocksDB archives under permanode_fdw.archive_root';
