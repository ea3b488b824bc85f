-- permanode 0.9.0 -> 0.10.0: remote ranges (old ranges moved to another permanode node and served
-- back through postgres_fdw) and who may read a hosted archive (schema access).
\ir ../schema/71_remote_ranges.sql
\ir ../schema/87_access.sql
