
-------------------------------------------------------------------------------------------------
-- One address across every era. An Ed25519 address kept its hash from Chrysalis to Stardust, so
-- its history is the outputs it received in both (legacy_outputs, basic_outputs, nft_outputs),
-- newest first, each with where it was spent; legacy funds reached it through receipts
-- (migrated_funds), which name the legacy bundle they came from.
-------------------------------------------------------------------------------------------------

-- A page of an address's history, newest first in the ledger's order (ms_range_id, ms_timestamp,
-- milestone_index, output_id, all descending), after the row the after_* columns give (NULL: from
-- the newest), within milestones from_milestone..to_milestone (NULL: unbounded). Each era's lookup
-- reads only page_size rows in its index order; the page is their merge. A Chrysalis output the
-- Stardust genesis booked again under its ID (carried_to_stardust_at) is spent in that era: its
-- Stardust row says where.
CREATE OR REPLACE FUNCTION @extschema@.address_history(
    address @extschema@.address, page_size int DEFAULT 100, after_range int DEFAULT NULL,
    after_time timestamptz DEFAULT NULL, after_milestone int DEFAULT NULL,
    after_output @extschema@.output_id DEFAULT NULL, from_milestone int DEFAULT NULL,
    to_milestone int DEFAULT NULL)
RETURNS TABLE (era text, output_id @extschema@.output_id, output_kind text, milestone_index int,
               ms_timestamp timestamptz, ms_range_id int, amount bigint,
               message_id @extschema@.block_id, spent_milestone_index int, spent_at timestamptz,
               spent_transaction_id @extschema@.transaction_id, carried_to_stardust_at int,
               migrated_tail @extschema@.trytes81, migrated_bundle @extschema@.trytes81,
               migrated_from @extschema@.trytes81[])
LANGUAGE plpgsql STABLE
-- The plan does not depend on the address: plan once per session (the ledger has many partitions).
SET plan_cache_mode = force_generic_plan
AS $$
#variable_conflict use_column
DECLARE
    k @extschema@.address := address_history.address;
    n int := address_history.page_size;
    r int := address_history.after_range;
    t timestamptz := address_history.after_time;
    m int := address_history.after_milestone;
    o @extschema@.output_id := address_history.after_output;
    lo int := coalesce(address_history.from_milestone, 0);
    hi int := coalesce(address_history.to_milestone, 2147483647);
