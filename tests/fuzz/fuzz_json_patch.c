/*
 * fuzz_json_patch.c: patches (pier_update_json, pier_update_many_json)
 * on a lake in /dev/shm, against a board "pb" of three rows with inferred
 * columns of every kind JSON decides, plus a declared decimal(12,2) and a
 * declared timestamp.
 *
 * The first byte of the input picks the call: even, pier_update_json of
 * the row the second byte picks ("a", "b", "c", or "zz", which is not
 * there) with the rest as the patch; odd, pier_update_many_json with the
 * rest as the list of {"id", "patch"}.
 *
 * Invariants:
 * - a refused patch answers a documented status (InvalidJson with an
 *   offset inside the patch) and changes nothing: head and every row as
 *   they were;
 * - an accepted one never names a row that is not there, moves the head
 *   to its watermark, and leaves every row as it was but for the members
 *   its patches set, in order, each read back as jansson reads it
 *   (fuzz_rows.h; the decimal by value, the timestamp as the same
 *   instant); columns it adds are null in the rows it did not patch.
 * After an accepted input the board is made again.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/fuzz_rows.h"
#include "support/fuzz_support.h"
#include "types/sqlcol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BOARD "pb"

static pier_engine *engine;
static const char *dir;

static const char *const ids[] = { "a", "b", "c", "zz" };

static void make_board(void)
{
    static const pier_column_def cols[] = {
        { "d", "decimal(12,2)" },
        { "at", "timestamp" },
    };
    pier_board_options o = PIER_BOARD_OPTIONS_INIT;
    o.columns = cols;
    o.ncolumns = sizeof cols / sizeof *cols;
    pier_error err;
    FZ_OK(pier_board_create(NULL, engine, BOARD, &o, &err), &err);
    static const char rows[] =
        "[{\"id\":\"a\",\"state\":\"open\",\"n\":1,\"x\":2.5,\"t\":\"text\","
        "\"b\":true,\"j\":{\"k\":[1,\"x\"]},"
        "\"h\":170141183460469231731687303715884105727,"
        "\"d\":\"12.5\",\"at\":\"2026-03-01T10:00:00+02:00\"},"
        "{\"id\":\"b\",\"n\":-2,\"t\":\"two\",\"j\":[]},"
        "{\"id\":\"c\"}]";
    FZ_OK(pier_insert_json(NULL, engine, BOARD, rows, sizeof rows - 1, &err),
          &err);
}

/* ---- the board as it was ---- */

typedef struct cell {
    char *name;
    pier_kind kind;
    char *text;            /* NULL for null */
    size_t len;
} cell;

typedef struct row {
    char *id;
    cell *cells;
    size_t ncells;
} row;

typedef struct board {
    row rows[8];
    size_t nrows;
    char *json;            /* every row's JSON, in id order */
    size_t json_len;
} board;

static int take_row(const pier_row *r, void *payload)
{
    board *b = payload;
    FZ_CHECK(b->nrows < 8, "more rows than written");
    row *out = &b->rows[b->nrows++];
    out->ncells = pier_row_column_count(r);
    out->cells = calloc(out->ncells, sizeof *out->cells);
    FZ_CHECK(out->cells != NULL, "out of memory");
    for (size_t i = 0; i < out->ncells; i++) {
        const pier_value *v = pier_row_value(r, i);
        cell *c = &out->cells[i];
        c->name = fz_strndup((const uint8_t *)pier_row_column_name(r, i),
                             strlen(pier_row_column_name(r, i)));
        c->kind = v->kind;
        c->text = v->text != NULL
                      ? fz_strndup((const uint8_t *)v->text, v->len) : NULL;
        c->len = v->len;
    }
    out->id = fz_strndup((const uint8_t *)out->cells[0].text,
                         out->cells[0].len);
    char *j = pier_row_to_json(r);
    FZ_CHECK(j != NULL, "out of memory");
    size_t n = strlen(j);
    b->json = realloc(b->json, b->json_len + n + 2);
    FZ_CHECK(b->json != NULL, "out of memory");
    memcpy(b->json + b->json_len, j, n);
    b->json_len += n;
    b->json[b->json_len++] = '\n';
    b->json[b->json_len] = '\0';
    pier_free(j);
    return 0;
}

static board take_board(void)
{
    board b;
    memset(&b, 0, sizeof b);
    pier_error err;
    FZ_OK(pier_board_scan(engine, BOARD, take_row, &b, &err), &err);
    return b;
}

