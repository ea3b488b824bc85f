-- Who may read: the functions over the access tables (../schema/87_access.sql) and their rights.
COMMENT ON SCHEMA access IS 'permanode: who may read a hosted archive (seed 001): delegations, subscriptions, consumers';

-- The page size every list takes: 1 to 1000.
CREATE OR REPLACE FUNCTION access.check_page_size(page_size int) RETURNS int
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF page_size IS NULL OR page_size < 1 OR page_size > 1000 THEN
        RAISE EXCEPTION 'page size % is out of range', coalesce(page_size::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value', HINT = 'A page holds 1 to 1000 rows.';
    END IF;
    RETURN page_size;
END
$$;

-- The cursor of a list ordered by two keys: a JSON array of both.
CREATE OR REPLACE FUNCTION access.cursor_part(after text, i int) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF after IS NULL THEN
        RETURN NULL;
    END IF;
    IF jsonb_typeof(after::jsonb) <> 'array' OR jsonb_array_length(after::jsonb) <> 2 THEN
        RAISE EXCEPTION 'invalid cursor "%"', after USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN after::jsonb ->> i;
EXCEPTION WHEN invalid_text_representation THEN
    RAISE EXCEPTION 'invalid cursor "%"', after USING ERRCODE = 'invalid_parameter_value';
END
$$;

-------------------------------------------------------------------------------------------------
-- Delegations.
-------------------------------------------------------------------------------------------------

-- Stores delegations given as a JSON array of {link, audience, issuer, expiration, cause}; a link
-- held already is overwritten (and its "updatedAt" set); of a link given twice, the last counts.
-- Returns how many were written.
CREATE OR REPLACE FUNCTION access.delegations_put_many(delegations jsonb) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    bad record;
    written bigint;
BEGIN
    IF delegations IS NULL OR jsonb_typeof(delegations) <> 'array' THEN
        RAISE EXCEPTION 'delegations must be a JSON array' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT i, field INTO bad
    FROM jsonb_array_elements(delegations) WITH ORDINALITY AS d(v, i)
    CROSS JOIN LATERAL (VALUES ('link'), ('audience'), ('issuer')) f(field)
    WHERE jsonb_typeof(d.v) <> 'object' OR coalesce(d.v ->> f.field, '') = ''
    ORDER BY i LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'delegation % has no %', bad.i, bad.field
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'A delegation is {"link", "audience", "issuer", "expiration", "cause"}.';
    END IF;
    INSERT INTO access.delegations AS t (link, cause, audience, issuer, expiration)
    SELECT DISTINCT ON (d.v ->> 'link') d.v ->> 'link', d.v ->> 'cause', d.v ->> 'audience',
           d.v ->> 'issuer', (d.v ->> 'expiration')::bigint
    FROM jsonb_array_elements(delegations) WITH ORDINALITY AS d(v, i)
    ORDER BY d.v ->> 'link', d.i DESC
    ON CONFLICT (link) DO UPDATE
        SET cause = EXCLUDED.cause, audience = EXCLUDED.audience, issuer = EXCLUDED.issuer,
            expiration = EXCLUDED.expiration, "updatedAt" = now();
    GET DIAGNOSTICS written = ROW_COUNT;
    RETURN written;
END
$$;

-- Whether a delegation has expired at this time: its exp is not after now.
CREATE OR REPLACE FUNCTION access.expired(expiration bigint) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT expiration IS NOT NULL AND expiration <= extract(epoch FROM now())
$$;

-- The delegations to an audience that have not expired, a page in link order after `after`.
CREATE OR REPLACE FUNCTION access.delegations_find(audience text, after text DEFAULT NULL, page_size int DEFAULT 1000)
RETURNS TABLE (link text, cause text, issuer text, expiration bigint, "insertedAt" timestamptz,
               "updatedAt" timestamptz, cursor text)
LANGUAGE sql STABLE AS $$
    SELECT d.link, d.cause, d.issuer, d.expiration, d."insertedAt", d."updatedAt", d.link
    FROM access.delegations d
    WHERE d.audience = delegations_find.audience AND (after IS NULL OR d.link > after)
      AND NOT access.expired(d.expiration)
    ORDER BY d.link
    LIMIT access.check_page_size(page_size)
$$;

-- The delegation of a link, unless it has expired (the HTTP server's check of a proof).
CREATE OR REPLACE FUNCTION access.delegations_get(link text)
RETURNS TABLE (audience text, issuer text, expiration bigint)
LANGUAGE sql STABLE AS $$
    SELECT d.audience, d.issuer, d.expiration FROM access.delegations d
    WHERE d.link = delegations_get.link AND NOT access.expired(d.expiration)
$$;

-- How many delegations there are that have not expired, exactly.
CREATE OR REPLACE FUNCTION access.delegations_count() RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT count(*) FROM access.delegations d WHERE NOT access.expired(d.expiration)
$$;

-- Removes the expired delegations; returns how many.
CREATE OR REPLACE FUNCTION access.expire_delegations() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    removed bigint;
BEGIN
    DELETE FROM access.delegations d WHERE d.expiration <= extract(epoch FROM now());
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN removed;
END
$$;

-------------------------------------------------------------------------------------------------
-- Subscriptions.
-------------------------------------------------------------------------------------------------

-- Adds a customer's subscription to a provider; one held already for the key is a conflict
-- (SQLSTATE 23505) naming its customer and provider.
CREATE OR REPLACE FUNCTION access.subscriptions_add(provider text, subscription text, customer text,
                                                    cause text DEFAULT NULL)
RETURNS access.subscriptions LANGUAGE plpgsql AS $$
DECLARE
    added access.subscriptions;
BEGIN
    INSERT INTO access.subscriptions AS s (subscription, provider, cause, customer)
    VALUES (subscriptions_add.subscription, subscriptions_add.provider, subscriptions_add.cause,
            subscriptions_add.customer)
    ON CONFLICT DO NOTHING
    RETURNING * INTO added;
    IF added IS NULL THEN
        SELECT * INTO added FROM access.subscriptions s
        WHERE s.subscription = subscriptions_add.subscription AND s.provider = subscriptions_add.provider;
        RAISE EXCEPTION 'subscription "%" of customer "%" to provider "%" exists already',
                        added.subscription, added.customer, added.provider
            USING ERRCODE = 'unique_violation';
    END IF;
    RETURN added;
END
$$;

-- A customer's subscriptions to a provider (the query in use), a page in subscription order.
CREATE OR REPLACE FUNCTION access.subscriptions_find_provider_subscriptions_for_customer(
    customer text, provider text, after text DEFAULT NULL, page_size int DEFAULT 1000)
RETURNS TABLE (subscription text, cause text, cursor text)
LANGUAGE sql STABLE AS $$
    SELECT s.subscription, s.cause, s.subscription
    FROM access.subscriptions s
    WHERE s.customer = subscriptions_find_provider_subscriptions_for_customer.customer
      AND s.provider = subscriptions_find_provider_subscriptions_for_customer.provider
      AND (after IS NULL OR s.subscription > after)
    ORDER BY s.subscription
    LIMIT access.check_page_size(page_size)
$$;

-- A subscription by its key (its customer): none if there is none.
CREATE OR REPLACE FUNCTION access.subscriptions_get(provider text, subscription text)
RETURNS SETOF access.subscriptions
LANGUAGE sql STABLE AS $$
    SELECT * FROM access.subscriptions s
    WHERE s.subscription = subscriptions_get.subscription AND s.provider = subscriptions_get.provider
$$;

-- A customer's subscriptions to every provider (provisional), by provider and subscription.
CREATE OR REPLACE FUNCTION access.subscriptions_list_by_customer(customer text, after text DEFAULT NULL,
                                                                 page_size int DEFAULT 1000)
RETURNS TABLE (provider text, subscription text, cause text, cursor text)
LANGUAGE sql STABLE AS $$
    SELECT s.provider, s.subscription, s.cause, jsonb_build_array(s.provider, s.subscription)::text
    FROM access.subscriptions s
    WHERE s.customer = subscriptions_list_by_customer.customer
      AND (after IS NULL
           OR (s.provider, s.subscription) > (access.cursor_part(after, 0), access.cursor_part(after, 1)))
    ORDER BY s.provider, s.subscription
    LIMIT access.check_page_size(page_size)
$$;

-- The customers of a provider (provisional), by customer and subscription.
CREATE OR REPLACE FUNCTION access.subscriptions_list_by_provider(provider text, after text DEFAULT NULL,
                                                                 page_size int DEFAULT 1000)
RETURNS TABLE (customer text, subscription text, cursor text)
LANGUAGE sql STABLE AS $$
    SELECT s.customer, s.subscription, jsonb_build_array(s.customer, s.subscription)::text
    FROM access.subscriptions s
    WHERE s.provider = subscriptions_list_by_provider.provider
      AND (after IS NULL
           OR (s.customer, s.subscription) > (access.cursor_part(after, 0), access.cursor_part(after, 1)))
    ORDER BY s.customer, s.subscription
    LIMIT access.check_page_size(page_size)
$$;

-------------------------------------------------------------------------------------------------
-- Consumers.
-------------------------------------------------------------------------------------------------

-- Adds a consumer of a provider through a subscription (which must exist). The same consumer
-- added again is accepted (nothing changes); another consumer for the subscription, or the
-- consumer through another subscription of the provider, is a conflict (SQLSTATE 23505).
CREATE OR REPLACE FUNCTION access.consumers_add(provider text, subscription text, consumer text,
                                                cause text DEFAULT NULL)
RETURNS access.consumers LANGUAGE plpgsql AS $$
DECLARE
    added access.consumers;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM access.subscriptions s
                   WHERE s.subscription = consumers_add.subscription AND s.provider = consumers_add.provider) THEN
        RAISE EXCEPTION 'subscription "%" to provider "%" does not exist', subscription, provider
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    INSERT INTO access.consumers AS c (subscription, provider, cause, consumer)
    VALUES (consumers_add.subscription, consumers_add.provider, consumers_add.cause, consumers_add.consumer)
    ON CONFLICT DO NOTHING
    RETURNING * INTO added;
    IF added IS NOT NULL THEN
        RETURN added;
    END IF;
    SELECT * INTO added FROM access.consumers c
    WHERE c.subscription = consumers_add.subscription AND c.provider = consumers_add.provider;
    IF added.consumer = consumers_add.consumer THEN
        RETURN added;
    ELSIF added IS NOT NULL THEN
        RAISE EXCEPTION 'subscription "%" to provider "%" is consumed by "%" already',
                        subscription, provider, added.consumer
            USING ERRCODE = 'unique_violation';
    END IF;
    SELECT * INTO added FROM access.consumers c
    WHERE c.consumer = consumers_add.consumer AND c.provider = consumers_add.provider;
    RAISE EXCEPTION 'consumer "%" consumes provider "%" through subscription "%" already',
                    consumer, provider, added.subscription
        USING ERRCODE = 'unique_violation';
END
$$;

-- Whether a consumer consumes any provider.
CREATE OR REPLACE FUNCTION access.consumers_has_storage_provider(consumer text) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM access.consumers c WHERE c.consumer = consumers_has_storage_provider.consumer)
$$;