BEGIN
    IF n IS NULL OR n < 1 THEN
        RAISE EXCEPTION 'page_size must be 1 or more, not %', n
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN QUERY
    WITH created AS (
        (SELECT 'chrysalis'::text AS era, c.output_id,
                CASE c.output_type WHEN 0 THEN 'sig_locked_single'
                                   ELSE 'sig_locked_dust_allowance' END AS output_kind,
                c.milestone_index, c.ms_timestamp, c.ms_range_id, c.amount, c.message_id
         FROM @extschema@.legacy_outputs_by_address c
         WHERE c.address = k AND NOT c.is_used AND c.milestone_index BETWEEN lo AND hi
           AND (r IS NULL OR (c.ms_range_id, c.ms_timestamp, c.milestone_index, c.output_id)
                             < (r, t, m, o))
         ORDER BY c.ms_range_id DESC, c.ms_timestamp DESC, c.milestone_index DESC,
                  c.output_id DESC
         LIMIT n)
        UNION ALL
        (SELECT 'stardust', c.output_id, 'basic', c.milestone_index, c.ms_timestamp,
                c.ms_range_id, c.amount, c.message_id
         FROM @extschema@.basic_outputs_by_address c
         WHERE c.address = k AND c.milestone_index BETWEEN lo AND hi
           AND (r IS NULL OR (c.ms_range_id, c.ms_timestamp, c.milestone_index, c.output_id)
                             < (r, t, m, o))
         ORDER BY c.ms_range_id DESC, c.ms_timestamp DESC, c.milestone_index DESC,
                  c.output_id DESC
         LIMIT n)
        UNION ALL
        (SELECT 'stardust', c.output_id, 'nft', c.milestone_index, c.ms_timestamp,
                c.ms_range_id, c.amount, c.message_id
         FROM @extschema@.nft_outputs_by_address c
         WHERE c.address = k AND c.milestone_index BETWEEN lo AND hi
           AND (r IS NULL OR (c.ms_range_id, c.ms_timestamp, c.milestone_index, c.output_id)
                             < (r, t, m, o))
         ORDER BY c.ms_range_id DESC, c.ms_timestamp DESC, c.milestone_index DESC,
                  c.output_id DESC
         LIMIT n)),
    page AS (
        SELECT * FROM created c
        ORDER BY c.ms_range_id DESC, c.ms_timestamp DESC, c.milestone_index DESC,
                 c.output_id DESC
        LIMIT n)
    SELECT p.era, p.output_id, p.output_kind, p.milestone_index, p.ms_timestamp, p.ms_range_id,
           p.amount, p.message_id, s.milestone_index, s.ms_timestamp, s.transaction_id,
           carried.milestone_index, mf.tail_transaction_hash, lt.bundle, la.addresses
    FROM page p
    LEFT JOIN LATERAL (
        SELECT s.milestone_index, s.ms_timestamp, s.transaction_id
        FROM @extschema@.spent_outputs s WHERE s.output_id = p.output_id
        ORDER BY s.milestone_index LIMIT 1) s0 ON true
    LEFT JOIN LATERAL (
        SELECT b.milestone_index FROM @extschema@.basic_outputs b
        WHERE p.era = 'chrysalis' AND b.output_id = p.output_id LIMIT 1) carried ON true
    -- A Chrysalis output carried into Stardust is spent there, by its Stardust row.
    LEFT JOIN LATERAL (SELECT s0.* WHERE carried.milestone_index IS NULL) s ON true
    LEFT JOIN @extschema@.migrated_funds mf
        ON p.era = 'chrysalis' AND mf.output_id = p.output_id
    LEFT JOIN LATERAL (
        SELECT x.bundle FROM legacy.transactions x
        WHERE x.month_id = (SELECT l.month_id FROM legacy.transaction_locator l
                            WHERE l.hash = mf.tail_transaction_hash)
          AND x.hash = mf.tail_transaction_hash) lt ON true
    LEFT JOIN LATERAL (
        SELECT array_agg(DISTINCT b.address ORDER BY b.address) AS addresses
        FROM legacy.bundles b
        WHERE lt.bundle IS NOT NULL AND b.bundle_hash = lt.bundle AND b.value < 0) la ON true
    ORDER BY p.ms_range_id DESC, p.ms_timestamp DESC, p.milestone_index DESC, p.output_id DESC;
END
$$;
COMMENT ON FUNCTION @extschema@.address_history(@extschema@.address, int, int, timestamptz, int,
                                                @extschema@.output_id, int, int) IS
    'an address''s outputs of every era, newest first, with where each was spent and, for funds migrated from the legacy network, the legacy bundle and addresses; a page after a cursor';

-- Where a legacy address's funds went by migration (TIP-17): the bundles it spent from whose tail
-- transaction a Chrysalis receipt names, with the Ed25519 address and the output credited.
CREATE OR REPLACE FUNCTION legacy.migrations_of(address @extschema@.trytes81)
RETURNS TABLE (bundle @extschema@.trytes81, tail_transaction_hash @extschema@.trytes81,
               output_id @extschema@.output_id, ed25519_address @extschema@.address,
               amount bigint, milestone_index int, ms_timestamp timestamptz)
LANGUAGE sql STABLE
BEGIN ATOMIC
    SELECT DISTINCT ON (c.milestone_index, c.output_id) e.bundle_hash, mf.tail_transaction_hash,
           c.output_id, c.address, c.amount, c.milestone_index, c.ms_timestamp
    FROM legacy.edges e
    JOIN legacy.bundles b ON b.bundle_hash = e.bundle_hash AND b.current_index = 0
    JOIN @extschema@.migrated_funds mf ON mf.tail_transaction_hash = b.transaction_hash
    JOIN @extschema@.legacy_outputs c ON c.output_id = mf.output_id AND NOT c.is_used
    WHERE e.address = migrations_of.address AND e.edge = 'address' AND e.value < 0
    ORDER BY c.milestone_index, c.output_id;
END;
COMMENT ON FUNCTION legacy.migrations_of(@extschema@.trytes81) IS
    'the migrations (TIP-17 receipts) of the bundles a legacy address spent from: the Ed25519 address and output each credited';
