-- The legacy era (#23): real ternary transactions of ../shared/fixtures/legacy ingested into the
-- month-partitioned tables of schema legacy, looked up through the hints, archived by month with
-- the same answers, bundles completed across batches, tags expired by month.
\set VERBOSITY terse
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS permanode CASCADE;
DROP EXTENSION IF EXISTS permanode_fdw CASCADE;
DROP SCHEMA IF EXISTS legacy_test CASCADE;
CREATE EXTENSION permanode CASCADE;
RESET client_min_messages;
SET search_path = public, permanode;
SELECT init('iota') AS hrp;

-- Every fixture transaction (a transaction may be in two files), with its file's bundle facts.
\getenv fixtures PERMANODE_FIXTURES
CREATE SCHEMA legacy_test;
CREATE TABLE legacy_test.files (name text, doc jsonb);
INSERT INTO legacy_test.files
SELECT f, pg_read_file(:'fixtures' || '/../legacy/' || f)::jsonb
FROM unnest(ARRAY['iotajs-samples-bundle.json', 'iotago-samples-bundle.json',
                  'iri-BundleValidatorTest.json', 'iri-APIIntegrationTests.json',
                  'cryptors-curlp-input_8019_output_243.json', 'hornet-migrator-validator_test.json',
                  'iotaphp-TransactionTest-test1.json']) f;
CREATE TABLE legacy_test.txs AS
SELECT DISTINCT ON (t->>'hash') t->>'hash' AS hash, t->>'trytes' AS trytes, f.name AS file
FROM legacy_test.files f, jsonb_array_elements(f.doc->'transactions') t
ORDER BY t->>'hash', f.name;
SELECT count(*) AS fixture_transactions FROM legacy_test.txs;
-- The test network's milestones carry their index in the obsolete tag (A, B, C: 1, 2, 3); the
-- Coordinator is their address.
CREATE TABLE legacy_test.decoded AS
SELECT x.hash::text AS hash, d.obsolete_tag::text AS obsolete_tag, d.address::text AS address,
       d.value, d.current_index, d.last_index, d.bundle::text AS bundle
FROM legacy_test.txs x, legacy.decode_transactions(ARRAY[legacy.t5b1(x.trytes)]) d;
SELECT legacy.configure(coordinator => 'GLPBYFMNEWRJP9BP9NQHMSOWXGHPCSFQLQLZQBAGKBUZAIXLVQWHLZQBHTGCKMQCXPYWTMPSCXRNXVSHW');
SELECT count(*) AS coordinator_transactions FROM legacy_test.decoded
WHERE address = 'GLPBYFMNEWRJP9BP9NQHMSOWXGHPCSFQLQLZQBAGKBUZAIXLVQWHLZQBHTGCKMQCXPYWTMPSCXRNXVSHW';
CREATE FUNCTION legacy_test.milestone_of(hash text) RETURNS int LANGUAGE sql AS $$
    SELECT CASE WHEN x.file LIKE 'hornet%' THEN
                coalesce(nullif(position(left(d.obsolete_tag, 1) IN 'ABC'), 0), 3) END
    FROM legacy_test.txs x JOIN legacy_test.decoded d USING (hash) WHERE x.hash = $1
$$;

-- The first batch leaves out indexes 3 and 6 of the valid 9-transaction bundle BJVQHA...
CREATE TABLE legacy_test.held_back AS
SELECT hash FROM legacy_test.decoded WHERE bundle LIKE 'BJVQHA%' AND current_index IN (3, 6);
-- ... and the zero-value transaction of March 2018 of the iota.js and iota.go samples: it comes
-- after its month is archived.
CREATE TABLE legacy_test.late AS
SELECT x.hash FROM legacy_test.txs x JOIN legacy_test.decoded d USING (hash)
WHERE x.file LIKE 'iotago%' AND d.last_index = 0;
SELECT legacy.ingest(array_agg(legacy.t5b1(trytes) ORDER BY hash), array_agg(hash::trytes81 ORDER BY hash),
                     array_agg(coalesce(legacy_test.milestone_of(hash), 0) ORDER BY hash)) AS new_transactions
FROM legacy_test.txs WHERE hash NOT IN (SELECT hash FROM legacy_test.held_back UNION ALL SELECT hash FROM legacy_test.late);
SELECT left(bundle_hash::text, 6) AS bundle, last_index, held, missing
FROM legacy.incomplete_bundles WHERE bundle_hash::text LIKE 'BJVQHA%';
-- The rest: the bundle completes; every batch again is a no-op.
SELECT legacy.ingest(array_agg(legacy.t5b1(trytes)), array_agg(hash::trytes81), array_agg(0)) AS new_transactions
FROM legacy_test.txs WHERE hash IN (SELECT hash FROM legacy_test.held_back);
SELECT complete, present FROM legacy.bundle_state WHERE bundle_hash::text LIKE 'BJVQHA%';
SELECT legacy.ingest(array_agg(legacy.t5b1(trytes)), array_agg(hash::trytes81), array_agg(0)) AS again
FROM legacy_test.txs WHERE hash NOT IN (SELECT hash FROM legacy_test.late);

-- Completeness agrees with the fixtures' own count of the indexes present, for every bundle
-- whose transactions agree on the last index.
SELECT count(*) AS bundles_checked,
       count(*) FILTER (WHERE s.complete IS DISTINCT FROM (b->>'distinct_indexes_present')::int = (b->>'lastIndex')::int + 1) AS disagreeing
FROM legacy_test.files f, jsonb_array_elements(f.doc->'bundles') b
JOIN legacy.bundle_state s ON s.bundle_hash::text = b->>'bundle' AND s.last_index = (b->>'lastIndex')::int
WHERE (SELECT count(DISTINCT d.last_index) FROM legacy_test.decoded d WHERE d.bundle = b->>'bundle') = 1;

-- Stored as t5b1 (1604 bytes), served back as the same trytes, byte-exact; every hash checked.
SELECT count(*) AS stored, count(*) FILTER (WHERE octet_length(t.t5b1) = 1604) AS of_1604_bytes,
       count(*) FILTER (WHERE legacy.trytes(t.t5b1) = x.trytes) AS byte_exact
FROM legacy.transactions t JOIN legacy_test.txs x ON x.hash = t.hash::text;
SELECT count(*) AS partitions_per_table, min(month_id) = legacy.month_id(2017, 9) AS from_2017_09
FROM legacy.partitions WHERE table_name = 'legacy.transactions'::regclass;
SELECT legacy.partition_name('transactions', legacy.month_id(2018, 3)) AS partition_name;

-- The fields, as iota.js reads them (the value bundles of March 2018: the iota.js sample's, and
-- iota.go's unattached one).
SELECT left(bundle::text, 9) AS bundle, current_index, last_index, value,
       left(address::text, 9) AS address, obsolete_tag, "timestamp", attachment_timestamp,
       old_layout, issued_at
FROM legacy.transactions WHERE month_id = legacy.month_id(2018, 3) AND bundle IN
    (SELECT bundle FROM legacy.transactions WHERE month_id = legacy.month_id(2018, 3) AND value <> 0)
ORDER BY bundle, current_index;
-- The old layout (2017): the old nonce, no attachment timestamp.
SELECT old_layout, length(nonce) AS nonce_trytes, attachment_timestamp, issued_at
FROM legacy.transactions WHERE month_id = legacy.month_id(2017, 9);

-- Milestones of the Coordinator, found at ingest.
SELECT milestone_index, left(hash::text, 10) AS hash, issued_at FROM legacy.milestones ORDER BY 1;
SELECT count(*) FILTER (WHERE milestone_index IS NOT NULL) AS confirmed, count(*) AS transactions
FROM legacy.transactions;

-- Lookups: by bundle in index order; by address (value moves), newest first; by approvee; by
-- tag and area code; zero-value by address, year and month.
SELECT current_index, label, value, left(transaction_hash::text, 9) AS tx
FROM legacy.bundles WHERE bundle_hash = 'BJVQHAHPDFGNEELCFLIEXWWKZXLPUZQMDXFGKKOGPDEGJDALESJZFVKIIRJSGKXDNWJOQBRIUEBTGACG9'
ORDER BY month_id, current_index, transaction_hash;
SELECT left(head_hash::text, 9) AS head FROM legacy.bundle_heads
WHERE bundle_hash = 'BJVQHAHPDFGNEELCFLIEXWWKZXLPUZQMDXFGKKOGPDEGJDALESJZFVKIIRJSGKXDNWJOQBRIUEBTGACG9';
SELECT left(transaction_hash::text, 9) AS tx, value, issued_at FROM legacy.edges
WHERE address = (SELECT address FROM legacy.transactions WHERE bundle::text LIKE 'BJVQHA%' AND value < 0)
ORDER BY month_id DESC, issued_at DESC, transaction_hash DESC LIMIT 5;
SELECT count(*) AS approvers FROM legacy.edges
WHERE approvee = (SELECT trunk FROM legacy.transactions WHERE bundle::text LIKE 'BJVQHA%' AND current_index = 8);
SELECT count(*) AS tagged, count(DISTINCT month_id) AS months FROM legacy.tags WHERE tag = 'MINEIOTADOTCOM9999999999999';
SELECT count(*) AS by_area FROM legacy.tags WHERE iac4 = 'POWS';
SELECT count(*) AS zero_value_in_month FROM legacy.zero_value_of(
    (SELECT address FROM legacy.zero_value ORDER BY issued_at LIMIT 1), 2017, 9);
-- An address may be given with its checksum (checked; @iota/checksum computed this one).
SELECT count(*) AS with_checksum FROM legacy.edges
WHERE address = 'JNLHUUVAOEPWOQQQMXXHFBSYZLGOUGXMGLFBGMHOLXQGDERVVPWHYDRPZCESCEXUMSO9RHVFZFDAUMKTWUTCL9RQEA';

-- Plan facts: a keyed lookup reads only the months the hints name.
CREATE FUNCTION legacy_test.plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || query LOOP
        IF line ~ 'Range Scan|Ranges Hinted|Partitions Read|Read:|Index' THEN
            RETURN NEXT regexp_replace(line, 'actual rows=\d+ loops=\d+', 'actual');
        END IF;
    END LOOP;
END
$$;
SELECT legacy_test.plan($$SELECT hash FROM legacy.transactions
    WHERE hash = 'BHQBTEWALYPSZGQNQYCGQSPYMOPHUKELCBTAKNTJNVHFESWS9WIZAZGCDCHGO9NTUXLTZPPLTJWGA9999'$$);
SELECT legacy_test.plan($$SELECT * FROM legacy.edges
    WHERE address = 'JNLHUUVAOEPWOQQQMXXHFBSYZLGOUGXMGLFBGMHOLXQGDERVVPWHYDRPZCESCEXUMSO9RHVFZFDAUMKTW'
    ORDER BY month_id DESC, issued_at DESC, transaction_hash DESC LIMIT 10$$);

-- Balances: the snapshot plus what confirmed transactions moved (the migration bundles of the
-- test network spend their inputs at milestone 3).
SELECT legacy.load_snapshot(ARRAY[(SELECT address FROM legacy.transactions WHERE value < 0 AND milestone_index = 3 ORDER BY hash LIMIT 1)],
                            ARRAY[(SELECT -value FROM legacy.transactions WHERE value < 0 AND milestone_index = 3 ORDER BY hash LIMIT 1)]) AS snapshot_entries;
SELECT legacy.balance(address, 2) > 0 AS funded_at_2, legacy.balance(address, 3) AS at_3,
       legacy.balance(address) AS now, legacy.was_spent_from(address) AS spent_from
FROM legacy.transactions WHERE value < 0 AND milestone_index = 3 ORDER BY hash LIMIT 1;

-- The cold tier: the months before 2020 archived, the same answers, plans read the archives.
CREATE TABLE legacy_test.answers AS
SELECT 'transactions' AS q, count(*) AS n, md5(string_agg(hash::text || legacy.trytes(t5b1), ',' ORDER BY hash)) AS digest FROM legacy.transactions
UNION ALL SELECT 'bundles', count(*), md5(string_agg(bundle_hash::text || current_index || transaction_hash::text, ',' ORDER BY bundle_hash, current_index, transaction_hash)) FROM legacy.bundles
UNION ALL SELECT 'edges', count(*), md5(string_agg(transaction_hash::text || edge, ',' ORDER BY transaction_hash, edge)) FROM legacy.edges
UNION ALL SELECT 'tags', count(*), md5(string_agg(transaction_hash::text, ',' ORDER BY transaction_hash)) FROM legacy.tags
UNION ALL SELECT 'zero_value', count(*), md5(string_agg(transaction_hash::text, ',' ORDER BY transaction_hash)) FROM legacy.zero_value;
SELECT table_name, count(*) AS archives, sum(rows) AS rows FROM legacy.archive(0, legacy.month_id(2020, 1))
GROUP BY 1 ORDER BY 1;
SELECT tier, count(*) AS months_or_archives FROM legacy.status GROUP BY 1 ORDER BY 1;
SELECT a.q, a.n = b.n AND a.digest = b.digest AS same
FROM legacy_test.answers a JOIN (
    SELECT 'transactions' AS q, count(*) AS n, md5(string_agg(hash::text || legacy.trytes(t5b1), ',' ORDER BY hash)) AS digest FROM legacy.transactions
    UNION ALL SELECT 'bundles', count(*), md5(string_agg(bundle_hash::text || current_index || transaction_hash::text, ',' ORDER BY bundle_hash, current_index, transaction_hash)) FROM legacy.bundles
    UNION ALL SELECT 'edges', count(*), md5(string_agg(transaction_hash::text || edge, ',' ORDER BY transaction_hash, edge)) FROM legacy.edges
    UNION ALL SELECT 'tags', count(*), md5(string_agg(transaction_hash::text, ',' ORDER BY transaction_hash)) FROM legacy.tags
    UNION ALL SELECT 'zero_value', count(*), md5(string_agg(transaction_hash::text, ',' ORDER BY transaction_hash)) FROM legacy.zero_value) b USING (q)
ORDER BY 1;
SELECT legacy_test.plan($$SELECT hash FROM legacy.transactions
    WHERE hash = 'BHQBTEWALYPSZGQNQYCGQSPYMOPHUKELCBTAKNTJNVHFESWS9WIZAZGCDCHGO9NTUXLTZPPLTJWGA9999'$$);
SELECT current_index, left(transaction_hash::text, 9) AS tx
FROM legacy.bundles WHERE bundle_hash = 'BJVQHAHPDFGNEELCFLIEXWWKZXLPUZQMDXFGKKOGPDEGJDALESJZFVKIIRJSGKXDNWJOQBRIUEBTGACG9'
ORDER BY month_id, current_index, transaction_hash;
-- Ingest into an archived month: held transactions are skipped; a new one (March 2018) is
-- refused, the whole batch with it, until its month is restored.
SELECT legacy.ingest(array_agg(legacy.t5b1(trytes)), array_agg(hash::trytes81), array_agg(0)) AS again
FROM legacy_test.txs WHERE hash NOT IN (SELECT hash FROM legacy_test.late);
SELECT legacy.ingest(array_agg(legacy.t5b1(trytes)), array_agg(hash::trytes81), array_agg(0)) AS with_late
FROM legacy_test.txs;
SELECT count(*) AS transactions_archived_and_hot FROM legacy.transactions;
SELECT count(*) AS restored_archives FROM legacy.restore(0, legacy.month_id(2020, 1));
SELECT tier, count(*) FROM legacy.status GROUP BY 1 ORDER BY 1;
SELECT legacy.ingest(array_agg(legacy.t5b1(trytes)), array_agg(hash::trytes81), array_agg(0)) AS late_after_restore
FROM legacy_test.txs;

-- The era's analytics, kept by ingest (each new transaction counted once, through the batches,
-- the ones sent again and the late one): per day and per milestone they equal the aggregates
-- over the transactions held; the address counts are rolled up for the days that moved value.
CREATE VIEW legacy_test.days AS
SELECT (issued_at AT TIME ZONE 'UTC')::date AS date, count(*) AS transactions,
       count(*) FILTER (WHERE value <> 0) AS value_transactions,
       coalesce(sum(value) FILTER (WHERE value > 0), 0) AS tokens,
       count(DISTINCT address) FILTER (WHERE value <> 0) AS total_addresses,
       count(DISTINCT address) FILTER (WHERE value < 0) AS send_addresses,
       count(DISTINCT address) FILTER (WHERE value > 0) AS recv_addresses
FROM legacy.transactions GROUP BY 1;
SELECT count(*) AS days, count(*) FILTER (WHERE NOT rolled_up) AS to_roll_up,
       count(*) FILTER (WHERE (a.transactions, a.value_transactions, a.tokens)
                              IS DISTINCT FROM (d.transactions, d.value_transactions, d.tokens)) AS differing,
       sum(a.milestones) AS milestones,
       count(*) FILTER (WHERE a.milestones <> (SELECT count(*) FROM legacy.milestones m
                                              WHERE (m.issued_at AT TIME ZONE 'UTC')::date = a.date)) AS differing_milestones
FROM legacy.daily_analytics a FULL JOIN legacy_test.days d USING (date);
SELECT legacy.rollup_daily_analytics() AS days_rolled_up, legacy.rollup_daily_analytics() AS again;
SELECT count(*) FILTER (WHERE (a.total_addresses, a.send_addresses, a.recv_addresses)
                              IS DISTINCT FROM (d.total_addresses, d.send_addresses, d.recv_addresses)) AS differing,
       sum(a.total_addresses) AS active_addresses, sum(a.send_addresses) AS sending
FROM legacy.daily_analytics a FULL JOIN legacy_test.days d USING (date);
SELECT date, milestones, transactions, value_transactions, tokens, total_addresses, send_addresses, recv_addresses
FROM legacy.daily_analytics WHERE value_transactions > 0 OR milestones > 0 ORDER BY date;
SELECT count(*) AS milestones,
       count(*) FILTER (WHERE (a.transactions, a.value_transactions, a.tokens)
                              IS DISTINCT FROM (m.transactions, m.value_transactions, m.tokens)) AS differing
FROM legacy.milestone_analytics a FULL JOIN (
    SELECT milestone_index, count(*) AS transactions, count(*) FILTER (WHERE value <> 0) AS value_transactions,
           coalesce(sum(value) FILTER (WHERE value > 0), 0) AS tokens
    FROM legacy.transactions WHERE milestone_index IS NOT NULL GROUP BY 1) m USING (milestone_index);
SELECT * FROM legacy.milestone_analytics ORDER BY milestone_index;

-- Tags expire by month (ledger time): with a TTL of 12 months, counted back from the newest
-- month held (2021-02), the tags' months before 2020-03 go, partitions and hints.
SELECT legacy.configure(tag_ttl => interval '12 months');
SELECT legacy.expire_tags() AS months_dropped;
SELECT min(month_id) = legacy.month_id(2020, 8) AS oldest_tags_2020_08, count(*) AS tag_months
FROM legacy.partitions WHERE table_name = 'legacy.tags'::regclass;
SELECT count(*) AS stale_tag_hints FROM legacy.tag_hints WHERE month_id < legacy.month_id(2020, 3);
SELECT count(*) AS transactions_kept FROM legacy.transactions;

-- The maintenance job applies the legacy archiving policy: months older than the newest (2021-02)
-- minus 6 go cold, the tags' months past their TTL go.
INSERT INTO settings VALUES ('legacy_archive_older_than', '6');
SELECT task, done FROM maintain() WHERE task LIKE '%legacy%';
SELECT legacy.month_name(from_month) AS from_month,
       legacy.month_name(to_month - 1) AS to_month, tier, rows
FROM legacy.status WHERE table_name = 'legacy.transactions'::regclass ORDER BY 1;
DELETE FROM settings WHERE key = 'legacy_archive_older_than';

-- Verification (#24): every stored transaction hashes (Curl-P-81) and decodes to what is stored,
-- hot and archived months alike. A stored column changed is found, by hash, hot and then
-- archived; a stored trit changed breaks the hash.
SELECT count(*) AS mismatches FROM legacy.verify();
SELECT t.hash AS vhash, t.month_id AS vmonth FROM legacy.transactions t
JOIN legacy.partitions p ON p.table_name = 'legacy.transactions'::regclass
                        AND p.month_id = t.month_id AND p.tier = 'hot'
ORDER BY t.hash LIMIT 1 \gset
UPDATE legacy.transactions SET timestamp = timestamp + 1 WHERE month_id = :vmonth AND hash = :'vhash';
SELECT table_name, month_id = :vmonth AS its_month, key = :'vhash' AS its_hash, problem
FROM legacy.verify();
SELECT count(*) > 0 AS archived FROM legacy.archive(:vmonth, :vmonth + 1);
SELECT tier FROM legacy.status
WHERE table_name = 'legacy.transactions'::regclass AND :vmonth >= from_month AND :vmonth < to_month;
SELECT table_name, month_id = :vmonth AS its_month, key = :'vhash' AS its_hash, problem
FROM legacy.verify();
SELECT count(*) > 0 AS restored FROM legacy.restore(:vmonth, :vmonth + 1);
UPDATE legacy.transactions SET timestamp = timestamp - 1,
       t5b1 = overlay(t5b1 placing '\x00'::bytea from 200 for 1)
WHERE month_id = :vmonth AND hash = :'vhash';
SELECT table_name, month_id = :vmonth AS its_month, key = :'vhash' AS its_hash,
       left(problem, 57) AS problem
FROM legacy.verify();
UPDATE legacy.transactions t SET t5b1 = legacy.t5b1(x.trytes)
FROM legacy_test.txs x WHERE x.hash = t.hash::text AND t.month_id = :vmonth AND t.hash = :'vhash';
SELECT count(*) AS mismatches_after_repair FROM legacy.verify();

-- Bad input: an SQLSTATE and a message naming the problem; nothing written.
SELECT 'KHSVVAHUTDAPLOUSOXLEHEDIKXBGWGJKVPXVLOQRGICCTVJIYXDCHSIDWJXYGIMADBPLQBOOBTHAQWQL'::trytes81;
SELECT 'KHSVVAHUTDAPLOUSOXLEHEDIKXBGWGJKVPXVLOQRGICCTVJIYXDCHSIDWJXYGIMADBPLQBOOBTHAQWQLw'::trytes81;
SELECT 'JNLHUUVAOEPWOQQQMXXHFBSYZLGOUGXMGLFBGMHOLXQGDERVVPWHYDRPZCESCEXUMSO9RHVFZFDAUMKTWUTCL9RQEB'::trytes81;
-- (with its context: the first line names the transaction by its position in the batch, which
-- permanode import-dmp reads to name its file and line)
\set VERBOSITY default
SELECT legacy.ingest(ARRAY[legacy.t5b1(trytes)],
                     ARRAY['999999999999999999999999999999999999999999999999999999999999999999999999999999999'::trytes81],
                     '{0}') FROM legacy_test.txs ORDER BY hash LIMIT 1;
\set VERBOSITY terse
SELECT legacy.ingest(ARRAY['\x00'::bytea], ARRAY[hash::trytes81], '{0}') FROM legacy_test.txs ORDER BY hash LIMIT 1;
SELECT legacy.ingest(ARRAY[legacy.t5b1(trytes)], ARRAY[hash::trytes81], '{0,1}') FROM legacy_test.txs ORDER BY hash LIMIT 1;
SELECT count(*) FROM legacy.decode_transactions('{}', NULL, 'newest');
SELECT legacy.t5b1('ABC');
SELECT legacy.create_partition('nothing', 600);
SELECT count(*) AS transactions_still FROM legacy.transactions;

DROP SCHEMA legacy_test CASCADE;
