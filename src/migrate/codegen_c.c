/*
 * codegen_c.c: the shapes of codegen.h as a C header over pier.h: for
 * each object a struct per shape, with `has` and `null` flags where a shape
 * lets a column be left out or null, a read helper over pier_row, and
 * write helpers (tables: a parameterised INSERT and an UPDATE by primary
 * key through pier_exec; boards: pier_insert_rows and pier_update_rows).
 * The helpers the objects share are written once, under the prefix.
 */
#include <stdio.h>
#include <string.h>

#include "migrate/codegen.h"

typedef pier__codegen gen;
typedef pier__cgobject object;
typedef pier__cgfield field;

/* The C representation of a column's values. */
typedef enum ctype {
    CT_I8, CT_I16, CT_I32, CT_I64, CT_U8, CT_U16, CT_U32, CT_U64,
    CT_HUGE, CT_FLOAT, CT_DOUBLE, CT_BOOL, CT_BYTES, CT_TEXT
} ctype;

static ctype ctype_of(const field *f)
{
    if (f->t.dims > 0)
        return CT_TEXT;             /* arrays: their JSON text */
    switch (f->t.base) {
    case PIER__B_INT8: return CT_I8;
    case PIER__B_INT16: return CT_I16;
    case PIER__B_INT32: return CT_I32;
    case PIER__B_INT64: return CT_I64;
    case PIER__B_UINT8: return CT_U8;
    case PIER__B_UINT16: return CT_U16;
    case PIER__B_UINT32: return CT_U32;
    case PIER__B_UINT64: return CT_U64;
    case PIER__B_INT128: return CT_HUGE;
    case PIER__B_FLOAT32: return CT_FLOAT;
    case PIER__B_DOUBLE: return CT_DOUBLE;
    case PIER__B_BOOLEAN: return CT_BOOL;
    case PIER__B_BLOB: return CT_BYTES;
    case PIER__B_CHANGESET: return CT_BYTES;
    default: return CT_TEXT;
    }
}

/* Per C type: the member's type, the read helper's suffix, the table
 * binder's and the board setter's. */
static const struct {
    const char *decl;
    const char *get;
    const char *bind;
    const char *set;
} ctypes[] = {
    [CT_I8] = { "int8_t", "i8", "int", "int" },
    [CT_I16] = { "int16_t", "i16", "int", "int" },
    [CT_I32] = { "int32_t", "i32", "int", "int" },
    [CT_I64] = { "int64_t", "i64", "int", "int" },
    [CT_U8] = { "uint8_t", "u8", "int", "uint" },
    [CT_U16] = { "uint16_t", "u16", "int", "uint" },
    [CT_U32] = { "uint32_t", "u32", "int", "uint" },
    [CT_U64] = { "uint64_t", "u64", "uint", "uint" },
    [CT_HUGE] = { "pier_hugeint", "huge", "huge", "huge" },
    [CT_FLOAT] = { "float", "float", "real", "real" },
    [CT_DOUBLE] = { "double", "double", "real", "real" },
    [CT_BOOL] = { "bool", "bool", "bool", "bool" },
    [CT_BYTES] = { NULL, "bytes", "bytes", NULL },
    [CT_TEXT] = { "const char *", "text", "text", "text" },
};

/* Writes `s` as the body of a C string literal: quotes, backslashes and
 * question marks (no trigraphs) escaped, bytes outside printable ASCII as
 * three-digit octal escapes, which never swallow the next character. */
static void c_chars(gen *g, const char *s)
{
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\' || c == '?')
            pier__buf_printf(&g->out, "\\%c", c);
        else if (c < 0x20 || c > 0x7e)
            pier__buf_printf(&g->out, "\\%03o", c);
        else
            pier__buf_putc(&g->out, (char)c);
    }
}

static void c_string(gen *g, const char *s)
{
    pier__buf_putc(&g->out, '"');
    c_chars(g, s);
    pier__buf_putc(&g->out, '"');
}

/* `name` as an SQL identifier ("a""b") inside a C string literal. */
static void c_sql_name(gen *g, const char *name)
{
    pier__buf_puts(&g->out, "\\\"");
    for (const char *p = name; *p != '\0'; p++) {
        char one[2] = { *p, '\0' };
        c_chars(g, one);
        if (*p == '"')
            c_chars(g, one);
    }
    pier__buf_puts(&g->out, "\\\"");
}

/* `s` inside a comment: printable ASCII, no comment end, no trigraph. */
static void c_comment(gen *g, const char *s)
{
    char prev = '\0';
    for (; *s != '\0'; s++) {
        char c = *s;
        if ((unsigned char)c < 0x20 || (unsigned char)c > 0x7e)
            c = '.';
        if ((prev == '*' && c == '/') || (prev == '?' && c == '?') ||
            (prev == '/' && c == '*'))
            pier__buf_putc(&g->out, ' ');
        pier__buf_putc(&g->out, c);
        prev = c;
    }
}

