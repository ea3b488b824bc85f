-- Shared by the tests that load the real fixtures: helpers that turn inx-chronicle's MongoDB
-- extended JSON into permanode.ingest_milestone() arguments, and ingest_test.ingest(milestone).
-- Expects psql variable :fixtures (\getenv fixtures PERMANODE_FIXTURES).

-- Test helpers: the fixtures are MongoDB extended JSON in inx-chronicle's model.
CREATE SCHEMA ingest_test;
CREATE TABLE ingest_test.fixture AS
SELECT pg_read_file(:'fixtures' || '/in_memory_data.json')::jsonb AS milestones,
       pg_read_file(:'fixtures' || '/blocks_ms_2418187.json')::jsonb AS blocks_2418187;

CREATE FUNCTION ingest_test.bin(value jsonb) RETURNS bytea
LANGUAGE sql IMMUTABLE AS $$ SELECT decode(value->'$binary'->>'base64', 'base64') $$;
CREATE FUNCTION ingest_test.hex(value jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $$ SELECT '0x' || encode(ingest_test.bin(value), 'hex') $$;
CREATE FUNCTION ingest_test.state_code(state text) RETURNS smallint
LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT CASE state WHEN 'no_transaction' THEN 0 WHEN 'included' THEN 1 WHEN 'conflicting' THEN 2 END
$$;
CREATE FUNCTION ingest_test.reason_code(reason text) RETURNS smallint
LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT (array_position(ARRAY['none', 'input_utxo_already_spent',
        'input_utxo_already_spent_in_this_milestone', 'input_utxo_not_found',
        'created_consumed_amount_mismatch', 'invalid_signature', 'timelock_not_expired',
        'invalid_native_tokens', 'return_amount_not_fulfilled', 'invalid_input_unlock',
        'invalid_inputs_commitment', 'invalid_sender', 'invalid_chain_state_transition'],
        reason) - 1)::smallint
$$;
CREATE FUNCTION ingest_test.output_id(id jsonb) RETURNS permanode.output_id
LANGUAGE sql IMMUTABLE AS $$
    SELECT (ingest_test.hex(id->'transaction_id')
            || lpad(to_hex((id->>'index')::int & 255), 2, '0')
            || lpad(to_hex((id->>'index')::int >> 8), 2, '0'))::permanode.output_id
$$;

-- inx-chronicle's output model -> the core API JSON (TIP-25), for permanode.encode_output().
CREATE FUNCTION ingest_test.address_json(a jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN a ? 'ed25519' THEN jsonb_build_object('type', 0, 'pubKeyHash', ingest_test.hex(a->'ed25519'))
                WHEN a ? 'alias' THEN jsonb_build_object('type', 8, 'aliasId', ingest_test.hex(a->'alias'))
                ELSE jsonb_build_object('type', 16, 'nftId', ingest_test.hex(a->'nft')) END
$$;
CREATE FUNCTION ingest_test.features_json(features jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce(jsonb_agg(f ORDER BY f->'type'), '[]') FROM (
        SELECT CASE e->>'kind'
                   WHEN 'sender' THEN jsonb_build_object('type', 0, 'address', ingest_test.address_json(e->'address'))
                   WHEN 'issuer' THEN jsonb_build_object('type', 1, 'address', ingest_test.address_json(e->'address'))
                   WHEN 'metadata' THEN jsonb_build_object('type', 2, 'data', ingest_test.hex(e->'data'))
                   WHEN 'tag' THEN jsonb_build_object('type', 3, 'tag', ingest_test.hex(e->'data')) END AS f
        FROM jsonb_array_elements(features) e) s
$$;
CREATE FUNCTION ingest_test.output_json(o jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_strip_nulls(jsonb_build_object(
        'type', CASE o->>'kind' WHEN 'basic' THEN 3 WHEN 'alias' THEN 4 WHEN 'foundry' THEN 5 ELSE 6 END,
        'amount', o->>'amount',
        'nativeTokens', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', ingest_test.hex(t->'token_id'),
                            'amount', '0x' || coalesce(nullif(ltrim(encode(ingest_test.bin(t->'amount'), 'hex'), '0'), ''), '0'))), '[]')
                         FROM jsonb_array_elements(o->'native_tokens') t),
        'aliasId', CASE WHEN o ? 'alias_id' THEN ingest_test.hex(o->'alias_id') END,
        'stateIndex', o->'state_index',
        'stateMetadata', CASE WHEN o ? 'state_metadata' THEN ingest_test.hex(o->'state_metadata') END,
        'foundryCounter', o->'foundry_counter',
        'nftId', CASE WHEN o ? 'nft_id' THEN ingest_test.hex(o->'nft_id') END,
        'unlockConditions', (SELECT jsonb_agg(c ORDER BY c->'type') FROM (VALUES
            (CASE WHEN o ? 'address_unlock_condition' THEN jsonb_build_object('type', 0,
                'address', ingest_test.address_json(o->'address_unlock_condition'->'address')) END),
            (CASE WHEN o ? 'storage_deposit_return_unlock_condition' THEN jsonb_build_object('type', 1,
                'returnAddress', ingest_test.address_json(o->'storage_deposit_return_unlock_condition'->'return_address'),
                'amount', o->'storage_deposit_return_unlock_condition'->>'amount') END),
            (CASE WHEN o ? 'timelock_unlock_condition' THEN jsonb_build_object('type', 2,
                'unixTime', o->'timelock_unlock_condition'->'timestamp') END),
            (CASE WHEN o ? 'expiration_unlock_condition' THEN jsonb_build_object('type', 3,
                'returnAddress', ingest_test.address_json(o->'expiration_unlock_condition'->'return_address'),
                'unixTime', o->'expiration_unlock_condition'->'timestamp') END),
            (CASE WHEN o ? 'state_controller_address_unlock_condition' THEN jsonb_build_object('type', 4,
                'address', ingest_test.address_json(o->'state_controller_address_unlock_condition'->'address')) END),
            (CASE WHEN o ? 'governor_address_unlock_condition' THEN jsonb_build_object('type', 5,
                'address', ingest_test.address_json(o->'governor_address_unlock_condition'->'address')) END),
            (CASE WHEN o ? 'immutable_alias_address_unlock_condition' THEN jsonb_build_object('type', 6,
                'address', ingest_test.address_json(o->'immutable_alias_address_unlock_condition'->'address')) END)
            ) v(c) WHERE c IS NOT NULL),
        'features', ingest_test.features_json(o->'features'),
        'immutableFeatures', CASE WHEN o ? 'immutable_features' THEN ingest_test.features_json(o->'immutable_features') END))
