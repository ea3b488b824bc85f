-- The span indexes of retired_outputs, one per lookup key, over the span functions of
-- ../code/85_as_of_spans.sql.
DO $$
DECLARE
    k record;
BEGIN
    FOR k IN SELECT * FROM (VALUES
        ('address', '@extschema@.address_hash(address)'),
        ('sender', '@extschema@.address_hash(sender)'),
        ('issuer', '@extschema@.address_hash(issuer)'),
        ('tag', '@extschema@.tag_hash(tag)'),
        ('state_controller', '@extschema@.address_hash(state_controller)'),
        ('governor', '@extschema@.address_hash(governor)'),
        ('dust_return_address', '@extschema@.address_hash(dust_return_address)'),
        ('expiration_return_address', '@extschema@.address_hash(expiration_return_address)'),
        ('chain_id', '@extschema@.hash32_hash(chain_id)'),
        ('foundry_id', '@extschema@.foundry_id_hash(foundry_id)'),
        ('output_kind', 'hashtext(output_kind)')) AS v(col, key)
    LOOP
        -- k.key is one of the expressions above, never input.
        EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON @extschema@.retired_outputs USING gist '
                       '(@extschema@.span_point(%s, milestone_index, spent_milestone_index)) '
                       'WHERE %I IS NOT NULL', 'retired_outputs_by_' || k.col, k.key, k.col);
    END LOOP;
END
$$;
