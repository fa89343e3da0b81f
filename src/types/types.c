/*
 * types.c: the registry of logical types: their spellings, their place on
 * the widening lattice, and the rules that follow from that place (least
 * upper bound, which widenings are allowed and which rewrite cells).
 *
 * The table `types` is the single source of truth for the board
 * vocabulary: adding a kind is one row here, and every question about
 * names or ranks reads that row. The SQL dialect's types that boards take
 * by declaration (decimal(12,2), uuid, text[]...) are parsed by the
 * dialect's own parser (spelling.c) and described by a pier__typex; they
 * sit off the lattice and widen only to text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "types/sqlcol.h"

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
     * (sqlcol.h), and of board columns that declare a dialect type
     * (pier__type.x, which names the type in full). */
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

/* ---- spellings ---- */

/* The board kind a scalar dialect base stands for, or PIER_KIND_NULL when
 * boards hold it as a dialect type (or not at all: BLOB, ANY). */
static pier_kind board_kind_of(pier__base b)
{
    switch (b) {
    case PIER__B_INT8: return PIER_KIND_TINYINT;
    case PIER__B_INT16: return PIER_KIND_SMALLINT;
    case PIER__B_INT32: return PIER_KIND_INTEGER;
    case PIER__B_INT64: return PIER_KIND_BIGINT;
    case PIER__B_INT128: return PIER_KIND_HUGEINT;
    case PIER__B_FLOAT32: return PIER_KIND_FLOAT;
    case PIER__B_DOUBLE: return PIER_KIND_DOUBLE;
    case PIER__B_TEXT: return PIER_KIND_TEXT;
    case PIER__B_BOOLEAN: return PIER_KIND_BOOLEAN;
    case PIER__B_INSTANT: return PIER_KIND_TIMESTAMP;
    case PIER__B_JSON: return PIER_KIND_JSON;
    default: return PIER_KIND_NULL;
    }
}

/* The dialect base of an array element named by the board vocabulary
 * ("integer" is INT32 here, as the board's integer is). */
