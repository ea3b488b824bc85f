-------------------------------------------------------------------------------------------------
-- Identifier types: compact binary, canonical text (0x-hex; bech32 for addresses).
-------------------------------------------------------------------------------------------------
SELECT @extschema@.create_fixed_type(name, len, text_io, binary_io, cmp) FROM (VALUES
    ('hash32', 32, 'permanode_hash32', 'permanode_hash32', 'permanode_hash32'),
    ('output_id', 34, 'permanode_output_id', 'permanode_output_id', 'permanode_output_id'),
    ('foundry_id', 38, 'permanode_foundry_id', 'permanode_foundry_id', 'permanode_foundry_id'),
    ('address', 33, 'permanode_address', 'permanode_address_hex', 'permanode_address'))
    AS v(name, len, text_io, binary_io, cmp);

COMMENT ON TYPE @extschema@.hash32 IS '32-byte identifier (BLAKE2b-256), text form 0x + 64 hex digits';
COMMENT ON TYPE @extschema@.output_id IS 'output ID: transaction ID + u16 little-endian index, 0x + 68 hex digits';
COMMENT ON TYPE @extschema@.foundry_id IS 'foundry ID: alias address + serial number + token scheme, 0x + 76 hex digits';
COMMENT ON TYPE @extschema@.address IS 'Stardust address (type byte + 32 bytes), text form bech32 with permanode.bech32_hrp';

CREATE DOMAIN @extschema@.block_id AS @extschema@.hash32;
CREATE DOMAIN @extschema@.transaction_id AS @extschema@.hash32;
CREATE DOMAIN @extschema@.milestone_id AS @extschema@.hash32;
CREATE DOMAIN @extschema@.alias_id AS @extschema@.hash32;
CREATE DOMAIN @extschema@.nft_id AS @extschema@.hash32;
