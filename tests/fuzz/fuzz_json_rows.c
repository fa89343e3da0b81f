/*
 * fuzz_json_rows.c: JSON rows (pier_insert_json, pier_upsert_json; the
 * reader is src/engine/json_rows.c) on a lake in /dev/shm. The input is
 * the JSON text, inserted into a board that does not exist yet, so that
 * every input starts from the same state and decides its own columns.
 *
 * Invariants:
 * - a refused input answers one of the statuses pier_insert_json
 *   documents (InvalidJson with an offset inside the input) and changes
 *   nothing: the head stays, the board is not created;
 * - pier_insert_json never accepts text that is not JSON (jansson);
 * - an accepted input moves the head to the watermark it returned,
 *   creates the board with one row per object (an empty array creates
 *   nothing and returns the head), and each row read back
 *   (pier_row_get) is what was written, value by value as jansson reads
 *   the input (fuzz_rows.h: numbers by value, hugeints by digits,
 *   documents as documents, the base columns as the engine sets them),
 *   with no member matching two columns, and pier_row_to_json is valid
 *   JSON with a member per column;
 * - upserting the same text again succeeds and leaves every row as it
 *   was; pier_board_scan sees every row once.
 * The board is dropped after each accepted input, and the lake recreated
 * every 50,000 inputs.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "support/fuzz_rows.h"
#include "support/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BOARD "fz"

static pier_engine *engine;
static const char *dir;

static bool refusal_documented(pier_status rc)
{
    switch (rc) {
    case PIER_E_INVALID_JSON:
    case PIER_E_MISSING_ID:
    case PIER_E_DUPLICATE_ID:
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

/* Each row's JSON, in id order, joined: what the board holds. */
typedef struct snapshot {
    char *text;
    size_t len, cap;
    size_t rows;
} snapshot;

static int snap_cb(const pier_row *row, void *payload)
{
    snapshot *s = payload;
    char *j = pier_row_to_json(row);
    FZ_CHECK(j != NULL, "out of memory");
    size_t n = strlen(j);
    if (s->len + n + 2 > s->cap) {
        s->cap = (s->len + n + 2) * 2;
        s->text = realloc(s->text, s->cap);
        FZ_CHECK(s->text != NULL, "out of memory");
    }
    memcpy(s->text + s->len, j, n);
    s->len += n;
    s->text[s->len++] = '\n';
    s->text[s->len] = '\0';
    s->rows++;
    pier_free(j);
    return 0;
}

static snapshot snap(void)
{
    snapshot s = { NULL, 0, 0, 0 };
    pier_error err;
    FZ_OK(pier_board_scan(engine, BOARD, snap_cb, &s, &err), &err);
    return s;
}

