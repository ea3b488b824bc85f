-- What the legacy identifier types (../schema/12_legacy_types.sql) are.
COMMENT ON TYPE @extschema@.trytes81 IS
    'legacy hash or address: 81 trytes (an address may be given with its 9-tryte checksum), stored as 49 t5b1 bytes';
COMMENT ON TYPE @extschema@.trytes27 IS 'legacy tag: 27 trytes, stored as 17 t5b1 bytes';

CREATE OR REPLACE FUNCTION @extschema@.trytes81_from_t5b1(bytes bytea) RETURNS @extschema@.trytes81
AS 'MODULE_PATHNAME', 'permanode_trytes81_from_t5b1' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.trytes81_from_t5b1(bytea) IS
    'a legacy hash from its 49 t5b1 bytes (as a Chrysalis receipt carries a tail transaction hash); NULL when they are not one';