-- A consumer of a provider, with its subscription and that subscription's customer.
CREATE OR REPLACE FUNCTION access.consumers_get(provider text, consumer text)
RETURNS TABLE (subscription text, customer text, cause text, "insertedAt" timestamptz, "updatedAt" timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT c.subscription, s.customer, c.cause, c."insertedAt", c."updatedAt"
    FROM access.consumers c
    JOIN access.subscriptions s USING (subscription, provider)
    WHERE c.consumer = consumers_get.consumer AND c.provider = consumers_get.provider
$$;

-- The consumers of a customer's subscriptions, by provider and subscription.
CREATE OR REPLACE FUNCTION access.consumers_list_by_customer(customer text, after text DEFAULT NULL,
                                                             page_size int DEFAULT 1000)
RETURNS TABLE (consumer text, provider text, subscription text, cursor text)
LANGUAGE sql STABLE AS $$
    SELECT c.consumer, s.provider, s.subscription, jsonb_build_array(s.provider, s.subscription)::text
    FROM access.subscriptions s
    JOIN access.consumers c USING (subscription, provider)
    WHERE s.customer = consumers_list_by_customer.customer
      AND (after IS NULL
           OR (s.provider, s.subscription) > (access.cursor_part(after, 0), access.cursor_part(after, 1)))
    ORDER BY s.provider, s.subscription
    LIMIT access.check_page_size(page_size)
$$;

-- The providers a consumer consumes (the query in use; also its subscriptions), by provider.
CREATE OR REPLACE FUNCTION access.consumers_list_by_consumer(consumer text, after text DEFAULT NULL,
                                                             page_size int DEFAULT 1000)
RETURNS TABLE (provider text, subscription text, cursor text)
LANGUAGE sql STABLE AS $$
    SELECT c.provider, c.subscription, c.provider
    FROM access.consumers c
    WHERE c.consumer = consumers_list_by_consumer.consumer AND (after IS NULL OR c.provider > after)
    ORDER BY c.provider
    LIMIT access.check_page_size(page_size)
$$;

-- The consumers of a provider (provisional), by consumer.
CREATE OR REPLACE FUNCTION access.consumers_list_by_provider(provider text, after text DEFAULT NULL,
                                                             page_size int DEFAULT 1000)
RETURNS TABLE (consumer text, subscription text, cursor text)
LANGUAGE sql STABLE AS $$
    SELECT c.consumer, c.subscription, c.consumer
    FROM access.consumers c
    WHERE c.provider = consumers_list_by_provider.provider AND (after IS NULL OR c.consumer > after)
    ORDER BY c.consumer
    LIMIT access.check_page_size(page_size)
$$;

-- Provisions a consumer for a customer in one transaction: the customer's subscription to the
-- provider (by default keyed by the customer; one held already for the same customer is used) and
-- the consumer through it.
CREATE OR REPLACE FUNCTION access.provisions_put(provider text, customer text, consumer text,
                                                 cause text DEFAULT NULL, subscription text DEFAULT NULL)
RETURNS access.consumers LANGUAGE plpgsql AS $$
DECLARE
    key text := coalesce(subscription, customer);
    held access.subscriptions;
BEGIN
    SELECT * INTO held FROM access.subscriptions_get(provider, key);
    IF held IS NULL THEN
        PERFORM access.subscriptions_add(provider, key, customer, cause);
    ELSIF held.customer <> customer THEN
        RAISE EXCEPTION 'subscription "%" of customer "%" to provider "%" exists already',
                        key, held.customer, provider
            USING ERRCODE = 'unique_violation';
    END IF;
    RETURN access.consumers_add(provider, key, consumer, cause);
END
$$;

-- Counts an authorised request of a consumer today (UTC).
CREATE OR REPLACE FUNCTION access.count_request(consumer text, requests bigint DEFAULT 1) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO access.requests AS r VALUES (consumer, (now() AT TIME ZONE 'UTC')::date, requests)
    ON CONFLICT (consumer, day) DO UPDATE SET requests = r.requests + EXCLUDED.requests
$$;

-------------------------------------------------------------------------------------------------
-- Rights: readers (the HTTP server) read and count requests; the admin writes and expires.
-------------------------------------------------------------------------------------------------
DO $$
DECLARE
    f regprocedure;
    grantee text;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'permanode_reader') THEN
        RETURN;
    END IF;
    GRANT USAGE ON SCHEMA access TO permanode_reader;
    GRANT SELECT ON ALL TABLES IN SCHEMA access TO permanode_reader;
    FOR f, grantee IN
        SELECT p.oid::regprocedure,
               CASE WHEN p.proname = 'count_request' THEN 'permanode_reader' ELSE 'permanode_admin' END
        FROM pg_proc p
        WHERE p.pronamespace = 'access'::regnamespace
          AND p.proname IN ('delegations_put_many', 'expire_delegations', 'subscriptions_add',
                            'consumers_add', 'provisions_put', 'count_request')
    LOOP
        EXECUTE format('ALTER FUNCTION %s SECURITY DEFINER SET search_path = pg_catalog, access', f);
        EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', f);
        EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO %I', f, grantee);
    END LOOP;
END
$$;
