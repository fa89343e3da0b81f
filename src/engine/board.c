/*
 * board.c: the board lifecycle: create, has, list, describe, truncate,
 * drop, add a column, widen a column.
 *
 * Every change runs in one write transaction that also appends its change
 * record and bumps the catalog version; the cache takes the changed board
 * only once everything succeeded.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

static pier_status check_args(pier_engine *e, const char *board,
                              pier_error *err)
{
    pier__error_clear(err);
    if (e == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "no engine");
    return pier__board_id_check(board, err);
}

/* What UnknownType lists as the board vocabulary. */
#define VOCABULARY                                                        \
    "boolean, tinyint, smallint, integer, bigint, hugeint, float, "       \
    "double, text, timestamp, json, uint8, uint16, uint32, uint64, "      \
    "decimal or decimal(p,s), varchar(n), enum('a',...), uuid, date, "    \
    "time, datetime, interval, or an array T[] or T[][] of them (not of "  \
    "json)"

/* Parses a type spelling given for `column` of `board`; *out owns what
 * it parsed (pier__type_free). */
static pier_status parse_type(const char *board, const char *column,
                              const char *spelling, pier__type *out,
                              pier_error *err)
{
    char why[PIER__TYPE_WHY];
    pier_status rc = pier__type_parse(out, spelling, why);
    if (rc == PIER_E_OUT_OF_MEMORY)
        return pier__oom(err);
    if (rc == PIER_OK)
        return PIER_OK;
    pier__buf q;
    pier__buf_init(&q);
    pier__quote_name(&q, spelling, strlen(spelling));
    if (why[0] != '\0')
        pier__fail(err, PIER_E_UNKNOWN_TYPE,
                   "type '%s' for column '%s' is refused: %s",
                   q.p != NULL ? q.p : "", column, why);
    else
        pier__fail(err, PIER_E_UNKNOWN_TYPE,
                   "unknown type '%s' for column '%s': use " VOCABULARY,
                   q.p != NULL ? q.p : "", column);
    pier__buf_free(&q);
    pier__error_board(err, board);
    pier__error_column(err, column);
    return PIER_E_UNKNOWN_TYPE;
}

/* Checks a declared column: its name (not a base column, not reserved, not
 * named twice among the first `n` declarations) and its type. */
static pier_status check_declared(const char *board,
                                  const pier_column_def *defs, size_t n,
                                  pier__type *type, pier_error *err)
{
    const pier_column_def *d = &defs[n];
    if (d->name == NULL || d->type == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "declared column %zu needs a name and a type",
                          n + 1);
    size_t len = strlen(d->name);
    pier_status rc = pier__column_name_check(d->name, len, board, err);
    if (rc != PIER_OK)
        return rc;
    if (pier__base_column_index(d->name, len) >= 0) {
        pier__fail(err, PIER_E_RESERVED_COLUMN_NAME,
                   "'%s' is a base column of every board and cannot be "
                   "redeclared", d->name);
        pier__error_board(err, board);
        pier__error_column(err, d->name);
        return PIER_E_RESERVED_COLUMN_NAME;
    }
    for (size_t i = 0; i < n; i++) {
        if (pier__name_eq(defs[i].name, strlen(defs[i].name), d->name,
                          len)) {
            pier__fail(err, PIER_E_DUPLICATE_COLUMN,
                       "column '%s' is declared twice", d->name);
            pier__error_board(err, board);
            pier__error_column(err, d->name);
            return PIER_E_DUPLICATE_COLUMN;
        }
    }
    return parse_type(board, d->name, d->type, type, err);
}

