/*
 * test_writes.c: updates, upserts, deletes, compaction and transactions.
 *
 * Updates and upserts run through both write paths (JSON text and the row
 * builder, via support/write_path.h) with the same tests. Every refusal
 * checks that nothing was written: the lake file is dumped before and after
 * (support/lakedir.h), so a stray row, column, record or stamp would show.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pier.h"
#include "support/lakedir.h"
#include "support/testlake.h"
#include "support/write_path.h"

#define T0 INT64_C(1772359200000000)   /* 2026-03-01T10:00:00Z */

typedef struct fixture {
    char *dir;
    char *lake;
    pier_engine *e;
    int64_t clock;             /* what the engine's clock says */
} fixture;

static int64_t test_clock(void *payload)
{
    return ((fixture *)payload)->clock;
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->dir = lakedir_make();
    f->lake = lakedir_join(f->dir, "lake.sqlite");
    f->clock = T0;
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.clock = test_clock;
    o.clock_payload = f;
    testlake_options(&o, f->dir);
    pier_error err;
    assert_int_equal(pier_open(&f->e, f->dir, &o, &err), PIER_OK);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    pier_close(&f->e);
    int rc = testlake_reset(f->dir);
    lakedir_remove_tree(f->dir);
    free(f->dir);
    free(f->lake);
    free(f);
    return rc;
}

static int setup_json(void **state)
{
    wp_current = WP_JSON;
    return setup(state);
}

static int setup_rows(void **state)
{
    wp_current = WP_ROWS;
    return setup(state);
}

/* Single quotes in test JSON read as double quotes. */
static char *dq(const char *s)
{
    char *t = strdup(s);
    assert_non_null(t);
    for (char *p = t; *p; p++)
        if (*p == '\'')
            *p = '"';
    return t;
}

static int64_t ins(fixture *f, const char *board, const char *json)
{
    char *j = dq(json);
    pier_error err;
    int64_t wm = 0;
    if (pier_insert_json(&wm, f->e, board, j, strlen(j), &err) != PIER_OK)
        fail_msg("insert %s: %s: %s", json, err.tag, err.message);
    free(j);
    return wm;
}

/* An update of a list of patches [{'id':..,'patch':{..}}] through the
 * current path: pier_update_many_json, or pier_update_rows with each
 * patch's id as a field of its row. */
static pier_status upd(fixture *f, const char *board, const char *patches,
                       int64_t *wm, pier_error *err)
{
    char *j = dq(patches);
    pier_status rc;
    if (wp_current == WP_JSON) {
        rc = pier_update_many_json(wm, f->e, board, j, strlen(j), err);
    } else {
        /* [{"id":X,"patch":{...}}] -> [{"id":X,...}] for the builder. */
        json_t *in = json_loads(j, 0, NULL);
        assert_non_null(in);
        json_t *out = json_array();
        size_t i;
        json_t *el;
        json_array_foreach(in, i, el) {
            json_t *row = json_object();
            json_object_set(row, "id", json_object_get(el, "id"));
            json_object_update(row, json_object_get(el, "patch"));
            json_array_append_new(out, row);
        }
        char *text = json_dumps(out, JSON_COMPACT);
        pier_rows *rows = pier_rows_new();
        rc = wp_rows_from_json(rows, text, err);
        if (rc == PIER_OK)
            rc = pier_update_rows(wm, f->e, board, rows, err);
        pier_rows_free(rows);
        free(text);
        json_decref(in);
        json_decref(out);
    }
    free(j);
    return rc;
}

static pier_status ups(fixture *f, const char *board, const char *json,
                       int64_t *wm, pier_error *err)
{
    char *j = dq(json);
    pier_status rc;
    if (wp_current == WP_JSON) {
        rc = pier_upsert_json(wm, f->e, board, j, strlen(j), err);
    } else {
        pier_rows *rows = pier_rows_new();
        rc = wp_rows_from_json(rows, j, err);
        if (rc == PIER_OK)
            rc = pier_upsert_rows(wm, f->e, board, rows, err);
        pier_rows_free(rows);
    }
    free(j);
    return rc;
}

