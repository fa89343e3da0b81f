/*
 * lakecheck.c: see lakecheck.h.
 *
 * A board is rebuilt from its feed as docs/feed.md says a consumer does:
 * schema records set the columns (by name: the workloads here never
 * rename a board column), insert and upsert records store whole rows,
 * update records patch them, delete, truncate and drop remove them. A
 * widening to text turns the column's values into their text, as the
 * engine rewrites the cells. A row is a JSON object of its non-null
 * columns plus "updated_at" (microseconds): the committed_at of the
 * record that wrote it last.
 */
#include "support/lakecheck.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sqlite3.h>

#include "store/sqlite_int.h"

bool failf(char *why, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
    return false;
}

bool lakecheck_integrity(const char *db, char *why, size_t cap)
{
    /* The declared tables' CHECK constraints call the dialect's
     * functions, which integrity_check evaluates: register them. */
    sqlite3 *h = NULL;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_open_v2(db, &h, SQLITE_OPEN_READWRITE, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_busy_timeout(h, 5000);
    if (rc == SQLITE_OK)
        rc = pier__sqlite_register_dialect(h, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1, &st, NULL);
    char first[256] = "";
    int rows = 0;
    while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        if (rows++ == 0)
            snprintf(first, sizeof first, "%s", t != NULL ? (char *)t : "");
    }
    bool ok = rc == SQLITE_OK && rows == 1 && strcmp(first, "ok") == 0;
    if (!ok)
        failf(why, cap, "integrity_check of %s: %s", db,
              rc != SQLITE_OK ? sqlite3_errmsg(h) : first);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return ok;
}

/* ---- the copy rebuilt from the feed ---- */

typedef struct copy {
    bool exists;
    json_t *columns;           /* name -> type */
    json_t *rows;              /* id -> row */
} copy;

/* A value as the text a widening to text gives it. */
static json_t *as_text(const json_t *v)
{
    char buf[64];
    switch (json_typeof(v)) {
    case JSON_STRING:
        return json_incref((json_t *)v);
    case JSON_INTEGER:
        snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT,
                 json_integer_value(v));
        return json_string(buf);
    case JSON_TRUE:
        return json_string("true");
    case JSON_FALSE:
        return json_string("false");
    default: {
        char *doc = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS |
                                      JSON_ENCODE_ANY);
        json_t *s = json_string(doc != NULL ? doc : "");
        free(doc);
        return s;
    }
    }
}

static void set_column(copy *c, json_t *col)
{
    const char *name = json_string_value(json_object_get(col, "name"));
    json_t *type = json_object_get(col, "type");
    if (name != NULL && type != NULL)
        json_object_set(c->columns, name, type);
}

/* Applies a schema record; false if it is not one this code knows. */
static bool apply_schema(copy *c, json_t *p)
{
    const char *op = json_string_value(json_object_get(p, "op"));
    if (op == NULL)
        return false;
    if (strcmp(op, "create_board") == 0) {
        c->exists = true;
        json_object_clear(c->columns);
        json_object_clear(c->rows);
        size_t i;
        json_t *col;
        json_array_foreach(json_object_get(p, "columns"), i, col)
            set_column(c, col);
        return true;
    }
    json_t *col = json_object_get(p, "column");
    if (strcmp(op, "add_column") == 0) {
        set_column(c, col);
        return true;
    }
    if (strcmp(op, "widen_column") == 0) {
        set_column(c, col);
        const char *name = json_string_value(json_object_get(col, "name"));
        const char *type = json_string_value(json_object_get(col, "type"));
        if (name != NULL && type != NULL && strcmp(type, "text") == 0) {
            const char *id;
            json_t *row;
            json_object_foreach(c->rows, id, row) {
                json_t *v = json_object_get(row, name);
                if (v != NULL)
                    json_object_set_new(row, name, as_text(v));
            }
        }
        return true;
    }
    return false;
}

static void store_row(copy *c, json_t *src, int64_t at)
{
    const char *id = json_string_value(json_object_get(src, "id"));
    if (id == NULL)
        return;
    json_t *row = json_deep_copy(src);
    json_object_set_new(row, "updated_at", json_integer(at));
    json_object_set_new(c->rows, id, row);
}

