/*
 * codegen.c: pier_schema_codegen: a declaration read (decl.c) and made into
 * the objects and fields of codegen.h, whose shapes codegen_json.c and
 * codegen_c.c write: which columns a new row must give, which an update
 * may set, which may be null, and the C identifiers they go by.
 */
#include <stdio.h>
#include <string.h>

#include "migrate/codegen.h"

typedef pier__codegen gen;
typedef pier__cgobject object;
typedef pier__cgfield field;

const char *const pier__cgkind_names[3] = { "table", "view", "board" };
const char *const pier__cgshape_names[3] = { "select", "insert", "update" };

bool pier__cgfield_in(const pier__cgfield *f, pier__cgshape s)
{
    return s == PIER__SHAPE_SELECT ||
           (s == PIER__SHAPE_INSERT ? f->insert : f->update);
}

/* ---- identifiers ---- */

/* Names a C or C++ compiler would read as something else, and the two
 * members every shape's flags live in. */
static const char *const reserved_words[] = {
    "has", "null",
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand",
    "bitor", "bool", "break", "case", "catch", "char", "char16_t",
    "char32_t", "char8_t", "class", "co_await", "co_return", "co_yield",
    "compl", "concept", "const", "const_cast", "consteval", "constexpr",
    "constinit", "continue", "decltype", "default", "delete", "do",
    "double", "dynamic_cast", "else", "enum", "explicit", "export",
    "extern", "false", "float", "for", "friend", "goto", "if", "inline",
    "int", "long", "mutable", "namespace", "new", "noexcept", "not",
    "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected",
    "public", "register", "reinterpret_cast", "requires", "restrict",
    "return", "short", "signed", "sizeof", "static", "static_assert",
    "static_cast", "struct", "switch", "template", "this", "thread_local",
    "throw", "true", "try", "typedef", "typeid", "typename", "union",
    "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while",
    "xor", "xor_eq", "_Alignas", "_Alignof", "_Atomic", "_Bool",
    "_Complex", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert",
    "_Thread_local",
    /* object-like macros of the headers the output includes */
    "NULL", "EOF", "BUFSIZ", "FILENAME_MAX", "FOPEN_MAX", "L_tmpnam",
    "SEEK_CUR", "SEEK_END", "SEEK_SET", "TMP_MAX", "stdin", "stdout",
    "stderr", "errno", "EXIT_SUCCESS", "EXIT_FAILURE", "RAND_MAX",
    "MB_CUR_MAX", "unix", "linux",
};

/* Prefixes of the other macros those headers (and pier.h) define:
 * INT8_MAX, PRId64, SIZE_MAX, PIER_OK... */
static const char *const reserved_prefixes[] = {
    "INT", "UINT", "PRI", "SCN", "SIZE_", "PTRDIFF_", "WCHAR_", "WINT_",
    "SIG_ATOMIC_", "PIER_",
};

static bool reserved_word(const char *s)
{
    for (size_t i = 0; i < sizeof reserved_words / sizeof *reserved_words;
         i++)
        if (strcmp(s, reserved_words[i]) == 0)
            return true;
    for (size_t i = 0;
         i < sizeof reserved_prefixes / sizeof *reserved_prefixes; i++)
        if (strncmp(s, reserved_prefixes[i], strlen(reserved_prefixes[i]))
            == 0)
            return true;
    return false;
}

static bool ident_taken(char *const *taken, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (taken[i] != NULL && pier__name_eq(taken[i], strlen(taken[i]), s,
                                              strlen(s)))
            return true;
    return false;
}

/*
 * A C identifier for `name`: each byte outside [A-Za-z0-9_] becomes '_', a
 * name not starting with a letter gains "c_", a reserved word a trailing
 * '_'; one the others already took (ASCII case aside, since macros are in
 * capitals) gains "_2", "_3"... NULL if out of memory.
 */
