
-------------------------------------------------------------------------------------------------
-- The span functions of retired_outputs (84_as_of.sql), which its span indexes index
-- (../schema/85_as_of_spans_indexes.sql), and the as-of functions that read them.
-------------------------------------------------------------------------------------------------
-- A retired output of a lookup key as a point: x = the key's hash (its top 27 bits) * 2^26 +
-- the milestone that created it, y = the milestone that spent it / 2^31 (below 1); both exact in
-- a float8. The key's outputs alive at N and created in [from_ms, to_ms] are the points in
-- span_box(key, N, from_ms, to_ms); by distance from span_newest(key, to_ms) they come newest
-- first, as x differs by whole milestones and y by less than 1.
CREATE OR REPLACE FUNCTION @extschema@.span_point(key int, created int, spent int) RETURNS point
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN point((key >> 5)::float8 * 67108864 + created, spent::float8 / 2147483648);
CREATE OR REPLACE FUNCTION @extschema@.span_box(key int, at int, from_ms int, to_ms int) RETURNS box
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN box(point((key >> 5)::float8 * 67108864 + from_ms, (at + 1)::float8 / 2147483648),
           point((key >> 5)::float8 * 67108864 + least(to_ms, at), 1));
CREATE OR REPLACE FUNCTION @extschema@.span_newest(key int, to_ms int) RETURNS point
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN point((key >> 5)::float8 * 67108864 + to_ms, 0);
COMMENT ON FUNCTION @extschema@.span_point(int, int, int) IS
    'a retired output of a lookup key (its hash) as a point of (created, spent) milestones, which a GiST index finds in span_box(key, N, from, to) (alive at N) newest first from span_newest(key, to)';

-- The outputs an address holds (the `address` column: owner, state controller, alias of a
-- foundry) at the end of milestone N, N's era only: the Chrysalis outputs before the Stardust
-- genesis, the Stardust outputs from it. Without N: the newest milestone held.
CREATE OR REPLACE FUNCTION @extschema@.outputs_at(address @extschema@.address, at int DEFAULT NULL)
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
      AND @extschema@.span_point(@extschema@.address_hash(r.address), r.milestone_index,
                                 r.spent_milestone_index)
          <@ @extschema@.span_box(@extschema@.address_hash(outputs_at.address), era.at, 0, era.at)
      AND r.address = outputs_at.address
      AND (r.output_kind = 'legacy') = era.chrysalis
$$;
COMMENT ON FUNCTION @extschema@.outputs_at(@extschema@.address, int) IS
    'the outputs an address holds at the end of milestone `at` (default: the newest held), of that milestone''s era; spent_milestone_index is NULL for outputs still unspent';

-- An address's balance at the end of milestone N, per output kind: total, the part without
-- unlock conditions beyond the address (sig-locked), and the outputs counted.
CREATE OR REPLACE FUNCTION @extschema@.balance_at(address @extschema@.address, at int DEFAULT NULL)
RETURNS TABLE (output_kind text, balance numeric, sig_locked_balance numeric, outputs bigint)
LANGUAGE sql STABLE AS $$
    SELECT o.output_kind, sum(o.amount), coalesce(sum(o.amount) FILTER (WHERE o.sig_locked), 0),
           count(*)
    FROM @extschema@.outputs_at(address, at) o
    GROUP BY o.output_kind ORDER BY o.output_kind
$$;
COMMENT ON FUNCTION @extschema@.balance_at(@extschema@.address, int) IS
    'an address''s balance at the end of milestone `at` (default: the newest held), per output kind';