/* The helpers every generated header carries, under its prefix. */
static const char *const c_helpers[] = {
"/* Bytes of a BLOB column. Read, they are borrowed like text. */\n"
"struct @_bytes {\n"
"    const void *bytes;\n"
"    size_t len;\n"
"};\n"
"\n",
"/* Fills *err as the library's calls do; returns `status`. */\n"
"static inline pier_status @__fail(pier_error *err, pier_status status,\n"
"                                   const char *object, const char *column,\n"
"                                   const char *what)\n"
"{\n"
"    if (err != NULL) {\n"
"        memset(err, 0, sizeof *err);\n"
"        err->status = status;\n"
"        err->tag = pier_status_tag(status);\n"
"        err->offset = -1;\n"
"        snprintf(err->message, sizeof err->message,\n"
"                 \"column '%s' of '%s' %s\", column, object, what);\n"
"        snprintf(err->board, sizeof err->board, \"%s\", object);\n"
"        snprintf(err->column, sizeof err->column, \"%s\", column);\n"
"    }\n"
"    return status;\n"
"}\n"
"\n",
"/* The row's value of `column`: *v NULL when it is null, which `is_null`\n"
" * (NULL for a column that is never null) records. */\n"
"static inline pier_status @__value(const pier_value **v, bool *is_null,\n"
"                                   const pier_row *row, const char *object,\n"
"                                   const char *column, pier_error *err)\n"
"{\n"
"    *v = pier_row_find(row, column);\n"
"    if (*v == NULL)\n"
"        return @__fail(err, PIER_E_UNKNOWN_COLUMN, object, column,\n"
"                       \"is not in the row\");\n"
"    if ((*v)->kind != PIER_KIND_NULL && (*v)->text != NULL)\n"
"        return PIER_OK;\n"
"    *v = NULL;\n"
"    if (is_null == NULL)\n"
"        return @__fail(err, PIER_E_CONSTRAINT_NOT_NULL, object, column,\n"
"                       \"is null\");\n"
"    *is_null = true;\n"
"    return PIER_OK;\n"
"}\n"
"\n",
"static inline bool @__is_int(const pier_value *v)\n"
"{\n"
"    return v->kind == PIER_KIND_TINYINT || v->kind == PIER_KIND_SMALLINT ||\n"
"           v->kind == PIER_KIND_INTEGER || v->kind == PIER_KIND_BIGINT;\n"
"}\n"
"\n",
"/* An integer within [lo, hi], of any integer kind. */\n"
"static inline pier_status @__int(int64_t *out, bool *is_null,\n"
"                                 const pier_row *row, const char *object,\n"
"                                 const char *column, int64_t lo, int64_t hi,\n"
"                                 pier_error *err)\n"
"{\n"
"    const pier_value *v = NULL;\n"
"    pier_status rc = @__value(&v, is_null, row, object, column, err);\n"
"    if (rc != PIER_OK || v == NULL)\n"
"        return rc;\n"
"    int64_t i = 0;\n"
"    if (@__is_int(v))\n"
"        i = v->as.integer;\n"
"    else if (v->kind == PIER_KIND_BOOLEAN)\n"
"        i = v->as.boolean;\n"
"    else if (v->kind == PIER_KIND_UNSIGNED &&\n"
"             v->as.unsigned_integer <= (uint64_t)INT64_MAX)\n"
"        i = (int64_t)v->as.unsigned_integer;\n"
"    else if (v->kind == PIER_KIND_HUGEINT &&\n"
"             (v->as.hugeint.hi == 0 || v->as.hugeint.hi == -1) &&\n"
"             (v->as.hugeint.lo > (uint64_t)INT64_MAX) ==\n"
"                 (v->as.hugeint.hi == -1))  /* within 64 bits */\n"
"        i = (int64_t)v->as.hugeint.lo;\n"
"    else\n"
"        return @__fail(err, PIER_E_COLUMN_TYPE_CONFLICT, object, column,\n"
"                       \"is not an integer within 64 bits\");\n"
"    if (i < lo || i > hi)\n"
"        return @__fail(err, PIER_E_COLUMN_TYPE_CONFLICT, object, column,\n"
"                       \"is out of its type's range\");\n"
"    *out = i;\n"
"    return PIER_OK;\n"
"}\n"
"\n",
"static inline pier_status @__uint(uint64_t *out, bool *is_null,\n"
"                                  const pier_row *row, const char *object,\n"
"                                  const char *column, uint64_t hi,\n"
"                                  pier_error *err)\n"
"{\n"
"    const pier_value *v = NULL;\n"
"    pier_status rc = @__value(&v, is_null, row, object, column, err);\n"
"    if (rc != PIER_OK || v == NULL)\n"
"        return rc;\n"
"    uint64_t u = 0;\n"
"    if (v->kind == PIER_KIND_UNSIGNED)\n"
"        u = v->as.unsigned_integer;\n"
"    else if (@__is_int(v) && v->as.integer >= 0)\n"
"        u = (uint64_t)v->as.integer;\n"
"    else if (v->kind == PIER_KIND_HUGEINT && v->as.hugeint.hi == 0)\n"
"        u = v->as.hugeint.lo;\n"
"    else\n"
"        return @__fail(err, PIER_E_COLUMN_TYPE_CONFLICT, object, column,\n"
"                       \"is not an unsigned integer within 64 bits\");\n"
"    if (u > hi)\n"
"        return @__fail(err, PIER_E_COLUMN_TYPE_CONFLICT, object, column,\n"
"                       \"is out of its type's range\");\n"
"    *out = u;\n"
"    return PIER_OK;\n"
"}\n"
"\n",
"#define @__SIGNED(T, NAME, LO, HI)                                      \\\n"
"    static inline pier_status @__get_##NAME(T *out, bool *is_null,       \\\n"
"        const pier_row *row, const char *object, const char *column,     \\\n"
"        pier_error *err)                                                 \\\n"
"    {                                                                    \\\n"
"        int64_t i = 0;                                                   \\\n"
"        pier_status rc = @__int(&i, is_null, row, object, column, LO, HI, \\\n"
"                                err);                                    \\\n"
"        *out = (T)i;                                                     \\\n"
"        return rc;                                                       \\\n"
"    }\n"
"@__SIGNED(int8_t, i8, INT8_MIN, INT8_MAX)\n"
"@__SIGNED(int16_t, i16, INT16_MIN, INT16_MAX)\n"
"@__SIGNED(int32_t, i32, INT32_MIN, INT32_MAX)\n"
"@__SIGNED(int64_t, i64, INT64_MIN, INT64_MAX)\n"
"#undef @__SIGNED\n"
"\n",
"#define @__UNSIGNED(T, NAME, HI)                                        \\\n"
"    static inline pier_status @__get_##NAME(T *out, bool *is_null,       \\\n"
"        const pier_row *row, const char *object, const char *column,     \\\n"
"        pier_error *err)                                                 \\\n"
"    {                                                                    \\\n"
"        uint64_t u = 0;                                                  \\\n"
"        pier_status rc = @__uint(&u, is_null, row, object, column, HI,   \\\n"
"                                 err);                                   \\\n"
"        *out = (T)u;                                                     \\\n"
"        return rc;                                                       \\\n"
"    }\n"
"@__UNSIGNED(uint8_t, u8, UINT8_MAX)\n"
"@__UNSIGNED(uint16_t, u16, UINT16_MAX)\n"
"@__UNSIGNED(uint32_t, u32, UINT32_MAX)\n"
"@__UNSIGNED(uint64_t, u64, UINT64_MAX)\n"
"#undef @__UNSIGNED\n"
"\n",
"static inline pier_status @__get_huge(pier_hugeint *out, bool *is_null,\n"
"                                      const pier_row *row,\n"
"                                      const char *object,\n"
"                                      const char *column, pier_error *err)\n"
"{\n"
"    const pier_value *v = NULL;\n"
"    pier_status rc = @__value(&v, is_null, row, object, column, err);\n"
"    if (rc != PIER_OK || v == NULL)\n"
"        return rc;\n"
"    if (v->kind == PIER_KIND_HUGEINT) {\n"
"        *out = v->as.hugeint;\n"
"    } else if (@__is_int(v)) {\n"
"        out->hi = v->as.integer < 0 ? -1 : 0;\n"
"        out->lo = (uint64_t)v->as.integer;\n"
"    } else if (v->kind == PIER_KIND_UNSIGNED) {\n"
"        out->hi = 0;\n"
"        out->lo = v->as.unsigned_integer;\n"
"    } else {\n"
"        return @__fail(err, PIER_E_COLUMN_TYPE_CONFLICT, object, column,\n"
"                       \"is not an integer\");\n"
"    }\n"
"    return PIER_OK;\n"
"}\n"
"\n",
"static inline pier_status @__get_double(double *out, bool *is_null,\n"
"                                        const pier_row *row,\n"
"                                        const char *object,\n"
"                                        const char *column, pier_error *err)\n"
"{\n"
"    const pier_value *v = NULL;\n"
"    pier_status rc = @__value(&v, is_null, row, object, column, err);\n"
"    if (rc != PIER_OK || v == NULL)\n"
"        return rc;\n"
"    if (v->kind == PIER_KIND_FLOAT || v->kind == PIER_KIND_DOUBLE)\n"
"        *out = v->as.real;\n"
"    else if (@__is_int(v))\n"
"        *out = (double)v->as.integer;\n"
"    else\n"
"        return @__fail(err, PIER_E_COLUMN_TYPE_CONFLICT, object, column,\n"
"                       \"is not a number\");\n"
"    return PIER_OK;\n"
"}\n"
"\n",
"static inline pier_status @__get_float(float *out, bool *is_null,\n"
"                                       const pier_row *row,\n"
"                                       const char *object,\n"
"                                       const char *column, pier_error *err)\n"
"{\n"
"    double d = 0;\n"
"    pier_status rc = @__get_double(&d, is_null, row, object, column, err);\n"
"    *out = (float)d;\n"
"    return rc;\n"
"}\n"
"\n",
"static inline pier_status @__get_bool(bool *out, bool *is_null,\n"
"                                      const pier_row *row,\n"
"                                      const char *object,\n"
"                                      const char *column, pier_error *err)\n"
"{\n"
"    const pier_value *v = NULL;\n"
"    pier_status rc = @__value(&v, is_null, row, object, column, err);\n"
"    if (rc != PIER_OK || v == NULL)\n"
"        return rc;\n"
"    if (v->kind == PIER_KIND_BOOLEAN)\n"
"        *out = v->as.boolean;\n"
"    else if (@__is_int(v) && (v->as.integer == 0 || v->as.integer == 1))\n"
"        *out = v->as.integer == 1;\n"
"    else\n"
"        return @__fail(err, PIER_E_COLUMN_TYPE_CONFLICT, object, column,\n"
"                       \"is not a boolean\");\n"
"    return PIER_OK;\n"
"}\n"
"\n",
"static inline pier_status @__get_bytes(struct @_bytes *out, bool *is_null,\n"
"                                       const pier_row *row,\n"
"                                       const char *object,\n"
"                                       const char *column, pier_error *err)\n"
"{\n"
"    const pier_value *v = NULL;\n"
"    pier_status rc = @__value(&v, is_null, row, object, column, err);\n"
"    if (rc != PIER_OK || v == NULL)\n"
"        return rc;\n"
"    if (v->kind != PIER_KIND_BLOB)\n"
"        return @__fail(err, PIER_E_COLUMN_TYPE_CONFLICT, object, column,\n"
"                       \"is not a blob\");\n"
"    out->bytes = v->as.blob.bytes;\n"
"    out->len = v->as.blob.len;\n"
"    return PIER_OK;\n"
"}\n"
"\n",
"/* Any value, as its canonical text. */\n"
"static inline pier_status @__get_text(const char **out, bool *is_null,\n"
"                                      const pier_row *row,\n"
"                                      const char *object,\n"
"                                      const char *column, pier_error *err)\n"
"{\n"
"    const pier_value *v = NULL;\n"
"    pier_status rc = @__value(&v, is_null, row, object, column, err);\n"
"    if (rc == PIER_OK && v != NULL)\n"
"        *out = v->text;\n"
"    return rc;\n"
"}\n"
"\n",
"/* A 128-bit integer's digits; `out` holds 41 bytes. */\n"
"static inline void @__huge_digits(pier_hugeint v, char *out)\n"
"{\n"
"    uint64_t hi = (uint64_t)v.hi, lo = v.lo;\n"
"    bool negative = v.hi < 0;\n"
"    char digits[40];\n"
"    size_t n = 0, k = 0;\n"
"    if (negative) {                   /* the magnitude, two's complement */\n"
"        lo = ~lo + 1;\n"
"        hi = ~hi + (lo == 0 ? 1 : 0);\n"
"    }\n"
"    do {                              /* divide by 10 in 32-bit limbs */\n"
"        uint64_t limb[4] = { hi >> 32, hi & 0xffffffffu, lo >> 32,\n"
"                             lo & 0xffffffffu };\n"
"        uint64_t r = 0;\n"
"        for (int j = 0; j < 4; j++) {\n"
"            uint64_t cur = r << 32 | limb[j];\n"
"            limb[j] = cur / 10;\n"
"            r = cur % 10;\n"
"        }\n"
"        hi = limb[0] << 32 | limb[1];\n"
"        lo = limb[2] << 32 | limb[3];\n"
"        digits[n++] = (char)('0' + r);\n"
"    } while (hi != 0 || lo != 0);\n"
"    if (negative)\n"
"        out[k++] = '-';\n"
"    while (n > 0)\n"
"        out[k++] = digits[--n];\n"
"    out[k] = '\\0';\n"
"}\n"
"\n",
"/* Binding a table's parameters: a null, or the value. */\n"
"static inline pier_status @__bind_int(pier_params *p, const char *name,\n"
"                                      int64_t v, bool null, pier_error *err)\n"
"{\n"
"    return null ? pier_params_set_null(p, name, err)\n"
"                : pier_params_set_int64(p, name, v, err);\n"
"}\n"
"\n",
"static inline pier_status @__bind_text(pier_params *p, const char *name,\n"
"                                       const char *v, bool null,\n"
"                                       pier_error *err)\n"
"{\n"
"    return null || v == NULL ? pier_params_set_null(p, name, err)\n"
"                             : pier_params_set_text(p, name, v, err);\n"
"}\n"
"\n",
"/* UINT64 columns hold digits: bound as text, any value fits. */\n"
"static inline pier_status @__bind_uint(pier_params *p, const char *name,\n"
"                                       uint64_t v, bool null,\n"
"                                       pier_error *err)\n"
"{\n"
"    char digits[24];\n"
"    snprintf(digits, sizeof digits, \"%\" PRIu64, v);\n"
"    return @__bind_text(p, name, digits, null, err);\n"
"}\n"
"\n",
"static inline pier_status @__bind_huge(pier_params *p, const char *name,\n"
"                                       pier_hugeint v, bool null,\n"
"                                       pier_error *err)\n"
"{\n"
"    char digits[48];\n"
"    @__huge_digits(v, digits);\n"
"    return @__bind_text(p, name, digits, null, err);\n"
"}\n"
"\n",
"static inline pier_status @__bind_real(pier_params *p, const char *name,\n"
"                                       double v, bool null, pier_error *err)\n"
"{\n"
"    return null ? pier_params_set_null(p, name, err)\n"
"                : pier_params_set_double(p, name, v, err);\n"
"}\n"
"\n",
"static inline pier_status @__bind_bool(pier_params *p, const char *name,\n"
"                                       bool v, bool null, pier_error *err)\n"
"{\n"
"    return null ? pier_params_set_null(p, name, err)\n"
"                : pier_params_set_bool(p, name, v, err);\n"
"}\n"
"\n",
"static inline pier_status @__bind_bytes(pier_params *p, const char *name,\n"
"                                        struct @_bytes v, bool null,\n"
"                                        pier_error *err)\n"
"{\n"
"    return null || (v.bytes == NULL && v.len > 0)\n"
"               ? pier_params_set_null(p, name, err)\n"
"               : pier_params_set_blob(p, name,\n"
"                                      v.bytes != NULL ? v.bytes : \"\",\n"
"                                      v.len, err);\n"
"}\n"
"\n",
"/* Setting a board row's columns: a null, or the value. */\n"
"static inline pier_status @__set_int(pier_rows *r, const char *column,\n"
"                                     int64_t v, bool null, pier_error *err)\n"
"{\n"
"    return null ? pier_rows_set_null(r, column, err)\n"
"                : pier_rows_set_int64(r, column, v, err);\n"
"}\n"
"\n",
"static inline pier_status @__set_text(pier_rows *r, const char *column,\n"
"                                      const char *v, bool null,\n"
"                                      pier_error *err)\n"
"{\n"
"    return null || v == NULL ? pier_rows_set_null(r, column, err)\n"
"                             : pier_rows_set_text(r, column, v, err);\n"
"}\n"
"\n",
"/* uint8 .. uint32 take integers, uint64 integers or digits. */\n"
"static inline pier_status @__set_uint(pier_rows *r, const char *column,\n"
"                                      uint64_t v, bool null,\n"
"                                      pier_error *err)\n"
"{\n"
"    char digits[24];\n"
"    if (null || v <= (uint64_t)INT64_MAX)\n"
"        return @__set_int(r, column, (int64_t)v, null, err);\n"
"    snprintf(digits, sizeof digits, \"%\" PRIu64, v);\n"
"    return pier_rows_set_text(r, column, digits, err);\n"
"}\n"
"\n",
"static inline pier_status @__set_huge(pier_rows *r, const char *column,\n"
"                                      pier_hugeint v, bool null,\n"
"                                      pier_error *err)\n"
"{\n"
"    return null ? pier_rows_set_null(r, column, err)\n"
"                : pier_rows_set_hugeint(r, column, v, err);\n"
"}\n"
"\n",
"static inline pier_status @__set_real(pier_rows *r, const char *column,\n"
"                                      double v, bool null, pier_error *err)\n"
"{\n"
"    return null ? pier_rows_set_null(r, column, err)\n"
"                : pier_rows_set_double(r, column, v, err);\n"
"}\n"
"\n",
"static inline pier_status @__set_bool(pier_rows *r, const char *column,\n"
"                                      bool v, bool null, pier_error *err)\n"
"{\n"
"    return null ? pier_rows_set_null(r, column, err)\n"
"                : pier_rows_set_bool(r, column, v, err);\n"
"}\n"
"\n",
"/* json and array columns: the document's text. */\n"
"static inline pier_status @__set_json(pier_rows *r, const char *column,\n"
"                                      const char *v, bool null,\n"
"                                      pier_error *err)\n"
"{\n"
"    return null || v == NULL ? pier_rows_set_null(r, column, err)\n"
"                             : pier_rows_set_json(r, column, v, err);\n"
"}\n"
"\n",
"/* Runs a statement made of `head`, then for each column with on[i]\n"
" * names[i] and its parameter :c<i> as `each` (an INSERT's column list\n"
" * and VALUES, or an UPDATE's SET), then `tail`. *rowid (INSERT) or\n"
" * *changed (UPDATE) may be NULL. */\n"
"static inline pier_status @__run(int64_t *rowid, int64_t *changed,\n"
"                                 pier_engine *engine, const char *table,\n"
"                                 const char *const *names, const bool *on,\n"
"                                 size_t n, const char *where,\n"
"                                 pier_params *p, pier_error *err)\n"
"{\n"
"    size_t cap = strlen(table) + (where != NULL ? strlen(where) : 0) + 64;\n"
"    for (size_t i = 0; i < n; i++)\n"
"        cap += strlen(names[i]) + 32;\n"
"    char *sql = (char *)malloc(cap);\n"
"    if (sql == NULL)\n"
"        return @__fail(err, PIER_E_OUT_OF_MEMORY, table, \"\",\n"
"                       \"cannot be written: out of memory\");\n"
"    size_t len = 0, k = 0;\n"
"    bool any = false;\n"
"    for (size_t i = 0; i < n; i++)\n"
"        any = any || on[i];\n"
"    if (where != NULL) {\n"
"        len += (size_t)snprintf(sql, cap, \"UPDATE %s SET \", table);\n"
"        for (size_t i = 0; i < n; i++)\n"
"            if (on[i])\n"
"                len += (size_t)snprintf(sql + len, cap - len,\n"
"                                        \"%s%s = :c%zu\", "
"k++ > 0 ? \", \" : \"\",\n"
"                                        names[i], i);\n"
"        snprintf(sql + len, cap - len, \" WHERE %s\", where);\n"
"    } else if (!any) {\n"
"        snprintf(sql, cap,\n"
"                 \"INSERT INTO %s DEFAULT VALUES RETURNING rowid\", table);\n"
"    } else {\n"
"        len += (size_t)snprintf(sql, cap, \"INSERT INTO %s (\", table);\n"
"        for (size_t i = 0; i < n; i++)\n"
"            if (on[i])\n"
"                len += (size_t)snprintf(sql + len, cap - len, \"%s%s\",\n"
"                                        k++ > 0 ? \", \" : \"\", names[i]);\n"
"        len += (size_t)snprintf(sql + len, cap - len, \") VALUES (\");\n"
"        k = 0;\n"
"        for (size_t i = 0; i < n; i++)\n"
"            if (on[i])\n"
"                len += (size_t)snprintf(sql + len, cap - len, \"%s:c%zu\",\n"
"                                        k++ > 0 ? \", \" : \"\", i);\n"
"        snprintf(sql + len, cap - len, \") RETURNING rowid\");\n"
"    }\n"
"    pier_status rc = PIER_OK;\n"
"    if (where != NULL && !any) {      /* nothing to set: nothing runs */\n"
"        if (changed != NULL)\n"
"            *changed = 0;\n"
"    } else {\n"
"        pier_cursor *c = NULL;\n"
"        rc = pier_exec(&c, engine, sql, p, err);\n"
"        if (rc == PIER_OK && rowid != NULL) {\n"
"            const pier_row *r = NULL;\n"
"            rc = pier_cursor_next(&r, c, err);\n"
"            if (rc == PIER_OK && r != NULL)\n"
"                *rowid = pier_row_value(r, 0)->as.integer;\n"
"        }\n"
"        if (rc == PIER_OK && changed != NULL)\n"
"            *changed = pier_cursor_changes(c);\n"
"        pier_cursor_close(c);\n"
"    }\n"
"    free(sql);\n"
"    return rc;\n"
"}\n"
"\n",
};

