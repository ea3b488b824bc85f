-- The foreign-data wrapper serving RocksDB archives, and its one server.
CREATE FOREIGN DATA WRAPPER permanode_fdw
    HANDLER @extschema@.fdw_handler VALIDATOR @extschema@.fdw_validator;
CREATE SERVER permanode_archive FOREIGN DATA WRAPPER permanode_fdw;
