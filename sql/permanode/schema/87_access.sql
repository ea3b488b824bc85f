
-------------------------------------------------------------------------------------------------
-- Who may read a hosted archive (seed 001): w3infra's delegations, subscriptions and consumers
-- tables on PostgreSQL, in schema access, with the seed's table and field names ("insertedAt"
-- and "updatedAt" quoted, as the seed spells them).
--
-- Each DynamoDB global secondary index is a btree index that serves its query in key order, so
-- every list reads a page with a keyset cursor (the `cursor` column of its last row, passed back
-- as `after`) and pages to the end; counts are exact; "updatedAt" changes whenever a row does;
-- expired delegations are never returned and access.expire_delegations() (run by
-- permanode.maintain()) removes them. Beyond the seed: a consumer's subscription must exist (a
-- foreign key), and a space consumes a provider through one subscription (unique consumer and
-- provider), so get(provider, consumer) has one answer.
-- The HTTP server (serve --auth ucan) checks UCAN proof chains against these tables and counts
-- requests per consumer and day in access.requests.
-------------------------------------------------------------------------------------------------
CREATE SCHEMA access;

-- UCAN delegations by their CID; expiration is the UCAN's exp (unix seconds; NULL: never).
CREATE TABLE access.delegations (
    link text PRIMARY KEY CHECK (link <> ''),
    cause text,
    audience text NOT NULL CHECK (audience <> ''),
    issuer text NOT NULL CHECK (issuer <> ''),
    expiration bigint,
    "insertedAt" timestamptz NOT NULL DEFAULT now(),
    "updatedAt" timestamptz NOT NULL DEFAULT now()
);
-- GSI audience (projection link): find(audience), in link order, expired ones skipped in the index.
CREATE INDEX delegations_audience ON access.delegations (audience, link) INCLUDE (expiration);
-- What maintenance removes.
CREATE INDEX delegations_expiration ON access.delegations (expiration) WHERE expiration IS NOT NULL;

-- A customer's subscription to a provider; the provider chooses the subscription key.
CREATE TABLE access.subscriptions (
    subscription text NOT NULL CHECK (subscription <> ''),
    provider text NOT NULL CHECK (provider <> ''),
    cause text,
    customer text NOT NULL CHECK (customer <> ''),
    "insertedAt" timestamptz NOT NULL DEFAULT now(),
    "updatedAt" timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (subscription, provider)
);
-- GSI customer (customer:provider, projection cause, subscription).
CREATE INDEX subscriptions_customer ON access.subscriptions (customer, provider, subscription) INCLUDE (cause);
-- GSI provider (projection customer): the customers of a provider (provisional in the seed).
CREATE INDEX subscriptions_provider ON access.subscriptions (provider, customer, subscription);

-- A space (consumer) consuming a provider through a subscription.
CREATE TABLE access.consumers (
    subscription text NOT NULL,
    provider text NOT NULL,
    cause text,
    consumer text NOT NULL CHECK (consumer <> ''),
    "insertedAt" timestamptz NOT NULL DEFAULT now(),
    "updatedAt" timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (subscription, provider),
    FOREIGN KEY (subscription, provider) REFERENCES access.subscriptions
);
-- GSI consumer (projection provider, subscription): the providers of a consumer.
CREATE UNIQUE INDEX consumers_consumer ON access.consumers (consumer, provider) INCLUDE (subscription);
-- GSI provider (projection consumer): the consumers of a provider (provisional in the seed).
CREATE INDEX consumers_provider ON access.consumers (provider, consumer);

-- Authorised HTTP requests per consumer and day (UTC).
CREATE TABLE access.requests (
    consumer text NOT NULL,
    day date NOT NULL,
    requests bigint NOT NULL,
    PRIMARY KEY (consumer, day)
);

-- A logical dump keeps their rows (95_dump_tables.sql in a fresh install; here for an upgrade).
SELECT pg_extension_config_dump('access.delegations', '');
SELECT pg_extension_config_dump('access.subscriptions', '');
SELECT pg_extension_config_dump('access.consumers', '');
SELECT pg_extension_config_dump('access.requests', '');