/* The row as JSON with single quotes, for compact expectations. */
static void assert_row(fixture *f, const char *board, const char *id,
                       const char *expected)
{
    pier_row *row = NULL;
    pier_error err;
    if (pier_row_get(&row, f->e, board, id, &err) != PIER_OK)
        fail_msg("get %s: %s: %s", id, err.tag, err.message);
    char *json = pier_row_to_json(row);
    char *want = dq(expected);
    if (strcmp(json, want) != 0)
        fail_msg("row %s is\n%s\nexpected\n%s", id, json, want);
    free(want);
    pier_free(json);
    pier_row_free(row);
}

static void assert_no_row(fixture *f, const char *board, const char *id)
{
    pier_row *row = NULL;
    pier_error err;
    assert_int_equal(pier_row_get(&row, f->e, board, id, &err),
                     PIER_E_ROW_NOT_FOUND);
}

static void assert_records(fixture *f, const char *sql, const char *want)
{
    char *got = testlake_text(f->dir, sql);
    char *w = dq(want);
    if (got == NULL || strcmp(got, w) != 0)
        fail_msg("%s gave\n%s\nexpected\n%s", sql, got ? got : "(failed)", w);
    free(got);
    free(w);
}

#define T0S "2026-03-01T10:00:00.000000Z"
#define T1S "2026-03-01T10:00:01.000000Z"

/* ---- update ---- */

static void update_patches_rows_in_order(void **state)
{
    fixture *f = *state;
    ins(f, "b", "[{'id':'a','n':1,'s':'x'},{'id':'b','n':2}]");
    f->clock += 1000000;
    pier_error err;
    int64_t wm = 0;
    /* Two patches to one id stack as two calls would; a null clears; a new
     * column is inferred as on insert. */
    assert_int_equal(upd(f, "b", "[{'id':'a','patch':{'n':5,'s':null}},"
                                 "{'id':'a','patch':{'n':6,'flag':true}},"
                                 "{'id':'b','patch':{'state':'done'}}]",
                         &wm, &err), PIER_OK);
    assert_row(f, "b", "a", "{'id':'a','updated_at':'" T1S "','state':null,"
                            "'n':6,'s':null,'flag':true}");
    assert_row(f, "b", "b", "{'id':'b','updated_at':'" T1S "','state':'done',"
                            "'n':2,'s':null,'flag':null}");
    /* One record per patch, in order; the write returns the last. */
    int64_t last = testlake_int(f->dir, "SELECT max(watermark) FROM "
                                   "_pier_changes", -1);
    assert_int_equal(wm, last);
    assert_records(f, "SELECT kind, payload FROM _pier_changes "
                      "WHERE kind = 'update' ORDER BY watermark",
                   "update|{'id':'a','patch':{'n':5,'s':null}}\n"
                   "update|{'id':'a','patch':{'n':6,'flag':true}}\n"
                   "update|{'id':'b','patch':{'state':'done'}}\n");
}

/* A refused write leaves the lake byte-identical. */
static void refused(fixture *f, pier_status want, pier_status got,
                    const char *before)
{
    assert_int_equal(got, want);
    char *after = testlake_dump(f->dir);
    assert_string_equal(before, after);
    free(after);
}

