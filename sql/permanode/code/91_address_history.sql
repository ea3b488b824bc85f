
-------------------------------------------------------------------------------------------------
-- One address across every era. An Ed25519 address kept its hash from Chrysalis to Stardust, so
-- its history is the outputs it received in both (legacy_outputs, basic_outputs, nft_outputs),
-- newest first, each with where it was spent; legacy funds reached it through receipts
-- (migrated_funds), which name the legacy bundle they came from.
-------------------------------------------------------------------------------------------------

-- Where an output of an address's history was spent, from the hot tables, so that an archived
-- range costs its lookup's read only: the retired set (spent after the milestone that made it),
-- else the unspent set (not spent), else spent by the milestone that made it. A Chrysalis output
-- the Stardust genesis booked again under its ID (retired at the genesis, a Stardust milestone)
-- is carried_to_stardust_at it. Funds migrated from the legacy network: the receipt's tail
-- transaction, its bundle and the legacy addresses it spent. (One SELECT: inlined into the
-- caller's plan.)
CREATE OR REPLACE FUNCTION @extschema@.history_item(item_era text, item_retired_kind text,
                                                    item_output @extschema@.output_id,
                                                    item_milestone int)
RETURNS TABLE (spent_milestone_index int, carried_to_stardust_at int,
               migrated_tail @extschema@.trytes81, migrated_bundle @extschema@.trytes81,
               migrated_from @extschema@.trytes81[])
LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN NOT c.carried THEN s.spent_at END, CASE WHEN c.carried THEN s.spent_at END,
           mf.tail_transaction_hash, lt.bundle, la.addresses
    FROM (SELECT coalesce(
              (SELECT x.spent_milestone_index FROM @extschema@.retired_outputs x
               WHERE x.output_id OPERATOR(@extschema@.=) item_output
                 AND x.output_kind = item_retired_kind),
              CASE WHEN EXISTS (SELECT 1 FROM @extschema@.unspent_outputs u
                                WHERE u.output_id OPERATOR(@extschema@.=) item_output
                                  AND (u.output_kind = 'legacy') = (item_era = 'chrysalis'))
                   THEN NULL ELSE item_milestone END) AS spent_at) s
    CROSS JOIN LATERAL (SELECT item_era = 'chrysalis' AND s.spent_at IS NOT NULL
                               AND @extschema@.protocol_at(s.spent_at) = 2 AS carried) c
    LEFT JOIN @extschema@.migrated_funds mf
        ON item_era = 'chrysalis' AND mf.output_id OPERATOR(@extschema@.=) item_output
    -- (LIMIT keeps it a lookup per row: joined otherwise, every month would be read.)
    LEFT JOIN LATERAL (
        SELECT x.bundle FROM legacy.transactions x
        WHERE x.month_id = (SELECT l.month_id FROM legacy.transaction_locator l
                            WHERE l.hash OPERATOR(@extschema@.=) mf.tail_transaction_hash)
          AND x.hash OPERATOR(@extschema@.=) mf.tail_transaction_hash LIMIT 1) lt ON true
    LEFT JOIN LATERAL (
        SELECT array_agg(DISTINCT b.address ORDER BY b.address) AS addresses
        FROM legacy.bundles b
        WHERE lt.bundle IS NOT NULL AND b.bundle_hash OPERATOR(@extschema@.=) lt.bundle
          AND b.value < 0) la ON true
$$;

-- A page of an address's history, newest first in the ledger's order (ms_range_id, ms_timestamp,
-- milestone_index, output_id, all descending), after the row the after_* columns give (NULL: from
-- the newest), within milestones from_milestone..to_milestone (NULL: unbounded). Each era's lookup
-- reads only page_size rows in its index order; the page is their merge, each row with where it
-- was spent (history_item). A Chrysalis output carried into Stardust: its Stardust row says where
-- it was spent.
CREATE OR REPLACE FUNCTION @extschema@.address_history(
    address @extschema@.address, page_size int DEFAULT 100, after_range int DEFAULT NULL,
    after_time timestamptz DEFAULT NULL, after_milestone int DEFAULT NULL,
    after_output @extschema@.output_id DEFAULT NULL, from_milestone int DEFAULT NULL,
    to_milestone int DEFAULT NULL)
RETURNS TABLE (era text, output_id @extschema@.output_id, output_kind text, milestone_index int,
               ms_timestamp timestamptz, ms_range_id int, amount bigint,
               message_id @extschema@.block_id, spent_milestone_index int,
               carried_to_stardust_at int, migrated_tail @extschema@.trytes81,
               migrated_bundle @extschema@.trytes81, migrated_from @extschema@.trytes81[])
LANGUAGE plpgsql STABLE
-- The plan does not depend on the address: plan once per session (the ledger has many partitions).
-- The extension's operators are found whatever the caller's search path.
SET plan_cache_mode = force_generic_plan
SET search_path = @extschema@, pg_catalog
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
    -- The cursor's range bounds the ranges read (a lookup skips the newer ranges it names).
    top int := coalesce(address_history.after_range, 2147483647);
BEGIN
    IF n IS NULL OR n < 1 THEN
        RAISE EXCEPTION 'page_size must be 1 or more, not %', n
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN QUERY
    -- Stardust's page first: when it fills the page, a Chrysalis row can only belong to it from
    -- the page's oldest range on, so the Chrysalis lookup reads no older range (where an era
    -- follows the other, none).
    WITH stardust AS MATERIALIZED (
        SELECT * FROM (
            (SELECT 'stardust'::text AS era, c.output_id, 'basic'::text AS retired_kind,
                    'basic'::text AS output_kind, c.milestone_index, c.ms_timestamp,
                    c.ms_range_id, c.amount, c.message_id
             FROM @extschema@.basic_outputs_by_address c
             WHERE c.address = k AND c.milestone_index BETWEEN lo AND hi
               AND c.ms_range_id <= top
               AND (r IS NULL OR (c.ms_range_id, c.ms_timestamp, c.milestone_index, c.output_id)
                                 < (r, t, m, o))
             ORDER BY c.ms_range_id DESC, c.ms_timestamp DESC, c.milestone_index DESC,
                      c.output_id DESC
             LIMIT n)
            UNION ALL
            (SELECT 'stardust', c.output_id, 'nft', 'nft', c.milestone_index, c.ms_timestamp,
                    c.ms_range_id, c.amount, c.message_id
             FROM @extschema@.nft_outputs_by_address c
             WHERE c.address = k AND c.milestone_index BETWEEN lo AND hi
               AND c.ms_range_id <= top
               -- (the cursor's milestone, on the index's columns: where its read starts)
               AND (r IS NULL OR (c.ms_range_id, c.ms_timestamp, c.milestone_index) <= (r, t, m))
               AND (r IS NULL OR (c.ms_range_id, c.ms_timestamp, c.milestone_index, c.output_id)
                                 < (r, t, m, o))
             -- Its index orders a milestone's rows by NFT ID, not output ID: read in the
             -- index's order, with the whole last milestone, and the page's sort orders them
             -- (ordered by output ID here, every row of the address would be read and sorted).
             ORDER BY c.ms_range_id DESC, c.ms_timestamp DESC, c.milestone_index DESC
             FETCH FIRST n ROWS WITH TIES)) s
        ORDER BY s.ms_range_id DESC, s.ms_timestamp DESC, s.milestone_index DESC,
                 s.output_id DESC
        LIMIT n),
    chrysalis AS (
        SELECT 'chrysalis'::text AS era, c.output_id, 'legacy'::text AS retired_kind,
               CASE c.output_type WHEN 0 THEN 'sig_locked_single'
                                  ELSE 'sig_locked_dust_allowance' END AS output_kind,
               c.milestone_index, c.ms_timestamp, c.ms_range_id, c.amount, c.message_id
        FROM @extschema@.legacy_outputs_by_address c
        WHERE c.address = k AND NOT c.is_used AND c.milestone_index BETWEEN lo AND hi
          AND c.ms_range_id <= top
          AND c.ms_range_id >= (SELECT CASE WHEN count(*) = n THEN min(s.ms_range_id) ELSE -1 END
                                FROM stardust s)
          AND (r IS NULL OR (c.ms_range_id, c.ms_timestamp, c.milestone_index, c.output_id)
                            < (r, t, m, o))
        ORDER BY c.ms_range_id DESC, c.ms_timestamp DESC, c.milestone_index DESC,
                 c.output_id DESC
        LIMIT n),
    page AS (
        SELECT * FROM (SELECT * FROM stardust UNION ALL SELECT * FROM chrysalis) c
        ORDER BY c.ms_range_id DESC, c.ms_timestamp DESC, c.milestone_index DESC,
                 c.output_id DESC
        LIMIT n)
    SELECT p.era, p.output_id, p.output_kind, p.milestone_index, p.ms_timestamp, p.ms_range_id,
           p.amount, p.message_id, d.*
    FROM page p
    CROSS JOIN LATERAL @extschema@.history_item(p.era, p.retired_kind, p.output_id,
                                                p.milestone_index) d
    ORDER BY p.ms_range_id DESC, p.ms_timestamp DESC, p.milestone_index DESC, p.output_id DESC;
END
$$;
COMMENT ON FUNCTION @extschema@.address_history(@extschema@.address, int, int, timestamptz, int,
                                                @extschema@.output_id, int, int) IS
    'an address''s outputs of every era, newest first, with the milestone that spent each (or carried it into Stardust) and, for funds migrated from the legacy network, the legacy bundle and addresses; a page after a cursor';

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