/* Writes `text` with every '@' as the prefix: "@_bytes" is db_bytes,
 * "@__fail" db__fail. */
static void c_template(gen *g, const char *text)
{
    for (const char *p = text; *p != '\0'; p++) {
        if (*p == '@')
            pier__buf_puts(&g->out, g->prefix);
        else
            pier__buf_putc(&g->out, *p);
    }
}

/* "db_notes" and "DB_NOTES". */
static void c_name(gen *g, const object *o)
{
    pier__buf_printf(&g->out, "%s_%s", g->prefix, o->ident);
}

static void c_macro(gen *g, const object *o)
{
    pier__buf_puts(&g->out, g->upper);
    pier__buf_putc(&g->out, '_');
    for (const char *p = o->ident; *p != '\0'; p++)
        pier__buf_putc(&g->out, (char)(*p >= 'a' && *p <= 'z' ? *p - 32
                                                               : *p));
}

/* A member's declaration, its column's name (when the identifier differs)
 * and type in a comment. */
static void c_member(gen *g, const field *f)
{
    pier__buf *b = &g->out;
    size_t start = b->len;
    ctype ct = ctype_of(f);
    if (ct == CT_BYTES)
        pier__buf_printf(b, "    struct %s_bytes %s;", g->prefix, f->ident);
    else
        pier__buf_printf(b, "    %s%s%s;", ctypes[ct].decl,
                         ct == CT_TEXT ? "" : " ", f->ident);
    size_t width = b->len - start;
    for (; width < 36; width++)
        pier__buf_putc(b, ' ');
    pier__buf_puts(b, " /* ");
    if (strcmp(f->ident, f->name) != 0) {
        pier__buf_putc(b, '\'');
        c_comment(g, f->name);
        pier__buf_puts(b, "' ");
    }
    c_comment(g, f->spelling);
    if (ct == CT_TEXT && f->t.dims == 0 && f->t.base != PIER__B_TEXT &&
        f->t.base != PIER__B_VARCHAR && f->t.base != PIER__B_ENUM)
        pier__buf_puts(b, ", as text");
    else if (f->t.dims > 0)
        pier__buf_puts(b, ", as JSON");
    pier__buf_puts(b, " */\n");
}

