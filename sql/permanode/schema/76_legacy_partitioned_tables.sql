-- The legacy tables, partitioned by month, in the catalog of partitioned tables.
INSERT INTO @extschema@.partitioned_tables (family, schema_name, table_name, range_column, unique_columns)
SELECT 'legacy', 'legacy', table_name, 'month_id', unique_columns FROM legacy.tables;
-- The catalog is now the only place of the unique keys (75_legacy.sql stays as released).
ALTER TABLE legacy.tables DROP COLUMN unique_columns;
