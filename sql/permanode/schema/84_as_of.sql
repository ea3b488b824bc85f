
-------------------------------------------------------------------------------------------------
-- The ledger as of any milestone N: the outputs unspent at the end of N are
--   the unspent set's outputs created at or before N, and
--   the retired outputs (once in the unspent set, now spent) alive at N: created <= N < spent.
-- The first part is the unspent set's own indexes, bounded by N's time. The second is a GiST
-- index per lookup key over one point per retired output: x is the key's hash above the
-- milestone that created the output, y the milestone that spent it. "Key K alive at N" is a box,
-- so one probe finds what is alive without reading the key's history before or after N, and the
-- distance from the box's corner orders those outputs newest first (KNN), so a page reads its
-- own rows only (hash collisions are removed by the key's own equality).
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