static char *make_ident(gen *g, const char *name, char *const *taken,
                        size_t ntaken)
{
    size_t n = strlen(name);
    char *s = pier__arena_alloc(&g->arena, n + 16);
    if (s == NULL)
        return NULL;
    size_t k = 0;
    char c0 = name[0];
    if (!((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z'))) {
        s[k++] = 'c';               /* no digit first, no reserved _X */
        s[k++] = '_';
    }
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  (c >= '0' && c <= '9') || c == '_';
        s[k++] = ok ? c : '_';
    }
    s[k] = '\0';
    if (reserved_word(s)) {
        s[k++] = '_';
        s[k] = '\0';
    }
    for (unsigned d = 2; ident_taken(taken, ntaken, s); d++)
        snprintf(s + k, n + 16 - k, "_%u", d);
    return s;
}

static void *zalloc(gen *g, size_t n, size_t size)
{
    if (n == 0 || n > SIZE_MAX / size)
        return NULL;
    void *m = pier__arena_alloc(&g->arena, n * size);
    if (m != NULL)
        memset(m, 0, n * size);
    return m;
}

/* A board type in the dialect's terms: the vocabulary's kinds map onto
 * the dialect's types of the same values. */
static void board_type(field *f, pier__type bt)
{
    const pier__coltype *c = pier__type_sql(bt);
    if (c != NULL) {
        f->t = c->t;
        f->labels = c->labels;
        return;
    }
    memset(&f->t, 0, sizeof f->t);
    switch (bt.kind) {
    case PIER_KIND_BOOLEAN: f->t.base = PIER__B_BOOLEAN; break;
    case PIER_KIND_TINYINT: f->t.base = PIER__B_INT8; break;
    case PIER_KIND_SMALLINT: f->t.base = PIER__B_INT16; break;
    case PIER_KIND_INTEGER: f->t.base = PIER__B_INT32; break;
    case PIER_KIND_BIGINT: f->t.base = PIER__B_INT64; break;
    case PIER_KIND_HUGEINT: f->t.base = PIER__B_INT128; break;
    case PIER_KIND_FLOAT: f->t.base = PIER__B_FLOAT32; break;
    case PIER_KIND_DOUBLE: f->t.base = PIER__B_DOUBLE; break;
    case PIER_KIND_TIMESTAMP: f->t.base = PIER__B_INSTANT; break;
    case PIER_KIND_JSON: f->t.base = PIER__B_JSON; break;
    default: f->t.base = PIER__B_TEXT; break;
    }
}

/* Gives each field of `o` its identifier. */
static pier_status field_idents(gen *g, object *o, pier_error *err)
{
    char **taken = zalloc(g, o->nfields, sizeof *taken);
    if (taken == NULL && o->nfields > 0)
        return pier__oom(err);
    for (size_t i = 0; i < o->nfields; i++) {
        o->fields[i].ident = make_ident(g, o->fields[i].name, taken, i);
        if (o->fields[i].ident == NULL)
            return pier__oom(err);
        taken[i] = o->fields[i].ident;
    }
    return PIER_OK;
}

static pier_status table_object(gen *g, object *o, const pier__mtable *t,
                                pier_error *err)
{
    o->kind = PIER__CG_TABLE;
    o->name = t->name;
    o->nfields = t->ncolumns;
    o->fields = zalloc(g, t->ncolumns, sizeof *o->fields);
    if (o->fields == NULL && t->ncolumns > 0)
        return pier__oom(err);
    const pier__mkey *pk = NULL;
    for (size_t k = 0; k < t->nkeys; k++)
        if (t->keys[k].primary)
            pk = &t->keys[k];
    if (pk != NULL && pk->ncolumns > 0) {
        o->keys = zalloc(g, pk->ncolumns, sizeof *o->keys);
        if (o->keys == NULL)
            return pier__oom(err);
        memcpy(o->keys, pk->columns, pk->ncolumns * sizeof *o->keys);
        o->nkeys = pk->ncolumns;
    }
    for (size_t i = 0; i < t->ncolumns; i++) {
        const pier__mcolumn *c = &t->columns[i];
        field *f = &o->fields[i];
        f->name = c->name;
        f->t = c->type.t;
        f->labels = c->type.labels;
        f->spelling = c->spelling;
        f->nullable = !c->not_null;
        /* SQLite gives a value to AUTOINCREMENT and to the INT64 primary
         * key (the rowid alias) when a row omits it. */
        bool rowid = pk != NULL && pk->ncolumns == 1 &&
                     pk->columns[0] == i && c->type.t.base == PIER__B_INT64 &&
                     c->type.t.dims == 0;
        bool generated = c->autoincrement || rowid;
        bool has_default = c->dflt.sql != NULL || c->dflt.now;
        f->insert = true;
        f->required = c->not_null && !has_default && !generated;
        f->update = !c->readonly;
    }
    return field_idents(g, o, err);
}

static pier_status view_object(gen *g, object *o, const pier__mview *v,
                               pier_error *err)
{
    o->kind = PIER__CG_VIEW;
    o->name = v->name;
    o->nfields = v->ncolumns;
    o->fields = zalloc(g, v->ncolumns, sizeof *o->fields);
    if (o->fields == NULL && v->ncolumns > 0)
        return pier__oom(err);
    for (size_t i = 0; i < v->ncolumns; i++) {
        field *f = &o->fields[i];
        f->name = v->columns[i].name;
        f->t = v->columns[i].type.t;
        f->labels = v->columns[i].type.labels;
        f->spelling = v->columns[i].spelling;
        f->nullable = true;         /* a view declares no NOT NULL */
    }
    return field_idents(g, o, err);
}

/* A board's rows: its base columns (id, the key, required on insert;
 * updated_at, which the engine sets; state, nullable), then its declared
 * columns, which every row may leave null. */
static pier_status board_object(gen *g, object *o, const pier__mboard *b,
                                pier_error *err)
{
    o->kind = PIER__CG_BOARD;
    o->name = b->id;
    o->strict = b->strict;
    o->nfields = 3 + b->ncolumns;
    o->fields = zalloc(g, o->nfields, sizeof *o->fields);
    if (o->fields == NULL)
        return pier__oom(err);
    field *f = o->fields;
    f[0].name = "id";
    f[0].t.base = PIER__B_TEXT;
    f[0].spelling = "text";
    f[0].insert = f[0].required = true;
    f[1].name = "updated_at";
    f[1].t.base = PIER__B_INSTANT;
    f[1].spelling = "timestamp";
    f[2].name = "state";
    f[2].t.base = PIER__B_TEXT;
    f[2].spelling = "text";
    f[2].nullable = f[2].insert = f[2].update = true;
    for (size_t i = 0; i < b->ncolumns; i++) {
        field *c = &f[3 + i];
        c->name = b->columns[i].name;
        board_type(c, b->columns[i].type);
        c->spelling = pier__type_name(b->columns[i].type);
        c->nullable = c->insert = c->update = true;
    }
    return field_idents(g, o, err);
}

static pier_status build(gen *g, const pier__schema *s, pier_error *err)
{
    size_t n = s->ntables + s->nviews + s->nboards;
    if (n == 0)
        return PIER_OK;
    g->objects = zalloc(g, n, sizeof *g->objects);
    char **taken = zalloc(g, n, sizeof *taken);
    if (g->objects == NULL || taken == NULL)
        return pier__oom(err);
    pier_status rc = PIER_OK;
    for (size_t i = 0; rc == PIER_OK && i < s->ntables; i++)
        rc = table_object(g, &g->objects[g->nobjects++], &s->tables[i],
                          err);
    for (size_t i = 0; rc == PIER_OK && i < s->nviews; i++)
        rc = view_object(g, &g->objects[g->nobjects++], &s->views[i], err);
    for (size_t i = 0; rc == PIER_OK && i < s->nboards; i++)
        rc = board_object(g, &g->objects[g->nobjects++], &s->boards[i],
                          err);
    for (size_t i = 0; rc == PIER_OK && i < g->nobjects; i++) {
        object *o = &g->objects[i];
        if ((o->ident = make_ident(g, o->name, taken, i)) == NULL)
            return pier__oom(err);
        taken[i] = o->ident;
    }
    return rc;
}

/* ---- the entry point ---- */

/* A prefix is a C identifier of at most 32 bytes. */
static bool prefix_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 32 || (s[0] >= '0' && s[0] <= '9'))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return false;
    return true;
}

