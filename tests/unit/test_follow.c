/*
 * test_follow.c: an application can keep a board in sync in another
 * process just by following the feed.
 *
 * A writer in a child process (its own engine on the same data directory)
 * runs a scripted sequence on board "b": inserts of every inferable type
 * (a hugeint beyond 64 bits among them), updates (a null clearing a column,
 * a patch adding a column), upserts, deletes of present and missing ids,
 * widenings (bigint to double, and several columns to text), transactions,
 * a truncate, more inserts and a drop. The parent sees the board only
 * through the feed: it rebuilds it in memory from the change records alone
 * (schema records give the column types; updated_at is the record's
 * committed_at) and compares the rebuild, row by row and column by column,
 * with what the engine stores.
 *
 * Two scenarios: the writer pauses at checkpoints while the parent catches
 * up with pier_changes pages and compares; and the writer runs straight
 * through while the parent follows it live with pier_watch, cancelled from
 * another thread once everything arrived.
 *
 * The rebuild and the comparison are support/feed_model.c's, shared with
 * the soak programs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pier.h"
#include "support/feed_model.h"
#include "support/lakedir.h"
#include "support/testlake.h"

#define BOARD "b"
/* A literal and its length. */
#define J(s) s, strlen(s)

/* ------------------------------------------------------------------ */
/* Following the feed                                                   */

/* Reads pages of at most 3 records until the record at `target` is in. */
static void catch_up(fm_board *m, pier_engine *e, int64_t target)
{
    while (m->last < target) {
        pier_changes_page *page = NULL;
        pier_error err;
        assert_int_equal(pier_changes(&page, e, BOARD, m->after, 3, &err),
                         PIER_OK);
        assert_non_null(page);
        if (page->nrecords == 0)
            fail_msg("the feed ends at %lld (next %lld), before the "
                     "writer's watermark %lld", (long long)m->last,
                     (long long)page->next, (long long)target);
        assert_true(page->nrecords <= 3);
        char *text = pier_changes_page_to_json(page);
        assert_non_null(text);
        json_t *pj = fm_parse(text, strlen(text));
        pier_free(text);
        assert_true(json_is_false(json_object_get(pj, "resync")));
        assert_int_equal(json_integer_value(json_object_get(pj, "next")),
                         page->next);
        assert_int_equal(json_array_size(json_object_get(pj, "records")),
                         page->nrecords);
        json_decref(pj);
        fm_apply_page(m, page);
        pier_changes_page_free(page);
    }
    /* The writer's watermark is the last record its write appended. */
    assert_int_equal(m->last, target);
    pier_changes_page *page = NULL;
    pier_error err;
    assert_int_equal(pier_changes(&page, e, BOARD, m->after, 0, &err),
                     PIER_OK);
    assert_int_equal(page->nrecords, 0);
    pier_changes_page_free(page);
}

/* A rebuilt cell, for asserting a few values directly. */
static const json_t *cell(const fm_board *m, const char *id, const char *col)
{
    const json_t *row = json_object_get(m->rows, id);
    if (row == NULL)
        fail_msg("no row '%s' in the rebuilt board", id);
    return json_object_get(row, col);
}

static void assert_cell_text(const fm_board *m, const char *id, const char *col,
                             const char *text)
{
    const json_t *v = cell(m, id, col);
    if (!json_is_string(v) || strcmp(json_string_value(v), text) != 0) {
        char *d = v ? fm_dump(v) : NULL;
        fail_msg("row '%s' column '%s': %s, want \"%s\"", id, col,
                 d ? d : "(absent)", text);
    }
}

/* ------------------------------------------------------------------ */
/* The writer (child process: no cmocka here, failures exit non-zero)   */

typedef struct writer {
    pier_engine *e;
    int to_parent;         /* watermarks at checkpoints */
    int from_parent;       /* a byte: go on */
    bool pause;            /* wait for the parent at every checkpoint */
    bool drop;             /* end with a drop */
    int step;
} writer;

static void die(writer *w, int line, const char *what, pier_status rc,
                const pier_error *err)
{
    fprintf(stderr, "writer (step %d, line %d): %s: got %s: %s\n", w->step,
            line, what, pier_status_tag(rc),
            rc != PIER_OK && err ? err->message : "");
    _exit(2);
}

