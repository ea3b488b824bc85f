/*
 * option.cpp
 *	  Options of archived foreign tables: the validator, and the parsed form the planner uses.
 *	  Everything the planner needs (row count, bounds, archived indexes) is in the options, so
 *	  planning reads the catalog only and never touches an archive.
 *
 *	  The validator and GetArchiveOptions are plain PostgreSQL code (no C++ objects), so their
 *	  ereports need no guard.
 */
extern "C"
{
#include "postgres.h"

#include "access/reloptions.h"
#include "catalog/pg_foreign_table.h"
#include "commands/defrem.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

    PG_FUNCTION_INFO_V1(permanode_fdw_validator);
}

#include "permanode_fdw.hpp"

namespace
{

/* A valid option: its name and the catalog it belongs to. */
struct ValidOption
{
    const char *name;
    Oid context;
};

/* Every option is written by permanode.archive_partitions; all are superuser-only. */
const ValidOption kValidOptions[] = {
    {"archive", ForeignTableRelationId},          /* directory name under the archive root */
    {"row_count", ForeignTableRelationId},        /* rows in the archive */
    {"byte_size", ForeignTableRelationId},        /* bytes on disk */
    {"range_from", ForeignTableRelationId},       /* partition key lower bound (inclusive) */
    {"range_to", ForeignTableRelationId},         /* partition key upper bound (exclusive) */
    {"partition_attnum", ForeignTableRelationId}, /* attnum of the partition key */
    {"indexes", ForeignTableRelationId},          /* archived families, see ParseIndexes */
};

/* Parses a non-negative or signed integer option; errors name the option. */
int64 ParseIntOption(DefElem *def)
{
    char *value = defGetString(def);
    char *end = nullptr;
    errno = 0;
    long long v = strtoll(value, &end, 10);
    if (errno != 0 || end == value || *end != '\0')
        ereport(ERROR, (errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
                        errmsg("invalid value for option \"%s\": \"%s\"", def->defname, value)));
    return v;
}

/*
 * Parses the "indexes" option: families separated by ';', each "cf:name:cols[:include]" with
 * cols a comma-separated list of "<attnum><a|d><l|f>" (direction, NULLs last or first) and
 * include a comma-separated list of the attnums an entry also holds.
 */
void ParseIndexes(const char *text, permanode::fdw::ArchiveOptions *opts)
{
    List *families = NIL;
    char *copy = pstrdup(text);
    char *save = nullptr;
    for (char *entry = strtok_r(copy, ";", &save); entry != nullptr;
         entry = strtok_r(nullptr, ";", &save))
        families = lappend(families, entry);
    opts->nindexes = list_length(families);
    opts->indexes = static_cast<permanode::fdw::ArchivedIndex *>(
        palloc0(sizeof(permanode::fdw::ArchivedIndex) * Max(opts->nindexes, 1)));
    int i = 0;
    ListCell *lc;
    foreach (lc, families)
    {
        permanode::fdw::ArchivedIndex *index = &opts->indexes[i++];
        char *entry = static_cast<char *>(lfirst(lc));
        char *colon1 = strchr(entry, ':');
        char *colon2 = colon1 ? strchr(colon1 + 1, ':') : nullptr;
        if (colon2 == nullptr)
            ereport(ERROR, (errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
                            errmsg("invalid value for option \"indexes\": \"%s\"", text)));
        *colon1 = '\0';
        *colon2 = '\0';
        index->cf = entry;
        index->name = colon1 + 1;
        char *cols = colon2 + 1;
        char *colon3 = strchr(cols, ':');
        char *include = nullptr;
        if (colon3 != nullptr)
        {
            *colon3 = '\0';
            include = colon3 + 1;
        }
        int ncols = 1;
        for (char *p = cols; *p; p++)
            ncols += (*p == ',');
        index->attnums = static_cast<AttrNumber *>(palloc(sizeof(AttrNumber) * ncols));
        index->desc = static_cast<bool *>(palloc(sizeof(bool) * ncols));
        index->nulls_first = static_cast<bool *>(palloc(sizeof(bool) * ncols));
        index->not_null = static_cast<bool *>(palloc(sizeof(bool) * ncols));
        index->ncolumns = 0;
        char *csave = nullptr;
        for (char *col = strtok_r(cols, ",", &csave); col != nullptr;
             col = strtok_r(nullptr, ",", &csave))
        {
            char *end = nullptr;
            long attnum = strtol(col, &end, 10);
            /* <attnum><a|d><l|f>, then n when the index holds only rows where it is not NULL */
            if (attnum <= 0 || attnum > MaxAttrNumber || end == nullptr ||
                (end[0] != 'a' && end[0] != 'd') || (end[1] != 'l' && end[1] != 'f') ||
                (end[2] != '\0' && (end[2] != 'n' || end[3] != '\0')))
                ereport(ERROR, (errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
                                errmsg("invalid value for option \"indexes\": \"%s\"", text)));
            index->attnums[index->ncolumns] = static_cast<AttrNumber>(attnum);
            index->desc[index->ncolumns] = end[0] == 'd';
            index->nulls_first[index->ncolumns] = end[1] == 'f';
            index->not_null[index->ncolumns] = end[2] == 'n';
            index->ncolumns++;
        }
        index->include_attnums =
            static_cast<AttrNumber *>(palloc(sizeof(AttrNumber) * INDEX_MAX_KEYS));
        index->ninclude = 0;
        for (char *col = include ? strtok_r(include, ",", &csave) : nullptr; col != nullptr;
             col = strtok_r(nullptr, ",", &csave))
        {
            char *end = nullptr;
            long attnum = strtol(col, &end, 10);
            if (attnum <= 0 || attnum > MaxAttrNumber || *end != '\0' ||
                index->ninclude >= INDEX_MAX_KEYS)
                ereport(ERROR, (errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
                                errmsg("invalid value for option \"indexes\": \"%s\"", text)));
            index->include_attnums[index->ninclude++] = static_cast<AttrNumber>(attnum);
        }
    }
    if (opts->nindexes == 0 || strcmp(opts->indexes[0].cf, permanode::fdw::kRowsFamily) != 0)
        ereport(ERROR, (errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
                        errmsg("option \"indexes\" must start with the \"rows\" family")));
}

} // namespace