static void update_refusals_write_nothing(void **state)
{
    fixture *f = *state;
    ins(f, "b", "[{'id':'a','n':1},{'id':'b','n':2}]");
    pier_column_def cols[] = { { "amount", "double" } };
    pier_board_options o = PIER_BOARD_OPTIONS_INIT;
    o.columns = cols;
    o.ncolumns = 1;
    o.strict = true;
    pier_error err;
    assert_int_equal(pier_board_create(NULL, f->e, "strict_b", &o, &err),
                     PIER_OK);
    ins(f, "strict_b", "{'id':'s','amount':1}");
    char *before = testlake_dump(f->dir);
    int64_t wm = -1;
    /* A missing row, even after patches that applied: nothing stays. */
    refused(f, PIER_E_ROW_NOT_FOUND,
            upd(f, "b", "[{'id':'a','patch':{'n':9,'extra':1}},"
                        "{'id':'zz','patch':{'n':1}}]", &wm, &err), before);
    assert_non_null(strstr(err.message, "'zz'"));
    assert_string_equal(err.board, "b");
    refused(f, PIER_E_COLUMN_TYPE_CONFLICT,
            upd(f, "b", "[{'id':'a','patch':{'n':'text'}}]", &wm, &err),
            before);
    assert_string_equal(err.column, "n");
    refused(f, PIER_E_RESERVED_COLUMN_NAME,
            upd(f, "b", "[{'id':'a','patch':{'_v':1}}]", &wm, &err), before);
    refused(f, PIER_E_UNKNOWN_COLUMN,
            upd(f, "strict_b", "[{'id':'s','patch':{'memo':'x'}}]", &wm,
                &err), before);
    refused(f, PIER_E_COLUMN_TYPE_CONFLICT,
            upd(f, "b", "[{'id':'a','patch':{'state':3}}]", &wm, &err),
            before);
    if (wp_current == WP_JSON) {
        /* (A builder row has one id: it cannot name two.) */
        refused(f, PIER_E_INVALID_ARGUMENT,
                upd(f, "b", "[{'id':'a','patch':{'id':'b'}}]", &wm, &err),
                before);
        assert_non_null(strstr(err.message, "cannot change a row's id"));
    }
    refused(f, PIER_E_BOARD_NOT_FOUND,
            upd(f, "nope", "[{'id':'a','patch':{'n':1}}]", &wm, &err),
            before);
    assert_int_equal(wm, -1);
    /* The row's own id may be named in its patch. */
    assert_int_equal(upd(f, "b", "[{'id':'a','patch':{'id':'a','n':3}}]",
                         &wm, &err), PIER_OK);
    free(before);
}

static void update_json_takes_one_object(void **state)
{
    fixture *f = *state;
    ins(f, "b", "{'id':'a','n':1}");
    char *before = testlake_dump(f->dir);
    pier_error err;
    const char *arr = "[{\"n\":2}]";
    refused(f, PIER_E_INVALID_JSON,
            pier_update_json(NULL, f->e, "b", "a", arr, strlen(arr), &err),
            before);
    assert_int_equal(err.offset, 0);
    const char *two = "{\"n\":2} {\"n\":3}";
    refused(f, PIER_E_INVALID_JSON,
            pier_update_json(NULL, f->e, "b", "a", two, strlen(two), &err),
            before);
    refused(f, PIER_E_ROW_NOT_FOUND,
            pier_update_json(NULL, f->e, "b", "zz", "{}", 2, &err), before);
    free(before);
    int64_t wm = 0;
    const char *p = "{\"n\":2}";
    assert_int_equal(pier_update_json(&wm, f->e, "b", "a", p, strlen(p),
                                      &err), PIER_OK);
    assert_true(wm > 0);
    assert_row(f, "b", "a", "{'id':'a','updated_at':'" T0S "','state':null,"
                            "'n':2}");
}

/* ---- upsert ---- */

