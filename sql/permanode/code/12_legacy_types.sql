-- What the legacy identifier types (../schema/12_legacy_types.sql) are.
COMMENT ON TYPE @extschema@.trytes81 IS
    'legacy hash or address: 81 trytes (an address may be given with its 9-tryte checksum), stored as 49 t5b1 bytes';
COMMENT ON TYPE @extschema@.trytes27 IS 'legacy tag: 27 trytes, stored as 17 t5b1 bytes';
