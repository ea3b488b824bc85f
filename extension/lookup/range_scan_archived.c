/*
 * range_scan_archived.c
 *	  Permanode Range Scan, partitions PostgreSQL cannot index-scan (a foreign partition, that is
 *	  an archive, or a partitioned one): their rows for the key come from a query on the
 *	  partition run through SPI, which the archive's wrapper answers from its key families.
 *
 *	  Three things keep such a read close to an index scan of a hot partition:
 *	  - the query is prepared once per backend for each partition and query shape, its generic
 *	    plan kept (the key and the bounds are parameters): parsing and planning it cost more than
 *	    the lookup itself;
 *	  - it asks only for the columns the plan reads, so an archive's index family that holds
 *	    them answers without row lookups, and it carries the bounds on the range column and a
 *	    keyset cursor's row comparison, so the archive starts at the first range wanted, at the
 *	    cursor;
 *	  - it runs as a cursor fetched in growing batches, so a LIMIT above stops it early (a deep
 *	    keyset page of a busy address reads its page, not the address's whole history).
 *
 *	  A remote partition (a foreign table of another wrapper: postgres_fdw, 71_remote_ranges.sql)
 *	  is read in the same growing batches, each its own query with LIMIT and OFFSET, which
 *	  postgres_fdw sends whole to the other node: a first page is one query there. Its remote SQL
 *	  shows in EXPLAIN (ANALYZE, VERBOSE); an error on the way names the node.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "commands/defrem.h"
#include "foreign/foreign.h"
#include "foreign/fdwapi.h"
#include "miscadmin.h"
#include "nodes/bitmapset.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pg_list.h"
#include "optimizer/optimizer.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/guc.h"
#include "utils/plancache.h"
#include "utils/rel.h"
#include "utils/tuplestore.h"

#include "lookup/lookup.h"

#define AR_MAX_BOUNDS 4 /* bounds carried into the query; any more are only rechecked */
#define AR_MAX_SEEK 4   /* columns of a keyset cursor carried; a longer one is only rechecked */
#define AR_MAX_PARAMS (4 + AR_MAX_BOUNDS + AR_MAX_SEEK)
#define AR_MASK_WORDS 2 /* column masks cover attnums 1..128; later columns are always read */
/* Rows per fetch from an archive: 16 first, doubling. A merge of several lookups (an address's
 * history across eras) pulls one row from a lookup whose rows come after the page: a larger first
 * batch read (and looked up in the archive's rows) many rows nobody wanted. A remote partition's
 * batch is a query sent to the other node: a first page of 100 in one. */
#define AR_FIRST_BATCH 16
#define AR_REMOTE_FIRST_BATCH 128
#define AR_MAX_BATCH 8192

/* A query shape on one partition: what its prepared statement depends on. */
typedef struct ArchivedPlanKey
{
    Oid partition;
    Oid parent_index;   /* orders the rows; InvalidOid: no order */
    Oid key_value_type; /* the key's, or its array's for an IN list */
    bool keyed;
    bool key_array;
    bool backward;
    bool remote;                    /* batches as LIMIT/OFFSET queries, not a cursor */
    bool ranges;                    /* (remote) the ranges to read are a parameter */
    int8 strategies[AR_MAX_BOUNDS]; /* bounds on the range column, 0 past the last */
    int8 seek_strategy;             /* the keyset cursor's comparison; 0: none */
    Oid seek_types[AR_MAX_SEEK];    /* its values' types, InvalidOid past the last */
    uint64 columns[AR_MASK_WORDS];  /* bit attnum - 1: the column is read */
} ArchivedPlanKey;

typedef struct ArchivedPlanEntry
{
    ArchivedPlanKey key;
    SPIPlanPtr plan;  /* kept (SPI_keepplan); NULL until prepared */
    bool stale;       /* the partition changed (a rename, say): prepare again */
    char *remote_sql; /* a remote partition's: what the other node runs (CacheMemoryContext) */
} ArchivedPlanEntry;

