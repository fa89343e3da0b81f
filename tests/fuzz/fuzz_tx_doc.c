/*
 * fuzz_tx_doc.c: a transaction's document of operations
 * (pier_tx_apply_json; the reader is src/engine/json_rows.c), checked
 * against the calls it stands for.
 *
 * Two lakes in /dev/shm start alike: board "ta" (rows a and b) and "tb"
 * (row x). Lake A applies the input as a document in a pier_tx that may
 * write ta, tb and tc. Lake B runs the same operations, as jansson reads
 * the document, one call each (pier_tx_insert_json, _upsert_json,
 * _update_json with each member's JSON as jansson writes it, and
 * _delete_many), in a pier_tx on the same boards.
 *
 * Invariants:
 * - A answers a status the call documents; InvalidJson has an offset
 *   inside the input; whatever failed, A is exactly as it was (its boards,
 *   every row, the head);
 * - a document A accepts is JSON (after a byte order mark, which the
 *   reader skips), an array of operations;
 * - when jansson reads the document exactly (no number beyond what it
 *   holds, no member named twice, no U+0000 where a C string goes) and it
 *   is well formed, B ends as A does: both commit, with the same boards
 *   and rows, or both fail at the same operation with the same status;
 *   but A reads the whole document before it runs any of it, so where A
 *   fails to read operation k, B fails at k or at an operation before.
 * Both lakes are put back after an input that changed them (and made
 * afresh every 20,000 such inputs).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "support/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pier_engine *lake_a, *lake_b;
static const char *dir_a, *dir_b;

static const char *const boards[] = { "ta", "tb", "tc" };

static void make_boards(pier_engine *e)
{
    static const char ta[] = "[{\"id\":\"a\",\"n\":1,\"s\":\"one\"},"
                             "{\"id\":\"b\",\"n\":2,\"f\":2.5}]";
    static const char tb[] = "{\"id\":\"x\",\"j\":{\"k\":[1]}}";
    pier_error err;
    FZ_OK(pier_insert_json(NULL, e, "ta", ta, sizeof ta - 1, &err), &err);
    FZ_OK(pier_insert_json(NULL, e, "tb", tb, sizeof tb - 1, &err), &err);
}

/* Drops every board and makes the first ones again. */
static void put_back(pier_engine *e)
{
    char **list = NULL;
    pier_error err;
    FZ_OK(pier_board_list(&list, e, &err), &err);
    for (size_t i = 0; list[i] != NULL; i++)
        FZ_OK(pier_board_drop(NULL, e, list[i], &err), &err);
    pier_strings_free(list);
    make_boards(e);
}

/* ---- a lake's contents, as text ---- */

typedef struct text {
    char *p;
    size_t len, cap;
} text;

static void put(text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->p = realloc(t->p, t->cap);
        FZ_CHECK(t->p != NULL, "out of memory");
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = '\0';
}

static int put_row(const pier_row *row, void *payload)
{
    char *j = pier_row_to_json(row);
    FZ_CHECK(j != NULL, "out of memory");
    put(payload, j, strlen(j));
    put(payload, "\n", 1);
    pier_free(j);
    return 0;
}

/* Every board's name and rows (the version stamps are not shown). */
static text contents(pier_engine *e)
{
    text t = { NULL, 0, 0 };
    put(&t, "", 0);
    char **list = NULL;
    pier_error err;
    FZ_OK(pier_board_list(&list, e, &err), &err);
    for (size_t i = 0; list[i] != NULL; i++) {
        put(&t, "board ", 6);
        put(&t, list[i], strlen(list[i]));
        put(&t, "\n", 1);
        FZ_OK(pier_board_scan(e, list[i], put_row, &t, &err), &err);
    }
    pier_strings_free(list);
    return t;
}

static bool refusal_documented(pier_status rc)
{
    switch (rc) {
    case PIER_E_INVALID_JSON:
    case PIER_E_INVALID_BOARD_ID:
    case PIER_E_ENTITY_NOT_ALLOWED:
    case PIER_E_MISSING_ID:
    case PIER_E_DUPLICATE_ID:
    case PIER_E_ROW_NOT_FOUND:
    case PIER_E_BOARD_NOT_FOUND:   /* an update of a board not made */
    case PIER_E_COLUMN_TYPE_CONFLICT:
    case PIER_E_RESERVED_COLUMN_NAME:
    case PIER_E_INVALID_COLUMN_NAME:
    case PIER_E_DUPLICATE_COLUMN:
    case PIER_E_INVALID_ARGUMENT:  /* a patch that changes the row's id */
    case PIER_E_LIMIT_EXCEEDED:
        return true;
    default:
        return false;
    }
}