#define OK(call)                                                          \
    do {                                                                  \
        w->step++;                                                        \
        pier_status rc_ = (call);                                         \
        if (rc_ != PIER_OK)                                               \
            die(w, __LINE__, #call, rc_, &err);                           \
    } while (0)
#define FAILS(call, want)                                                 \
    do {                                                                  \
        w->step++;                                                        \
        pier_status rc_ = (call);                                         \
        if (rc_ != (want))                                                \
            die(w, __LINE__, #call, rc_, &err);                           \
    } while (0)
#define REQUIRE(cond)                                                     \
    do {                                                                  \
        if (!(cond))                                                      \
            die(w, __LINE__, #cond, PIER_OK, NULL);                       \
    } while (0)

static void send_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t k = write(fd, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            _exit(3);
        c += k;
        n -= (size_t)k;
    }
}

/* Reads exactly n bytes; false at end of file. */
static bool recv_all(int fd, void *p, size_t n)
{
    char *c = p;
    while (n > 0) {
        ssize_t k = read(fd, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        c += k;
        n -= (size_t)k;
    }
    return true;
}

static void checkpoint(writer *w, int64_t wm, bool always)
{
    if (!w->pause && !always) {
        /* Live: give the follower a chance to fall behind and catch up. */
        struct timespec ts = { 0, 3 * 1000000L };
        nanosleep(&ts, NULL);
        return;
    }
    send_all(w->to_parent, &wm, sizeof wm);
    char go;
    if (!recv_all(w->from_parent, &go, 1))
        _exit(4);
}

static int64_t json_write(writer *w, int line,
                          pier_status (*fn)(int64_t *, pier_engine *,
                                            const char *, const char *,
                                            size_t, pier_error *),
                          const char *json)
{
    int64_t wm = 0;
    pier_error err;
    w->step++;
    pier_status rc = fn(&wm, w->e, BOARD, json, strlen(json), &err);
    if (rc != PIER_OK)
        die(w, line, json, rc, &err);
    return wm;
}
#define INSERT(json) json_write(w, __LINE__, pier_insert_json, json)
#define UPSERT(json) json_write(w, __LINE__, pier_upsert_json, json)
#define UPDATE_MANY(json) json_write(w, __LINE__, pier_update_many_json, json)

static int64_t update(writer *w, int line, const char *id, const char *patch)
{
    int64_t wm = 0;
    pier_error err;
    w->step++;
    pier_status rc = pier_update_json(&wm, w->e, BOARD, id, patch,
                                      strlen(patch), &err);
    if (rc != PIER_OK)
        die(w, line, patch, rc, &err);
    return wm;
}
#define UPDATE(id, patch) update(w, __LINE__, id, patch)

/* The script. Values are chosen to reach every type and every rendering:
 * a hugeint at both ends of 128 bits, a bigint beyond 2^53, doubles that
 * need 17 digits, 1e300, -0.0, documents with unsorted keys. */
static void run_script(writer *w)
{
    pier_error err;
    pier_engine *e = w->e;
    int64_t wm = 0, prev = 0;

    /* 1. Inserts. */
    INSERT("[{\"id\":\"a\",\"t\":\"alpha\",\"n\":1,\"d\":2.5,\"f\":true,"
           "\"j\":{\"k\":[1,2.5,\"x\"],\"a\":null},"
           "\"h\":170141183460469231731687303715884105727,"
           "\"state\":\"open\"},"
           "{\"id\":\"b\",\"t\":\"beta \\\"q\\\"\\nline\","
           "\"n\":-9007199254740993,\"d\":0.1,\"f\":false,"
           "\"j\":[3,{\"z\":1,\"y\":\"w\"}],"
           "\"h\":-18446744073709551616},"
           "{\"id\":\"c\",\"n\":42,\"h\":5}]");
    pier_rows *rows = pier_rows_new();
    REQUIRE(rows != NULL);
    OK(pier_rows_add(rows, &err));
    OK(pier_rows_set_text(rows, "id", "d", &err));
    OK(pier_rows_set_text(rows, "t", "d\xc3\xa9lta", &err));
    OK(pier_rows_set_int64(rows, "n", INT64_MIN, &err));
    OK(pier_rows_set_double(rows, "d", 1e300, &err));
    OK(pier_rows_set_bool(rows, "f", true, &err));
    OK(pier_rows_set_json(rows, "j", "{\"b\":2,\"a\":[1e2,-0.5]}", &err));
    OK(pier_rows_set_hugeint(rows, "h", (pier_hugeint){ 1, 0 }, &err));
    OK(pier_rows_set_timestamp(rows, "ts", INT64_C(1700000000123456), &err));
    OK(pier_insert_rows(&wm, e, BOARD, rows, &err));
    wm = INSERT("{\"id\":\"e\",\"d\":-0.0,"
                "\"ts\":\"2026-03-01T10:00:00+02:00\"}\n"
                "{\"id\":\"f\",\"f\":false,\"n\":0}\n");
    checkpoint(w, wm, true);

    /* 2. Updates: a null clears, a patch adds a column, patches stack. */
    UPDATE("a", "{\"t\":null,\"n\":7,\"extra\":\"new col\"}");
    UPDATE("c", "{\"N\":43}");          /* names match case-insensitively */
    UPDATE_MANY("[{\"id\":\"b\",\"patch\":{\"d\":3}},"
                "{\"id\":\"b\",\"patch\":{\"d\":null,\"f\":true,"
                "\"state\":\"done\"}},"
                "{\"id\":\"c\",\"patch\":{\"id\":\"c\",\"score\":1.5}}]");
    pier_rows_clear(rows);
    OK(pier_rows_add(rows, &err));
    OK(pier_rows_set_text(rows, "id", "d", &err));
    OK(pier_rows_set_null(rows, "ts", &err));
    OK(pier_rows_set_int64(rows, "n", 12, &err));
    OK(pier_update_rows(&wm, e, BOARD, rows, &err));
    prev = wm;
    FAILS(pier_update_json(&wm, e, BOARD, "zzz", J("{\"n\":1}"), &err),
          PIER_E_ROW_NOT_FOUND);
    FAILS(pier_update_json(&wm, e, BOARD, "a", J("{\"n\":\"x\"}"), &err),
          PIER_E_COLUMN_TYPE_CONFLICT);
    checkpoint(w, prev, false);

    /* 3. Upserts: one replaces a row with fewer columns, one is new. */
    UPSERT("[{\"id\":\"a\",\"T\":\"replaced\"},"
           "{\"id\":\"g\",\"n\":5,\"d\":1,\"j\":{\"q\":[true,null]}}]");
    pier_rows_clear(rows);
    OK(pier_rows_add(rows, &err));
    OK(pier_rows_set_text(rows, "id", "b", &err));
    OK(pier_rows_set_int64(rows, "n", 99, &err));
    OK(pier_rows_set_hugeint(rows, "h", (pier_hugeint){ -2, 5 }, &err));
    OK(pier_rows_add(rows, &err));
    OK(pier_rows_set_text(rows, "id", "h2", &err));
    OK(pier_rows_set_text(rows, "t", "new", &err));
    OK(pier_upsert_rows(&wm, e, BOARD, rows, &err));
    /* Within one call the later of two rows with one id wins. */
    wm = UPSERT("[{\"id\":\"u2\",\"n\":1,\"t\":\"first\"},"
                "{\"id\":\"u2\",\"n\":2}]");
    checkpoint(w, wm, false);

    /* 4. Deletes, of present and missing ids. */
    OK(pier_delete(&wm, e, BOARD, "c", &err));
    OK(pier_delete(&wm, e, BOARD, "nope", &err));
    const char *ids[] = { "e", "missing", "f" };
    OK(pier_delete_many(&wm, e, BOARD, ids, 3, &err));
    checkpoint(w, wm, false);

    /* 5. Widenings: bigint to double, then four columns to text. */
    INSERT("{\"id\":\"p\",\"n\":123456789012,\"d\":0.30000000000000004,"
           "\"f\":false,\"j\":[1.5,\"s\",{\"b\":[],\"a\":{}}],"
           "\"h\":-170141183460469231731687303715884105728,\"score\":2}");
    OK(pier_board_widen_column(&wm, e, BOARD, "n", "double", &err));
    OK(pier_board_widen_column(&wm, e, BOARD, "d", "text", &err));
    OK(pier_board_widen_column(&wm, e, BOARD, "h", "text", &err));
    OK(pier_board_widen_column(&wm, e, BOARD, "j", "text", &err));
    OK(pier_board_widen_column(&wm, e, BOARD, "f", "text", &err));
    prev = wm;
    OK(pier_board_widen_column(&wm, e, BOARD, "n", "double", &err));
    REQUIRE(wm == prev);                  /* a no-op appends nothing */
    wm = INSERT("{\"id\":\"q\",\"n\":3,\"d\":\"now text\",\"f\":\"yes\","
                "\"h\":7,\"j\":\"plain\"}");
    checkpoint(w, wm, false);

    /* 6. Transactions: one commits five writes as one; a rolled back one,
     * a poisoned one and one that names the wrong board leave nothing. */
    const char *boards[] = { BOARD };
    pier_tx *tx = NULL;
    OK(pier_tx_begin(&tx, e, boards, 1, &err));
    OK(pier_tx_insert_json(tx, BOARD, J("{\"id\":\"t1\",\"n\":1.25}"),
                           &err));
    OK(pier_tx_update_json(tx, BOARD, "a", J("{\"extra\":\"tx\"}"), &err));
    OK(pier_tx_update_json(tx, BOARD, "t1", J("{\"t\":\"t1 patched\"}"),
                           &err));
    OK(pier_tx_upsert_json(tx, BOARD, J("{\"id\":\"g\",\"t\":\"g2\"}"),
                           &err));
    const char *gone[] = { "q" };
    OK(pier_tx_delete_many(tx, BOARD, gone, 1, &err));
    pier_rows_clear(rows);
    OK(pier_rows_add(rows, &err));
    OK(pier_rows_set_text(rows, "id", "p", &err));
    OK(pier_rows_set_null(rows, "score", &err));
    OK(pier_rows_set_bool(rows, "flag2", true, &err));
    OK(pier_tx_update_rows(tx, BOARD, rows, &err));
    OK(pier_tx_commit(&wm, tx, &err));
    prev = wm;
    OK(pier_tx_begin(&tx, e, boards, 1, &err));
    OK(pier_tx_insert_json(tx, BOARD, J("{\"id\":\"never\"}"), &err));
    pier_tx_rollback(tx);
    OK(pier_tx_begin(&tx, e, boards, 1, &err));
    OK(pier_tx_insert_json(tx, BOARD, J("{\"id\":\"never2\"}"), &err));
    FAILS(pier_tx_update_json(tx, BOARD, "zzz", J("{\"n\":1}"), &err),
          PIER_E_ROW_NOT_FOUND);
    FAILS(pier_tx_commit(&wm, tx, &err), PIER_E_ROW_NOT_FOUND);
    OK(pier_tx_begin(&tx, e, boards, 1, &err));
    FAILS(pier_tx_insert_json(tx, "other", J("{\"id\":\"x\"}"), &err),
          PIER_E_ENTITY_NOT_ALLOWED);
    FAILS(pier_tx_commit(&wm, tx, &err), PIER_E_ENTITY_NOT_ALLOWED);
    bool has = true;
    OK(pier_board_has(&has, e, "other", &err));
    REQUIRE(!has);
    pier_rows_free(rows);
    checkpoint(w, prev, false);

    /* 7. Truncate, then more inserts into the widened columns. */
    OK(pier_board_truncate(&wm, e, BOARD, &err));
    checkpoint(w, wm, false);
    wm = INSERT("[{\"id\":\"z1\",\"n\":1,\"d\":\"x\",\"extra\":\"e\","
                "\"h\":170141183460469231731687303715884105727},"
                "{\"id\":\"z2\",\"score\":0.5,\"f\":true,\"j\":[2,1]}]");
    if (!w->drop) {
        checkpoint(w, wm, true);            /* the last: the writer ends */
        return;
    }
    checkpoint(w, wm, false);

    /* 8. Drop. */
    OK(pier_board_drop(&wm, e, BOARD, &err));
    checkpoint(w, wm, true);
}

static pid_t start_writer(const char *dir, bool pause, bool drop,
                          int *to_parent, int *to_child)
{
    int up[2], down[2];
    assert_int_equal(pipe(up), 0);
    assert_int_equal(pipe(down), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(up[0]);
        close(down[1]);
        writer wr = { .to_parent = up[1], .from_parent = down[0],
                      .pause = pause, .drop = drop };
        writer *w = &wr;
        pier_error err;
        pier_open_options o = PIER_OPEN_OPTIONS_INIT;
        testlake_options(&o, dir);
        OK(pier_open(&wr.e, dir, &o, &err));
        run_script(&wr);
        pier_close(&wr.e);
        close(up[1]);
        close(down[0]);
        _exit(0);
    }
    close(up[1]);
    close(down[0]);
    *to_parent = up[0];
    *to_child = down[1];
    return pid;
}

static void expect_exit_0(pid_t pid)
{
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("the writer failed: status %d", status);
}

static int64_t next_checkpoint(int fd, pid_t pid)
{
    int64_t wm = 0;
    if (!recv_all(fd, &wm, sizeof wm)) {
        expect_exit_0(pid);
        fail_msg("the writer ended before its checkpoint");
    }
    return wm;
}

static void go(int fd)
{
    char c = 'g';
    assert_int_equal(write(fd, &c, 1), 1);
}

/* ------------------------------------------------------------------ */
/* Scenario 1: the writer pauses; the parent catches up with pages       */

static void follow_with_pages(void **state)
{
    (void)state;
    char *dir = lakedir_make();
    assert_non_null(dir);
    int up, down;
    pid_t pid = start_writer(dir, true, true, &up, &down);
    pier_engine *e = NULL;
    pier_error err;
    fm_board m;
    fm_init(&m, BOARD);

    /* 1. inserts */
    int64_t wm = next_checkpoint(up, pid);
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    testlake_options(&o, dir);
    assert_int_equal(pier_open(&e, dir, &o, &err), PIER_OK);
    catch_up(&m, e, wm);
    fm_compare(&m, e, "after the inserts");
    assert_true(m.created);
    assert_string_equal(fm_type_of(&m, "t"), "text");
    assert_string_equal(fm_type_of(&m, "n"), "bigint");
    assert_string_equal(fm_type_of(&m, "d"), "double");
    assert_string_equal(fm_type_of(&m, "f"), "boolean");
    assert_string_equal(fm_type_of(&m, "j"), "json");
    assert_string_equal(fm_type_of(&m, "h"), "hugeint");
    assert_string_equal(fm_type_of(&m, "ts"), "timestamp");
    assert_int_equal(json_object_size(m.rows), 6);
    assert_cell_text(&m, "a", "h", FM_HUGE_PREFIX
                     "170141183460469231731687303715884105727");
    assert_cell_text(&m, "d", "h", FM_HUGE_PREFIX "18446744073709551616");
    assert_cell_text(&m, "d", "ts", "2023-11-14T22:13:20.123456Z");
    assert_cell_text(&m, "e", "ts", "2026-03-01T08:00:00.000000Z");
    assert_int_equal(json_integer_value(cell(&m, "d", "n")), INT64_MIN);
    assert_true(json_is_real(cell(&m, "e", "d")));
    go(down);

    /* 2. updates */
    wm = next_checkpoint(up, pid);
    catch_up(&m, e, wm);
    fm_compare(&m, e, "after the updates");
    assert_null(cell(&m, "a", "t"));
    assert_cell_text(&m, "a", "extra", "new col");
    assert_null(cell(&m, "b", "d"));
    assert_true(json_is_true(cell(&m, "b", "f")));
    assert_true(json_real_value(cell(&m, "c", "score")) == 1.5);
    assert_int_equal(json_integer_value(cell(&m, "c", "n")), 43);
    assert_null(cell(&m, "d", "ts"));
    assert_string_equal(fm_type_of(&m, "extra"), "text");
    assert_string_equal(fm_type_of(&m, "score"), "double");
    go(down);

    /* 3. upserts */
    wm = next_checkpoint(up, pid);
    catch_up(&m, e, wm);
    fm_compare(&m, e, "after the upserts");
    assert_int_equal(json_object_size(json_object_get(m.rows, "a")), 3);
    assert_cell_text(&m, "a", "t", "replaced");
    assert_null(cell(&m, "a", "state"));
    assert_true(json_is_real(cell(&m, "g", "d")));
    assert_cell_text(&m, "b", "h", FM_HUGE_PREFIX "-36893488147419103227");
    assert_int_equal(json_integer_value(cell(&m, "u2", "n")), 2);
    assert_null(cell(&m, "u2", "t"));
    go(down);

    /* 4. deletes */
    wm = next_checkpoint(up, pid);
    catch_up(&m, e, wm);
    fm_compare(&m, e, "after the deletes");
    assert_null(json_object_get(m.rows, "c"));
    assert_null(json_object_get(m.rows, "e"));
    assert_null(json_object_get(m.rows, "f"));
    assert_int_equal(json_object_size(m.rows), 6);
    go(down);

    /* 5. widenings */
    wm = next_checkpoint(up, pid);
    catch_up(&m, e, wm);
    fm_compare(&m, e, "after the widenings");
    assert_string_equal(fm_type_of(&m, "n"), "double");
    assert_string_equal(fm_type_of(&m, "d"), "text");
    assert_true(json_is_real(cell(&m, "b", "n")));
    assert_cell_text(&m, "p", "d", "0.30000000000000004");
    assert_cell_text(&m, "d", "d", "1e+300");
    assert_cell_text(&m, "g", "d", "1.0");
    assert_cell_text(&m, "p", "h", "-170141183460469231731687303715884105728");
    assert_cell_text(&m, "d", "j", "{\"a\":[100.0,-0.5],\"b\":2}");
    assert_cell_text(&m, "p", "j", "[1.5,\"s\",{\"a\":{},\"b\":[]}]");
    assert_cell_text(&m, "d", "f", "true");
    assert_cell_text(&m, "p", "f", "false");
    assert_cell_text(&m, "q", "h", "7");
    /* The engine itself reads a widened bigint as a double. */
    pier_row *row = NULL;
    assert_int_equal(pier_row_get(&row, e, BOARD, "b", &err), PIER_OK);
    const pier_value *n = pier_row_find(row, "n");
    assert_non_null(n);
    assert_int_equal(n->kind, PIER_KIND_DOUBLE);
    assert_true(n->as.real == 99.0);
    assert_string_equal(n->text, "99.0");
    pier_row_free(row);
    go(down);

    /* 6. transactions */
    wm = next_checkpoint(up, pid);
    fm_mark(&m);
    size_t before = m.records;
    catch_up(&m, e, wm);
    fm_compare(&m, e, "after the transactions");
    assert_true(m.records - before >= 5);
    assert_true(m.same_at);                /* one write, one updated_at */
    assert_null(json_object_get(m.rows, "never"));
    assert_null(json_object_get(m.rows, "never2"));
    assert_null(json_object_get(m.rows, "q"));
    assert_true(json_real_value(cell(&m, "t1", "n")) == 1.25);
    assert_cell_text(&m, "t1", "t", "t1 patched");
    assert_true(json_equal(json_object_get(json_object_get(m.rows, "t1"),
                                           "updated_at"),
                           json_object_get(json_object_get(m.rows, "a"),
                                           "updated_at")));
    go(down);

    /* 7. truncate, more inserts */
    wm = next_checkpoint(up, pid);
    catch_up(&m, e, wm);
    fm_compare(&m, e, "after the truncate");
    assert_int_equal(json_object_size(m.rows), 0);
    go(down);
    wm = next_checkpoint(up, pid);
    catch_up(&m, e, wm);
    fm_compare(&m, e, "after the last inserts");
    assert_int_equal(json_object_size(m.rows), 2);
    assert_cell_text(&m, "z1", "h", "170141183460469231731687303715884105727");
    assert_cell_text(&m, "z2", "j", "[2,1]");
    go(down);

    /* 8. drop */
    wm = next_checkpoint(up, pid);
    catch_up(&m, e, wm);
    assert_true(m.dropped);
    assert_int_equal(json_object_size(m.rows), 0);
    assert_int_equal(json_object_size(m.types), 0);
    bool has = true;
    assert_int_equal(pier_board_has(&has, e, BOARD, &err), PIER_OK);
    assert_false(has);
    go(down);
    expect_exit_0(pid);
    close(up);
    close(down);

    /* Nothing follows the drop. */
    pier_changes_page *page = NULL;
    assert_int_equal(pier_changes(&page, e, BOARD, m.after, 0, &err),
                     PIER_OK);
    assert_int_equal(page->nrecords, 0);
    pier_changes_page_free(page);
    print_message("followed %zu records up to watermark %lld\n", m.records,
                  (long long)m.last);

    fm_free(&m);
    pier_close(&e);
    assert_int_equal(pier_reset_lake(dir, &err), PIER_OK);
    assert_int_equal(testlake_reset(dir), 0);
    lakedir_remove_tree(dir);
    free(dir);
}

/* ------------------------------------------------------------------ */
/* Scenario 2: the parent follows live with pier_watch                  */

typedef struct canceller {
    pier_watch *watch;
    int fd;                      /* the writer's final watermark */
    _Atomic int64_t applied;     /* the follower's progress */
    _Atomic int64_t final;       /* -1: the writer ended without one */
    _Atomic bool timed_out;
} canceller;

static long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* Waits for the writer's last watermark, then for the follower to reach
 * it, then lets the follower block in pier_watch_next and cancels it. */
static void *cancel_when_done(void *arg)
{
    canceller *c = arg;
    int64_t final = 0;
    if (!recv_all(c->fd, &final, sizeof final))
        final = -1;
    atomic_store(&c->final, final);
    long long deadline = mono_ms() + 30000;
    while (final > 0 && atomic_load(&c->applied) < final) {
        if (mono_ms() > deadline) {
            atomic_store(&c->timed_out, true);
            break;
        }
        sleep_ms(2);
    }
    sleep_ms(50);                 /* the follower is waiting again */
    pier_watch_cancel(c->watch);
    return NULL;
}

static void follow_live_with_watch(void **state)
{
    (void)state;
    char *dir = lakedir_make();
    assert_non_null(dir);
    int up, down;
    pid_t pid = start_writer(dir, false, false, &up, &down);
    pier_engine *e = NULL;
    pier_error err;
    fm_board m;
    fm_init(&m, BOARD);

    /* The board exists once the first checkpoint is reached; the watch
     * starts at 0 and the writer goes on without pausing. */
    int64_t first = next_checkpoint(up, pid);
    assert_true(first > 0);
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    testlake_options(&o, dir);
    assert_int_equal(pier_open(&e, dir, &o, &err), PIER_OK);
    pier_watch_options wo = PIER_WATCH_OPTIONS_INIT;
    wo.after = 0;
    wo.poll_ms = 5;
    wo.limit = 4;
    pier_watch *watch = NULL;
    assert_int_equal(pier_watch_open(&watch, e, BOARD, &wo, &err), PIER_OK);
    canceller c = { .watch = watch, .fd = up };
    atomic_init(&c.applied, 0);
    atomic_init(&c.final, 0);
    atomic_init(&c.timed_out, false);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, cancel_when_done, &c), 0);
    go(down);

    size_t pages = 0;
    for (;;) {
        pier_changes_page *page = NULL;
        assert_int_equal(pier_watch_next(&page, watch, &err), PIER_OK);
        if (page == NULL)
            break;                          /* cancelled */
        assert_true(page->nrecords > 0);
        assert_true(page->nrecords <= 4);
        fm_apply_page(&m, page);
        pier_changes_page_free(page);
        pages++;
        atomic_store(&c.applied, m.last);
    }
    assert_int_equal(pthread_join(t, NULL), 0);
    /* Cancelled stays cancelled: the next call returns at once. */
    static pier_changes_page sentinel;
    pier_changes_page *page = &sentinel;
    assert_int_equal(pier_watch_next(&page, watch, &err), PIER_OK);
    assert_null(page);
    pier_watch_close(watch);
    go(down);                               /* the writer may end */
    expect_exit_0(pid);
    close(up);
    close(down);

    int64_t final = atomic_load(&c.final);
    assert_true(final > first);
    assert_false(atomic_load(&c.timed_out));
    assert_int_equal(m.last, final);
    fm_compare(&m, e, "after following live");
    assert_int_equal(json_object_size(m.rows), 2);
    assert_string_equal(fm_type_of(&m, "n"), "double");
    assert_string_equal(fm_type_of(&m, "j"), "text");
    print_message("followed %zu records in %zu pages, live\n", m.records,
                  pages);

    fm_free(&m);
    pier_close(&e);
    assert_int_equal(pier_reset_lake(dir, &err), PIER_OK);
    assert_int_equal(testlake_reset(dir), 0);
    lakedir_remove_tree(dir);
    free(dir);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(follow_with_pages),
        cmocka_unit_test(follow_live_with_watch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