struct ArchivedRead
{
    Relation parent, part;   /* open for the read */
    AttrNumber key_attnum;   /* of the parent */
    AttrNumber range_attnum; /* of the parent */
    ArchivedPlanKey shape;   /* the statement, and which columns it returns */
    Datum
        params[AR_MAX_PARAMS]; /* key, bounds, cursor, then a remote read's ranges, limit, offset */
    char param_nulls[AR_MAX_PARAMS];
    int nparams;
    char *server; /* a remote partition's server, for errors; NULL otherwise */
    const char *remote_sql;
    MemoryContext cxt;      /* the caller's, which holds this */
    char *portal_name;      /* the cursor's; NULL once drained. By name: see FetchBatch */
    Tuplestorestate *batch; /* the rows fetched and not returned yet */
    int batch_size;         /* rows to fetch next */
    uint64 fetched;         /* rows fetched so far */
    bool drained;           /* the cursor returned fewer rows than asked */
};

static HTAB *archived_plans = NULL;
static bool archived_callback_registered = false;

/* A relcache invalidation of a partition (InvalidOid: of all) makes its statements stale. */
static void ForgetArchivedPlans(Datum arg, Oid relid)
{
    HASH_SEQ_STATUS seq;
    ArchivedPlanEntry *entry;

    if (archived_plans == NULL)
        return;
    hash_seq_init(&seq, archived_plans);
    while ((entry = hash_seq_search(&seq)) != NULL)
        if (!OidIsValid(relid) || entry->key.partition == relid)
            entry->stale = true;
}

static bool ColumnRead(const ArchivedPlanKey *shape, int attnum)
{
    int bit = attnum - 1;

    return bit >= 64 * AR_MASK_WORDS || (shape->columns[bit / 64] & (UINT64CONST(1) << (bit % 64)));
}

/*
 * The keyset cursor as `AND (c2, c3, ...) op ($n, ...)`, its columns those of parent_index after
 * the key (range_scan_plan.c matched them), so that the wrapper starts its read there.
 */
static void AppendSeek(StringInfo sql, const ArchivedPlanKey *shape, TupleDesc desc, int *param)
{
    static const char *const ops[] = {"", "<", "<=", "=", ">=", ">"};
    Relation index;
    int n = 0;

    if (shape->seek_strategy == 0)
        return;
    while (n < AR_MAX_SEEK && OidIsValid(shape->seek_types[n]))
        n++;
    index = index_open(shape->parent_index, AccessShareLock);
    appendStringInfoString(sql, " AND (");
    for (int i = 0; i < n; i++)
        appendStringInfo(
            sql, "%s%s", i ? ", " : "",
            quote_identifier(
                NameStr(TupleDescAttr(desc, index->rd_index->indkey.values[i + 1] - 1)->attname)));
    appendStringInfo(sql, ") %s (", ops[shape->seek_strategy]);
    for (int i = 0; i < n; i++)
        appendStringInfo(sql, "%s$%d", i ? ", " : "", (*param)++);
    appendStringInfoChar(sql, ')');
    index_close(index, NoLock);
}

/* The query on the partition; $1 is the key, $2... the bounds, then the cursor's values. */
static char *ArchivedQuerySql(const ArchivedPlanKey *shape, Relation parent, Relation part,
                              AttrNumber key_attnum, AttrNumber range_attnum)
{
    TupleDesc desc = RelationGetDescr(parent);
    StringInfoData sql;
    bool first = true;
    int param = 2;

    initStringInfo(&sql);
    appendStringInfoString(&sql, "SELECT ");
    for (int i = 0; i < desc->natts; i++)
    {
        if (TupleDescAttr(desc, i)->attisdropped || !ColumnRead(shape, i + 1))
            continue;
        appendStringInfo(&sql, "%s%s", first ? "" : ", ",
                         quote_identifier(NameStr(TupleDescAttr(desc, i)->attname)));
        first = false;
    }
    /* ONLY keeps inheritance children of a foreign table out; a partitioned one needs its own. */
    appendStringInfo(&sql, " FROM %s%s",
                     part->rd_rel->relkind == RELKIND_PARTITIONED_TABLE ? "" : "ONLY ",
                     quote_qualified_identifier(get_namespace_name(RelationGetNamespace(part)),
                                                RelationGetRelationName(part)));
    if (shape->keyed)
        appendStringInfo(&sql, shape->key_array ? " WHERE %s = ANY ($1)" : " WHERE %s = $1",
                         quote_identifier(NameStr(TupleDescAttr(desc, key_attnum - 1)->attname)));
    for (int b = 0; shape->keyed && b < AR_MAX_BOUNDS && shape->strategies[b] != 0; b++)
    {
        static const char *const ops[] = {"", "<", "<=", "=", ">=", ">"};

        appendStringInfo(&sql, " AND %s %s $%d",
                         quote_identifier(NameStr(TupleDescAttr(desc, range_attnum - 1)->attname)),
                         ops[shape->strategies[b]], param++);
    }
    if (shape->keyed)
        AppendSeek(&sql, shape, desc, &param);
    /* the hinted ranges: the other node, which has no hints for them, reads only those */
    if (shape->ranges)
        appendStringInfo(&sql, " AND %s = ANY ($%d)",
                         quote_identifier(NameStr(TupleDescAttr(desc, range_attnum - 1)->attname)),
                         param++);
    if (OidIsValid(shape->parent_index))
    {
        Relation index = index_open(shape->parent_index, AccessShareLock);

        for (int i = 1; i < index->rd_index->indnkeyatts; i++)
        {
            AttrNumber attnum = index->rd_index->indkey.values[i];
            bool desc_col = (index->rd_indoption[i] & INDOPTION_DESC) != 0;

            if (attnum == 0)
                break;
            appendStringInfo(&sql, "%s%s %s", i == 1 ? " ORDER BY " : ", ",
                             quote_identifier(NameStr(TupleDescAttr(desc, attnum - 1)->attname)),
                             desc_col != shape->backward ? "DESC NULLS FIRST" : "ASC NULLS LAST");
        }
        index_close(index, NoLock);
    }
    if (shape->remote)
        appendStringInfo(&sql, " LIMIT $%d OFFSET $%d", shape->keyed ? param : 1,
                         (shape->keyed ? param : 1) + 1);
    return sql.data;
}

