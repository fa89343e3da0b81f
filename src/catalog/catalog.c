/*
 * catalog.c: boards and their columns in memory, and the catalog that holds
 * them sorted by id.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"

static const struct {
    const char *name;
    pier_kind kind;
} base_columns[PIER__BASE_COLUMNS] = {
    [PIER__COL_ID] = { "id", PIER_KIND_TEXT },
    [PIER__COL_UPDATED_AT] = { "updated_at", PIER_KIND_TIMESTAMP },
    [PIER__COL_STATE] = { "state", PIER_KIND_TEXT },
};

pier__board *pier__board_new(const char *id, bool strict, int64_t created_at)
{
    pier__board *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NULL;
    b->id = pier__strdup(id);
    b->strict = strict;
    b->created_at = created_at;
    if (b->id == NULL)
        goto fail;
    for (int i = 0; i < PIER__BASE_COLUMNS; i++) {
        pier__type t = { base_columns[i].kind, NULL };
        if (!pier__board_append(b, base_columns[i].name,
                                strlen(base_columns[i].name), t,
                                PIER_ORIGIN_BASE))
            goto fail;
    }
    return b;
fail:
    pier__board_free(b);
    return NULL;
}

void pier__board_free(pier__board *b)
{
    if (b == NULL)
        return;
    for (size_t i = 0; i < b->ncolumns; i++) {
        free(b->columns[i].name);
        pier__type_free(&b->columns[i].type);
    }
    free(b->columns);
    free(b->id);
    free(b);
}

pier__board *pier__board_clone(const pier__board *src)
{
    pier__board *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NULL;
    b->id = pier__strdup(src->id);
    b->strict = src->strict;
    b->created_at = src->created_at;
    if (b->id == NULL)
        goto fail;
    for (size_t i = 0; i < src->ncolumns; i++) {
        const pier__column *c = &src->columns[i];
        if (!pier__board_append(b, c->name, strlen(c->name), c->type,
                                c->origin))
            goto fail;
        b->columns[i].id = c->id;
    }
    return b;
fail:
    pier__board_free(b);
    return NULL;
}

ptrdiff_t pier__board_find(const pier__board *b, const char *name, size_t len)
{
    for (size_t i = 0; i < b->ncolumns; i++) {
        const char *cn = b->columns[i].name;
        if (pier__name_eq(cn, strlen(cn), name, len))
            return (ptrdiff_t)i;
    }
    return -1;
}

bool pier__board_append(pier__board *b, const char *name, size_t len,
                        pier__type type, pier_column_origin origin)
{
    if (b->ncolumns == b->cap) {
        size_t cap = b->cap == 0 ? 8 : b->cap * 2;
        pier__column *cols = realloc(b->columns, cap * sizeof *cols);
        if (cols == NULL)
            return false;
        b->columns = cols;
        b->cap = cap;
    }
    char *copy = pier__strndup(name, len);
    pier__type t;
    if (copy == NULL || !pier__type_copy(&t, type)) {
        free(copy);
        return false;
    }
    b->columns[b->ncolumns++] = (pier__column){
        .id = 0, .name = copy, .type = t, .origin = origin,
    };
    return true;
}

void pier__catalog_init(pier__catalog *c)
{
    c->boards = NULL;
    c->nboards = 0;
    c->cap = 0;
    c->tables = NULL;
    c->ntables = 0;
    c->tables_cap = 0;
    c->triggers = NULL;
    c->ntriggers = 0;
    c->triggers_cap = 0;
    c->version = -1;
}

void pier__catalog_clear(pier__catalog *c)
{
    for (size_t i = 0; i < c->nboards; i++)
        pier__board_free(c->boards[i]);
    free(c->boards);
    for (size_t i = 0; i < c->ntables; i++)
        pier__table_free(c->tables[i]);
    free(c->tables);
    for (size_t i = 0; i < c->ntriggers; i++)
        free(c->triggers[i]);
    free(c->triggers);
    pier__catalog_init(c);
}

/* The index where `id` is or would be inserted; *found says which. */
static size_t lower_bound(const pier__catalog *c, const char *id, bool *found)
{
    size_t lo = 0, hi = c->nboards;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(c->boards[mid]->id, id) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < c->nboards && strcmp(c->boards[lo]->id, id) == 0;
    return lo;
}