pier_status pier__board_create_in(pier__write *w, const char *board,
                                  const pier_board_options *opts,
                                  const pier_column_origin *origins,
                                  pier_error *err)
{
    pier_engine *engine = w->e;
    if (opts->version < 1 || opts->version > PIER_BOARD_OPTIONS_VERSION)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "board options version %u is not supported",
                          opts->version);
    if (opts->ncolumns > 0 && opts->columns == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "ncolumns is %zu but columns is NULL",
                          opts->ncolumns);
    if (opts->ncolumns > PIER_MAX_COLUMNS - PIER__BASE_COLUMNS)
        return pier__fail(err, PIER_E_LIMIT_EXCEEDED,
                          "a board has at most %d columns",
                          PIER_MAX_COLUMNS);
    pier__type *types = calloc(opts->ncolumns + 1, sizeof *types);
    if (types == NULL)
        return pier__oom(err);
    pier_status rc = PIER_OK;
    for (size_t i = 0; rc == PIER_OK && i < opts->ncolumns; i++)
        rc = check_declared(board, opts->columns, i, &types[i], err);
    pier__board *b = NULL;
    if (rc == PIER_OK && pier__catalog_find(&engine->catalog, board) != NULL) {
        rc = pier__fail(err, PIER_E_BOARD_EXISTS, "board '%s' already "
                        "exists", board);
        pier__error_board(err, board);
    }
    if (rc == PIER_OK) {
        b = pier__board_new(board, opts->strict, w->now);
        for (size_t i = 0; b != NULL && i < opts->ncolumns; i++) {
            const char *name = opts->columns[i].name;
            if (!pier__board_append(b, name, strlen(name), types[i],
                                    origins != NULL
                                        ? origins[i]
                                        : PIER_ORIGIN_DECLARED)) {
                pier__board_free(b);
                b = NULL;
            }
        }
        if (b == NULL)
            rc = pier__oom(err);
    }
    if (rc == PIER_OK)
        rc = engine->lake->ops->board_create(engine->lake, b, err);
    if (rc == PIER_OK)
        rc = pier__change_board_created(w, b, err);
    if (rc == PIER_OK)
        rc = pier__engine_install(engine, &b, err);
    pier__board_free(b);
    for (size_t i = 0; i < opts->ncolumns; i++)
        pier__type_free(&types[i]);
    free(types);
    return rc;
}

PIER_API pier_status pier_board_create(int64_t *watermark,
                                       pier_engine *engine,
                                       const char *board,
                                       const pier_board_options *opts,
                                       pier_error *err)
{
    static const pier_board_options defaults = PIER_BOARD_OPTIONS_INIT;
    pier_status rc = check_args(engine, board, err);
    if (rc != PIER_OK)
        return rc;
    pier__write w;
    int attempts = 0;
    do {
        rc = pier__write_begin(&w, engine, err);
        if (rc != PIER_OK)
            return rc;
        rc = pier__board_create_in(&w, board, opts != NULL ? opts : &defaults,
                                   NULL, err);
        rc = pier__write_end(&w, rc, watermark, err);
    } while (pier__write_again(&w, rc, &attempts));
    return rc;
}

PIER_API pier_status pier_board_has(bool *out, pier_engine *engine,
                                    const char *board, pier_error *err)
{
    pier_status rc = check_args(engine, board, err);
    if (rc != PIER_OK)
        return rc;
    if (out == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "no output");
    rc = pier__engine_begin(engine, false, err);
    if (rc != PIER_OK)
        return rc;
    *out = pier__catalog_find(&engine->catalog, board) != NULL;
    return pier__engine_end(engine, PIER_OK, err);
}