/*
 * A remote read is planned (and planned again after an invalidation, which happens when it runs)
 * with sorts off: the other node must sort and cut the rows (ORDER BY and LIMIT in the remote
 * SQL). Left to costs, postgres_fdw's sorted path loses to a local sort whenever few rows are
 * estimated (a key and its hinted ranges), and then every row of the key comes back. Returns the
 * GUC nest level to end with AtEOXact_GUC(true, level), which puts the setting back, as for a
 * function's SET clause (an error ends it with the transaction); any other statement planned
 * meanwhile, such as a hint query, would keep a plan costed with sorts off.
 */
static int SortRemotely(const ArchivedPlanKey *shape)
{
    int level = NewGUCNestLevel();

    if (shape->remote)
        (void)set_config_option("enable_sort", "off", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
                                true, 0, false);
    return level;
}

/* The SQL postgres_fdw sends for a prepared read: its foreign scan's first private item. */
static char *RemoteSql(SPIPlanPtr plan)
{
    CachedPlan *cached = SPI_plan_get_cached_plan(plan);
    char *sql = NULL;

    if (cached == NULL)
        return NULL;
    if (list_length(cached->stmt_list) == 1)
    {
        Plan *node = linitial_node(PlannedStmt, cached->stmt_list)->planTree;

        while (node != NULL && !IsA(node, ForeignScan))
            node = node->lefttree;
        if (node != NULL && ((ForeignScan *)node)->fdw_private != NIL &&
            IsA(linitial(((ForeignScan *)node)->fdw_private), String))
            sql = MemoryContextStrdup(CacheMemoryContext,
                                      strVal(linitial(((ForeignScan *)node)->fdw_private)));
    }
    ReleaseCachedPlan(cached, CurrentResourceOwner);
    return sql;
}

