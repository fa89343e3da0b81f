/*
 * test_tx_json.c: a transaction's operations as one JSON document
 * (pier_tx_apply_json).
 *
 * A document runs its operations in order, each as the call of its kind
 * (insert, upsert, update, delete), with members in any order, and its
 * values reach the boards exactly as written (a hugeint beyond 64 bits,
 * a decimal's digits), since the row reader of pier_insert_json reads it.
 * A malformed document is InvalidJson at the byte of the fault, relative
 * to the whole document, before anything runs; a failing operation names
 * itself "(operation N)". Either failure poisons the transaction, whose
 * commit then writes nothing and moves no watermark.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pier.h"
#include "support/engine_fixture.h"

typedef engine_fixture fixture;

static int setup(void **state)
{
    fixture *f = fixture_open();
    fixture_insert(f->e, "acct", "[{\"id\":\"a\",\"bal\":10},"
                   "{\"id\":\"b\",\"bal\":20}]");
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    return fixture_close(*state);
}

static char *row_json(pier_engine *e, const char *board, const char *id)
{
    pier_row *r = NULL;
    pier_error err;
    if (pier_row_get(&r, e, board, id, &err) != PIER_OK)
        return NULL;
    char *json = pier_row_to_json(r);
    pier_row_free(r);
    return json;
}

static int64_t head(pier_engine *e)
{
    int64_t h = -1;
    pier_error err;
    assert_int_equal(pier_head_from_catalog(&h, e, &err), PIER_OK);
    return h;
}

static pier_tx *begin(pier_engine *e)
{
    static const char *const boards[] = { "acct", "log" };
    pier_tx *tx = NULL;
    pier_error err;
    assert_int_equal(pier_tx_begin(&tx, e, boards, 2, &err), PIER_OK);
    return tx;
}

/* Applies `doc` in a transaction of its own and commits. */
static pier_status apply(pier_engine *e, const char *doc, int64_t *wm,
                         pier_error *err)
{
    pier_tx *tx = begin(e);
    pier_status rc = pier_tx_apply_json(tx, doc, strlen(doc), err);
    if (rc != PIER_OK) {
        pier_error ignored;
        assert_int_equal(pier_tx_commit(NULL, tx, &ignored), rc);
        return rc;
    }
    return pier_tx_commit(wm, tx, err);
}

static void test_every_op(void **state)
{
    fixture *f = *state;
    const char doc[] =
        "[{\"op\":\"update\",\"board\":\"acct\",\"id\":\"a\","
        "\"patch\":{\"bal\":5}},"
        /* members in any order */
        "{\"patch\":{\"bal\":25},\"id\":\"b\",\"board\":\"acct\","
        "\"op\":\"update\"},"
        "{\"rows\":[{\"id\":\"t1\",\"amount\":5.25,"
        "\"big\":170141183460469231731687303715884105727}],"
        "\"op\":\"insert\",\"board\":\"log\"},"
        "{\"op\":\"upsert\",\"board\":\"acct\",\"rows\":[{\"id\":\"c\"}]},"
        "{\"op\":\"delete\",\"board\":\"acct\",\"ids\":[\"c\",\"zz\"]}]";
    int64_t before = head(f->e), wm = 0;
    pier_error err;
    assert_int_equal(apply(f->e, doc, &wm, &err), PIER_OK);
    assert_true(wm > before);
    assert_int_equal(wm, head(f->e));
    char *j = row_json(f->e, "acct", "a");
    assert_string_equal(j, "{\"id\":\"a\",\"updated_at\":\"" FIXTURE_NOW_TEXT
                        "\",\"state\":null,\"bal\":5}");
    pier_free(j);
    j = row_json(f->e, "acct", "b");
    assert_non_null(strstr(j, "\"bal\":25"));
    pier_free(j);
    assert_null(row_json(f->e, "acct", "c"));
    j = row_json(f->e, "log", "t1");
    assert_string_equal(j, "{\"id\":\"t1\",\"updated_at\":\"" FIXTURE_NOW_TEXT
                        "\",\"state\":null,\"amount\":5.25,"
                        "\"big\":170141183460469231731687303715884105727}");
    pier_free(j);
    /* An empty list writes nothing and answers the head, as an empty
     * write does; a byte order mark and white space are fine. */
    int64_t after = head(f->e);
    wm = -1;
    assert_int_equal(apply(f->e, "\xEF\xBB\xBF [ ]\n", &wm, &err), PIER_OK);
    assert_int_equal(wm, after);
    assert_int_equal(head(f->e), after);
}

