-- What the identifier types (../schema/10_types.sql) are.
COMMENT ON TYPE @extschema@.hash32 IS '32-byte identifier (BLAKE2b-256), text form 0x + 64 hex digits';
COMMENT ON TYPE @extschema@.output_id IS 'output ID: transaction ID + u16 little-endian index, 0x + 68 hex digits';
COMMENT ON TYPE @extschema@.foundry_id IS 'foundry ID: alias address + serial number + token scheme, 0x + 76 hex digits';
COMMENT ON TYPE @extschema@.address IS 'Stardust address (type byte + 32 bytes), text form bech32 with permanode.bech32_hrp';
