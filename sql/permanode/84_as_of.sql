
-------------------------------------------------------------------------------------------------
-- The ledger as of any milestone N: the outputs unspent at the end of N are
--   the unspent set's outputs created at or before N, and
--   the retired outputs (once in the unspent set, now spent) alive at N: created <= N < spent.
-- The first part is the unspent set's own indexes, bounded by N's time. The second is a
-- GiST index per lookup key over one int8range per retired output: the key's 32-bit hash in the
-- high half, the output's [created, spent) milestones in the low half, so "key K alive at N" is
-- one containment probe, `span @> span_at(K, N)`, whose cost follows the outputs alive at N,
-- not the history before or after N (hash collisions are removed by the key's own equality).
-- Design and measurements: docs/AS_OF.md.
-------------------------------------------------------------------------------------------------

-- The unspent set's rows once spent (without their bytes, which the history tables hold), with
-- the milestone that spent them. An output spent in the milestone that created it was never
-- unspent at the end of a milestone and is not here.
CREATE TABLE @extschema@.retired_outputs (
    output_id @extschema@.output_id NOT NULL,
    output_kind text NOT NULL,
    amount bigint NOT NULL,
    address @extschema@.address,
    sender @extschema@.address,
    issuer @extschema@.address,
    tag bytea,
    state_controller @extschema@.address,
    governor @extschema@.address,
    dust_return_address @extschema@.address,
    dust_return_amount bigint,
    timelock timestamptz,
    expiration timestamptz,
    expiration_return_address @extschema@.address,
    native_token_count smallint NOT NULL DEFAULT 0,
    chain_id @extschema@.hash32,
    foundry_id @extschema@.foundry_id,
    milestone_index int NOT NULL,              -- created
    ms_timestamp timestamptz NOT NULL,
    message_id @extschema@.block_id,
    spent_milestone_index int NOT NULL,
    -- A Chrysalis output's type (its first byte): 0 SigLockedSingleOutput, 1
    -- SigLockedDustAllowanceOutput (TIP-15's dust rules need it); NULL for Stardust outputs.
    output_type smallint,
    -- A Chrysalis output booked again by the Stardust genesis is retired twice: as 'legacy' at
    -- the genesis, and as 'basic' when spent.
    PRIMARY KEY (output_id, output_kind),
    CHECK (spent_milestone_index > milestone_index)
);

-- A key's span of milestones [from_ms, to_ms) and a point in it, in one int8 line.
CREATE FUNCTION @extschema@.span(key int, from_ms int, to_ms int) RETURNS int8range
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN int8range(key::int8 * 4294967296 + from_ms, key::int8 * 4294967296 + to_ms);
CREATE FUNCTION @extschema@.span_at(key int, at int) RETURNS int8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN key::int8 * 4294967296 + at;
COMMENT ON FUNCTION @extschema@.span(int, int, int) IS
    'the milestones [from_ms, to_ms) of a lookup key (its 32-bit hash), as one int8range whose GiST index finds the spans containing span_at(key, N)';
-- A tag's key.
CREATE FUNCTION @extschema@.tag_hash(tag bytea) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN hashtext(encode(tag, 'hex'));

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
        EXECUTE format('CREATE INDEX %I ON @extschema@.retired_outputs USING gist '
                       '(@extschema@.span(%s, milestone_index, spent_milestone_index)) '
                       'WHERE %I IS NOT NULL', 'retired_outputs_by_' || k.col, k.key, k.col);
    END LOOP;
END
$$;

-- The protocol of milestone N: that of the newest milestone held at or before it.
CREATE FUNCTION @extschema@.protocol_at(at int) RETURNS smallint
LANGUAGE sql STABLE PARALLEL SAFE
RETURN (SELECT p.protocol_version FROM @extschema@.milestone_protocols p
        WHERE p.milestone_index <= at ORDER BY p.milestone_index DESC LIMIT 1);

-- The outputs an address holds (the `address` column: owner, state controller, alias of a
-- foundry) at the end of milestone N, N's era only: the Chrysalis outputs before the Stardust
-- genesis, the Stardust outputs from it. Without N: the newest milestone held.
CREATE FUNCTION @extschema@.outputs_at(address @extschema@.address, at int DEFAULT NULL)
RETURNS TABLE (output_id @extschema@.output_id, output_kind text, amount bigint,
               sig_locked boolean, milestone_index int, ms_timestamp timestamptz,
               spent_milestone_index int, output_type smallint)
LANGUAGE sql STABLE AS $$
    WITH n AS (SELECT coalesce(at, (SELECT max(p.milestone_index) FROM @extschema@.milestone_protocols p)) AS at),
         era AS (SELECT n.at, coalesce(@extschema@.protocol_at(n.at), 2) = 1 AS chrysalis,
                        @extschema@.milestone_time(n.at) AS at_time FROM n)
    SELECT u.output_id, u.output_kind, u.amount,
           u.dust_return_address IS NULL AND u.timelock IS NULL AND u.expiration IS NULL,
           u.milestone_index, u.ms_timestamp, NULL::int,
           CASE WHEN u.output_kind = 'legacy' THEN get_byte(u.data, 0)::smallint END
    FROM era, @extschema@.unspent_outputs u
    WHERE u.address = outputs_at.address AND u.ms_timestamp <= era.at_time
      AND u.milestone_index <= era.at AND (u.output_kind = 'legacy') = era.chrysalis
    UNION ALL
    SELECT r.output_id, r.output_kind, r.amount,
           r.dust_return_address IS NULL AND r.timelock IS NULL AND r.expiration IS NULL,
           r.milestone_index, r.ms_timestamp, r.spent_milestone_index, r.output_type
    FROM era, @extschema@.retired_outputs r
    WHERE r.address IS NOT NULL
      AND @extschema@.span(@extschema@.address_hash(r.address), r.milestone_index,
                           r.spent_milestone_index)
          @> @extschema@.span_at(@extschema@.address_hash(outputs_at.address), era.at)
      AND r.address = outputs_at.address
      AND (r.output_kind = 'legacy') = era.chrysalis
$$;
COMMENT ON FUNCTION @extschema@.outputs_at(@extschema@.address, int) IS
    'the outputs an address holds at the end of milestone `at` (default: the newest held), of that milestone''s era; spent_milestone_index is NULL for outputs still unspent';

-- An address's balance at the end of milestone N, per output kind: total, the part without
-- unlock conditions beyond the address (sig-locked), and the outputs counted.
CREATE FUNCTION @extschema@.balance_at(address @extschema@.address, at int DEFAULT NULL)
RETURNS TABLE (output_kind text, balance numeric, sig_locked_balance numeric, outputs bigint)
LANGUAGE sql STABLE AS $$
    SELECT o.output_kind, sum(o.amount), coalesce(sum(o.amount) FILTER (WHERE o.sig_locked), 0),
           count(*)
    FROM @extschema@.outputs_at(address, at) o
    GROUP BY o.output_kind ORDER BY o.output_kind
$$;
COMMENT ON FUNCTION @extschema@.balance_at(@extschema@.address, int) IS
    'an address''s balance at the end of milestone `at` (default: the newest held), per output kind';

-- Rebuilds retired_outputs from the history tables (hot and archived): every output created by
-- one milestone and spent by a later one, and every Chrysalis output the Stardust genesis booked
-- again. The upgrade to 0.7.0 runs it once; ingest keeps the table from then on.
CREATE FUNCTION @extschema@.rebuild_retired_outputs() RETURNS bigint
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
