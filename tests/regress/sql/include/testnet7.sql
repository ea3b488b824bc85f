-- The real Chrysalis messages of ../shared/fixtures/chrysalis as a testnet7 ledger of two
-- milestones (as chrysalis_ledger.sql lays it out): 16241, a message without payload, an
-- indexation and three value transactions, one of which (70a9a9bc) creates 16 outputs; 16242
-- spends its output 12 (1f7af3df). Schema testnet7; each ingest function returns what
-- ingest_milestone booked (outputs created, or spent).
\getenv fixtures PERMANODE_FIXTURES
CREATE SCHEMA testnet7;
CREATE TABLE testnet7.messages AS
SELECT m->>'message_id_computed' AS id, decode(m->>'message_hex', 'hex') AS raw
FROM jsonb_array_elements(
    pg_read_file(:'fixtures' || '/../chrysalis/chrysalis_messages.json')::jsonb->'messages') m;
CREATE FUNCTION testnet7.raw(prefix text) RETURNS bytea LANGUAGE sql AS $$
    SELECT raw FROM testnet7.messages WHERE id LIKE prefix || '%'
$$;
CREATE FUNCTION testnet7.ingest_16241() RETURNS int LANGUAGE sql AS $$
    SELECT outputs FROM permanode.ingest_milestone(16241, 1617959712,
        ARRAY[testnet7.raw('10dbee9c'), testnet7.raw('30d87fa9'), testnet7.raw('70a9a9bc'),
              testnet7.raw('92f427d6'), testnet7.raw('89e4d40f'), testnet7.raw('53e5f848')],
        '{0,0,1,1,1,0}', protocol_version => 1::smallint)
$$;
CREATE FUNCTION testnet7.ingest_16242() RETURNS int LANGUAGE sql AS $$
    SELECT spent FROM permanode.ingest_milestone(16242, 1617959722, ARRAY[testnet7.raw('1f7af3df')],
                                                 '{1}', protocol_version => 1::smallint)
$$;