static void free_board(board *b)
{
    for (size_t r = 0; r < b->nrows; r++) {
        for (size_t i = 0; i < b->rows[r].ncells; i++) {
            free(b->rows[r].cells[i].name);
            free(b->rows[r].cells[i].text);
        }
        free(b->rows[r].cells);
        free(b->rows[r].id);
    }
    free(b->json);
}

static const row *find_row(const board *b, const char *id)
{
    for (size_t r = 0; r < b->nrows; r++)
        if (strcmp(b->rows[r].id, id) == 0)
            return &b->rows[r];
    return NULL;
}

static const cell *find_cell(const row *r, const char *name)
{
    for (size_t i = 0; i < r->ncells; i++)
        if (strcmp(r->cells[i].name, name) == 0)
            return &r->cells[i];
    return NULL;
}

/* ---- checks ---- */

static bool refusal_documented(pier_status rc)
{
    switch (rc) {
    case PIER_E_INVALID_JSON:
    case PIER_E_MISSING_ID:
    case PIER_E_ROW_NOT_FOUND:
    case PIER_E_INVALID_ARGUMENT:   /* a patch naming another id */
    case PIER_E_COLUMN_TYPE_CONFLICT:
    case PIER_E_RESERVED_COLUMN_NAME:
    case PIER_E_INVALID_COLUMN_NAME:
    case PIER_E_DUPLICATE_COLUMN:
    case PIER_E_LIMIT_EXCEEDED:
        return true;
    default:
        return false;
    }
}

/* A value the declared columns hold, compared by value. */
static void check_declared(const pier_value *got, const json_t *want,
                           const char *where)
{
    if (json_is_null(want)) {
        FZ_CHECK(got->kind == PIER_KIND_NULL, "%s: null reads %s", where,
                 got->text);
        return;
    }
    FZ_CHECK(got->text != NULL, "%s: reads null", where);
    char digits[32];
    bool ok = false;
    if (got->kind == PIER_KIND_DECIMAL) {
        if (json_is_string(want))
            ok = pier__collate_numeric(json_string_value(want),
                                       json_string_length(want), got->text,
                                       got->len) == 0;
        else if (json_is_integer(want)) {
            snprintf(digits, sizeof digits, "%" JSON_INTEGER_FORMAT,
                     json_integer_value(want));
            ok = pier__collate_numeric(digits, strlen(digits), got->text,
                                       got->len) == 0;
        } else if (json_is_real(want)) {
            /* Taken by its digits: the same value, so the same double. */
            ok = strtod(got->text, NULL) == json_real_value(want);
        }
    } else if (got->kind == PIER_KIND_TIMESTAMP) {
        ok = json_is_string(want) &&
             pier__collate_instant(json_string_value(want),
                                   json_string_length(want), got->text,
                                   got->len) == 0;
    } else {
        fz_check_value(got, want, where);
        return;
    }
    FZ_CHECK(ok, "%s: reads back as %s '%s'", where,
             pier_kind_name(got->kind), got->text);
}

/* Every row after an accepted write: as before, but for the members
 * `patches` (an array of [id, patch object]) set, in order. */
static void check_after(const board *before, const json_t *patches)
{
    pier_error err;
    for (size_t r = 0; r < before->nrows; r++) {
        const row *old = &before->rows[r];
        pier_row *now = NULL;
        FZ_OK(pier_row_get(&now, engine, BOARD, old->id, &err), &err);
        for (size_t i = 0; i < pier_row_column_count(now); i++) {
            const char *name = pier_row_column_name(now, i);
            const pier_value *v = pier_row_value(now, i);
            char where[160];
            snprintf(where, sizeof where, "row '%s', column '%.60s'",
                     old->id, name);
            if (i <= 1)            /* id, and updated_at: the clock's */
                continue;
            const json_t *want = NULL;
            for (size_t k = 0; k < json_array_size(patches); k++) {
                const json_t *pair = json_array_get(patches, k);
                if (strcmp(json_string_value(json_array_get(pair, 0)),
                           old->id) != 0)
                    continue;
                size_t count;
                json_t *m = fz_member(json_array_get(pair, 1), name, &count);
                FZ_CHECK(count <= 1, "%s: named twice in one patch", where);
                if (m != NULL)
                    want = m;
            }
            const cell *c = find_cell(old, name);
            if (want != NULL && c != NULL &&
                (c->kind == PIER_KIND_DECIMAL ||
                 c->kind == PIER_KIND_TIMESTAMP ||
                 strcmp(name, "d") == 0 || strcmp(name, "at") == 0))
                check_declared(v, want, where);
            else if (want != NULL)
                fz_check_value(v, want, where);
            else if (c != NULL)
                FZ_CHECK(v->kind == c->kind &&
                         (v->text == NULL) == (c->text == NULL) &&
                         (c->text == NULL ||
                          (v->len == c->len &&
                           memcmp(v->text, c->text, c->len) == 0)),
                         "%s: not patched, changed from '%s' to '%s'",
                         where, c->text, v->text);
            else
                FZ_CHECK(v->kind == PIER_KIND_NULL,
                         "%s: a new column not patched here reads '%s'",
                         where, v->text);
        }
        fz_check_row_json(now);
        pier_row_free(now);
    }
}