/* ---- the same operations, one call each ---- */

/* Whether a string member may go where a C string goes. */
static bool c_string(const json_t *v)
{
    return json_is_string(v) &&
           strlen(json_string_value(v)) == json_string_length(v);
}

/* Whether `op` is an operation of the document's grammar, with exactly
 * the members its kind takes. */
static bool well_formed(const json_t *op)
{
    if (!json_is_object(op))
        return false;
    const json_t *kind = json_object_get(op, "op");
    if (!c_string(kind) || !c_string(json_object_get(op, "board")))
        return false;
    const char *k = json_string_value(kind);
    if (strcmp(k, "insert") == 0 || strcmp(k, "upsert") == 0)
        return json_object_size(op) == 3 &&
               json_is_array(json_object_get(op, "rows"));
    if (strcmp(k, "update") == 0)
        return json_object_size(op) == 4 &&
               c_string(json_object_get(op, "id")) &&
               json_is_object(json_object_get(op, "patch"));
    if (strcmp(k, "delete") != 0 || json_object_size(op) != 3)
        return false;
    const json_t *ids = json_object_get(op, "ids");
    if (!json_is_array(ids))
        return false;
    for (size_t i = 0; i < json_array_size(ids); i++)
        if (!c_string(json_array_get(ids, i)))
            return false;
    return true;
}

/* Runs one operation in B's transaction. */
static pier_status run_call(pier_tx *tx, const json_t *op, pier_error *err)
{
    const char *k = json_string_value(json_object_get(op, "op"));
    const char *board = json_string_value(json_object_get(op, "board"));
    if (strcmp(k, "delete") == 0) {
        const json_t *ids = json_object_get(op, "ids");
        size_t n = json_array_size(ids);
        const char **list = calloc(n + 1, sizeof *list);
        FZ_CHECK(list != NULL, "out of memory");
        for (size_t i = 0; i < n; i++)
            list[i] = json_string_value(json_array_get(ids, i));
        pier_status rc = pier_tx_delete_many(tx, board, list, n, err);
        free(list);
        return rc;
    }
    bool update = strcmp(k, "update") == 0;
    char *j = json_dumps(json_object_get(op, update ? "patch" : "rows"),
                         JSON_COMPACT | JSON_ENCODE_ANY);
    FZ_CHECK(j != NULL, "out of memory");
    pier_status rc =
        update ? pier_tx_update_json(tx, board,
                                     json_string_value(json_object_get(
                                         op, "id")),
                                     j, strlen(j), err)
        : strcmp(k, "insert") == 0
            ? pier_tx_insert_json(tx, board, j, strlen(j), err)
            : pier_tx_upsert_json(tx, board, j, strlen(j), err);
    free(j);
    return rc;
}

/* B's outcome for the operations `doc`; *at is the operation that
 * failed, counted from 1 (0: the commit, or nothing failed). */
static pier_status run_calls(const json_t *doc, size_t *at)
{
    pier_tx *tx = NULL;
    pier_error err;
    FZ_OK(pier_tx_begin(&tx, lake_b, boards, 3, &err), &err);
    pier_status rc = PIER_OK;
    *at = 0;
    for (size_t i = 0; rc == PIER_OK && i < json_array_size(doc); i++) {
        rc = run_call(tx, json_array_get(doc, i), &err);
        if (rc != PIER_OK)
            *at = i + 1;
    }
    if (rc != PIER_OK) {
        pier_tx_rollback(tx);
        return rc;
    }
    return pier_tx_commit(NULL, tx, &err);
}

/* The operation a failure of pier_tx_apply_json names (its message ends
 * with " (operation N)"; a name quoted before may hold the same words),
 * or 0. */
static size_t failed_operation(const char *message)
{
    const char *last = NULL;
    for (const char *p = message; (p = strstr(p, " (operation ")) != NULL;
         p++)
        last = p;
    return last == NULL ? 0 : (size_t)strtoull(last + 12, NULL, 10);
}

/* Whether a failure of the document is one of reading it, which happens
 * before any operation runs. */
static bool reading_failure(pier_status rc)
{
    return rc == PIER_E_INVALID_JSON || rc == PIER_E_LIMIT_EXCEEDED;
}

/* The document as jansson reads it exactly, if it can; NULL otherwise.
 * An integer beyond 64 bits or a real beyond a double reads as null in
 * fz_json_parse, so a number that long is left out altogether. */
