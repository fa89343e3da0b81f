/*
 * codegen_json.c: the shapes of codegen.h as one JSON Schema (draft
 * 2020-12) document: $defs of <name>_select, _insert and _update, each an
 * object whose properties are the columns, typed as Pier's JSON writes
 * them (select) or as a write takes them (insert, update), with the
 * shape's required list and no other members.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "migrate/codegen.h"

typedef pier__codegen gen;
typedef pier__cgobject object;
typedef pier__cgfield field;

/*
 * Which values a schema describes: what Pier writes when it reads a row
 * (canonical forms), what a write may give, or what a view's row holds
 * (canonical for a column read straight from a table, SQLite's value for a
 * computed one, so the spellings a write takes).
 */
typedef enum mode { M_READ, M_WRITE, M_VIEW } mode;

static void jstr(gen *g, const char *s)
{
    pier__buf_json_string(&g->out, s, strlen(s));
}

/* "type": "t" or ["t", "u", "null"]. */
static void jtypes(gen *g, const char *const *types, size_t n, bool null)
{
    pier__buf_puts(&g->out, "\"type\": ");
    if (n == 1 && !null) {
        jstr(g, types[0]);
        return;
    }
    pier__buf_putc(&g->out, '[');
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            pier__buf_puts(&g->out, ", ");
        jstr(g, types[i]);
    }
    if (null)
        pier__buf_puts(&g->out, n > 0 ? ", \"null\"" : "\"null\"");
    pier__buf_putc(&g->out, ']');
}

/* An integer type's bounds, as digits. */
static void int_bounds(pier__base b, const char **lo, const char **hi)
{
    switch (b) {
    case PIER__B_INT8: *lo = "-128"; *hi = "127"; return;
    case PIER__B_INT16: *lo = "-32768"; *hi = "32767"; return;
    case PIER__B_INT32: *lo = "-2147483648"; *hi = "2147483647"; return;
    case PIER__B_INT64:
        *lo = "-9223372036854775808";
        *hi = "9223372036854775807";
        return;
    case PIER__B_UINT8: *lo = "0"; *hi = "255"; return;
    case PIER__B_UINT16: *lo = "0"; *hi = "65535"; return;
    case PIER__B_UINT32: *lo = "0"; *hi = "4294967295"; return;
    case PIER__B_UINT64: *lo = "0"; *hi = "18446744073709551615"; return;
    default:
        *lo = "-170141183460469231731687303715884105728";
        *hi = "170141183460469231731687303715884105727";
        return;
    }
}

/*
 * A DECIMAL's pattern. Read, DECIMAL(p,s) is padded to its scale ("12.50",
 * "-0.05", "7" at scale 0) and DECIMAL alone is at its smallest scale
 * ("0.1", "1000"). Written, a sign, digits and a point, at most p - s
 * significant digits before the point and s after it (more only if they are
 * zeros): Pier also takes exponents ("1e3"), which the pattern leaves out.
 */
static void decimal_pattern(char *out, size_t cap, const pier__sqltype *t,
                            mode m)
{
    int p = t->precision, s = t->scale, k = p - s;
    if (p == 0) {
        snprintf(out, cap, "%s", m == M_READ
            ? "^-?(0|[1-9][0-9]*)(\\.[0-9]*[1-9])?$"
            : "^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?$");
    } else if (m == M_READ) {
        char whole[32];
        if (k == 0)
            snprintf(whole, sizeof whole, "0");
        else if (k == 1)
            snprintf(whole, sizeof whole, "[0-9]");
        else
            snprintf(whole, sizeof whole, "(0|[1-9][0-9]{0,%d})", k - 1);
        if (s == 0)
            snprintf(out, cap, "^-?%s$", whole);
        else
            snprintf(out, cap, "^-?%s\\.[0-9]{%d}$", whole, s);
    } else {
        char whole[32], frac[32];
        if (k == 0)
            snprintf(whole, sizeof whole, "0+");
        else
            snprintf(whole, sizeof whole, "0*[0-9]{1,%d}", k);
        if (s == 0)
            snprintf(frac, sizeof frac, "0*");
        else
            snprintf(frac, sizeof frac, "[0-9]{0,%d}0*", s);
        if (s == 0)
            snprintf(out, cap, "^[+-]?(%s(\\.0*)?|0*\\.0+)$", whole);
        else
            snprintf(out, cap, "^[+-]?(%s(\\.%s)?|0*\\.[0-9]{1,%d}0*)$",
                     whole, frac, s);
    }
}