$$;

-- The four cones as the function's arguments, and what inx-chronicle booked.
CREATE TABLE ingest_test.cone AS
SELECT m::int AS milestone_index, (v->'milestone_data'->'at'->>'milestone_timestamp')::bigint AS milestone_timestamp,
       array_agg(ingest_test.bin(b->'raw') ORDER BY k::int) AS blocks,
       array_agg(ingest_test.state_code(b->'metadata'->>'inclusion_state') ORDER BY k::int) AS states,
       array_agg(ingest_test.reason_code(b->'metadata'->>'conflict_reason') ORDER BY k::int) AS reasons
FROM ingest_test.fixture, jsonb_each(milestones) ms(m, v), jsonb_each(v->'cone') c(k, b)
GROUP BY m, v;
-- 2418187's own payload is not in the fixture (a milestone's block is referenced by the next
-- milestone); its cone carries 2418186's, whose timestamp stands in for 2418187's.
INSERT INTO ingest_test.cone
SELECT 2418187, (SELECT (permanode.decode_block(ingest_test.bin(b->'raw'))->'payload'->>'timestamp')::bigint
                 FROM ingest_test.fixture f, jsonb_array_elements(f.blocks_2418187) b
                 WHERE permanode.decode_block(ingest_test.bin(b->'raw'))->'payload'->>'type' = '7'),
       array_agg(ingest_test.bin(b->'raw') ORDER BY (b->'metadata'->>'white_flag_index')::int),
       array_agg(ingest_test.state_code(b->'metadata'->>'inclusion_state') ORDER BY (b->'metadata'->>'white_flag_index')::int),
       array_agg(ingest_test.reason_code(b->'metadata'->>'conflict_reason') ORDER BY (b->'metadata'->>'white_flag_index')::int)
FROM ingest_test.fixture, jsonb_array_elements(blocks_2418187) b;
SELECT milestone_index, to_timestamp(milestone_timestamp) AT TIME ZONE 'UTC' AS milestone_time,
       cardinality(blocks) AS blocks, array_positions(states, 1::smallint) AS included_at,
       cardinality(array_positions(reasons, 0::smallint)) = cardinality(blocks) AS no_conflicts
FROM ingest_test.cone ORDER BY 1;

CREATE TABLE ingest_test.created AS
SELECT m::int AS milestone_index, ingest_test.output_id(o->'output_id') AS output_id,
       o->'output' AS output, (o->'booked'->>'milestone_index')::int AS booked
FROM ingest_test.fixture, jsonb_each(milestones) ms(m, v), jsonb_array_elements(v->'created') o;
CREATE TABLE ingest_test.consumed AS
SELECT m::int AS milestone_index, ingest_test.output_id(o->'output'->'output_id') AS output_id,
       o->'output'->'output' AS output, (o->'output'->'booked'->>'milestone_index')::int AS booked,
       ingest_test.hex(o->'output'->'block_id')::permanode.block_id AS block_id
FROM ingest_test.fixture, jsonb_each(milestones) ms(m, v), jsonb_array_elements(v->'consumed') o;
SELECT milestone_index, count(*) AS created,
       (SELECT count(*) FROM ingest_test.consumed d WHERE d.milestone_index = c.milestone_index) AS consumed,
       count(*) FILTER (WHERE booked = milestone_index) AS booked_here
FROM ingest_test.created c GROUP BY 1 ORDER BY 1;

-- Every created output of the fixture serializes (through the TIP-25 JSON) to the bytes its
-- transaction carries: checked below against the ingested rows.
-- The snapshot that 17339 books: the outputs the three milestones consume that were created
-- before 17339 (one of them at genesis, milestone 0), i.e. the ledger state the fixture knows.
CREATE TABLE ingest_test.snapshot AS
SELECT DISTINCT ON (output_id) output_id, block_id,
       permanode.encode_output(ingest_test.output_json(output)) AS output
FROM ingest_test.consumed WHERE booked < 17339;
SELECT count(*) AS snapshot_outputs, count(*) FILTER (WHERE output IS NOT NULL) AS encoded
FROM ingest_test.snapshot;

CREATE FUNCTION ingest_test.ingest(m int) RETURNS TABLE (milestone int, already_ingested boolean, messages int, outputs int, spent int)
LANGUAGE sql AS $$
    SELECT r.* FROM ingest_test.cone c,
        LATERAL permanode.ingest_milestone(c.milestone_index, c.milestone_timestamp, c.blocks, c.states, c.reasons,
            CASE WHEN m = 17339 THEN (SELECT array_agg((s.output_id, s.block_id, s.output)::permanode.snapshot_output ORDER BY s.output_id)
                                      FROM ingest_test.snapshot s) END) r
    WHERE c.milestone_index = m
$$;