static void upsert_replaces_or_inserts(void **state)
{
    fixture *f = *state;
    ins(f, "b", "{'id':'a','n':1,'s':'x','state':'open'}");
    f->clock += 1000000;
    pier_error err;
    int64_t wm = 0;
    /* A complete row: columns it omits read null afterwards. Within one
     * call, later rows win. */
    assert_int_equal(ups(f, "b", "[{'id':'a','n':2},{'id':'c','s':'new'},"
                                 "{'id':'c','s':'newer'}]", &wm, &err),
                     PIER_OK);
    assert_row(f, "b", "a", "{'id':'a','updated_at':'" T1S "','state':null,"
                            "'n':2,'s':null}");
    assert_row(f, "b", "c", "{'id':'c','updated_at':'" T1S "','state':null,"
                            "'n':null,'s':'newer'}");
    assert_records(f, "SELECT kind, payload FROM _pier_changes "
                      "WHERE watermark = (SELECT max(watermark) FROM "
                      "_pier_changes)",
                   "upsert|{'rows':[{'id':'a','n':2},{'id':'c','s':'new'},"
                   "{'id':'c','s':'newer'}]}\n");
    /* Upserting auto-creates a board, as inserting does. */
    assert_int_equal(ups(f, "fresh", "{'id':'x','k':true}", &wm, &err),
                     PIER_OK);
    assert_row(f, "fresh", "x", "{'id':'x','updated_at':'" T1S "',"
                                "'state':null,'k':true}");
    /* The same rules as insert: a value that does not fit is refused. */
    char *before = testlake_dump(f->dir);
    refused(f, PIER_E_COLUMN_TYPE_CONFLICT,
            ups(f, "b", "[{'id':'d','n':1},{'id':'a','n':'x'}]", &wm, &err),
            before);
    refused(f, PIER_E_MISSING_ID, ups(f, "b", "{'n':1}", &wm, &err), before);
    free(before);
}

static void stamps_grow_even_when_the_clock_goes_back(void **state)
{
    testlake_embedded_only();
    fixture *f = *state;
    ins(f, "b", "{'id':'a','n':1}");
    int64_t v1 = lakedir_sql_int(f->lake, "SELECT _v FROM _pier_b_b "
                                 "WHERE id = 'a'", -1);
    assert_int_equal(v1, T0);
    f->clock -= 60 * 1000000;          /* the wall clock steps back */
    pier_error err;
    int64_t wm;
    assert_int_equal(ups(f, "b", "{'id':'a','n':2}", &wm, &err), PIER_OK);
    int64_t v2 = lakedir_sql_int(f->lake, "SELECT _v FROM _pier_b_b "
                                 "WHERE id = 'a'", -1);
    assert_true(v2 > v1);
    /* The newer stamp won: the row is the upserted one. */
    assert_row(f, "b", "a", "{'id':'a','updated_at':"
                            "'2026-03-01T09:59:00.000000Z','state':null,"
                            "'n':2}");
    /* A stored stamp newer than the write's would keep the stored row:
     * make the stored stamp come from the future. */
    assert_int_equal(lakedir_sql_exec(f->lake, "UPDATE _pier_b_b SET _v = "
                                      "9000000000000000 WHERE id = 'a'",
                                      false), 0);
    assert_int_equal(ups(f, "b", "{'id':'a','n':3}", &wm, &err), PIER_OK);
    assert_int_equal(lakedir_sql_int(f->lake, "SELECT n FROM _pier_b_b "
                                     "WHERE id = 'a'", -1), 2);
    /* Updates stamp too. */
    f->clock = T0 + 5000000;
    const char *p = "{\"n\":4}";
    assert_int_equal(pier_update_json(&wm, f->e, "b", "a", p, strlen(p),
                                      &err), PIER_OK);
    assert_true(testlake_int(f->dir, "SELECT max(stamp) FROM "
                                "_pier_changes", -1) > v2);
}

/* ---- delete and compact ---- */