static const char instant_read[] =
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6}Z$";
static const char instant_write[] =
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}"
    "(\\.[0-9]{1,9})?([Zz]|[+-][0-9]{2}:[0-9]{2})$";
static const char date_any[] = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";
static const char time_read[] = "^[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6}$";
static const char time_write[] =
    "^[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?$";
static const char datetime_read[] =
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6}$";
static const char datetime_write[] =
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}"
    "(\\.[0-9]{1,9})?$";
/* Read: months as years and months, days, then the time (seconds with
 * their fraction's trailing zeros dropped); zero is PT0S. */
static const char interval_read[] =
    "^P(-?[0-9]+Y)?(-?[0-9]+M)?(-?[0-9]+D)?"
    "(T(-?[0-9]+H)?(-?[0-9]+M)?(-?[0-9]+(\\.[0-9]+)?S)?)?$";
/* Written: designators in this order, each at most once, a sign on any
 * part, a fraction only on the seconds; the second pattern asks for at
 * least one part. */
static const char interval_write[] =
    "^[Pp]([-+]?[0-9]+[Yy])?([-+]?[0-9]+[Mm])?([-+]?[0-9]+[Ww])?"
    "([-+]?[0-9]+[Dd])?([Tt](([-+]?[0-9]+[Hh])([-+]?[0-9]+[Mm])?"
    "([-+]?[0-9]+([.,][0-9]{1,9})?[Ss])?|([-+]?[0-9]+[Mm])"
    "([-+]?[0-9]+([.,][0-9]{1,9})?[Ss])?|[-+]?[0-9]+([.,][0-9]{1,9})?"
    "[Ss]))?$";
static const char interval_some[] = "^[Pp][Tt]?[-+0-9]";
static const char uuid_read[] =
    "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$";
static const char uuid_write[] =
    "^([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-"
    "[0-9A-Fa-f]{12}|[0-9A-Fa-f]{32})$";
static const char blob_hex[] = "^([0-9A-F]{2})*$";

static void jkey(gen *g, const char *key)
{
    pier__buf_puts(&g->out, ", ");
    jstr(g, key);
    pier__buf_puts(&g->out, ": ");
}

/* The schema of one value of type `t` (its element type when depth > 0),
 * on one line. */
