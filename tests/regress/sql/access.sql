-- Who may read a hosted archive (#27, seed 001): delegations, subscriptions and consumers, their
-- stores' behaviour point by point, errors by SQLSTATE and message, paging to the end, exact
-- counts, timestamps kept, expiry, the indexes that serve each query, and the roles' rights.
\set VERBOSITY terse
\getenv abs_srcdir PG_ABS_SRCDIR
\set fresh_extension :abs_srcdir '/sql/include/fresh_extension.sql'
\i :fresh_extension
\set ECHO all
-- An error as SQLSTATE and message.
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;

-- Delegations: an empty list is fine; a repeated link overwrites (the last of a list counts).
SELECT access.delegations_put_many('[]') AS written;
SELECT access.delegations_put_many(jsonb_build_array(
    jsonb_build_object('link', 'bafy-a', 'audience', 'did:key:alice', 'issuer', 'did:web:svc', 'cause', 'bafy-inv1'),
    jsonb_build_object('link', 'bafy-b', 'audience', 'did:key:alice', 'issuer', 'did:web:svc',
                       'expiration', extract(epoch FROM now())::bigint + 3600),
    jsonb_build_object('link', 'bafy-c', 'audience', 'did:key:bob', 'issuer', 'did:web:svc'),
    jsonb_build_object('link', 'bafy-c', 'audience', 'did:key:carol', 'issuer', 'did:web:svc'))) AS written;
SELECT link, audience, issuer, cause, expiration IS NOT NULL AS expires,
       "insertedAt" = "updatedAt" AS never_updated
FROM access.delegations ORDER BY link;
-- An overwrite in a later transaction keeps insertedAt and moves updatedAt.
SELECT pg_sleep(0.01);
SELECT access.delegations_put_many('[{"link": "bafy-a", "audience": "did:key:alice", "issuer": "did:web:other"}]') AS written;
SELECT link, issuer, cause, "updatedAt" > "insertedAt" AS updated FROM access.delegations WHERE link = 'bafy-a';
-- Bad input is refused, naming the delegation and the field; nothing of the list is written.
SELECT pg_temp.err($q$SELECT access.delegations_put_many('[{"link": "bafy-x", "audience": "a", "issuer": "i"}, {"link": "bafy-y", "issuer": "i"}]')$q$);
SELECT pg_temp.err($q$SELECT access.delegations_put_many('{"link": "bafy-x"}')$q$);
SELECT count(*) AS nothing_written FROM access.delegations WHERE link IN ('bafy-x', 'bafy-y');

-- find(audience): link order, expired ones left out; count is exact and leaves them out too.
SELECT link, issuer, cursor FROM access.delegations_find('did:key:alice');
SELECT link FROM access.delegations_find('did:key:bob');
SELECT access.delegations_count() AS count;
SELECT access.delegations_put_many(jsonb_build_array(
    jsonb_build_object('link', 'bafy-old', 'audience', 'did:key:alice', 'issuer', 'did:web:svc',
                       'expiration', extract(epoch FROM now())::bigint - 1))) AS written;
SELECT link FROM access.delegations_find('did:key:alice');
SELECT count(*) AS get_expired FROM access.delegations_get('bafy-old');
SELECT audience, issuer FROM access.delegations_get('bafy-c');
SELECT access.delegations_count() AS count, (SELECT count(*) FROM access.delegations) AS stored;
-- Paging to the end: 2,500 delegations to one audience, in pages of 1000 through the cursor.
SELECT access.delegations_put_many((SELECT jsonb_agg(jsonb_build_object(
    'link', format('bafy-p%s', lpad(i::text, 5, '0')), 'audience', 'did:key:many', 'issuer', 'did:web:svc'))
    FROM generate_series(1, 2500) i)) AS written;
WITH RECURSIVE pages(n, rows, last) AS (
    SELECT 1, (SELECT count(*) FROM access.delegations_find('did:key:many')),
           (SELECT max(cursor) FROM access.delegations_find('did:key:many'))
    UNION ALL
    SELECT n + 1, (SELECT count(*) FROM access.delegations_find('did:key:many', last)),
           (SELECT max(cursor) FROM access.delegations_find('did:key:many', last))
    FROM pages WHERE last IS NOT NULL)
SELECT n, rows FROM pages ORDER BY n;
SELECT count(*) FROM access.delegations_find('did:key:many', 'bafy-p02490', 5);
SELECT pg_temp.err($q$SELECT access.delegations_find('did:key:many', NULL, 0)$q$);
SELECT pg_temp.err($q$SELECT access.delegations_find('did:key:many', NULL, 1001)$q$);
SELECT access.delegations_count() AS count;
-- Maintenance removes the expired delegations.
SELECT task, done FROM maintain() WHERE task = 'expired delegations';
SELECT count(*) AS old_left FROM access.delegations WHERE link = 'bafy-old';

-- Subscriptions: add; a second for the same key is a conflict naming customer and provider.
SELECT subscription, provider, customer, cause FROM access.subscriptions_add('did:web:svc', 'sub-1', 'did:mailto:alice', 'bafy-inv2');
SELECT pg_temp.err($q$SELECT access.subscriptions_add('did:web:svc', 'sub-1', 'did:mailto:alice')$q$);
SELECT pg_temp.err($q$SELECT access.subscriptions_add('did:web:svc', 'sub-1', 'did:mailto:eve')$q$);
SELECT subscription, provider, customer FROM access.subscriptions_add('did:web:other', 'sub-1', 'did:mailto:eve');
SELECT subscription FROM access.subscriptions_add('did:web:svc', 'sub-2', 'did:mailto:alice');
SELECT subscription FROM access.subscriptions_add('did:web:svc', 'sub-3', 'did:mailto:bob');
SELECT pg_temp.err($q$SELECT access.subscriptions_add('did:web:svc', '', 'did:mailto:bob')$q$);
SELECT subscription, cause, cursor FROM access.subscriptions_find_provider_subscriptions_for_customer('did:mailto:alice', 'did:web:svc');
SELECT subscription FROM access.subscriptions_find_provider_subscriptions_for_customer('did:mailto:alice', 'did:web:svc', 'sub-1');
SELECT count(*) AS none FROM access.subscriptions_find_provider_subscriptions_for_customer('did:mailto:alice', 'did:web:other');
SELECT customer, "insertedAt" = "updatedAt" AS kept FROM access.subscriptions_get('did:web:svc', 'sub-1');
SELECT count(*) AS missing FROM access.subscriptions_get('did:web:svc', 'sub-9');
-- The provisional queries: a customer's subscriptions everywhere, a provider's customers.
SELECT provider, subscription, cursor FROM access.subscriptions_list_by_customer('did:mailto:eve');
SELECT customer, subscription, cursor FROM access.subscriptions_list_by_provider('did:web:svc');
SELECT customer, subscription FROM access.subscriptions_list_by_provider('did:web:svc', '["did:mailto:alice", "sub-1"]');
SELECT pg_temp.err($q$SELECT access.subscriptions_list_by_provider('did:web:svc', 'not json')$q$);

-- Consumers: add through an existing subscription; an identical re-add is accepted; another
-- consumer for the subscription, or the consumer through a second subscription, is a conflict.
SELECT consumer, provider, subscription, cause FROM access.consumers_add('did:web:svc', 'sub-1', 'did:key:space1', 'bafy-inv3');
SELECT consumer, "insertedAt" = "updatedAt" AS unchanged FROM access.consumers_add('did:web:svc', 'sub-1', 'did:key:space1');
SELECT pg_temp.err($q$SELECT access.consumers_add('did:web:svc', 'sub-1', 'did:key:space2')$q$);
SELECT pg_temp.err($q$SELECT access.consumers_add('did:web:svc', 'sub-2', 'did:key:space1')$q$);
SELECT pg_temp.err($q$SELECT access.consumers_add('did:web:svc', 'sub-9', 'did:key:space9')$q$);
SELECT consumer FROM access.consumers_add('did:web:svc', 'sub-2', 'did:key:space2');
SELECT consumer FROM access.consumers_add('did:web:other', 'sub-1', 'did:key:space1');
SELECT access.consumers_has_storage_provider('did:key:space1') AS space1,
       access.consumers_has_storage_provider('did:key:space9') AS space9;
SELECT subscription, customer, cause FROM access.consumers_get('did:web:svc', 'did:key:space1');
SELECT count(*) AS not_a_consumer FROM access.consumers_get('did:web:svc', 'did:key:space9');
SELECT consumer, provider, subscription, cursor FROM access.consumers_list_by_customer('did:mailto:alice');
SELECT consumer FROM access.consumers_list_by_customer('did:mailto:alice', '["did:web:svc", "sub-1"]');
SELECT consumer, provider FROM access.consumers_list_by_customer('did:mailto:eve');
SELECT provider, subscription FROM access.consumers_list_by_consumer('did:key:space1');
SELECT provider FROM access.consumers_list_by_consumer('did:key:space1', 'did:web:other');
SELECT consumer, subscription FROM access.consumers_list_by_provider('did:web:svc');

-- Provisions: subscription and consumer in one transaction; a consumer conflict leaves no
-- subscription behind; a customer's second space reuses its subscription only if free.
SELECT consumer, subscription FROM access.provisions_put('did:web:svc', 'did:mailto:dave', 'did:key:space4', 'bafy-inv4');
SELECT customer FROM access.subscriptions_get('did:web:svc', 'did:mailto:dave');
SELECT pg_temp.err($q$SELECT access.provisions_put('did:web:svc', 'did:mailto:frank', 'did:key:space4')$q$);
SELECT count(*) AS no_subscription_left FROM access.subscriptions_get('did:web:svc', 'did:mailto:frank');
SELECT pg_temp.err($q$SELECT access.provisions_put('did:web:svc', 'did:mailto:frank', 'did:key:space5', NULL, 'sub-3')$q$);
SELECT consumer, subscription FROM access.provisions_put('did:web:svc', 'did:mailto:dave', 'did:key:space4');

-- Requests counted per consumer and day.
SELECT access.count_request('did:key:space1');
SELECT access.count_request('did:key:space1', 4);
SELECT consumer, day = (now() AT TIME ZONE 'UTC')::date AS today, requests FROM access.requests;

-- Each query is served by its index.
SET enable_seqscan = off;
SET enable_bitmapscan = off;
CREATE FUNCTION pg_temp.plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF line ~ 'Index' THEN
            RETURN NEXT regexp_replace(line, '^[ ->]*', '');
        END IF;
    END LOOP;
END
$$;
SELECT pg_temp.plan($$SELECT link FROM access.delegations WHERE audience = 'a' AND link > 'b' ORDER BY link LIMIT 10$$);
SELECT pg_temp.plan($$SELECT provider, subscription FROM access.subscriptions WHERE customer = 'c' ORDER BY provider, subscription$$);
SELECT pg_temp.plan($$SELECT customer FROM access.subscriptions WHERE provider = 'p' ORDER BY customer, subscription$$);
SELECT pg_temp.plan($$SELECT provider FROM access.consumers WHERE consumer = 'c' ORDER BY provider$$);
SELECT pg_temp.plan($$SELECT consumer FROM access.consumers WHERE provider = 'p' ORDER BY consumer$$);
SELECT pg_temp.plan($$DELETE FROM access.delegations WHERE expiration <= 5$$);
RESET enable_seqscan;
RESET enable_bitmapscan;

-- Rights: a reader reads and counts requests, but does not write; the admin writes.
CREATE ROLE regress_access_reader IN ROLE permanode_reader;
CREATE ROLE regress_access_admin IN ROLE permanode_admin;
SET ROLE regress_access_reader;
SELECT count(*) AS readable FROM access.delegations_find('did:key:alice');
SELECT access.count_request('did:key:space2');
SELECT pg_temp.err($q$SELECT access.subscriptions_add('did:web:svc', 'sub-r', 'did:mailto:r')$q$);
RESET ROLE;
SET ROLE regress_access_admin;
SELECT subscription FROM access.subscriptions_add('did:web:svc', 'sub-a', 'did:mailto:a');
RESET ROLE;
DROP ROLE regress_access_reader, regress_access_admin;