/* Applies one record; false with a reason if it cannot be applied. */
static bool apply(copy *c, const pier_change *r, char *why, size_t cap)
{
    json_error_t jerr;
    json_t *p = json_loads(r->payload, 0, &jerr);
    if (p == NULL)
        return failf(why, cap, "record %" PRId64 ": payload is not JSON: %s",
                     r->watermark, jerr.text);
    bool ok = true;
    if (strcmp(r->kind, "schema") == 0) {
        ok = apply_schema(c, p);
    } else if (strcmp(r->kind, "insert") == 0 ||
               strcmp(r->kind, "upsert") == 0) {
        size_t i;
        json_t *src;
        json_array_foreach(json_object_get(p, "rows"), i, src)
            store_row(c, src, r->committed_at);
    } else if (strcmp(r->kind, "update") == 0) {
        const char *id = json_string_value(json_object_get(p, "id"));
        json_t *row = id != NULL ? json_object_get(c->rows, id) : NULL;
        if (row == NULL) {
            ok = false;
        } else {
            const char *k;
            json_t *v;
            json_object_foreach(json_object_get(p, "patch"), k, v) {
                if (json_is_null(v))
                    json_object_del(row, k);
                else
                    json_object_set(row, k, v);
            }
            json_object_set_new(row, "updated_at",
                                json_integer(r->committed_at));
        }
    } else if (strcmp(r->kind, "delete") == 0) {
        size_t i;
        json_t *id;
        json_array_foreach(json_object_get(p, "ids"), i, id)
            json_object_del(c->rows, json_string_value(id));
    } else if (strcmp(r->kind, "truncate") == 0) {
        json_object_clear(c->rows);
    } else if (strcmp(r->kind, "drop") == 0) {
        c->exists = false;
        json_object_clear(c->columns);
        json_object_clear(c->rows);
    } else {
        ok = false;
    }
    if (!ok)
        failf(why, cap, "record %" PRId64 " (%s on '%s') cannot be applied: "
              "%.200s", r->watermark, r->kind, r->board, r->payload);
    json_decref(p);
    return ok;
}

/* Replays the board's feed into *c. *resync: the feed starts with one. */
static bool replay(pier_engine *e, const char *board, copy *c, bool *resync,
                   char *why, size_t cap)
{
    *resync = false;
    int64_t after = 0;
    for (;;) {
        pier_changes_page *page = NULL;
        pier_error err;
        if (pier_changes(&page, e, board, after, 0, &err) != PIER_OK)
            return failf(why, cap, "pier_changes(%s, %" PRId64 "): %s: %s",
                         board, after, err.tag, err.message);
        if (page->resync) {
            pier_changes_page_free(page);
            *resync = true;
            return true;
        }
        size_t n = page->nrecords;
        bool ok = true;
        for (size_t i = 0; ok && i < n; i++)
            ok = apply(c, &page->records[i], why, cap);
        int64_t next = page->next;
        pier_changes_page_free(page);
        if (!ok)
            return false;
        if (n == 0)
            return true;
        if (next <= after)
            return failf(why, cap, "the feed of '%s' does not advance past "
                         "%" PRId64, board, after);
        after = next;
    }
}

/* ---- what the engine reads ---- */

typedef struct scan {
    json_t *rows;
    bool bad;
} scan;

static int scan_row(const pier_row *row, void *payload)
{
    scan *s = payload;
    char *text = pier_row_to_json(row);
    json_t *obj = text != NULL ? json_loads(text, 0, NULL) : NULL;
    pier_free(text);
    const pier_value *id = pier_row_find(row, "id");
    const pier_value *at = pier_row_find(row, "updated_at");
    if (obj == NULL || id == NULL || id->text == NULL || at == NULL ||
        at->kind != PIER_KIND_TIMESTAMP) {
        json_decref(obj);
        s->bad = true;
        return 1;
    }
    /* Null columns are left out, as the feed leaves them out. */
    const char *k;
    json_t *v;
    void *tmp;
    json_object_foreach_safe(obj, tmp, k, v) {
        if (json_is_null(v))
            json_object_del(obj, k);
    }
    json_object_set_new(obj, "updated_at", json_integer(at->as.timestamp_us));
    json_object_set_new(s->rows, id->text, obj);
    return 0;
}