/* The `has` and `null` flags of a shape: structs of one bool a column,
 * left out when no column needs one. */
static void c_flags(gen *g, const object *o, pier__cgshape s)
{
    pier__buf *b = &g->out;
    static const char *const names[] = { "has", "null" };
    static const char *const why[] = {
        "true: give the column (else: its default, its generated value "
        "or null)",
        "true: the column is null",
    };
    for (int which = 0; which < 2; which++) {
        if (which == 0 && s == PIER__SHAPE_SELECT)
            continue;
        bool any = false;
        for (size_t i = 0; i < o->nfields; i++) {
            const field *f = &o->fields[i];
            if (!pier__cgfield_in(f, s))
                continue;
            bool flag = which == 0 ? !(s == PIER__SHAPE_INSERT && f->required)
                                   : f->nullable;
            if (!flag)
                continue;
            if (!any)
                pier__buf_printf(b, "    /* %s */\n    struct {\n",
                                 which == 0 && s == PIER__SHAPE_UPDATE
                                     ? "true: set the column"
                                     : why[which]);
            any = true;
            pier__buf_printf(b, "        bool %s;\n", f->ident);
        }
        if (any)
            pier__buf_printf(b, "    } %s;\n", names[which]);
    }
}

static void c_struct(gen *g, const object *o, pier__cgshape s)
{
    pier__buf *b = &g->out;
    static const char *const what[][2] = {
        { "A row as Pier reads it (", "_read): text and bytes are\n * "
          "borrowed from the row they were read from, until it is released." },
        { "A new row (", "_insert_row): has.X gives column X, null.X\n"
          " * makes it null." },
        { "An update (", "_update_row): has.X sets column X, null.X\n"
          " * sets it to null. READONLY columns are not here." },
    };
    char name[160];
    snprintf(name, sizeof name, "%s_%s", g->prefix, o->ident);
    pier__buf_printf(b, "/* %s%s%s */\nstruct %s_%s {\n", what[s][0], name,
                     what[s][1], name, pier__cgshape_names[s]);
    bool any = false;
    for (size_t i = 0; i < o->nfields; i++)
        if (pier__cgfield_in(&o->fields[i], s)) {
            c_member(g, &o->fields[i]);
            any = true;
        }
    if (!any)       /* C has no empty struct */
        pier__buf_puts(b, "    char unused; /* no column */\n");
    c_flags(g, o, s);
    pier__buf_puts(b, "};\n\n");
}