static void delete_takes_missing_ids_in_stride(void **state)
{
    fixture *f = *state;
    ins(f, "b", "[{'id':'a'},{'id':'b'},{'id':'c'}]");
    pier_error err;
    int64_t wm = 0;
    const char *ids[] = { "a", "nope", "c" };
    assert_int_equal(pier_delete_many(&wm, f->e, "b", ids, 3, &err),
                     PIER_OK);
    assert_no_row(f, "b", "a");
    assert_no_row(f, "b", "c");
    int64_t n = 0;
    assert_int_equal(pier_row_count(&n, f->e, "b", &err), PIER_OK);
    assert_int_equal(n, 1);
    assert_records(f, "SELECT kind, payload FROM _pier_changes "
                      "WHERE kind = 'delete'",
                   "delete|{'ids':['a','nope','c']}\n");
    int64_t wm2 = 0;
    assert_int_equal(pier_delete(&wm2, f->e, "b", "nope", &err), PIER_OK);
    assert_true(wm2 > wm);
    /* No ids: nothing to delete, no record; the head is the answer. */
    int64_t records = testlake_int(f->dir, "SELECT count(*) FROM "
                                      "_pier_changes", -1);
    int64_t wm3 = 0;
    assert_int_equal(pier_delete_many(&wm3, f->e, "b", NULL, 0, &err),
                     PIER_OK);
    assert_int_equal(wm3, wm2);
    assert_int_equal(testlake_int(f->dir, "SELECT count(*) FROM "
                                     "_pier_changes", -1), records);
    char *before = testlake_dump(f->dir);
    refused(f, PIER_E_BOARD_NOT_FOUND,
            pier_delete(NULL, f->e, "nope", "a", &err), before);
    refused(f, PIER_E_INVALID_BOARD_ID,
            pier_delete(NULL, f->e, "No", "a", &err), before);
    refused(f, PIER_E_INVALID_ARGUMENT,
            pier_delete(NULL, f->e, "b", NULL, &err), before);
    const char *bad[] = { "b", NULL };
    refused(f, PIER_E_INVALID_ARGUMENT,
            pier_delete_many(NULL, f->e, "b", bad, 2, &err), before);
    free(before);
}

static void compact_reclaims_nothing_honestly(void **state)
{
    testlake_embedded_only();
    fixture *f = *state;
    ins(f, "b", "{'id':'a','n':1}");
    pier_error err;
    int64_t wm;
    assert_int_equal(ups(f, "b", "{'id':'a','n':2}", &wm, &err), PIER_OK);
    int64_t reclaimed = -1;
    assert_int_equal(pier_compact(&reclaimed, f->e, "b", &err), PIER_OK);
    assert_int_equal(reclaimed, 0);
    assert_int_equal(lakedir_sql_int(f->lake, "SELECT count(*) FROM "
                                     "_pier_b_b", -1), 1);
    assert_int_equal(pier_compact(&reclaimed, f->e, "nope", &err),
                     PIER_E_BOARD_NOT_FOUND);
}

/* ---- transactions ---- */

static void a_transaction_commits_once(void **state)
{
    fixture *f = *state;
    ins(f, "accounts", "{'id':'acc','balance':10}");
    f->clock += 1000000;
    pier_tx *tx = NULL;
    pier_error err;
    const char *boards[] = { "accounts", "history" };
    int64_t head = pier_head(f->e);
    assert_int_equal(pier_tx_begin(&tx, f->e, boards, 2, &err), PIER_OK);
    const char *patch = "{\"balance\":7}";
    assert_int_equal(pier_tx_update_json(tx, "accounts", "acc", patch,
                                         strlen(patch), &err), PIER_OK);
    const char *h = "[{\"id\":\"h1\",\"delta\":-3},{\"id\":\"h2\",\"delta\":1}]";
    assert_int_equal(pier_tx_insert_json(tx, "history", h, strlen(h), &err),
                     PIER_OK);
    const char *ids[] = { "h2" };
    assert_int_equal(pier_tx_delete_many(tx, "history", ids, 1, &err),
                     PIER_OK);
    /* Nothing is visible to the lake before the commit. */
    assert_int_equal(testlake_int(f->dir, "SELECT count(*) FROM "
                                     "_pier_changes", -1), head);
    int64_t wm = 0;
    assert_int_equal(pier_tx_commit(&wm, tx, &err), PIER_OK);
    assert_int_equal(wm, testlake_int(f->dir, "SELECT max(watermark) "
                                         "FROM _pier_changes", -1));
    assert_true(wm > head);
    assert_int_equal(pier_head(f->e), wm);
    /* Every row written shares one updated_at and one stamp. */
    assert_row(f, "accounts", "acc", "{'id':'acc','updated_at':'" T1S "',"
                                     "'state':null,'balance':7}");
    assert_row(f, "history", "h1", "{'id':'h1','updated_at':'" T1S "',"
                                   "'state':null,'delta':-3}");
    assert_no_row(f, "history", "h2");
    assert_int_equal(testlake_int(f->dir, "SELECT count(DISTINCT stamp) "
                                     "FROM _pier_changes WHERE watermark > "
                                     "2", -1), 1);
}