PIER_API pier_status pier_schema_codegen(char **out, const char *declaration,
                                         size_t len,
                                         pier_codegen_target target,
                                         const pier_codegen_options *opts,
                                         pier_error *err)
{
    pier__error_clear(err);
    if (out == NULL || (declaration == NULL && len > 0))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "pier_schema_codegen "
                          "needs an output and a declaration");
    *out = NULL;
    if (target != PIER_CODEGEN_C && target != PIER_CODEGEN_JSON_SCHEMA)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "pier_schema_codegen:"
                          " unknown target %d", (int)target);
    if (opts != NULL && opts->version != PIER_CODEGEN_OPTIONS_VERSION)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "pier_schema_codegen:"
                          " options version %u is not %d", opts->version,
                          PIER_CODEGEN_OPTIONS_VERSION);
    const char *prefix = opts != NULL && opts->prefix != NULL ? opts->prefix
                                                              : "db";
    if (!prefix_ok(prefix))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "the prefix '%.40s' "
                          "is not a C identifier of 1 to 32 letters, digits "
                          "and underscores", prefix);
    pier__schema s;
    pier_status rc = pier__schema_from_declaration(
        &s, declaration != NULL ? declaration : "", len, err);
    gen g;
    memset(&g, 0, sizeof g);
    pier__arena_init(&g.arena);
    pier__buf_init(&g.out);
    g.prefix = prefix;
    if (rc == PIER_OK) {
        g.upper = pier__arena_strndup(&g.arena, prefix, strlen(prefix));
        if (g.upper == NULL)
            rc = pier__oom(err);
    }
    if (rc == PIER_OK) {
        for (char *p = g.upper; *p != '\0'; p++)
            if (*p >= 'a' && *p <= 'z')
                *p = (char)(*p - 32);
        rc = build(&g, &s, err);
    }
    if (rc == PIER_OK) {
        if (target == PIER_CODEGEN_C)
            pier__codegen_c(&g);
        else
            pier__codegen_json(&g);
        *out = pier__buf_detach(&g.out);    /* never empty */
        if (*out == NULL)
            rc = pier__oom(err);
    }
    pier__buf_free(&g.out);
    pier__arena_free(&g.arena);
    pier__schema_free(&s);
    return rc;
}