static void c_read(gen *g, const object *o)
{
    pier__buf *b = &g->out;
    pier__buf_puts(b, "/* Reads a row of ");
    c_comment(g, o->name);
    pier__buf_puts(b, " into *out, from a row of pier_exec, pier_query\n"
                      " * or pier_row_get with its columns.\n"
                      " * @return PIER_E_UNKNOWN_COLUMN if the row lacks "
                      "one;\n *         PIER_E_CONSTRAINT_NOT_NULL or "
                      "PIER_E_COLUMN_TYPE_CONFLICT for a\n *         value "
                      "the shape cannot hold. */\nstatic inline pier_status ");
    c_name(g, o);
    pier__buf_puts(b, "_read(\n    struct ");
    c_name(g, o);
    pier__buf_puts(b, "_select *out, const pier_row *row, "
                      "pier_error *err)\n{\n    pier_status rc = PIER_OK;\n"
                      "    memset(out, 0, sizeof *out);\n");
    for (size_t i = 0; i < o->nfields; i++) {
        const field *f = &o->fields[i];
        pier__buf_printf(b, "    if (rc == PIER_OK)\n        rc = %s__get_%s"
                            "(&out->%s, ", g->prefix,
                         ctypes[ctype_of(f)].get, f->ident);
        if (f->nullable)
            pier__buf_printf(b, "&out->null.%s", f->ident);
        else
            pier__buf_puts(b, "NULL");
        pier__buf_puts(b, ", row, ");
        c_string(g, o->name);
        pier__buf_puts(b, ",\n                ");
        c_string(g, f->name);
        pier__buf_puts(b, ", err);\n");
    }
    pier__buf_puts(b, "    return rc;\n}\n\n");
}

