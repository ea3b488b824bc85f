-- permanode 0.7.0 -> 0.8.0: verify() by digests (its functions' signatures changed: dropped, the
-- code parts make them again) and the record streams (schema streams).
DROP FUNCTION IF EXISTS @extschema@.verify(int, int);
DROP FUNCTION IF EXISTS legacy.verify(int, int);
DROP FUNCTION IF EXISTS @extschema@.verify_derive(int, int, int, int[], boolean);
DROP AGGREGATE IF EXISTS @extschema@.row_digest(bytea, bytea);
DROP FUNCTION IF EXISTS @extschema@.digest_add(bytea, bytea, bytea);
DROP FUNCTION IF EXISTS @extschema@.verify_cone(int, bigint, bytea[], smallint[], smallint[], smallint, bytea, text[], boolean);
DROP FUNCTION IF EXISTS @extschema@.blake2b256(bytea);
\ir ../schema/88_streams.sql