PIER_API pier_status pier_board_list(char ***out, pier_engine *engine,
                                     pier_error *err)
{
    pier__error_clear(err);
    if (engine == NULL || out == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_board_list needs an engine and an output");
    *out = NULL;
    pier_status rc = pier__engine_begin(engine, false, err);
    if (rc != PIER_OK)
        return rc;
    const pier__catalog *c = &engine->catalog;
    char **list = calloc(c->nboards + 1, sizeof *list);
    for (size_t i = 0; list != NULL && i < c->nboards; i++) {
        list[i] = pier__strdup(c->boards[i]->id);
        if (list[i] == NULL) {
            pier_strings_free(list);
            list = NULL;
        }
    }
    if (list == NULL)
        rc = pier__oom(err);
    rc = pier__engine_end(engine, rc, err);
    if (rc == PIER_OK)
        *out = list;
    else
        pier_strings_free(list);
    return rc;
}

/* A pier_board_info and the memory behind its strings. */
typedef struct board_info {
    pier_board_info pub;              /* first: the caller's pointer */
    pier__arena arena;
} board_info;

static board_info *describe(const pier__board *b)
{
    board_info *info = calloc(1, sizeof *info);
    if (info == NULL)
        return NULL;
    pier__arena_init(&info->arena);
    pier_column_info *cols =
        pier__arena_alloc(&info->arena, b->ncolumns * sizeof *cols);
    const char *id = pier__arena_strndup(&info->arena, b->id, strlen(b->id));
    bool ok = cols != NULL && id != NULL;
    for (size_t i = 0; ok && i < b->ncolumns; i++) {
        const pier__column *c = &b->columns[i];
        const char *type = pier__type_name(c->type);
        cols[i] = (pier_column_info){
            .id = c->id,
            .name = pier__arena_strndup(&info->arena, c->name,
                                        strlen(c->name)),
            /* A dialect type's name is the catalog's: copied, as the
             * catalog may change while the caller holds this. */
            .type = c->type.x != NULL
                ? pier__arena_strndup(&info->arena, type, strlen(type))
                : type,
            .kind = c->type.kind,
            .origin = c->origin,
        };
        ok = cols[i].name != NULL && cols[i].type != NULL;
    }
    if (!ok) {
        pier__arena_free(&info->arena);
        free(info);
        return NULL;
    }
    info->pub = (pier_board_info){
        .board = id, .strict = b->strict, .ncolumns = b->ncolumns,
        .columns = cols,
    };
    return info;
}

PIER_API pier_status pier_board_describe(pier_board_info **out,
                                         pier_engine *engine,
                                         const char *board, pier_error *err)
{
    pier_status rc = check_args(engine, board, err);
    if (rc != PIER_OK)
        return rc;
    if (out == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT, "no output");
    *out = NULL;
    rc = pier__engine_begin(engine, false, err);
    if (rc != PIER_OK)
        return rc;
    pier__board *b = NULL;
    board_info *info = NULL;
    rc = pier__engine_board(engine, board, &b, err);
    if (rc == PIER_OK && (info = describe(b)) == NULL)
        rc = pier__oom(err);
    rc = pier__engine_end(engine, rc, err);
    if (rc == PIER_OK)
        *out = &info->pub;
    else
        pier_board_info_free(info != NULL ? &info->pub : NULL);
    return rc;
}

PIER_API void pier_board_info_free(pier_board_info *info)
{
    if (info == NULL)
        return;
    board_info *impl = (board_info *)info;
    pier__arena_free(&impl->arena);
    free(impl);
}

PIER_API pier_status pier_board_truncate(int64_t *watermark,
                                         pier_engine *engine,
                                         const char *board, pier_error *err)
{
    pier_status rc = check_args(engine, board, err);
    if (rc != PIER_OK)
        return rc;
    pier__write w;
    int attempts = 0;
    do {
        rc = pier__write_begin(&w, engine, err);
        if (rc != PIER_OK)
            return rc;
        pier__board *b = NULL;
        rc = pier__engine_board(engine, board, &b, err);
        if (rc == PIER_OK)
            rc = engine->lake->ops->board_truncate(engine->lake, b, err);
        if (rc == PIER_OK)
            rc = pier__change_simple(&w, board, "truncate", "{}", err);
        rc = pier__write_end(&w, rc, watermark, err);
    } while (pier__write_again(&w, rc, &attempts));
    return rc;
}

PIER_API pier_status pier_board_drop(int64_t *watermark, pier_engine *engine,
                                     const char *board, pier_error *err)
{
    pier_status rc = check_args(engine, board, err);
    if (rc != PIER_OK)
        return rc;
    pier__write w;
    int attempts = 0;
    do {
        rc = pier__write_begin(&w, engine, err);
        if (rc != PIER_OK)
            return rc;
        rc = pier__board_drop_in(&w, board, err);
        rc = pier__write_end(&w, rc, watermark, err);
    } while (pier__write_again(&w, rc, &attempts));
    return rc;
}

pier_status pier__board_drop_in(pier__write *w, const char *board,
                                pier_error *err)
{
    pier_engine *engine = w->e;
    pier__board *b = NULL;
    int64_t version = 0;
    pier_status rc = pier__engine_board(engine, board, &b, err);
    if (rc == PIER_OK)
        rc = engine->lake->ops->board_drop(engine->lake, b, err);
    if (rc == PIER_OK)
        rc = pier__change_simple(w, board, "drop", "{\"drop\":true}", err);
    if (rc == PIER_OK)
        rc = engine->lake->ops->catalog_bump(engine->lake, &version, err);
    if (rc == PIER_OK) {
        pier__catalog_remove(&engine->catalog, board);
        engine->catalog.version = version;
    }
    return rc;
}

pier_status pier__board_add_column_in(pier__write *w, const char *board,
                                      const char *column, const char *type,
                                      pier_error *err)
{
    pier_engine *engine = w->e;
    pier_column_def def = { column, type };
    pier__type t = { PIER_KIND_NULL, NULL };
    pier_status rc = check_declared(board, &def, 0, &t, err);
    if (rc != PIER_OK)
        return rc;
    pier__board *b = NULL, *draft = NULL;
    rc = pier__engine_board(engine, board, &b, err);
    if (rc != PIER_OK)
        goto done;
    ptrdiff_t at = pier__board_find(b, column, strlen(column));
    if (at >= 0) {
        rc = pier__fail(err, PIER_E_COLUMN_EXISTS,
                        "board '%s' already has a column '%s' (%s)", board,
                        b->columns[at].name,
                        pier__type_name(b->columns[at].type));
        pier__error_board(err, board);
        pier__error_column(err, b->columns[at].name);
        goto done;
    }
    if (b->ncolumns >= PIER_MAX_COLUMNS) {
        rc = pier__fail(err, PIER_E_LIMIT_EXCEEDED,
                        "board '%s' already has %d columns, the most a "
                        "board can have", board, PIER_MAX_COLUMNS);
        goto done;
    }
    draft = pier__board_clone(b);
    if (draft == NULL ||
        !pier__board_append(draft, column, strlen(column), t,
                            PIER_ORIGIN_DECLARED)) {
        rc = pier__oom(err);
        goto done;
    }
    size_t col = draft->ncolumns - 1;
    rc = engine->lake->ops->column_add(engine->lake, draft, col, err);
    if (rc == PIER_OK)
        rc = pier__change_column_added(w, draft, col, err);
    if (rc == PIER_OK)
        rc = pier__engine_install(engine, &draft, err);
done:
    pier__board_free(draft);
    pier__type_free(&t);
    return rc;
}

PIER_API pier_status pier_board_add_column(int64_t *watermark,
                                           pier_engine *engine,
                                           const char *board,
                                           const char *column,
                                           const char *type,
                                           pier_error *err)
{
    pier_status rc = check_args(engine, board, err);
    if (rc != PIER_OK)
        return rc;
    pier_column_def def = { column, type };
    pier__type t = { PIER_KIND_NULL, NULL };
    rc = check_declared(board, &def, 0, &t, err);
    pier__type_free(&t);
    if (rc != PIER_OK)
        return rc;
    pier__write w;
    int attempts = 0;
    do {
        rc = pier__write_begin(&w, engine, err);
        if (rc != PIER_OK)
            return rc;
        rc = pier__board_add_column_in(&w, board, column, type, err);
        rc = pier__write_end(&w, rc, watermark, err);
    } while (pier__write_again(&w, rc, &attempts));
    return rc;
}

/* Why `from` cannot widen to `to`, for the error message. */
static const char *widen_refusal(pier__type from, pier__type to)
{
    if (from.kind == PIER_KIND_TIMESTAMP && from.x == NULL)
        return "timestamp sits outside the widening lattice";
    if (to.kind == PIER_KIND_TIMESTAMP && to.x == NULL)
        return "widening cannot target timestamp, which sits outside the "
               "lattice";
    if (from.kind == PIER_KIND_JSON)
        return "json can only widen to text";
    if (to.kind == PIER_KIND_JSON)
        return "widening cannot target json";
    if (from.x != NULL)
        return "the SQL dialect's types sit outside the widening lattice "
               "and widen only to text";
    if (to.x != NULL)
        return "nothing widens into the SQL dialect's types, which sit "
               "outside the widening lattice";
    return "that would narrow it; columns only widen, along boolean < "
           "tinyint < smallint < integer < bigint < hugeint < float < "
           "double < text";
}

pier_status pier__board_widen_column_in(pier__write *w, const char *board,
                                        const char *column, const char *type,
                                        pier_error *err)
{
    pier_engine *engine = w->e;
    pier_status rc;
    if (column == NULL || type == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "widening needs a column and a type");
    pier__type to;
    rc = parse_type(board, column, type, &to, err);
    if (rc != PIER_OK)
        return rc;
    pier__board *b = NULL, *draft = NULL;
    rc = pier__engine_board(engine, board, &b, err);
    if (rc != PIER_OK)
        goto done;
    ptrdiff_t at = pier__board_find(b, column, strlen(column));
    if (at < 0) {
        rc = pier__fail(err, PIER_E_UNKNOWN_COLUMN,
                        "board '%s' has no column '%s'", board, column);
    } else if (b->columns[at].origin == PIER_ORIGIN_BASE) {
        rc = pier__fail(err, PIER_E_RESERVED_COLUMN_NAME,
                        "'%s' is a base column; its type is fixed",
                        b->columns[at].name);
    } else if (pier__type_eq(b->columns[at].type, to)) {
        rc = engine->lake->ops->head(engine->lake, &w->watermark, err);
        goto done;                         /* already that type: no-op */
    } else if (!pier__type_can_widen(b->columns[at].type, to)) {
        pier__type from = b->columns[at].type;
        rc = pier__fail(err, PIER_E_COLUMN_TYPE_CONFLICT,
                        "cannot widen column '%s' of board '%s' from %s to "
                        "%s: %s", b->columns[at].name, board,
                        pier__type_name(from), pier__type_name(to),
                        widen_refusal(from, to));
        pier__error_types(err, pier__type_name(from), pier__type_name(to));
    }
    if (rc != PIER_OK) {
        pier__error_board(err, board);
        pier__error_column(err, at >= 0 ? b->columns[at].name : column);
        goto done;
    }
    draft = pier__board_clone(b);
    if (draft == NULL) {
        rc = pier__oom(err);
        goto done;
    }
    /* The committed board's type: it lives until the draft replaces it,
     * after the last use of `from` here. */
    pier__type from = b->columns[at].type;
    pier__type_free(&draft->columns[at].type);
    draft->columns[at].type = to;             /* the draft owns it now */
    to = (pier__type){ PIER_KIND_NULL, NULL };
    rc = engine->lake->ops->column_widen(engine->lake, draft, (size_t)at,
                                         from, err);
    if (rc == PIER_OK)
        rc = pier__change_column_widened(w, draft, (size_t)at, from, err);
    if (rc == PIER_OK)
        rc = pier__engine_install(engine, &draft, err);
done:
    pier__board_free(draft);
    pier__type_free(&to);
    return rc;
}

PIER_API pier_status pier_board_widen_column(int64_t *watermark,
                                             pier_engine *engine,
                                             const char *board,
                                             const char *column,
                                             const char *type,
                                             pier_error *err)
{
    pier_status rc = check_args(engine, board, err);
    if (rc != PIER_OK)
        return rc;
    if (column == NULL || type == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "widening needs a column and a type");
    pier__type to;
    rc = parse_type(board, column, type, &to, err);
    if (rc != PIER_OK)
        return rc;
    pier__type_free(&to);
    pier__write w;
    int attempts = 0;
    do {
        rc = pier__write_begin(&w, engine, err);
        if (rc != PIER_OK)
            return rc;
        rc = pier__board_widen_column_in(&w, board, column, type, err);
        rc = pier__write_end(&w, rc, watermark, err);
    } while (pier__write_again(&w, rc, &attempts));
    return rc;
}