/* The statement binding one field `f` (index i) of `src` as :c<i>. */
static void c_bind(gen *g, const field *f, size_t i, const char *src,
                   const char *mark, bool flagged)
{
    ctype ct = ctype_of(f);
    pier__buf_printf(&g->out, "rc = %s__bind_%s(p, \":%s%zu\", ", g->prefix,
                     ctypes[ct].bind, mark, i);
    if (ct == CT_I8 || ct == CT_I16 || ct == CT_I32 || ct == CT_U8 ||
        ct == CT_U16 || ct == CT_U32)
        pier__buf_printf(&g->out, "(int64_t)%s->%s", src, f->ident);
    else
        pier__buf_printf(&g->out, "%s->%s", src, f->ident);
    if (flagged && f->nullable)
        pier__buf_printf(&g->out, ", %s->null.%s, err);\n", src, f->ident);
    else
        pier__buf_puts(&g->out, ", false, err);\n");
}

/* The column names of a table, quoted for SQL, as a C array. */
static void c_names(gen *g, const object *o)
{
    pier__buf *b = &g->out;
    pier__buf_printf(b, "    static const char *const names[%zu] = {\n",
                     o->nfields);
    for (size_t i = 0; i < o->nfields; i++) {
        pier__buf_puts(b, "        \"");
        c_sql_name(g, o->fields[i].name);
        pier__buf_puts(b, "\",\n");
    }
    pier__buf_printf(b, "    };\n    bool on[%zu] = { false };\n",
                     o->nfields);
}

static void c_params_open(gen *g, const object *o)
{
    pier__buf_puts(&g->out, "    pier_params *p = pier_params_new();\n"
                            "    pier_status rc = p != NULL ? PIER_OK\n"
                            "        : ");
    pier__buf_printf(&g->out, "%s__fail(err, PIER_E_OUT_OF_MEMORY, ",
                     g->prefix);
    c_string(g, o->name);
    pier__buf_puts(&g->out, ", \"\",\n                 \"cannot be written: "
                            "out of memory\");\n");
}

static void c_table_insert(gen *g, const object *o)
{
    pier__buf *b = &g->out;
    pier__buf_puts(b, "/* Inserts a row into ");
    c_comment(g, o->name);
    pier__buf_puts(b, "; *rowid (may be NULL) receives its rowid\n"
                      " * (an INT64 primary key's value).\n"
                      " * @return the errors of pier_exec. */\n"
                      "static inline pier_status ");
    c_name(g, o);
    pier__buf_puts(b, "_insert_row(int64_t *rowid,\n    pier_engine *engine, "
                      "const struct ");
    c_name(g, o);
    pier__buf_puts(b, "_insert *row,\n    pier_error *err)\n{\n");
    c_names(g, o);
    c_params_open(g, o);
    for (size_t i = 0; i < o->nfields; i++) {
        const field *f = &o->fields[i];
        if (f->required)
            pier__buf_puts(b, "    if (rc == PIER_OK) {\n");
        else
            pier__buf_printf(b, "    if (rc == PIER_OK && row->has.%s) {\n",
                             f->ident);
        pier__buf_printf(b, "        on[%zu] = true;\n        ", i);
        c_bind(g, f, i, "row", "c", true);
        pier__buf_puts(b, "    }\n");
    }
    pier__buf_printf(b, "    if (rc == PIER_OK)\n        rc = %s__run(rowid, "
                        "NULL, engine, \"", g->prefix);
    c_sql_name(g, o->name);
    pier__buf_printf(b, "\", names, on,\n                   %zu, NULL, p, "
                        "err);\n    pier_params_free(p);\n    return rc;\n"
                        "}\n\n", o->nfields);
}

