-- A fresh permanode (and permanode_fdw, which it requires), so that a test file runs on its own,
-- and the paths of the fixtures: :fixtures (the Shimmer fixture files) and :fixtures_sql (the
-- helpers that turn them into ingest_test.ingest(milestone)).
-- Expects psql variable :abs_srcdir (\getenv abs_srcdir PG_ABS_SRCDIR).
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS permanode CASCADE;
DROP EXTENSION IF EXISTS permanode_fdw CASCADE;
DROP SCHEMA IF EXISTS ingest_test CASCADE;
CREATE EXTENSION permanode CASCADE;
RESET client_min_messages;
SET search_path = public, permanode;
\getenv fixtures PERMANODE_FIXTURES
\set fixtures_sql :abs_srcdir '/sql/include/fixtures.sql'