/* The patches of the input as [id, patch] pairs, as jansson reads them;
 * NULL when it cannot. */
static json_t *expected_patches(bool many, const char *id, const char *s,
                                size_t n)
{
    json_t *read = fz_rows_expected(s, n, false, true);
    if (read == NULL)
        return NULL;
    json_t *out = json_array();
    if (!many) {
        FZ_CHECK(json_array_size(read) == 1 &&
                 json_is_object(json_array_get(read, 0)),
                 "an accepted patch is not one object");
        json_array_append_new(out, json_pack("[sO]", id,
                                             json_array_get(read, 0)));
    } else {
        for (size_t k = 0; k < json_array_size(read); k++) {
            json_t *e = json_array_get(read, k);
            json_t *pid = json_object_get(e, "id");
            json_t *patch = json_object_get(e, "patch");
            FZ_CHECK(json_is_string(pid) && json_is_object(patch) &&
                     json_object_size(e) == 2,
                     "accepted patch %zu is not {\"id\", \"patch\"}", k);
            json_array_append_new(out, json_pack("[OO]", pid, patch));
        }
    }
    json_decref(read);
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (engine == NULL) {
        dir = fz_dir("json_patch");
        engine = fz_open(dir);
        make_board();
    }
    if (size < 2)
        return 0;
    bool many = data[0] & 1;
    const char *id = ids[data[1] % 4];
    const char *json = (const char *)data + 2;
    size_t n = size - 2;

    board before = take_board();
    int64_t head = fz_head(engine);
    int64_t wm = -1;
    pier_error err;
    pier_status rc =
        many ? pier_update_many_json(&wm, engine, BOARD, json, n, &err)
             : pier_update_json(&wm, engine, BOARD, id, json, n, &err);
    if (rc != PIER_OK) {
        FZ_CHECK(refusal_documented(rc), "%s: %s: %s",
                 many ? "update_many" : "update", pier_status_tag(rc),
                 err.message);
        if (rc == PIER_E_INVALID_JSON)
            FZ_CHECK(err.offset >= 0 && (uint64_t)err.offset <= n,
                     "offset %" PRId64 " of %zu bytes", err.offset, n);
        board after = take_board();
        FZ_CHECK(fz_head(engine) == head, "a refused patch moved the head");
        FZ_CHECK(after.json_len == before.json_len &&
                 memcmp(after.json, before.json, before.json_len) == 0,
                 "a refused patch changed the board:\n%s\nthen\n%s",
                 before.json, after.json);
        free_board(&after);
        free_board(&before);
        return 0;
    }

    json_t *patches = expected_patches(many, id, json, n);
    if (patches == NULL && !fz_contains(json, n, "u0001", 5)) {
        json_t *loose = fz_rows_expected(json, n, false, false);
        FZ_CHECK(loose != NULL, "accepted text jansson cannot read: %.*s",
                 (int)n, json);
        json_decref(loose);
    }
    if (patches != NULL) {
        for (size_t k = 0; k < json_array_size(patches); k++) {
            const char *pid =
                json_string_value(json_array_get(json_array_get(patches, k),
                                                 0));
            FZ_CHECK(find_row(&before, pid) != NULL,
                     "a patch of row '%s', which is not there, accepted",
                     pid);
        }
        if (json_array_size(patches) == 0)
            FZ_CHECK(wm == head && fz_head(engine) == head,
                     "an empty list of patches wrote");
        else
            FZ_CHECK(wm > head && fz_head(engine) == wm,
                     "watermark %" PRId64 " after head %" PRId64, wm, head);
        check_after(&before, patches);
        json_decref(patches);
    }
    free_board(&before);

    if (!fz_recycle(&engine, dir, 20000))
        FZ_OK(pier_board_drop(NULL, engine, BOARD, &err), &err);
    make_board();
    return 0;
}