static void c_table_update(gen *g, const object *o)
{
    pier__buf *b = &g->out;
    pier__buf_puts(b, "/* The primary key of the row an update changes. */\n"
                      "struct ");
    c_name(g, o);
    pier__buf_puts(b, "_key {\n");
    for (size_t k = 0; k < o->nkeys; k++)
        c_member(g, &o->fields[o->keys[k]]);
    pier__buf_puts(b, "};\n\n/* Updates the row of ");
    c_comment(g, o->name);
    pier__buf_puts(b, " with this key: the columns set->has\n"
                      " * names. *changed (may be NULL): the rows changed, 0 "
                      "or 1 (0 when set\n * names no column: nothing runs)."
                      "\n * @return the errors of pier_exec. */\n"
                      "static inline pier_status ");
    c_name(g, o);
    pier__buf_puts(b, "_update_row(int64_t *changed,\n    pier_engine "
                      "*engine, const struct ");
    c_name(g, o);
    pier__buf_puts(b, "_key *key,\n    const struct ");
    c_name(g, o);
    pier__buf_puts(b, "_update *set, pier_error *err)\n{\n");
    c_names(g, o);
    c_params_open(g, o);
    for (size_t k = 0; k < o->nkeys; k++) {
        pier__buf_puts(b, "    if (rc == PIER_OK)\n        ");
        c_bind(g, &o->fields[o->keys[k]], k, "key", "k", false);
    }
    for (size_t i = 0; i < o->nfields; i++) {
        const field *f = &o->fields[i];
        if (!f->update)
            continue;
        pier__buf_printf(b, "    if (rc == PIER_OK && set->has.%s) {\n"
                            "        on[%zu] = true;\n        ", f->ident, i);
        c_bind(g, f, i, "set", "c", true);
        pier__buf_puts(b, "    }\n");
    }
    pier__buf_printf(b, "    if (rc == PIER_OK)\n        rc = %s__run(NULL, "
                        "changed, engine, \"", g->prefix);
    c_sql_name(g, o->name);
    pier__buf_printf(b, "\", names, on,\n                   %zu, \"",
                     o->nfields);
    for (size_t k = 0; k < o->nkeys; k++) {
        if (k > 0)
            pier__buf_puts(b, " AND ");
        c_sql_name(g, o->fields[o->keys[k]].name);
        pier__buf_printf(b, " = :k%zu", k);
    }
    pier__buf_puts(b, "\", p, err);\n    pier_params_free(p);\n"
                      "    return rc;\n}\n\n");
}

/* The statement setting field `f` of `src` on the latest row of `rows`. */
static void c_set(gen *g, const field *f, const char *src)
{
    ctype ct = ctype_of(f);
    bool json = f->t.dims > 0 || f->t.base == PIER__B_JSON;
    pier__buf_printf(&g->out, "rc = %s__set_%s(rows, ", g->prefix,
                     json ? "json" : ctypes[ct].set);
    c_string(g, f->name);
    pier__buf_puts(&g->out, ", ");
    if (ct == CT_I8 || ct == CT_I16 || ct == CT_I32)
        pier__buf_printf(&g->out, "(int64_t)%s->%s", src, f->ident);
    else if (ct == CT_U8 || ct == CT_U16 || ct == CT_U32)
        pier__buf_printf(&g->out, "(uint64_t)%s->%s", src, f->ident);
    else
        pier__buf_printf(&g->out, "%s->%s", src, f->ident);
    if (f->nullable)
        pier__buf_printf(&g->out, ", %s->null.%s, err);\n", src, f->ident);
    else
        pier__buf_puts(&g->out, ", false, err);\n");
}

static void c_rows_open(gen *g, const object *o)
{
    pier__buf_printf(&g->out, "    pier_rows *rows = pier_rows_new();\n"
                              "    pier_status rc = rows != NULL ? "
                              "pier_rows_add(rows, err)\n        : %s__fail("
                              "err, PIER_E_OUT_OF_MEMORY, ", g->prefix);
    c_string(g, o->name);
    pier__buf_puts(&g->out, ", \"\",\n                 \"cannot be written: "
                            "out of memory\");\n");
}

