-- The as-of keys and the rebuild of retired_outputs (../schema/84_as_of.sql).
-- A tag's key.
CREATE OR REPLACE FUNCTION @extschema@.tag_hash(tag bytea) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN hashtext(encode(tag, 'hex'));

-- The protocol of milestone N: that of the newest milestone held at or before it.
CREATE OR REPLACE FUNCTION @extschema@.protocol_at(at int) RETURNS smallint
LANGUAGE sql STABLE PARALLEL SAFE
RETURN (SELECT p.protocol_version FROM @extschema@.milestone_protocols p
        WHERE p.milestone_index <= at ORDER BY p.milestone_index DESC LIMIT 1);

-- Rebuilds retired_outputs from the history tables (hot and archived): every output created by
-- one milestone and spent by a later one, and every Chrysalis output the Stardust genesis booked
-- again. The upgrade to 0.7.0 ran it once; ingest keeps the table from then on.
CREATE OR REPLACE FUNCTION @extschema@.rebuild_retired_outputs() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    rows bigint;
BEGIN
    LOCK TABLE @extschema@.retired_outputs IN EXCLUSIVE MODE;
    TRUNCATE @extschema@.retired_outputs;
    INSERT INTO @extschema@.retired_outputs (output_id, output_kind, amount, address, sender,
        issuer, tag, state_controller, governor, dust_return_address, dust_return_amount,
        timelock, expiration, expiration_return_address, native_token_count, chain_id,
        foundry_id, milestone_index, ms_timestamp, message_id, spent_milestone_index)
    SELECT o.output_id, o.kind, o.amount, o.address, o.sender, o.issuer, o.tag,
           o.state_controller, o.governor, o.dust_return_address, o.dust_return_amount,
           o.timelock, o.expiration, o.expiration_return_address,
           coalesce(o.native_token_count, 0), o.chain_id, o.foundry_id, o.milestone_index,
           o.ms_timestamp, o.message_id, s.milestone_index
    FROM (SELECT output_id, 'basic' AS kind, amount, address, sender, NULL::@extschema@.address AS issuer,
                 tag, NULL::@extschema@.address AS state_controller,
                 NULL::@extschema@.address AS governor, dust_return_address, dust_return_amount,
                 timelock, expiration, expiration_return_address, native_token_count,
                 NULL::@extschema@.hash32 AS chain_id, NULL::@extschema@.foundry_id AS foundry_id,
                 milestone_index, ms_timestamp, message_id
          FROM @extschema@.basic_outputs
          UNION ALL
          SELECT output_id, 'alias', amount, state_controller, sender, issuer, NULL, state_controller,
                 governor, NULL, NULL, NULL, NULL, NULL, native_token_count, alias_id, NULL,
                 milestone_index, ms_timestamp, message_id
          FROM @extschema@.alias_outputs
          UNION ALL
          SELECT output_id, 'foundry', amount, address, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                 NULL, NULL, NULL, native_token_count, NULL, foundry_id, milestone_index,
                 ms_timestamp, message_id
          FROM @extschema@.foundry_outputs
          UNION ALL
          SELECT output_id, 'nft', amount, address, sender, issuer, tag, NULL, NULL,
                 dust_return_address, dust_return_amount, timelock, expiration,
                 expiration_return_address, native_token_count, nft_id, NULL, milestone_index,
                 ms_timestamp, message_id
          FROM @extschema@.nft_outputs) o
    JOIN @extschema@.spent_outputs s
      ON s.output_id = o.output_id AND s.milestone_index > o.milestone_index;
    -- Chrysalis outputs: until their used row, or until the Stardust genesis booked them again.
    INSERT INTO @extschema@.retired_outputs (output_id, output_kind, amount, address,
        milestone_index, ms_timestamp, message_id, spent_milestone_index, output_type)
    SELECT c.output_id, 'legacy', c.amount, c.address, c.milestone_index, c.ms_timestamp,
           c.message_id, least(u.milestone_index, b.milestone_index), c.output_type
    FROM @extschema@.legacy_outputs c
    LEFT JOIN @extschema@.legacy_outputs u ON u.output_id = c.output_id AND u.is_used
    LEFT JOIN @extschema@.basic_outputs b ON b.output_id = c.output_id
    WHERE NOT c.is_used AND least(u.milestone_index, b.milestone_index) > c.milestone_index;
    SELECT count(*) INTO rows FROM @extschema@.retired_outputs;
    RETURN rows;
END
$$;
REVOKE ALL ON FUNCTION @extschema@.rebuild_retired_outputs() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @extschema@.rebuild_retired_outputs() TO permanode_admin;

GRANT SELECT ON @extschema@.retired_outputs TO permanode_reader;