/* The kept statement of a shape, prepared on first use. Runs inside SPI_connect. */
static ArchivedPlanEntry *ArchivedPlan(const ArchivedPlanKey *shape, Relation parent, Relation part,
                                       AttrNumber key_attnum, AttrNumber range_attnum)
{
    ArchivedPlanEntry *entry;
    bool found;
    Oid types[AR_MAX_PARAMS];
    int nparams = 0;
    int level;
    char *sql;
    SPIPlanPtr plan;

    if (archived_plans == NULL)
    {
        HASHCTL ctl;

        if (!archived_callback_registered)
        {
            CacheRegisterRelcacheCallback(ForgetArchivedPlans, (Datum)0);
            archived_callback_registered = true;
        }
        ctl.keysize = sizeof(ArchivedPlanKey);
        ctl.entrysize = sizeof(ArchivedPlanEntry);
        ctl.hcxt = CacheMemoryContext;
        archived_plans = hash_create("permanode archived partition statements", 64, &ctl,
                                     HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
    }
    entry = hash_search(archived_plans, shape, HASH_ENTER, &found);
    if (!found)
    {
        entry->plan = NULL;
        entry->remote_sql = NULL;
    }
    else if (entry->plan != NULL && !entry->stale)
        return entry;
    if (entry->plan != NULL)
        SPI_freeplan(entry->plan);
    entry->plan = NULL;
    entry->stale = false;

    if (shape->keyed)
    {
        types[nparams++] = shape->key_value_type;
        for (int b = 0; b < AR_MAX_BOUNDS && shape->strategies[b] != 0; b++)
            types[nparams++] = INT4OID; /* ranges are int4 */
        for (int i = 0; shape->seek_strategy != 0 && i < AR_MAX_SEEK; i++)
            if (OidIsValid(shape->seek_types[i]))
                types[nparams++] = shape->seek_types[i];
        if (shape->ranges)
            types[nparams++] = INT4ARRAYOID;
    }
    if (shape->remote)
    {
        types[nparams++] = INT8OID;
        types[nparams++] = INT8OID;
    }
    sql = ArchivedQuerySql(shape, parent, part, key_attnum, range_attnum);
    /* A generic plan: the wrapper keys its read on the parameters as well as on constants. */
    level = SortRemotely(shape);
    plan = SPI_prepare_cursor(sql, nparams, types, CURSOR_OPT_GENERIC_PLAN | CURSOR_OPT_NO_SCROLL);
    if (plan == NULL)
        elog(ERROR, "cannot prepare the read of partition \"%s\": %s",
             RelationGetRelationName(part), SPI_result_code_string(SPI_result));
    SPI_keepplan(plan);
    /* An invalidation while preparing may have reset the table: look the entry up again. */
    entry = hash_search(archived_plans, shape, HASH_ENTER, &found);
    if (found && entry->plan != NULL)
        SPI_freeplan(entry->plan);
    if (found && entry->remote_sql != NULL)
        pfree(entry->remote_sql);
    entry->plan = plan;
    entry->stale = false;
    entry->remote_sql = shape->remote ? RemoteSql(plan) : NULL;
    AtEOXact_GUC(true, level);
    return entry;
}

/* Runs `call` as the partition's owner (see OpenCursor). */
#define AS_OWNER(read, call)                                                                       \
    do                                                                                             \
    {                                                                                              \
        Oid save_userid;                                                                           \
        int save_sec_context;                                                                      \
                                                                                                   \
        GetUserIdAndSecContext(&save_userid, &save_sec_context);                                   \
        SetUserIdAndSecContext((read)->part->rd_rel->relowner, save_sec_context |                  \
                                                                   SECURITY_LOCAL_USERID_CHANGE |  \
                                                                   SECURITY_NOFORCE_RLS);          \
        call;                                                                                      \
        SetUserIdAndSecContext(save_userid, save_sec_context);                                     \
    } while (0)

/*
 * Opens the cursor of the read's statement; runs inside SPI_connect. The executor checked the
 * user's right to read the parent. A partition read through its parent needs no right of its own
 * (PostgreSQL's own scans of partitions check none), so the query on the partition runs as its
 * owner: a reader of the ledger reads its cold ranges too. An error on the way restores the user
 * with the (sub)transaction's abort.
 */
static Portal OpenCursor(ArchivedRead *read)
{
    SPIPlanPtr plan =
        ArchivedPlan(&read->shape, read->parent, read->part, read->key_attnum, read->range_attnum)
            ->plan;
    Portal portal;

    AS_OWNER(read, portal = SPI_cursor_open(NULL, plan, read->params, read->param_nulls, true));
    if (portal == NULL)
        elog(ERROR, "cannot read partition \"%s\": %s", RelationGetRelationName(read->part),
             SPI_result_code_string(SPI_result));
    read->portal_name = MemoryContextStrdup(read->cxt, portal->name);
    return portal;
}

/*
 * Runs a remote read's next batch (LIMIT the batch size, OFFSET the rows read) into SPI_tuptable;
 * runs inside SPI_connect. An error, say the node being down, is raised again naming the node.
 */
static void RunRemoteBatch(ArchivedRead *read)
{
    ArchivedPlanEntry *entry =
        ArchivedPlan(&read->shape, read->parent, read->part, read->key_attnum, read->range_attnum);
    int ret = 0;

    read->remote_sql = entry->remote_sql;
    read->params[read->nparams] = Int64GetDatum(read->batch_size);
    read->params[read->nparams + 1] = Int64GetDatum((int64)read->fetched);
    read->param_nulls[read->nparams] = read->param_nulls[read->nparams + 1] = ' ';
    PG_TRY();
    {
        int level = SortRemotely(&read->shape);

        AS_OWNER(read,
                 ret = SPI_execute_plan(entry->plan, read->params, read->param_nulls, true, 0));
        AtEOXact_GUC(true, level);
    }
    PG_CATCH();
    {
        ErrorData *error;

        MemoryContextSwitchTo(read->cxt);
        error = CopyErrorData();
        FlushErrorState();
        ereport(ERROR, (errcode(error->sqlerrcode),
                        errmsg("remote node %s failed reading \"%s\": %s", read->server,
                               RelationGetRelationName(read->part), error->message),
                        error->detail ? errdetail_internal("%s", error->detail) : 0,
                        errhint("The ranges on that node are unreadable until it is back; "
                                "permanode.status names each remote range's server.")));
    }
    PG_END_TRY();
    if (ret != SPI_OK_SELECT)
        elog(ERROR, "cannot read partition \"%s\": %s", RelationGetRelationName(read->part),
             SPI_result_code_string(ret));
}

/* The server of a foreign partition not served by permanode_fdw, described for errors ("name"
 * (host=... port=...)); NULL for an archive of ours. */
static char *RemoteServer(Relation part)
{
    ForeignServer *server;
    StringInfoData text;
    ListCell *lc;

    if (part->rd_rel->relkind != RELKIND_FOREIGN_TABLE)
        return NULL;
    server = GetForeignServer(GetForeignServerIdByRelId(RelationGetRelid(part)));
    if (strcmp(GetForeignDataWrapper(server->fdwid)->fdwname, "permanode_fdw") == 0)
        return NULL;
    initStringInfo(&text);
    appendStringInfo(&text, "\"%s\" (", server->servername);
    foreach (lc, server->options)
    {
        DefElem *option = lfirst_node(DefElem, lc);

        if (strcmp(option->defname, "host") == 0 || strcmp(option->defname, "port") == 0 ||
            strcmp(option->defname, "dbname") == 0)
            appendStringInfo(&text, "%s=%s ", option->defname, defGetString(option));
    }
    text.data[text.len - 1] = ')';
    return text.data;
}

/*
 * Carries the keyset cursor (not into a remote read: postgres_fdw would filter it locally, and
 * then send no LIMIT) as parameters from read->params[nparams]; returns the next free one.
 */
static int AddSeek(ArchivedPlanKey *shape, const ArchivedReadSpec *spec, const Datum *seek_values,
                   ArchivedRead *read, int nparams)
{
    ListCell *lc;

    if (spec->seek == NULL || shape->remote || !OidIsValid(spec->parent_index) ||
        list_length(spec->seek->rargs) > AR_MAX_SEEK)
        return nparams;
    shape->seek_strategy = (int8)spec->seek->rctype;
    foreach (lc, spec->seek->rargs)
    {
        shape->seek_types[foreach_current_index(lc)] = exprType(lfirst(lc));
        read->params[nparams] = seek_values[foreach_current_index(lc)];
        read->param_nulls[nparams++] = ' ';
    }
    return nparams;
}

/*
 * Starts reading `part` for the key: the columns in `needed` (parent attnums; NULL or a
 * whole-row reference: all), the rows in the order of parent_index, within the bounds given.
 */
ArchivedRead *permanode_archived_open(Relation parent, Relation part, const ArchivedReadSpec *spec,
                                      Datum key, const Datum *bounds, const bool *bound_nulls,
                                      const Datum *seek_values)
{
    ArchivedRead *read = palloc0(sizeof(ArchivedRead));
    ArchivedPlanKey *shape = &read->shape;
    int nparams = 0;
    int b = 0;
    ListCell *lc;

    memset(shape, 0, sizeof(*shape)); /* padding too: the key is hashed as bytes */
    shape->partition = RelationGetRelid(part);
    shape->parent_index = spec->parent_index;
    shape->key_value_type = spec->key_value_type;
    shape->keyed = spec->keyed;
    shape->key_array = spec->key_array;
    shape->backward = spec->backward;
    read->server = RemoteServer(part);
    shape->remote = read->server != NULL;
    shape->ranges = shape->remote && spec->keyed && spec->ranges != (Datum)0;
    for (int i = 1; i <= RelationGetDescr(parent)->natts && i <= 64 * AR_MASK_WORDS; i++)
        if (spec->needed == NULL || bms_is_member(i, spec->needed))
            shape->columns[(i - 1) / 64] |= UINT64CONST(1) << ((i - 1) % 64);
    if (spec->keyed)
    {
        read->params[nparams] = key;
        read->param_nulls[nparams++] = ' ';
        foreach (lc, spec->bound_strategies)
        {
            if (b == AR_MAX_BOUNDS)
                break;
            shape->strategies[b] = (int8)lfirst_int(lc);
            read->params[nparams] = bounds[b];
            read->param_nulls[nparams++] = bound_nulls[b] ? 'n' : ' ';
            b++;
        }
        nparams = AddSeek(shape, spec, seek_values, read, nparams);
        if (shape->ranges)
        {
            read->params[nparams] = spec->ranges;
            read->param_nulls[nparams++] = ' ';
        }
    }
    read->parent = parent;
    read->part = part;
    read->key_attnum = spec->key_attnum;
    read->range_attnum = spec->range_attnum;
    read->cxt = CurrentMemoryContext;
    read->nparams = nparams;
    read->batch = tuplestore_begin_heap(false, false, work_mem);
    read->batch_size = shape->remote ? AR_REMOTE_FIRST_BATCH : AR_FIRST_BATCH;
    if (!shape->remote) /* a remote read runs its first batch when asked for rows */
    {
        SPI_connect();
        OpenCursor(read);
        SPI_finish();
    }
    return read;
}

/* Fetches the next batch of rows into read->batch, as parent rows (unread columns NULL). */
static void FetchBatch(ArchivedRead *read)
{
    TupleDesc desc = RelationGetDescr(read->parent);
    Datum *values = palloc(sizeof(Datum) * desc->natts);
    bool *nulls = palloc(sizeof(bool) * desc->natts);
    Portal portal;

    tuplestore_clear(read->batch);
    SPI_connect();
    portal = read->shape.remote ? NULL : SPI_cursor_find(read->portal_name);
    if (read->shape.remote)
        RunRemoteBatch(read);
    else if (portal == NULL)
    {
        /*
         * The cursor was dropped before the statement above was done with it: at commit, a
         * cursor WITH HOLD above is run to its end after the transaction's other cursors are
         * gone. An archive never changes and the statement reads in a fixed order, so the same
         * statement again, past the rows read already, goes on where this one stopped.
         */
        portal = OpenCursor(read);
        AS_OWNER(read, SPI_cursor_move(portal, true, read->fetched));
    }
    if (!read->shape.remote)
        AS_OWNER(read, SPI_cursor_fetch(portal, true, read->batch_size));
    read->fetched += SPI_processed;
    read->drained = SPI_processed < (uint64)read->batch_size;
    read->batch_size = Min(read->batch_size * (read->shape.remote ? 4 : 2), AR_MAX_BATCH);
    for (uint64 r = 0; r < SPI_processed; r++)
    {
        int column = 1;

        CHECK_FOR_INTERRUPTS();
        for (int i = 0; i < desc->natts; i++)
        {
            if (TupleDescAttr(desc, i)->attisdropped || !ColumnRead(&read->shape, i + 1))
            {
                values[i] = (Datum)0;
                nulls[i] = true;
                continue;
            }
            values[i] =
                SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, column++, &nulls[i]);
        }
        tuplestore_putvalues(read->batch, desc, values, nulls);
    }
    SPI_finish();
    if (read->drained && portal != NULL)
    {
        SPI_cursor_close(portal);
        read->portal_name = NULL;
    }
    pfree(values);
    pfree(nulls);
}

/* A remote read's SQL as the other node runs it (NULL before its first batch, or not remote). */
const char *permanode_archived_remote_sql(ArchivedRead *read)
{
    return read->remote_sql;
}

/* The next row into slot (a slot of the parent's descriptor); false at the end. */
bool permanode_archived_next(ArchivedRead *read, TupleTableSlot *slot)
{
    if (tuplestore_gettupleslot(read->batch, true, false, slot))
        return true;
    if (read->drained)
        return false;
    FetchBatch(read);
    return tuplestore_gettupleslot(read->batch, true, false, slot);
}

/* Ends the read early or late: the cursor is closed, the rows freed. */
void permanode_archived_close(ArchivedRead *read)
{
    Portal portal = read->portal_name ? SPI_cursor_find(read->portal_name) : NULL;

    if (portal != NULL)
        SPI_cursor_close(portal);
    read->portal_name = NULL;
    tuplestore_end(read->batch);
    pfree(read);
}
