-- Identifier and address types: canonical text in and out, binary compactness, errors, indexes.
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS permanode CASCADE;
DROP EXTENSION IF EXISTS permanode_fdw CASCADE;
CREATE EXTENSION permanode CASCADE;
RESET client_min_messages;
SET search_path = public, permanode;
SET permanode.bech32_hrp = 'smr';

-- Round trips through text; upper-case hex is accepted and printed in lower case.
SELECT '0x0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20'::block_id AS block_id,
       '0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF'::transaction_id AS transaction_id;
SELECT '0x03ea6c370ebc0f0c36f4431d2f51d6ea84891658a70876946627dd20ad726ee00000'::output_id AS output_id;
SELECT '0x08cc960747650fc2282535432ef4837ef86843dea0b4182d8e0808ef516bd9a7760100000001'::foundry_id AS foundry_id;

-- Stored compactly: the bytes, not the text.
SELECT pg_column_size('0x0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20'::hash32) AS hash32_bytes,
       pg_column_size('0x03ea6c370ebc0f0c36f4431d2f51d6ea84891658a70876946627dd20ad726ee00000'::output_id) AS output_id_bytes,
       pg_column_size('smr1qrxfvp68v58uy2p9x4pjaayr0muxss775z6pstvwpqyw75ttmxnhvz0054z'::address) AS address_bytes;

-- Addresses: bech32 with the database's HRP; the 0x form of the 33 bytes is accepted too.
SELECT 'smr1qrxfvp68v58uy2p9x4pjaayr0muxss775z6pstvwpqyw75ttmxnhvz0054z'::address AS ed25519,
       '0x00cc960747650fc2282535432ef4837ef86843dea0b4182d8e0808ef516bd9a776'::address AS from_hex;
SELECT '0x08cc960747650fc2282535432ef4837ef86843dea0b4182d8e0808ef516bd9a776'::address AS alias_address,
       '0x10cc960747650fc2282535432ef4837ef86843dea0b4182d8e0808ef516bd9a776'::address AS nft_address;
SET permanode.bech32_hrp = 'iota';
SELECT '0x00cc960747650fc2282535432ef4837ef86843dea0b4182d8e0808ef516bd9a776'::address AS on_iota;
RESET permanode.bech32_hrp;

-- Bad input: SQLSTATE 22P02 and a message that names the problem.
\set VERBOSITY default
SELECT '0x0102'::block_id;
SELECT '0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20'::block_id;
SELECT '0x0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1fzz'::hash32;
SELECT 'smr1qrxfvp68v58uy2p9x4pjaayr0muxss775z6pstvwpqyw75ttmxnhvz0054y'::address;
SELECT 'iota1qrxfvp68v58uy2p9x4pjaayr0muxss775z6pstvwpqyw75ttmxnhv4lk5rn'::address;
SELECT 'smr1QRXFVP68V58UY2P9X4PJAAYR0MUXSS775Z6PSTVWPQYW75TTMXNHVZ0054z'::address;
SELECT 'smr1qqqqqqqq'::address;
SET permanode.bech32_hrp = 'xyz';
\set VERBOSITY sqlstate
SELECT '0x0102'::output_id;
SELECT 'smr1qqqqqqqq'::address;
\set VERBOSITY default

-- Ordering is byte order; btree and hash indexes work, and equality uses them.
CREATE TEMP TABLE ids AS
SELECT ('0x' || lpad(to_hex(g), 64, '0'))::block_id AS id, g FROM generate_series(1, 2000) g;
CREATE INDEX ON ids (id);
CREATE INDEX ids_hash ON ids USING hash (id);
ANALYZE ids;
SELECT g FROM ids WHERE id = '0x00000000000000000000000000000000000000000000000000000000000007d0';
SELECT min(id) AS smallest, max(id) AS largest FROM ids;
SELECT count(*) FROM ids WHERE id < '0x0000000000000000000000000000000000000000000000000000000000000100';
SET enable_seqscan = off;
SELECT count(*) FROM ids WHERE id >= '0x0000000000000000000000000000000000000000000000000000000000000700'
                           AND id <  '0x0000000000000000000000000000000000000000000000000000000000000710';
EXPLAIN (COSTS OFF) SELECT g FROM ids WHERE id = '0x00000000000000000000000000000000000000000000000000000000000007d0';
DROP INDEX ids_hash;
EXPLAIN (COSTS OFF) SELECT g FROM ids WHERE id = '0x00000000000000000000000000000000000000000000000000000000000007d0';
RESET enable_seqscan;
-- Hash joins and aggregates use the hash opclass.
SELECT count(DISTINCT id) FROM ids;
SELECT count(*) FROM ids a JOIN ids b USING (id);
-- Binary send gives the raw bytes.
SELECT hash32_send(id) = decode(substr(id::text, 3), 'hex') AS send_is_raw FROM ids WHERE g = 1;
SELECT address_send('smr1qrxfvp68v58uy2p9x4pjaayr0muxss775z6pstvwpqyw75ttmxnhvz0054z') AS address_bytes;