static json_t *exact_document(const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        bool digit = s[i] >= '0' && s[i] <= '9';
        run = digit ? run + 1 : 0;
        if (run >= 18 || ((s[i] == 'e' || s[i] == 'E') && i > 0 &&
                          ((s[i - 1] >= '0' && s[i - 1] <= '9') ||
                           s[i - 1] == '.')))
            return NULL;
    }
    json_t *doc = fz_json_parse(s, n, JSON_REJECT_DUPLICATES);
    if (doc == NULL || !json_is_array(doc)) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (lake_a == NULL) {
        dir_a = fz_dir("tx_doc_a");
        dir_b = fz_dir("tx_doc_b");
        lake_a = fz_open(dir_a);
        lake_b = fz_open(dir_b);
        make_boards(lake_a);
        make_boards(lake_b);
    }
    const char *json = (const char *)data;
    /* The JSON after a byte order mark, which the reader skips, as it
     * does for every JSON input (files from some editors start with
     * one). */
    bool bom = size >= 3 && memcmp(json, "\xEF\xBB\xBF", 3) == 0;
    const char *body = bom ? json + 3 : json;
    size_t body_size = bom ? size - 3 : size;
    text before = contents(lake_a);
    int64_t head = fz_head(lake_a);

    pier_tx *tx = NULL;
    pier_error err;
    FZ_OK(pier_tx_begin(&tx, lake_a, boards, 3, &err), &err);
    pier_status rc = pier_tx_apply_json(tx, json, size, &err);
    pier_error applied = err;
    if (rc == PIER_OK)
        rc = pier_tx_commit(NULL, tx, &err);
    else
        pier_tx_rollback(tx);

    if (rc != PIER_OK) {
        FZ_CHECK(refusal_documented(rc), "%s: %s", pier_status_tag(rc),
                 err.message);
        if (rc == PIER_E_INVALID_JSON)
            FZ_CHECK(applied.offset >= 0 &&
                     (uint64_t)applied.offset <= size,
                     "offset %" PRId64 " of %zu bytes", applied.offset,
                     size);
        text after = contents(lake_a);
        FZ_CHECK(fz_head(lake_a) == head, "a failed document moved the "
                 "head");
        FZ_CHECK(after.len == before.len &&
                 memcmp(after.p, before.p, before.len) == 0,
                 "a failed document changed the lake:\n%s\nthen\n%s",
                 before.p, after.p);
        free(after.p);
    } else {
        FZ_CHECK(fz_json_valid(body, body_size), "accepted text that is not "
                 "JSON: %.*s", (int)size, json);
    }
    free(before.p);

    json_t *doc = exact_document(body, body_size);
    bool formed = doc != NULL;
    for (size_t i = 0; formed && i < json_array_size(doc); i++)
        formed = well_formed(json_array_get(doc, i));
    if (formed) {
        /* The document is read whole before it runs, the calls one by
         * one: where the document fails to be read at operation k, the
         * calls fail at k or before it (an earlier one failing as it
         * runs); otherwise both fail at the same operation, alike. */
        size_t j = 0, k = rc == PIER_OK ? 0 : failed_operation(
                                                  applied.message);
        pier_status calls = run_calls(doc, &j);
        if (rc != PIER_OK && reading_failure(rc) && k > 0)
            FZ_CHECK(calls != PIER_OK && j >= 1 && j <= k &&
                         (j < k || calls == rc || !reading_failure(calls)),
                     "the document: %s (%s); the calls: %s at operation "
                     "%zu", pier_status_tag(rc), applied.message,
                     pier_status_tag(calls), j);
        else
            FZ_CHECK(calls == rc && (rc == PIER_OK || j == k),
                     "the document: %s (%s); the calls: %s at operation "
                     "%zu", pier_status_tag(rc), err.message,
                     pier_status_tag(calls), j);
        if (rc == PIER_OK) {
            text a = contents(lake_a), b = contents(lake_b);
            FZ_CHECK(a.len == b.len && memcmp(a.p, b.p, a.len) == 0,
                     "the document made:\n%s\nthe calls made:\n%s", a.p,
                     b.p);
            free(a.p);
            free(b.p);
        }
    } else {
        /* A document A applied is one jansson reads, but for what it
         * cannot hold. */
        FZ_CHECK(rc != PIER_OK || doc == NULL || json_is_array(doc),
                 "accepted a document that is not an array");
    }
    json_decref(doc);
    if (rc == PIER_OK) {
        /* Dropping boards leaves their records in the log: now and then
         * both lakes start afresh, so that millions of inputs keep them
         * small. */
        static unsigned commits;
        if (++commits % 20000 == 0) {
            fz_reopen_empty(&lake_a, dir_a);
            fz_reopen_empty(&lake_b, dir_b);
            make_boards(lake_a);
            make_boards(lake_b);
        } else {
            put_back(lake_a);
            put_back(lake_b);
        }
    }
    return 0;
}