static void value_schema(gen *g, const field *f, pier__sqltype t,
                         pier__cgkind on, mode m, bool null)
{
    const char *types[3] = { NULL, NULL, NULL };
    size_t ntypes = 0;
    pier__buf *b = &g->out;
    pier__buf_putc(b, '{');
    if (t.dims > 0) {
        const char *arr[2] = { "array", "string" };
        /* a view's computed array reads as SQLite's text */
        jtypes(g, arr, m == M_VIEW ? 2 : 1, null);
        pier__buf_puts(b, ", \"items\": ");
        pier__sqltype e = t;
        e.dims--;
        value_schema(g, f, e, on, m, true);
        pier__buf_putc(b, '}');
        return;
    }
    const char *pattern = NULL, *format = NULL, *lo = NULL, *hi = NULL;
    const char *also = NULL;            /* a second pattern, in allOf */
    char decimal[160];
    switch (t.base) {
    case PIER__B_INT8: case PIER__B_INT16: case PIER__B_INT32:
    case PIER__B_INT64: case PIER__B_UINT8: case PIER__B_UINT16:
    case PIER__B_UINT32: case PIER__B_UINT64: case PIER__B_INT128:
        int_bounds(t.base, &lo, &hi);
        types[ntypes++] = "integer";
        /* UINT64 and a table's INT128 take digit strings too (JSON
         * parameters carry 64-bit integers only; a board's hugeint takes
         * numbers of any width, never strings); Pier writes numbers. */
        if (m != M_READ && (t.base == PIER__B_UINT64 ||
                            (t.base == PIER__B_INT128 &&
                             on != PIER__CG_BOARD))) {
            types[ntypes++] = "string";
            pattern = t.base == PIER__B_UINT64 ? "^[0-9]{1,20}$"
                                               : "^-?[0-9]{1,39}$";
        }
        break;
    case PIER__B_FLOAT32:
    case PIER__B_DOUBLE:
        types[ntypes++] = "number";
        break;
    case PIER__B_DECIMAL:
        types[ntypes++] = "string";
        decimal_pattern(decimal, sizeof decimal, &t, m == M_VIEW ? M_WRITE
                                                                 : m);
        pattern = decimal;
        break;
    case PIER__B_TEXT:
    case PIER__B_VARCHAR:
        types[ntypes++] = "string";
        break;
    case PIER__B_ENUM:
        break;
    case PIER__B_BOOLEAN:
        types[ntypes++] = "boolean";
        if (m == M_VIEW) {          /* a computed one: SQLite's 0 or 1 */
            types[ntypes++] = "integer";
            lo = "0";
            hi = "1";
        }
        break;
    case PIER__B_BLOB:
    case PIER__B_CHANGESET:
        types[ntypes++] = "string";
        pattern = blob_hex;
        break;
    case PIER__B_UUID:
        types[ntypes++] = "string";
        pattern = m == M_READ ? uuid_read : uuid_write;
        format = m == M_READ ? "uuid" : NULL;
        break;
    case PIER__B_INSTANT:
        types[ntypes++] = "string";
        pattern = m == M_READ ? instant_read : instant_write;
        format = m == M_READ ? "date-time" : NULL;
        break;
    case PIER__B_DATE:
        types[ntypes++] = "string";
        pattern = date_any;
        format = "date";
        break;
    case PIER__B_TIME:
        types[ntypes++] = "string";
        pattern = m == M_READ ? time_read : time_write;
        break;
    case PIER__B_DATETIME:
        types[ntypes++] = "string";
        pattern = m == M_READ ? datetime_read : datetime_write;
        break;
    case PIER__B_INTERVAL:
        types[ntypes++] = "string";
        pattern = m == M_READ ? interval_read : interval_write;
        also = m == M_READ ? NULL : interval_some;
        break;
    case PIER__B_JSON:
        /* Any document reads back as itself. Written, a board takes an
         * object or an array; a table's parameter binds an object or an
         * array as its JSON text and a number as itself (a string would
         * bind as text that must itself be JSON, a boolean as 1 or 0). */
        if (m == M_WRITE) {
            types[ntypes++] = "object";
            types[ntypes++] = "array";
            if (on != PIER__CG_BOARD)
                types[ntypes++] = "number";
        }
        break;
    case PIER__B_ANY:
        break;
    }
    bool first = true;
    if (t.base == PIER__B_ENUM) {
        pier__buf_puts(b, "\"enum\": [");
        const char *l = f->labels;
        for (size_t i = 0; i < t.nlabels; i++, l += strlen(l) + 1) {
            if (i > 0)
                pier__buf_puts(b, ", ");
            jstr(g, l);
        }
        if (null)
            pier__buf_puts(b, t.nlabels > 0 ? ", null" : "null");
        pier__buf_putc(b, ']');
        first = false;
    } else if (ntypes > 0) {
        jtypes(g, types, ntypes, null);
        first = false;
    }
    if (lo != NULL) {
        pier__buf_printf(b, "%s\"minimum\": %s, \"maximum\": %s",
                         first ? "" : ", ", lo, hi);
        first = false;
    }
    if (t.base == PIER__B_VARCHAR)
        pier__buf_printf(b, ", \"maxLength\": %" PRId64, t.length);
    if (pattern != NULL) {
        jkey(g, "pattern");
        jstr(g, pattern);
    }
    if (also != NULL) {
        pier__buf_puts(b, ", \"allOf\": [{\"pattern\": ");
        jstr(g, also);
        pier__buf_puts(b, "}]");
    }
    if (format != NULL) {
        jkey(g, "format");
        jstr(g, format);
    }
    if (t.base == PIER__B_BLOB || t.base == PIER__B_CHANGESET) {
        jkey(g, "contentEncoding");
        jstr(g, "base16");
    }
    pier__buf_putc(b, '}');
}