/* Equal JSON values, numbers by value. */
static bool same(const json_t *a, const json_t *b)
{
    if (json_is_number(a) && json_is_number(b))
        return json_number_value(a) == json_number_value(b);
    if (json_is_object(a) && json_is_object(b)) {
        if (json_object_size(a) != json_object_size(b))
            return false;
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)a, k, v) {
            json_t *w = json_object_get(b, k);
            if (w == NULL || !same(v, w))
                return false;
        }
        return true;
    }
    return json_equal((json_t *)a, (json_t *)b);
}

static char *dumps(const json_t *v)
{
    return json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
}

/* Compares the rebuilt copy with the engine's board. */
static bool compare(pier_engine *e, const char *board, const copy *c,
                    char *why, size_t cap)
{
    pier_error err;
    bool has = false;
    if (pier_board_has(&has, e, board, &err) != PIER_OK)
        return failf(why, cap, "pier_board_has(%s): %s: %s", board, err.tag,
                     err.message);
    if (has != c->exists)
        return failf(why, cap, "board '%s' %s, but its feed says it %s",
                     board, has ? "exists" : "does not exist",
                     c->exists ? "does" : "does not");
    if (!has)
        return true;
    pier_board_info *info = NULL;
    if (pier_board_describe(&info, e, board, &err) != PIER_OK)
        return failf(why, cap, "describe %s: %s: %s", board, err.tag,
                     err.message);
    json_t *columns = json_object();
    for (size_t i = 0; i < info->ncolumns; i++)
        json_object_set_new(columns, info->columns[i].name,
                            json_string(info->columns[i].type));
    pier_board_info_free(info);
    bool ok = same(columns, c->columns);
    if (!ok) {
        char *a = dumps(columns), *b = dumps(c->columns);
        failf(why, cap, "board '%s' has columns %.200s, its feed %.200s",
              board, a, b);
        free(a);
        free(b);
    }
    json_decref(columns);
    if (!ok)
        return false;

    scan s = { json_object(), false };
    if (pier_board_scan(e, board, scan_row, &s, &err) != PIER_OK || s.bad) {
        json_decref(s.rows);
        return failf(why, cap, "scan %s: %s", board,
                     s.bad ? "a row did not read" : err.message);
    }
    const char *id;
    json_t *row;
    json_object_foreach(c->rows, id, row) {
        json_t *got = json_object_get(s.rows, id);
        if (got == NULL || !same(got, row)) {
            char *a = dumps(row), *b = got != NULL ? dumps(got) : NULL;
            failf(why, cap, "board '%s', row '%s': the feed gives %.180s, "
                  "the board holds %.180s", board, id, a,
                  b != NULL ? b : "nothing");
            free(a);
            free(b);
            json_decref(s.rows);
            return false;
        }
    }
    json_object_foreach(s.rows, id, row) {
        if (json_object_get(c->rows, id) == NULL) {
            json_decref(s.rows);
            return failf(why, cap, "board '%s' holds row '%s', which its "
                         "feed never wrote", board, id);
        }
    }
    json_decref(s.rows);
    return true;
}

bool lakecheck_feed_matches_rows(pier_engine *e, const char *const *boards,
                                 size_t nboards, size_t *skipped, char *why,
                                 size_t cap)
{
    bool ok = true;
    for (size_t i = 0; ok && i < nboards; i++) {
        copy c = { false, json_object(), json_object() };
        bool resync = false;
        ok = replay(e, boards[i], &c, &resync, why, cap);
        if (ok && resync) {
            if (skipped != NULL)
                ++*skipped;
        } else if (ok) {
            ok = compare(e, boards[i], &c, why, cap);
        }
        json_decref(c.columns);
        json_decref(c.rows);
    }
    return ok;
}
