-- permanode 0.7.0 -> 0.8.0: record streams (schema streams, seed 004); the as-of pages planned
-- with statistics on the span indexes and a milestone_time that is planned once; verify at 0.6x
-- of deriving the cones (row_digest aggregates in parallel). This script is generated
-- (sql/CMakeLists.txt): this part, which drops what 86_verify.sql makes again, then the install
-- script's parts that make these.
\echo Use "ALTER EXTENSION permanode UPDATE TO '0.8.0'" to load this file. \quit
DROP FUNCTION @extschema@.verify(int, int);
DROP FUNCTION legacy.verify(int, int);
DROP FUNCTION @extschema@.verify_derive(int, int, int, int[], boolean);
DROP AGGREGATE @extschema@.row_digest(bytea, bytea);
DROP FUNCTION @extschema@.digest_add(bytea, bytea, bytea);
DROP FUNCTION @extschema@.verify_cone(int, bigint, bytea[], smallint[], smallint[], smallint, bytea, text[], boolean);
DROP FUNCTION @extschema@.blake2b256(bytea);
