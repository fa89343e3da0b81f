/*
 * types.c: the registry of logical types: their spellings, their place on
 * the widening lattice, and the rules that follow from that place (least
 * upper bound, which widenings are allowed and which rewrite cells).
 *
 * The table `types` is the single source of truth: adding a type is one
 * row here, and every question about names or ranks reads that row.
 */
#include <string.h>

#include "types/types.h"

typedef struct type_info {
    const char *name;   /* board vocabulary, lowercase */
    const char *sql;    /* the underlying name; NULL: not a column type */
    int rank;           /* lattice position; -1 off the lattice */
} type_info;

/* Indexed by pier_kind. Ranks follow the lattice
 * boolean < tinyint < ... < double < text; timestamp and json sit outside. */
static const type_info types[] = {
    [PIER_KIND_NULL] = { "null", NULL, -1 },
    [PIER_KIND_BOOLEAN] = { "boolean", "BOOLEAN", 0 },
    [PIER_KIND_TINYINT] = { "tinyint", "TINYINT", 1 },
    [PIER_KIND_SMALLINT] = { "smallint", "SMALLINT", 2 },
    [PIER_KIND_INTEGER] = { "integer", "INTEGER", 3 },
    [PIER_KIND_BIGINT] = { "bigint", "BIGINT", 4 },
    [PIER_KIND_HUGEINT] = { "hugeint", "HUGEINT", 5 },
    [PIER_KIND_FLOAT] = { "float", "FLOAT", 6 },
    [PIER_KIND_DOUBLE] = { "double", "DOUBLE", 7 },
    [PIER_KIND_TEXT] = { "text", "VARCHAR", 8 },
    [PIER_KIND_TIMESTAMP] = { "timestamp", "TIMESTAMP", -1 },
    [PIER_KIND_JSON] = { "json", "JSON", -1 },
    /* The SQL dialect's further kinds: values of declared tables' columns
     * (sqlcol.h); not yet a board column's type. */
    [PIER_KIND_UNSIGNED] = { "unsigned", NULL, -1 },
    [PIER_KIND_DECIMAL] = { "decimal", NULL, -1 },
    [PIER_KIND_BLOB] = { "blob", NULL, -1 },
    [PIER_KIND_UUID] = { "uuid", NULL, -1 },
    [PIER_KIND_DATE] = { "date", NULL, -1 },
    [PIER_KIND_TIME] = { "time", NULL, -1 },
    [PIER_KIND_DATETIME] = { "datetime", NULL, -1 },
    [PIER_KIND_INTERVAL] = { "interval", NULL, -1 },
    [PIER_KIND_ARRAY] = { "array", NULL, -1 },
};

#define NTYPES (sizeof types / sizeof types[0])

static const type_info *info_of(pier_kind kind)
{
    if ((unsigned)kind >= NTYPES || types[kind].name == NULL)
        return NULL;
    return &types[kind];
}

PIER_API const char *pier_kind_name(pier_kind kind)
{
    const type_info *ti = info_of(kind);
    return ti != NULL ? ti->name : "unknown";
}

bool pier__type_parse(pier__type *out, const char *spelling)
{
    if (spelling == NULL)
        return false;
    size_t n = strlen(spelling);
    for (size_t k = 0; k < NTYPES; k++) {
        const type_info *ti = &types[k];
        if (ti->sql == NULL)
            continue;
        if (pier__name_eq(spelling, n, ti->name, strlen(ti->name)) ||
            pier__name_eq(spelling, n, ti->sql, strlen(ti->sql))) {
            out->kind = (pier_kind)k;
            return true;
        }
    }
    return false;
}

const char *pier__type_name(pier__type t)
{
    return pier_kind_name(t.kind);
}

int pier__type_rank(pier__type t)
{
    const type_info *ti = info_of(t.kind);
    return ti != NULL ? ti->rank : -1;
}

pier__type pier__type_lub(pier__type a, pier__type b)
{
    if (a.kind == PIER_KIND_NULL)
        return b;
    if (b.kind == PIER_KIND_NULL || a.kind == b.kind)
        return a;
    int ra = pier__type_rank(a), rb = pier__type_rank(b);
    if (ra >= 0 && rb >= 0)
        return ra >= rb ? a : b;
    /* Mixed off-lattice types (timestamp, json) meet only in text, which
     * renders every value. */
    return (pier__type){ PIER_KIND_TEXT };
}

bool pier__type_can_widen(pier__type from, pier__type to)
{
    if (from.kind == to.kind)
        return true;
    if (from.kind == PIER_KIND_JSON && to.kind == PIER_KIND_TEXT)
        return true;
    int rf = pier__type_rank(from), rt = pier__type_rank(to);
    return rf >= 0 && rt >= 0 && rt >= rf;
}

bool pier__type_widen_rewrites(pier__type from, pier__type to)
{
    /* Text cells and json cells (canonical text) already read as text;
     * every other encoding must be rendered. A widening that is not
     * allowed rewrites nothing. */
    return pier__type_can_widen(from, to) && to.kind == PIER_KIND_TEXT &&
           from.kind != PIER_KIND_TEXT && from.kind != PIER_KIND_JSON;
}

pier__type pier__value_type(const pier__value *v)
{
    return (pier__type){ v->kind };
}