static void a_failure_poisons_the_transaction(void **state)
{
    fixture *f = *state;
    ins(f, "a", "{'id':'x','n':1}");
    char *before = testlake_dump(f->dir);
    pier_tx *tx = NULL;
    pier_error err;
    const char *boards[] = { "a", "fresh" };
    assert_int_equal(pier_tx_begin(&tx, f->e, boards, 2, &err), PIER_OK);
    const char *row = "{\"id\":\"y\",\"n\":2}";
    assert_int_equal(pier_tx_insert_json(tx, "fresh", row, strlen(row), &err),
                     PIER_OK);                 /* creates board fresh */
    assert_int_equal(pier_tx_insert_json(tx, "a", row, strlen(row), &err),
                     PIER_OK);
    /* A board not named: refused, and the transaction is poisoned. */
    assert_int_equal(pier_tx_insert_json(tx, "other", row, strlen(row),
                                         &err), PIER_E_ENTITY_NOT_ALLOWED);
    assert_string_equal(err.tag, "EntityNotAllowed");
    assert_string_equal(err.board, "other");
    assert_int_equal(pier_tx_insert_json(tx, "a", "{\"id\":\"z\"}", 10,
                                         &err), PIER_E_ENTITY_NOT_ALLOWED);
    assert_non_null(strstr(err.message, "already failed"));
    int64_t wm = -1;
    assert_int_equal(pier_tx_commit(&wm, tx, &err),
                     PIER_E_ENTITY_NOT_ALLOWED);
    assert_non_null(strstr(err.message, "rolled back"));
    assert_int_equal(wm, -1);
    char *after = testlake_dump(f->dir);
    assert_string_equal(before, after);       /* nothing written */
    free(after);
    bool has = true;
    assert_int_equal(pier_board_has(&has, f->e, "fresh", &err), PIER_OK);
    assert_false(has);                        /* the new board is gone */

    /* Any failing write poisons it the same way; rollback too. */
    assert_int_equal(pier_tx_begin(&tx, f->e, boards, 2, &err), PIER_OK);
    assert_int_equal(pier_tx_insert_json(tx, "fresh", row, strlen(row), &err),
                     PIER_OK);
    assert_int_equal(pier_tx_update_json(tx, "a", "nope", "{}", 2, &err),
                     PIER_E_ROW_NOT_FOUND);
    assert_int_equal(pier_tx_commit(&wm, tx, &err), PIER_E_ROW_NOT_FOUND);
    assert_int_equal(pier_tx_begin(&tx, f->e, boards, 2, &err), PIER_OK);
    assert_int_equal(pier_tx_insert_json(tx, "fresh", row, strlen(row), &err),
                     PIER_OK);
    pier_tx_rollback(tx);
    after = testlake_dump(f->dir);
    assert_string_equal(before, after);
    free(after);
    assert_int_equal(pier_board_has(&has, f->e, "fresh", &err), PIER_OK);
    assert_false(has);
    free(before);
    pier_tx_rollback(NULL);
}