static void c_board_writes(gen *g, const object *o)
{
    pier__buf *b = &g->out;
    pier__buf_puts(b, "/* Inserts a row into board ");
    c_comment(g, o->name);
    pier__buf_puts(b, " (pier_insert_rows); *watermark may be\n"
                      " * NULL.\n"
                      " * @return the errors of pier_insert_rows. */\n"
                      "static inline pier_status ");
    c_name(g, o);
    pier__buf_puts(b, "_insert_row(int64_t *watermark,\n    pier_engine "
                      "*engine, const struct ");
    c_name(g, o);
    pier__buf_puts(b, "_insert *row,\n    pier_error *err)\n{\n");
    c_rows_open(g, o);
    for (size_t i = 0; i < o->nfields; i++) {
        const field *f = &o->fields[i];
        if (!f->insert)
            continue;
        if (f->required)
            pier__buf_puts(b, "    if (rc == PIER_OK)\n        ");
        else
            pier__buf_printf(b, "    if (rc == PIER_OK && row->has.%s)\n"
                                "        ", f->ident);
        c_set(g, f, "row");
    }
    pier__buf_puts(b, "    if (rc == PIER_OK)\n        rc = "
                      "pier_insert_rows(watermark, engine, ");
    c_string(g, o->name);
    pier__buf_puts(b, ", rows, err);\n    pier_rows_free(rows);\n"
                      "    return rc;\n}\n\n");

    pier__buf_puts(b, "/* Updates the row `id` of board ");
    c_comment(g, o->name);
    pier__buf_puts(b, " with the columns set->has names\n"
                      " * (pier_update_rows); *watermark may be NULL.\n"
                      " * @return PIER_E_ROW_NOT_FOUND; the errors of "
                      "pier_update_rows. */\nstatic inline pier_status ");
    c_name(g, o);
    pier__buf_puts(b, "_update_row(int64_t *watermark,\n    pier_engine "
                      "*engine, const char *id, const struct ");
    c_name(g, o);
    pier__buf_puts(b, "_update *set,\n    pier_error *err)\n{\n");
    c_rows_open(g, o);
    pier__buf_printf(b, "    if (rc == PIER_OK)\n        rc = %s__set_text("
                        "rows, \"id\", id, false, err);\n", g->prefix);
    for (size_t i = 0; i < o->nfields; i++) {
        const field *f = &o->fields[i];
        if (!f->update)
            continue;
        pier__buf_printf(b, "    if (rc == PIER_OK && set->has.%s)\n"
                            "        ", f->ident);
        c_set(g, f, "set");
    }
    pier__buf_puts(b, "    if (rc == PIER_OK)\n        rc = "
                      "pier_update_rows(watermark, engine, ");
    c_string(g, o->name);
    pier__buf_puts(b, ", rows, err);\n    pier_rows_free(rows);\n"
                      "    return rc;\n}\n\n");
}

/* The SELECT of every column: over {{board}} for a board's pier_query, the
 * object itself for pier_exec. */
static void c_select_sql(gen *g, const object *o)
{
    pier__buf *b = &g->out;
    pier__buf_puts(b, "#define ");
    c_macro(g, o);
    pier__buf_puts(b, o->kind == PIER__CG_BOARD ? "_BOARD " : "_NAME ");
    c_string(g, o->name);
    pier__buf_puts(b, "\n#define ");
    c_macro(g, o);
    pier__buf_puts(b, "_SELECT_SQL \\\n    \"SELECT ");
    size_t line = b->len - 12;          /* where this line starts */
    for (size_t i = 0; i < o->nfields; i++) {
        if (i > 0)
            pier__buf_puts(b, ", ");
        if (b->len - line > 64) {       /* go on in the next literal */
            pier__buf_puts(b, "\" \\\n    \"");
            line = b->len - 5;
        }
        c_sql_name(g, o->fields[i].name);
    }
    pier__buf_puts(b, " FROM ");
    if (o->kind == PIER__CG_BOARD)
        pier__buf_puts(b, "{{board}}");
    else
        c_sql_name(g, o->name);
    pier__buf_puts(b, "\"\n\n");
}

static void c_header(gen *g)
{
    pier__buf *b = &g->out;
    c_template(g, "/*\n"
        " * Generated by `pier schema codegen c` (pier_schema_codegen) from "
        "a\n * declaration: do not edit; generate it again when the "
        "declaration changes.\n *\n"
        " * For each table, struct @_<table>_select (a row as Pier reads it), "
        "_insert\n * (a new row) and _update (what an update sets), with "
        "@_<table>_read,\n * _insert_row and, for a table with a primary key, "
        "_update_row; for each\n * view, _select and _read; for each board "
        "the same three shapes over\n * pier_rows. Column values are C "
        "types: integers of their width,\n * pier_hugeint for 128 bits, "
        "float and double, bool, struct @_bytes for\n * blobs, and the "
        "canonical text for every other type (DECIMAL as \"12.50\",\n"
        " * INSTANT as RFC 3339, JSON and arrays as documents); see "
        "docs/migrations.md,\n * \"Code generation\".\n");
    pier__buf_puts(b, " *\n");
    static const char *const headings[] = { " * Tables:", " * Views:",
                                             " * Boards:" };
    for (int k = 0; k < 3; k++) {
        bool any = false;
        for (size_t i = 0; i < g->nobjects; i++) {
            if (g->objects[i].kind != (pier__cgkind)k)
                continue;
            pier__buf_puts(b, any ? ", " : headings[k]);
            if (!any)
                pier__buf_putc(b, ' ');
            any = true;
            c_comment(g, g->objects[i].name);
        }
        if (any)
            pier__buf_puts(b, "\n");
    }
    pier__buf_printf(b, " */\n#ifndef %s_PIER_SCHEMA_H\n"
                        "#define %s_PIER_SCHEMA_H\n\n", g->upper, g->upper);
    c_template(g, "#include <inttypes.h>\n#include <stdbool.h>\n"
                  "#include <stddef.h>\n#include <stdint.h>\n"
                  "#include <stdio.h>\n#include <stdlib.h>\n"
                  "#include <string.h>\n\n#include \"pier.h\"\n\n"
                  "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
}

void pier__codegen_c(pier__codegen *g)
{
    c_header(g);
    for (size_t i = 0; i < sizeof c_helpers / sizeof *c_helpers; i++)
        c_template(g, c_helpers[i]);
    for (size_t i = 0; i < g->nobjects; i++) {
        const object *o = &g->objects[i];
        pier__buf_printf(&g->out, "/* ---- %s ", pier__cgkind_names[o->kind]);
        c_comment(g, o->name);
        pier__buf_puts(&g->out, " ---- */\n\n");
        c_select_sql(g, o);
        c_struct(g, o, PIER__SHAPE_SELECT);
        if (o->kind != PIER__CG_VIEW) {
            c_struct(g, o, PIER__SHAPE_INSERT);
            c_struct(g, o, PIER__SHAPE_UPDATE);
        }
        c_read(g, o);
        if (o->kind == PIER__CG_TABLE && o->nfields > 0) {
            c_table_insert(g, o);
            if (o->nkeys > 0)
                c_table_update(g, o);
        } else if (o->kind == PIER__CG_BOARD) {
            c_board_writes(g, o);
        }
    }
    pier__buf_puts(&g->out, "#ifdef __cplusplus\n}\n#endif\n\n");
    pier__buf_printf(&g->out, "#endif /* %s_PIER_SCHEMA_H */\n", g->upper);
}