static bool board_element(const char *s, size_t n, pier__base *out)
{
    static const struct {
        const char *name;
        pier__base base;
    } elements[] = {
        { "boolean", PIER__B_BOOLEAN }, { "tinyint", PIER__B_INT8 },
        { "smallint", PIER__B_INT16 },  { "integer", PIER__B_INT32 },
        { "bigint", PIER__B_INT64 },    { "hugeint", PIER__B_INT128 },
        { "float", PIER__B_FLOAT32 },   { "double", PIER__B_DOUBLE },
        { "text", PIER__B_TEXT },       { "timestamp", PIER__B_INSTANT },
    };
    for (size_t k = 0; k < sizeof elements / sizeof *elements; k++)
        if (pier__name_eq(s, n, elements[k].name, strlen(elements[k].name))) {
            *out = elements[k].base;
            return true;
        }
    return false;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A spelling "T []", "T[][]"... whose T is a board element name: its base
 * and how many dimensions it has (more than the two allowed, too); 0 for
 * any other spelling. */
static int board_array(const char *s, size_t n, pier__base *base)
{
    int d = 0;
    for (;;) {
        while (n > 0 && is_space(s[n - 1]))
            n--;
        if (n == 0 || s[n - 1] != ']')
            break;
        n--;
        while (n > 0 && is_space(s[n - 1]))
            n--;
        if (n == 0 || s[n - 1] != '[')
            return 0;
        n--;
        d++;
    }
    while (n > 0 && is_space(s[n - 1]))
        n--;
    return d > 0 && board_element(s, n, base) ? d : 0;
}

/* Whether the spelling's first word is one of the dialect's names, so
 * that a refusal is about the rest of it (its parameters, its brackets)
 * and says why. Not the board's own names: the dialect refuses some of
 * them ("BIGINT is not supported"), which a board takes. */
static bool known_word(const char *s, size_t n)
{
    static const char *const words[] = {
        "uint8", "uint16", "uint32", "uint64", "decimal", "varchar",
        "enum", "uuid", "date", "time", "datetime", "interval", "int8",
        "int16", "int32", "int64", "int128", "float32", "real", "double",
        "text", "boolean", "bool", "instant", "json", "blob", "bytea",
        "any",
    };
    size_t len = 0;
    while (len < n && ((s[len] >= 'a' && s[len] <= 'z') ||
                       (s[len] >= 'A' && s[len] <= 'Z') ||
                       (s[len] >= '0' && s[len] <= '9') || s[len] == '_'))
        len++;
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
        if (pier__name_eq(s, len, words[k], strlen(words[k])))
            return true;
    return false;
}

/* The canonical spelling of a dialect type as a board names it: the
 * element's board name where it has one, else the dialect's spelling in
 * lowercase (ENUM labels kept as they are). */
static void write_name(pier__buf *out, const pier__sqltype *t,
                       const char *labels)
{
    pier_kind k = board_kind_of(t->base);
    if (k != PIER_KIND_NULL) {
        pier__buf_puts(out, types[k].name);
    } else {
        pier__sqltype scalar = *t;
        scalar.dims = 0;
        size_t start = out->len;
        pier__sqltype_write(out, &scalar, labels);
        bool quoted = false;
        for (size_t i = start; !out->oom && i < out->len; i++) {
            char c = out->p[i];
            if (c == '\'')
                quoted = !quoted;     /* '' inside a label toggles twice */
            else if (!quoted && c >= 'A' && c <= 'Z')
                out->p[i] = (char)(c - 'A' + 'a');
        }
    }
    for (int d = 0; d < t->dims; d++)
        pier__buf_puts(out, "[]");
}

static void set_why(char why[PIER__TYPE_WHY], const char *reason)
{
    snprintf(why, PIER__TYPE_WHY, "%s", reason);
}

pier_status pier__type_parse(pier__type *out, const char *spelling,
                             char why[PIER__TYPE_WHY])
{
    why[0] = '\0';
    if (spelling == NULL)
        return PIER_E_UNKNOWN_TYPE;
    size_t n = strlen(spelling);
    for (size_t k = 0; k < NTYPES; k++) {
        const type_info *ti = &types[k];
        if (ti->sql == NULL)
            continue;
        if (pier__name_eq(spelling, n, ti->name, strlen(ti->name)) ||
            pier__name_eq(spelling, n, ti->sql, strlen(ti->sql))) {
            *out = (pier__type){ (pier_kind)k, NULL };
            return PIER_OK;
        }
    }
    if (n == 0 || is_space(spelling[0]) || is_space(spelling[n - 1]))
        return PIER_E_UNKNOWN_TYPE;
    pier__sqltype t;
    pier__buf labels;
    pier__buf_init(&labels);
    pier__sqltype_error e;
    memset(&t, 0, sizeof t);
    t.dims = board_array(spelling, n, &t.base);
    if (t.dims > 2) {
        pier__buf_free(&labels);
        set_why(why, "arrays have at most two dimensions (T[][])");
        return PIER_E_UNKNOWN_TYPE;
    }
    if (t.dims == 0) {
        const char *refused = pier__sqltype_parse(spelling, n, &t, &labels,
                                                  &e);
        if (refused != NULL) {
            pier__buf_free(&labels);
            if (strcmp(refused, "out of memory") == 0)
                return PIER_E_OUT_OF_MEMORY;
            if (known_word(spelling, n))
                set_why(why, refused);
            return PIER_E_UNKNOWN_TYPE;
        }
    }
    if (t.base == PIER__B_BLOB || t.base == PIER__B_ANY ||
        t.base == PIER__B_CHANGESET) {
        pier__buf_free(&labels);
        set_why(why, t.base == PIER__B_BLOB
                    ? "blob is not a board type: JSON cannot carry bytes "
                      "(keep them as text, or in a declared table)"
                : t.base == PIER__B_CHANGESET
                    ? "changeset is not a board type: JSON cannot carry "
                      "bytes (keep changesets in a declared table)"
                    : "any is not a board type: a board column has one "
                      "type (use json for mixed values)");
        return PIER_E_UNKNOWN_TYPE;
    }
    if (labels.oom) {
        pier__buf_free(&labels);
        return PIER_E_OUT_OF_MEMORY;
    }
    pier_kind k = board_kind_of(t.base);
    if (t.dims == 0 && k != PIER_KIND_NULL) {     /* an alias */
        pier__buf_free(&labels);
        *out = (pier__type){ k, NULL };
        return PIER_OK;
    }
    pier__buf name;
    pier__buf_init(&name);
    write_name(&name, &t, labels.p);
    pier__typex *x = NULL;
    if (!name.oom)
        x = malloc(sizeof *x + name.len + 1 + labels.len);
    if (x != NULL) {
        memcpy(x->text, name.p, name.len + 1);
        if (labels.len > 0)
            memcpy(x->text + name.len + 1, labels.p, labels.len);
        x->c.t = t;
        x->c.labels = t.base == PIER__B_ENUM ? x->text + name.len + 1
                                             : NULL;
    }
    pier__buf_free(&name);
    pier__buf_free(&labels);
    if (x == NULL)
        return PIER_E_OUT_OF_MEMORY;
    *out = (pier__type){ pier__coltype_kind(&x->c), x };
    return PIER_OK;
}

const char *pier__type_name(pier__type t)
{
    return t.x != NULL ? t.x->text : pier_kind_name(t.kind);
}

/* The bytes of x's allocation after the struct: the spelling, then the
 * labels (each with its NUL). */
static size_t typex_text_size(const pier__typex *x)
{
    size_t n = strlen(x->text) + 1;
    const char *label = x->text + n;
    for (size_t k = 0; x->c.labels != NULL && k < x->c.t.nlabels; k++) {
        size_t len = strlen(label) + 1;
        n += len;
        label += len;
    }
    return n;
}

bool pier__type_copy(pier__type *out, pier__type t)
{
    *out = (pier__type){ t.kind, NULL };
    if (t.x == NULL)
        return true;
    size_t n = typex_text_size(t.x);
    pier__typex *x = malloc(sizeof *x + n);
    if (x == NULL)
        return false;
    memcpy(x, t.x, sizeof *x + n);
    if (x->c.labels != NULL)
        x->c.labels = x->text + (t.x->c.labels - t.x->text);
    out->x = x;
    return true;
}

void pier__type_free(pier__type *t)
{
    if (t == NULL)
        return;
    free(t->x);
    t->x = NULL;
}

bool pier__type_eq(pier__type a, pier__type b)
{
    if (a.kind != b.kind || (a.x == NULL) != (b.x == NULL))
        return false;
    return a.x == NULL || strcmp(a.x->text, b.x->text) == 0;
}

int pier__type_rank(pier__type t)
{
    if (t.x != NULL)
        return -1;
    const type_info *ti = info_of(t.kind);
    return ti != NULL ? ti->rank : -1;
}

pier__type pier__type_lub(pier__type a, pier__type b)
{
    if (a.kind == PIER_KIND_NULL)
        return b;
    if (b.kind == PIER_KIND_NULL || (a.kind == b.kind && a.x == NULL &&
                                     b.x == NULL))
        return a;
    int ra = pier__type_rank(a), rb = pier__type_rank(b);
    if (ra >= 0 && rb >= 0)
        return ra >= rb ? a : b;
    /* Mixed off-lattice types (timestamp, json) meet only in text, which
     * renders every value. */
    return (pier__type){ PIER_KIND_TEXT, NULL };
}

bool pier__type_can_widen(pier__type from, pier__type to)
{
    if (pier__type_eq(from, to))
        return true;
    if (to.x != NULL)                 /* nothing widens into the dialect's */
        return false;
    if ((from.x != NULL || from.kind == PIER_KIND_JSON) &&
        to.kind == PIER_KIND_TEXT)
        return true;
    int rf = pier__type_rank(from), rt = pier__type_rank(to);
    return rf >= 0 && rt >= 0 && rt >= rf;
}

bool pier__type_widen_rewrites(pier__type from, pier__type to)
{
    /* Text cells, json cells (canonical text) and the cells of the
     * dialect's types stored as their canonical text already read as
     * text; every other encoding must be rendered. A widening that is not
     * allowed rewrites nothing. */
    if (!pier__type_can_widen(from, to) || to.kind != PIER_KIND_TEXT ||
        to.x != NULL)
        return false;
    if (from.x != NULL)
        return strcmp(pier__coltype_storage(&from.x->c), "TEXT") != 0;
    return from.kind != PIER_KIND_TEXT && from.kind != PIER_KIND_JSON;
}

pier__type pier__value_type(const pier__value *v)
{
    return (pier__type){ v->kind, NULL };
}