/* Checks each option: known in its catalog, set by a superuser, well formed. Ereports. */
static void ValidateOptions(Datum option_array, Oid catalog)
{
    List *options = untransformRelOptions(option_array);
    ListCell *lc;
    foreach (lc, options)
    {
        DefElem *def = static_cast<DefElem *>(lfirst(lc));
        bool found = false;
        for (const auto &opt : kValidOptions)
            if (opt.context == catalog && strcmp(opt.name, def->defname) == 0)
                found = true;
        if (!found)
        {
            StringInfoData valid;
            initStringInfo(&valid);
            for (const auto &opt : kValidOptions)
                if (opt.context == catalog)
                    appendStringInfo(&valid, "%s%s", valid.len > 0 ? ", " : "", opt.name);
            ereport(ERROR,
                    (errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
                     errmsg("invalid option \"%s\"", def->defname),
                     valid.len > 0 ? errhint("Valid options in this context are: %s.", valid.data)
                                   : errhint("There are no valid options in this context.")));
        }
        /* The options name files on the server and describe their layout, as file_fdw's do. */
        if (!superuser())
            ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                            errmsg("only superuser can change options of a permanode_fdw table")));
        if (strcmp(def->defname, "archive") == 0)
        {
            const char *name = defGetString(def);
            if (*name == '\0' || strchr(name, '/') != nullptr || strcmp(name, "..") == 0 ||
                strcmp(name, ".") == 0)
                ereport(ERROR, (errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
                                errmsg("invalid archive name \"%s\"", name),
                                errdetail("An archive is named by a directory under "
                                          "permanode_fdw.archive_root, without any slash.")));
        }
        else if (strcmp(def->defname, "indexes") == 0)
        {
            permanode::fdw::ArchiveOptions scratch{};
            ParseIndexes(defGetString(def), &scratch);
        }
        else
            (void)ParseIntOption(def);
    }
}

/* Validates the options of the wrapper, its servers, user mappings and foreign tables. */
extern "C" Datum permanode_fdw_validator(PG_FUNCTION_ARGS)
{
    return permanode::pg::Guarded(
        [&]() -> Datum
        {
            permanode::pg::CallPg([&] { ValidateOptions(PG_GETARG_DATUM(0), PG_GETARG_OID(1)); });
            return (Datum)0;
        });
}

namespace permanode::fdw
{

ArchiveOptions *GetArchiveOptions(Oid foreigntableid)
{
    ForeignTable *table = GetForeignTable(foreigntableid);
    ArchiveOptions *opts = static_cast<ArchiveOptions *>(palloc0(sizeof(ArchiveOptions)));
    opts->row_count = -1;
    ListCell *lc;
    foreach (lc, table->options)
    {
        DefElem *def = static_cast<DefElem *>(lfirst(lc));
        if (strcmp(def->defname, "archive") == 0)
            opts->archive = defGetString(def);
        else if (strcmp(def->defname, "row_count") == 0)
            opts->row_count = static_cast<double>(ParseIntOption(def));
        else if (strcmp(def->defname, "byte_size") == 0)
            opts->byte_size = ParseIntOption(def);
        else if (strcmp(def->defname, "range_from") == 0)
            opts->range_from = ParseIntOption(def);
        else if (strcmp(def->defname, "range_to") == 0)
            opts->range_to = ParseIntOption(def);
        else if (strcmp(def->defname, "partition_attnum") == 0)
            opts->partition_attnum = static_cast<AttrNumber>(ParseIntOption(def));
        else if (strcmp(def->defname, "indexes") == 0)
        {
            opts->indexes_text = defGetString(def);
            ParseIndexes(opts->indexes_text, opts);
        }
    }
    if (opts->archive == nullptr || opts->indexes == nullptr)
        ereport(ERROR,
                (errcode(ERRCODE_FDW_OPTION_NAME_NOT_FOUND),
                 errmsg("foreign table \"%s\" names no archive", get_rel_name(foreigntableid)),
                 errhint("Archived partitions are made by permanode.archive_partitions().")));
    return opts;
}

std::string ArchiveRootOfDatabase()
{
    const char *root =
        archive_root_setting && *archive_root_setting ? archive_root_setting : "permanode_archive";
    return std::string(root) + "/" + std::to_string(MyDatabaseId);
}

std::string ArchiveDir(const char *archive)
{
    return ArchiveRootOfDatabase() + "/" + archive;
}

} // namespace permanode::fdw
