-------------------------------------------------------------------------------------------------
-- Identifier types: compact binary, canonical text (0x-hex; bech32 for addresses).
-------------------------------------------------------------------------------------------------
SELECT @extschema@.create_fixed_type(name, len, text_io, binary_io, cmp) FROM (VALUES
    ('hash32', 32, 'permanode_hash32', 'permanode_hash32', 'permanode_hash32'),
    ('output_id', 34, 'permanode_output_id', 'permanode_output_id', 'permanode_output_id'),
    ('foundry_id', 38, 'permanode_foundry_id', 'permanode_foundry_id', 'permanode_foundry_id'),
    ('address', 33, 'permanode_address', 'permanode_address_hex', 'permanode_address'))
    AS v(name, len, text_io, binary_io, cmp);

CREATE DOMAIN @extschema@.block_id AS @extschema@.hash32;
CREATE DOMAIN @extschema@.transaction_id AS @extschema@.hash32;
CREATE DOMAIN @extschema@.milestone_id AS @extschema@.hash32;
CREATE DOMAIN @extschema@.alias_id AS @extschema@.hash32;
CREATE DOMAIN @extschema@.nft_id AS @extschema@.hash32;