pier__board *pier__catalog_find(const pier__catalog *c, const char *id)
{
    bool found;
    size_t i = lower_bound(c, id, &found);
    return found ? c->boards[i] : NULL;
}

bool pier__catalog_put(pier__catalog *c, pier__board *b)
{
    bool found;
    size_t i = lower_bound(c, b->id, &found);
    if (found) {
        pier__board_free(c->boards[i]);
        c->boards[i] = b;
        return true;
    }
    if (c->nboards == c->cap) {
        size_t cap = c->cap == 0 ? 16 : c->cap * 2;
        pier__board **bs = realloc(c->boards, cap * sizeof *bs);
        if (bs == NULL) {
            pier__board_free(b);
            return false;
        }
        c->boards = bs;
        c->cap = cap;
    }
    memmove(c->boards + i + 1, c->boards + i,
            (c->nboards - i) * sizeof *c->boards);
    c->boards[i] = b;
    c->nboards++;
    return true;
}

void pier__catalog_remove(pier__catalog *c, const char *id)
{
    bool found;
    size_t i = lower_bound(c, id, &found);
    if (!found)
        return;
    pier__board_free(c->boards[i]);
    memmove(c->boards + i, c->boards + i + 1,
            (c->nboards - i - 1) * sizeof *c->boards);
    c->nboards--;
}

/* ---- boards as a lake's catalog tables hold them ---- */

static const char *const origin_names[] = {
    [PIER_ORIGIN_BASE] = "base",
    [PIER_ORIGIN_DECLARED] = "declared",
    [PIER_ORIGIN_INFERRED] = "inferred",
};

const char *pier__origin_name(pier_column_origin o)
{
    return (size_t)o < sizeof origin_names / sizeof origin_names[0]
               ? origin_names[o]
               : "?";
}

bool pier__origin_parse(const char *s, pier_column_origin *out)
{
    for (size_t i = 0; s != NULL && i < 3; i++) {
        if (strcmp(s, origin_names[i]) == 0) {
            *out = (pier_column_origin)i;
            return true;
        }
    }
    return false;
}

static pier_status damaged(pier_error *err, const char *board,
                           const char *what)
{
    return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                      "the catalog entry of board '%s' is damaged: %s",
                      board, what);
}

pier_status pier__board_load_column(pier__board *b, size_t position,
                                    int64_t id, const char *name,
                                    const char *type, const char *origin,
                                    pier_error *err)
{
    pier__type t = { PIER_KIND_NULL, NULL };
    pier_column_origin o;
    char why[PIER__TYPE_WHY];
    pier_status parsed = type != NULL ? pier__type_parse(&t, type, why)
                                      : PIER_E_UNKNOWN_TYPE;
    pier_status rc = PIER_OK;
    if (parsed == PIER_E_OUT_OF_MEMORY) {
        rc = pier__oom(err);
    } else if (name == NULL || parsed != PIER_OK ||
               !pier__origin_parse(origin, &o)) {
        rc = damaged(err, b->id, "a column has an unknown type or origin");
    } else if (position < PIER__BASE_COLUMNS) {
        if (strcmp(b->columns[position].name, name) != 0)
            rc = damaged(err, b->id, "base columns out of order");
        else
            b->columns[position].id = id;
    } else if (pier__column_name_check(name, strlen(name), b->id, NULL) !=
                   PIER_OK ||
               pier__base_column_index(name, strlen(name)) >= 0 ||
               pier__board_find(b, name, strlen(name)) >= 0) {
        rc = damaged(err, b->id, "a column's name is not a column name, "
                     "or names a column twice");
    } else if (!pier__board_append(b, name, strlen(name), t, o)) {
        rc = pier__oom(err);
    } else {
        b->columns[b->ncolumns - 1].id = id;
    }
    pier__type_free(&t);
    return rc;
}

pier_status pier__board_load_done(const pier__board *b, size_t n,
                                  pier_error *err)
{
    return n < PIER__BASE_COLUMNS ? damaged(err, b->id,
                                            "base columns missing")
                                  : PIER_OK;
}