/* Row `obj` of the input, read back, is what it wrote. */
static void check_row(const json_t *obj, size_t index)
{
    size_t count;
    json_t *id = fz_member(obj, "id", &count);
    FZ_CHECK(count == 1 && json_is_string(id),
             "row %zu accepted without one string id", index);
    const char *ids = json_string_value(id);
    if (strlen(ids) != json_string_length(id))
        return;                   /* a NUL in the id: no C string names it */
    pier_row *row = NULL;
    pier_error err;
    FZ_OK(pier_row_get(&row, engine, BOARD, ids, &err), &err);
    char where[160];
    for (size_t i = 0; i < pier_row_column_count(row); i++) {
        const char *name = pier_row_column_name(row, i);
        const pier_value *v = pier_row_value(row, i);
        snprintf(where, sizeof where, "row %zu, column '%.60s'", index,
                 name);
        json_t *want = fz_member(obj, name, &count);
        FZ_CHECK(count <= 1, "%s: %zu members name it", where, count);
        if (i == 1) {              /* updated_at: the write's time */
            FZ_CHECK(v->kind == PIER_KIND_TIMESTAMP &&
                     v->as.timestamp_us == FZ_NOW,
                     "%s: not the time of the write", where);
            continue;
        }
        if (want == NULL)
            FZ_CHECK(v->kind == PIER_KIND_NULL,
                     "%s: not written, reads %s", where, v->text);
        else
            fz_check_value(v, want, where);
    }
    /* Every member landed in a column, or was null (a column given only
     * nulls is not created). */
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)obj, key, value) {
        bool found = false;
        for (size_t i = 0; i < pier_row_column_count(row) && !found; i++)
            found = fz_member(obj, pier_row_column_name(row, i), NULL) ==
                    value;
        FZ_CHECK(found || json_is_null(value),
                 "row %zu: member '%s' is in no column", index, key);
    }
    fz_check_row_json(row);
    pier_row_free(row);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (engine == NULL) {
        dir = fz_dir("json_rows");
        engine = fz_open(dir);
    }
    fz_recycle(&engine, dir, 50000);
    const char *json = (const char *)data;
    pier_error err;
    int64_t head = fz_head(engine);
    int64_t wm = -1;
    pier_status rc = pier_insert_json(&wm, engine, BOARD, json, size, &err);
    bool has = true;
    if (rc != PIER_OK) {
        FZ_CHECK(refusal_documented(rc), "insert: %s: %s",
                 pier_status_tag(rc), err.message);
        if (rc == PIER_E_INVALID_JSON)
            FZ_CHECK(err.offset >= 0 && (uint64_t)err.offset <= size,
                     "offset %" PRId64 " of %zu bytes", err.offset, size);
        FZ_CHECK(fz_head(engine) == head, "a refused insert moved the head");
        FZ_OK(pier_board_has(&has, engine, BOARD, &err), &err);
        FZ_CHECK(!has, "a refused insert created the board");
        return 0;
    }

    json_t *rows = fz_rows_expected(json, size, true, true);
    FZ_OK(pier_board_has(&has, engine, BOARD, &err), &err);
    if (!has) {
        /* An empty write creates nothing and returns the head. */
        FZ_CHECK(rows != NULL && json_array_size(rows) == 0 && wm == head &&
                 fz_head(engine) == head,
                 "an accepted write of rows made no board");
        json_decref(rows);
        return 0;
    }
    FZ_CHECK(wm > head && fz_head(engine) == wm,
             "watermark %" PRId64 " after head %" PRId64 ", head now %"
             PRId64, wm, head, fz_head(engine));
    if (rows == NULL && !fz_contains(json, size, "u0001", 5)) {
        /* Duplicate members inside a document are allowed; otherwise
         * jansson must read what Pier accepted. */
        json_t *loose = fz_rows_expected(json, size, true, false);
        FZ_CHECK(loose != NULL, "accepted text jansson cannot read as "
                 "rows: %.*s", (int)size, json);
        json_decref(loose);
    }
    int64_t count = -1;
    FZ_OK(pier_row_count(&count, engine, BOARD, &err), &err);
    if (rows != NULL) {
        FZ_CHECK((size_t)count == json_array_size(rows),
                 "%" PRId64 " rows stored of %zu written", count,
                 json_array_size(rows));
        for (size_t i = 0; i < json_array_size(rows); i++)
            check_row(json_array_get(rows, i), i);
    }

    /* The same rows upserted change nothing. */
    snapshot before = snap();
    FZ_CHECK(before.rows == (size_t)count, "scan saw %zu rows of %" PRId64,
             before.rows, count);
    FZ_OK(pier_upsert_json(&wm, engine, BOARD, json, size, &err), &err);
    snapshot after = snap();
    FZ_CHECK(after.len == before.len &&
             (before.len == 0 || memcmp(after.text, before.text,
                                        before.len) == 0),
             "an upsert of the same rows changed them:\n%s\nthen\n%s",
             before.text, after.text);
    free(before.text);
    free(after.text);
    json_decref(rows);

    FZ_OK(pier_board_drop(NULL, engine, BOARD, &err), &err);
    return 0;
}