static void json_shape(gen *g, const object *o, pier__cgshape s, bool last)
{
    pier__buf *b = &g->out;
    char key[160];
    snprintf(key, sizeof key, "%s_%s", o->name, pier__cgshape_names[s]);
    pier__buf_puts(b, "    ");
    jstr(g, key);
    pier__buf_puts(b, ": {\n      \"title\": ");
    static const char *const what[] = {
        "a row as Pier reads it", "a new row", "what an update may set",
    };
    char title[200];
    snprintf(title, sizeof title, "%s %s: %s", pier__cgkind_names[o->kind],
             o->name, what[s]);
    jstr(g, title);
    pier__buf_puts(b, ",\n      \"type\": \"object\",\n"
                      "      \"properties\": {");
    mode m = s != PIER__SHAPE_SELECT ? M_WRITE
             : o->kind == PIER__CG_VIEW ? M_VIEW : M_READ;
    bool any = false;
    for (size_t i = 0; i < o->nfields; i++) {
        const field *f = &o->fields[i];
        if (!pier__cgfield_in(f, s))
            continue;
        pier__buf_puts(b, any ? ",\n        " : "\n        ");
        any = true;
        jstr(g, f->name);
        pier__buf_puts(b, ": ");
        value_schema(g, f, f->t, o->kind, m, f->nullable);
    }
    pier__buf_puts(b, any ? "\n      },\n" : "},\n");
    pier__buf_puts(b, "      \"required\": [");
    any = false;
    for (size_t i = 0; i < o->nfields; i++) {
        const field *f = &o->fields[i];
        bool required = s == PIER__SHAPE_SELECT ||
                        (s == PIER__SHAPE_INSERT && f->required);
        if (!required)
            continue;
        if (any)
            pier__buf_puts(b, ", ");
        any = true;
        jstr(g, f->name);
    }
    /* A board that is not strict gains columns by inference. */
    pier__buf_printf(b, "],\n      \"additionalProperties\": %s\n    }%s\n",
                     o->kind == PIER__CG_BOARD && !o->strict ? "true" : "false",
                     last ? "" : ",");
}

void pier__codegen_json(pier__codegen *g)
{
    pier__buf *b = &g->out;
    pier__buf_puts(b, "{\n  \"$schema\": "
                      "\"https://json-schema.org/draft/2020-12/schema\",\n"
                      "  \"$comment\": \"Generated by pier schema codegen "
                      "from a declaration: <name>_select is a row as Pier "
                      "reads it, <name>_insert a new row, <name>_update "
                      "what an update may set.\",\n  \"$defs\": {");
    pier__buf_puts(b, g->nobjects > 0 ? "\n" : "");
    for (size_t i = 0; i < g->nobjects; i++) {
        const object *o = &g->objects[i];
        bool last_object = i + 1 == g->nobjects;
        if (o->kind == PIER__CG_VIEW) {
            json_shape(g, o, PIER__SHAPE_SELECT, last_object);
            continue;
        }
        json_shape(g, o, PIER__SHAPE_SELECT, false);
        json_shape(g, o, PIER__SHAPE_INSERT, false);
        json_shape(g, o, PIER__SHAPE_UPDATE, last_object);
    }
    pier__buf_puts(b, g->nobjects > 0 ? "  }\n}\n" : "}\n}\n");
}

