
-- Creates one fixed-length identifier type: text and binary I/O, memcmp comparison operators,
-- btree and hash operator classes, min() and max(). Used by this script and the next ones, then
-- dropped (12_legacy_types.sql).
CREATE FUNCTION @extschema@.create_fixed_type(name name, len int, text_io text, binary_io text, cmp text)
RETURNS void LANGUAGE plpgsql AS $types$
DECLARE
    t record;
BEGIN
    SELECT name, len, text_io, binary_io, cmp INTO t;
    EXECUTE format('CREATE TYPE @extschema@.%I', t.name);
    EXECUTE format($$CREATE FUNCTION @extschema@.%I(cstring) RETURNS @extschema@.%I
        AS 'MODULE_PATHNAME', %L LANGUAGE C STABLE STRICT PARALLEL SAFE$$,
        t.name || '_in', t.name, t.text_io || '_in');
    EXECUTE format($$CREATE FUNCTION @extschema@.%I(@extschema@.%I) RETURNS cstring
        AS 'MODULE_PATHNAME', %L LANGUAGE C STABLE STRICT PARALLEL SAFE$$,
        t.name || '_out', t.name, t.text_io || '_out');
    EXECUTE format($$CREATE FUNCTION @extschema@.%I(internal) RETURNS @extschema@.%I
        AS 'MODULE_PATHNAME', %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE$$,
        t.name || '_recv', t.name, t.binary_io || '_recv');
    EXECUTE format($$CREATE FUNCTION @extschema@.%I(@extschema@.%I) RETURNS bytea
        AS 'MODULE_PATHNAME', %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE$$,
        t.name || '_send', t.name, t.binary_io || '_send');
    EXECUTE format($$CREATE TYPE @extschema@.%I (INPUT = @extschema@.%I, OUTPUT = @extschema@.%I,
        RECEIVE = @extschema@.%I, SEND = @extschema@.%I, INTERNALLENGTH = %s,
        ALIGNMENT = char, STORAGE = plain)$$,
        t.name, t.name || '_in', t.name || '_out', t.name || '_recv', t.name || '_send', t.len);

    -- Comparison: memcmp order, so btree order is byte order.
    EXECUTE format($$CREATE FUNCTION @extschema@.%I(@extschema@.%I, @extschema@.%I) RETURNS int4
        AS 'MODULE_PATHNAME', %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE$$,
        t.name || '_cmp', t.name, t.name, t.cmp || '_cmp');
    EXECUTE format($$CREATE FUNCTION @extschema@.%I(@extschema@.%I) RETURNS int4
        AS 'MODULE_PATHNAME', %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE$$,
        t.name || '_hash', t.name, t.cmp || '_hash');
    EXECUTE format($$CREATE FUNCTION @extschema@.%I(@extschema@.%I, int8) RETURNS int8
        AS 'MODULE_PATHNAME', %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE$$,
        t.name || '_hash_extended', t.name, t.cmp || '_hash_extended');
    DECLARE
        op record;
    BEGIN
        FOR op IN SELECT * FROM (VALUES
            ('=', 'eq', '=', '<>', 'eqsel', 'eqjoinsel'),
            ('<>', 'ne', '<>', '=', 'neqsel', 'neqjoinsel'),
            ('<', 'lt', '>', '>=', 'scalarltsel', 'scalarltjoinsel'),
            ('<=', 'le', '>=', '>', 'scalarlesel', 'scalarlejoinsel'),
            ('>', 'gt', '<', '<=', 'scalargtsel', 'scalargtjoinsel'),
            ('>=', 'ge', '<=', '<', 'scalargesel', 'scalargejoinsel'))
            AS o(sym, fn, commutator, negator, rest, joinrest)
        LOOP
            EXECUTE format($$CREATE FUNCTION @extschema@.%I(@extschema@.%I, @extschema@.%I)
                RETURNS bool AS 'MODULE_PATHNAME', %L LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE$$,
                t.name || '_' || op.fn, t.name, t.name, t.cmp || '_' || op.fn);
            EXECUTE format($$CREATE OPERATOR @extschema@.%s (LEFTARG = @extschema@.%I,
                RIGHTARG = @extschema@.%I, FUNCTION = @extschema@.%I,
                COMMUTATOR = OPERATOR(@extschema@.%s), NEGATOR = OPERATOR(@extschema@.%s),
                RESTRICT = %s, JOIN = %s %s)$$,
                op.sym, t.name, t.name, t.name || '_' || op.fn, op.commutator, op.negator,
                op.rest, op.joinrest, CASE WHEN op.sym = '=' THEN ', HASHES, MERGES' ELSE '' END);
        END LOOP;
    END;
    -- min() and max(), for BI tools.
    EXECUTE format($$CREATE FUNCTION @extschema@.%I(@extschema@.%I, @extschema@.%I) RETURNS @extschema@.%I
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT CASE WHEN $1 OPERATOR(@extschema@.<=) $2 THEN $1 ELSE $2 END'$$,
        t.name || '_smaller', t.name, t.name, t.name);
    EXECUTE format($$CREATE FUNCTION @extschema@.%I(@extschema@.%I, @extschema@.%I) RETURNS @extschema@.%I
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT CASE WHEN $1 OPERATOR(@extschema@.>=) $2 THEN $1 ELSE $2 END'$$,
        t.name || '_larger', t.name, t.name, t.name);
    EXECUTE format($$CREATE AGGREGATE @extschema@.min(@extschema@.%I) (SFUNC = @extschema@.%I,
        STYPE = @extschema@.%I, SORTOP = OPERATOR(@extschema@.<), PARALLEL = SAFE, COMBINEFUNC = @extschema@.%I)$$,
        t.name, t.name || '_smaller', t.name, t.name || '_smaller');
    EXECUTE format($$CREATE AGGREGATE @extschema@.max(@extschema@.%I) (SFUNC = @extschema@.%I,
        STYPE = @extschema@.%I, SORTOP = OPERATOR(@extschema@.>), PARALLEL = SAFE, COMBINEFUNC = @extschema@.%I)$$,
        t.name, t.name || '_larger', t.name, t.name || '_larger');
    EXECUTE format($$CREATE OPERATOR CLASS @extschema@.%I DEFAULT FOR TYPE @extschema@.%I USING btree AS
        OPERATOR 1 @extschema@.<, OPERATOR 2 @extschema@.<=, OPERATOR 3 @extschema@.=,
        OPERATOR 4 @extschema@.>=, OPERATOR 5 @extschema@.>,
        FUNCTION 1 @extschema@.%I(@extschema@.%I, @extschema@.%I)$$,
        t.name || '_ops', t.name, t.name || '_cmp', t.name, t.name);
    EXECUTE format($$CREATE OPERATOR CLASS @extschema@.%I DEFAULT FOR TYPE @extschema@.%I USING hash AS
        OPERATOR 1 @extschema@.=, FUNCTION 1 @extschema@.%I(@extschema@.%I),
        FUNCTION 2 @extschema@.%I(@extschema@.%I, int8)$$,
        t.name || '_hash_ops', t.name, t.name || '_hash', t.name, t.name || '_hash_extended', t.name);
END
$types$;