static void a_transaction_holds_its_thread_and_engine(void **state)
{
    fixture *f = *state;
    pier_tx *tx = NULL, *tx2 = NULL;
    pier_error err;
    const char *boards[] = { "a" };
    assert_int_equal(pier_tx_begin(&tx, f->e, boards, 1, &err), PIER_OK);
    /* The same thread cannot use the engine beside its transaction. */
    int64_t n;
    assert_int_equal(pier_row_count(&n, f->e, "a", &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_insert_json(NULL, f->e, "a", "{\"id\":\"q\"}", 10,
                                      &err), PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_tx_begin(&tx2, f->e, boards, 1, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_tx_insert_json(tx, "a", "{\"id\":\"q\"}", 10,
                                         &err), PIER_OK);
    assert_int_equal(pier_tx_commit(NULL, tx, &err), PIER_OK);
    assert_int_equal(pier_row_count(&n, f->e, "a", &err), PIER_OK);
    assert_int_equal(n, 1);
    /* A transaction that wrote nothing commits at the head. */
    int64_t head = 0, wm = -1;
    assert_int_equal(pier_head_from_catalog(&head, f->e, &err), PIER_OK);
    assert_int_equal(pier_tx_begin(&tx, f->e, boards, 1, &err), PIER_OK);
    assert_int_equal(pier_tx_commit(&wm, tx, &err), PIER_OK);
    assert_int_equal(wm, head);
    const char *bad[] = { "Bad" };
    assert_int_equal(pier_tx_begin(&tx, f->e, bad, 1, &err),
                     PIER_E_INVALID_BOARD_ID);
    assert_int_equal(pier_tx_insert_json(NULL, "a", "{}", 2, &err),
                     PIER_E_INVALID_ARGUMENT);
}

typedef struct waiter {
    pier_engine *e;
    pier_status rc;
    int64_t count;
} waiter;

static void *count_later(void *arg)
{
    waiter *w = arg;
    pier_error err;
    w->rc = pier_row_count(&w->count, w->e, "a", &err);
    return NULL;
}

static void another_thread_waits_for_the_commit(void **state)
{
    fixture *f = *state;
    ins(f, "a", "{'id':'x'}");
    pier_tx *tx = NULL;
    pier_error err;
    const char *boards[] = { "a" };
    assert_int_equal(pier_tx_begin(&tx, f->e, boards, 1, &err), PIER_OK);
    assert_int_equal(pier_tx_insert_json(tx, "a", "{\"id\":\"y\"}", 10,
                                         &err), PIER_OK);
    waiter w = { .e = f->e };
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, count_later, &w), 0);
    assert_int_equal(pier_tx_commit(NULL, tx, &err), PIER_OK);
    pthread_join(t, NULL);
    /* The reader could not run inside the transaction: it saw all of it. */
    assert_int_equal(w.rc, PIER_OK);
    assert_int_equal(w.count, 2);
}

#define BOTH(fn)                                                          \
    cmocka_unit_test_setup_teardown(fn, setup_json, teardown),            \
    cmocka_unit_test_setup_teardown(fn, setup_rows, teardown)
#define ONE(fn) cmocka_unit_test_setup_teardown(fn, setup_json, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        BOTH(update_patches_rows_in_order),
        BOTH(update_refusals_write_nothing),
        ONE(update_json_takes_one_object),
        BOTH(upsert_replaces_or_inserts),
        BOTH(stamps_grow_even_when_the_clock_goes_back),
        ONE(delete_takes_missing_ids_in_stride),
        BOTH(compact_reclaims_nothing_honestly),
        ONE(a_transaction_commits_once),
        ONE(a_failure_poisons_the_transaction),
        ONE(a_transaction_holds_its_thread_and_engine),
        ONE(another_thread_waits_for_the_commit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
