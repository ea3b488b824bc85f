
-------------------------------------------------------------------------------------------------
-- Logical dumps (pg_dump) hold the rows of every table the extension made: catalog, settings,
-- locators and hints, the unspent set, analytics caches, the pending partitions. Partitions made
-- later are not the extension's and are dumped as any table. Restoring: README, "Backups".
-------------------------------------------------------------------------------------------------
DO $$
DECLARE
    t regclass;
BEGIN
    FOR t IN SELECT c.oid::regclass FROM pg_depend d
             JOIN pg_class c ON c.oid = d.objid AND d.classid = 'pg_class'::regclass
             JOIN pg_extension e ON e.oid = d.refobjid AND d.refclassid = 'pg_extension'::regclass
             WHERE e.extname = 'permanode' AND d.deptype = 'e' AND c.relkind = 'r' LOOP
        PERFORM pg_extension_config_dump(t, '');
    END LOOP;
END
$$;
