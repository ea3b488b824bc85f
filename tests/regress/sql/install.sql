-- Installing the extensions: dependencies, versions and the first functions of each.

-- Without CASCADE the wrapper is a missing requirement, and the error says so.
CREATE EXTENSION permanode;

CREATE EXTENSION permanode CASCADE;
SELECT extname, extversion, extnamespace::regnamespace AS schema
FROM pg_extension WHERE extname LIKE 'permanode%' ORDER BY extname;

SELECT b->>'extension' AS extension, b->>'version' AS version, (b->>'pg_major')::int AS pg_major,
       b->>'version' = e.extversion AS matches_catalog
FROM permanode.build_info() b, pg_extension e WHERE e.extname = 'permanode';

-- The RocksDB library the wrapper runs on is the one its headers describe.
SELECT f->>'extension' AS extension, f->>'rocksdb_library' ~ '^7\.[0-9]+\.[0-9]+$' AS rocksdb_7,
       f->>'rocksdb_library' = f->>'rocksdb_headers' AS headers_match_library
FROM permanode.fdw_build_info() f;

-- The wrapper cannot be dropped from under the extension that needs it.
DROP EXTENSION permanode_fdw;
DROP EXTENSION permanode;
DROP EXTENSION permanode_fdw;
SELECT count(*) AS left_over FROM pg_extension WHERE extname LIKE 'permanode%';
-- PostgreSQL keeps the schema that CREATE EXTENSION made; nothing of ours is left in it.
SELECT count(*) AS functions_left_over FROM pg_proc WHERE pronamespace = 'permanode'::regnamespace;