typedef struct bad_doc {
    const char *doc;
    int64_t offset;
    const char *message;
} bad_doc;

/* Each is refused before anything runs, where the fault is. */
static const bad_doc bad_docs[] = {
    { "", 0, "empty input at byte 0" },
    { "[{\"op\":\"insert\",", 16,
      "expected a member name at byte 16 (operation 1)" },
    { "{\"op\":\"insert\"}", 0,
      "the operations must be a JSON array, got an object at byte 0" },
    { "[{\"op\":\"delete\",\"board\":\"acct\",\"ids\":[]},42]", 41,
      "an operation must be an object, got a number at byte 41 "
      "(operation 2)" },
    { "[{\"op\":\"merge\",\"board\":\"acct\"}]", 7,
      "unknown op \"merge\": expected insert, upsert, update or delete at "
      "byte 7 (operation 1)" },
    { "[{\"board\":\"acct\",\"rows\":[]}]", 26,
      "missing member 'op' at byte 26 (operation 1)" },
    { "[{\"op\":\"insert\",\"rows\":[]}]", 25,
      "missing member 'board' at byte 25 (operation 1)" },
    { "[{\"op\":\"update\",\"board\":\"acct\",\"patch\":{}}]", 41,
      "missing member 'id' at byte 41 (operation 1)" },
    { "[{\"op\":\"insert\",\"board\":\"acct\",\"rows\":[],\"ids\":[]}]", 41,
      "unknown member 'ids' in an insert operation at byte 41 "
      "(operation 1)" },
    { "[{\"op\":\"delete\",\"board\":\"acct\",\"x\":{\"y\":[1]},"
      "\"ids\":[]}]", 31,
      "unknown member 'x' in a delete operation at byte 31 (operation 1)" },
    { "[{\"op\":\"insert\",\"board\":\"acct\",\"rows\":[],\"rows\":[]}]", 41,
      "member 'rows' appears twice at byte 41 (operation 1)" },
    { "[{\"op\":\"insert\",\"board\":\"acct\",\"rows\":{}}]", 38,
      "member 'rows' must be an array, got an object at byte 38 "
      "(operation 1)" },
    { "[{\"op\":\"update\",\"board\":\"acct\",\"id\":\"a\",\"patch\":[]}]",
      48, "member 'patch' must be an object, got an array at byte 48 "
      "(operation 1)" },
    { "[{\"op\":true,\"board\":\"acct\"}]", 7,
      "member 'op' must be a string, got a boolean at byte 7 "
      "(operation 1)" },
    { "[{\"op\":\"delete\",\"board\":\"acct\",\"ids\":[\"a\",null]}]", 42,
      "member 'ids' must hold strings, got null (element 2) at byte 42 "
      "(operation 1)" },
    { "[{\"op\":\"delete\",\"board\":\"ac\\u0000ct\",\"ids\":[]}]", 24,
      "member 'board' may not hold \\u0000 at byte 24 (operation 1)" },
    { "[{\"op\":\"delete\",\"board\":\"acct\",\"ids\":[\"\\u0000\"]}]", 38,
      "member 'ids' may not hold \\u0000 (element 1) at byte 38 "
      "(operation 1)" },
    /* The rows are read as pier_insert_json reads them. */
    { "[{\"op\":\"insert\",\"board\":\"acct\",\"rows\":[{\"id\":\"n\","
      "\"f\":1e999}]}]", 53,
      "number out of range at byte 53 (operation 1)" },
    { "[{\"op\":\"insert\",\"board\":\"acct\",\"rows\":[{\"id\":\"n\"},7]}]",
      50, "expected an object at byte 50 (operation 1)" },
    { "[] x", 3, "trailing characters after the value at byte 3" },
};

