
-------------------------------------------------------------------------------------------------
-- The legacy (ternary) era's identifier types: trit strings stored as t5b1 bytes, five trits a
-- byte, read and written as trytes.
-------------------------------------------------------------------------------------------------
SELECT @extschema@.create_fixed_type(name, len, text_io, binary_io, cmp) FROM (VALUES
    ('trytes81', 49, 'permanode_trytes81', 'permanode_trytes81', 'permanode_trytes81'),
    ('trytes27', 17, 'permanode_trytes27', 'permanode_trytes27', 'permanode_trytes27'))
    AS v(name, len, text_io, binary_io, cmp);
DROP FUNCTION @extschema@.create_fixed_type(name, int, text, text, text);