static void test_malformed_documents(void **state)
{
    fixture *f = *state;
    int64_t before = head(f->e);
    for (size_t i = 0; i < sizeof bad_docs / sizeof *bad_docs; i++) {
        const bad_doc *b = &bad_docs[i];
        pier_tx *tx = begin(f->e);
        /* A write before it, which the failure rolls back too. */
        pier_error err;
        assert_int_equal(pier_tx_insert_json(tx, "acct", "{\"id\":\"w\"}",
                                             10, &err), PIER_OK);
        pier_status rc = pier_tx_apply_json(tx, b->doc, strlen(b->doc),
                                            &err);
        pier_error got = err;
        /* Poisoned: the next write fails, and so does the commit. */
        pier_status next = pier_tx_insert_json(tx, "acct", "{\"id\":\"v\"}",
                                               10, &err);
        pier_status commit = pier_tx_commit(NULL, tx, &err);
        if (rc != PIER_E_INVALID_JSON || strcmp(got.message, b->message) != 0
            || got.offset != b->offset)
            fail_msg("%s: got %s \"%s\" at %lld", b->doc, got.tag,
                     got.message, (long long)got.offset);
        assert_int_equal(next, PIER_E_INVALID_JSON);
        assert_int_equal(commit, PIER_E_INVALID_JSON);
        assert_null(row_json(f->e, "acct", "w"));
    }
    assert_int_equal(head(f->e), before);
}

/* A failing operation names itself; everything before it is undone. */
static void test_failing_operation(void **state)
{
    fixture *f = *state;
    int64_t before = head(f->e);
    pier_error err;
    assert_int_equal(
        apply(f->e, "[{\"op\":\"insert\",\"board\":\"log\",\"rows\":"
              "[{\"id\":\"x\"}]},{\"op\":\"insert\",\"board\":\"acct\","
              "\"rows\":[{\"id\":\"q\"},{\"id\":\"r\",\"bal\":\"lots\"}]}]",
              NULL, &err),
        PIER_E_COLUMN_TYPE_CONFLICT);
    assert_string_equal(err.message, "column 'bal' of board 'acct' is "
                        "bigint, got text \"lots\" (row 2) (operation 2)");
    assert_string_equal(err.board, "acct");
    assert_string_equal(err.column, "bal");
    assert_int_equal(apply(f->e, "[{\"op\":\"update\",\"board\":\"acct\","
                           "\"id\":\"nobody\",\"patch\":{\"bal\":1}}]",
                           NULL, &err), PIER_E_ROW_NOT_FOUND);
    assert_int_equal(apply(f->e, "[{\"op\":\"delete\",\"board\":\"other\","
                           "\"ids\":[\"a\"]}]", NULL, &err),
                     PIER_E_ENTITY_NOT_ALLOWED);
    assert_string_equal(err.message, "board 'other' was not named when the "
                        "transaction began (operation 1)");
    assert_int_equal(apply(f->e, "[{\"op\":\"delete\",\"board\":\"Bad\","
                           "\"ids\":[]}]", NULL, &err),
                     PIER_E_INVALID_BOARD_ID);
    bool has = true;
    assert_int_equal(pier_board_has(&has, f->e, "log", &err), PIER_OK);
    assert_false(has);
    assert_int_equal(head(f->e), before);
}

static void test_bad_arguments(void **state)
{
    fixture *f = *state;
    pier_error err;
    assert_int_equal(pier_tx_apply_json(NULL, "[]", 2, &err),
                     PIER_E_INVALID_ARGUMENT);
    pier_tx *tx = begin(f->e);
    assert_int_equal(pier_tx_apply_json(tx, NULL, 0, &err),
                     PIER_E_INVALID_ARGUMENT);
    pier_tx_rollback(tx);
    /* The length is checked before a byte is read. */
    tx = begin(f->e);
    assert_int_equal(pier_tx_apply_json(tx, "[]",
                                        (size_t)PIER_MAX_BATCH_BYTES + 1,
                                        &err), PIER_E_LIMIT_EXCEEDED);
    pier_tx_rollback(tx);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_every_op),
        T(test_malformed_documents),
        T(test_failing_operation),
        T(test_bad_arguments),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
