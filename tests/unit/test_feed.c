/*
 * test_feed.c: the change feed through the public API: pages of records
 * (order, limit, next, the kinds and payloads writes produce, the JSON
 * forms), a dropped board's records, retention and resync, watches
 * (catch-up, a local write waking one, another engine's write found by
 * polling, cancel, resync) and listeners (events, never on the writer's
 * path, removal from outside and inside, close with work queued).
 *
 * Thread tests wait on conditions, never on sleeps, to decide an
 * outcome; the short sleeps only give a wrong implementation the chance
 * to show itself. tests/e2e/test_tsan.sh can run this program under
 * ThreadSanitizer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pier.h"
#include "support/engine_fixture.h"
#include "support/lakedir.h"
#include "support/testlake.h"

/* 2026-03-01T10:00:00Z, in microseconds: the clock every test starts at. */
#define T0 FIXTURE_NOW
#define T0_TEXT FIXTURE_NOW_TEXT
#define HOUR INT64_C(3600000000)

/* ------------------------------------------------------------------ */
/* Fixture                                                              */

typedef engine_fixture fixture;

static int setup(void **state)
{
    *state = fixture_open();
    return 0;
}

static int teardown(void **state)
{
    return fixture_close(*state);
}

static int64_t ins(pier_engine *e, const char *board, const char *json)
{
    return fixture_insert(e, board, json);
}

static pier_changes_page *page_of(pier_engine *e, const char *board,
                                  int64_t after, size_t limit)
{
    pier_changes_page *p = NULL;
    pier_error err;
    if (pier_changes(&p, e, board, after, limit, &err) != PIER_OK)
        fail_msg("pier_changes(%s, %lld): %s: %s", board, (long long)after,
                 err.tag, err.message);
    assert_non_null(p);
    return p;
}

static void assert_page_json(const pier_changes_page *p, const char *want)
{
    char *json = pier_changes_page_to_json(p);
    assert_non_null(json);
    assert_string_equal(json, want);
    pier_free(json);
}

/* ------------------------------------------------------------------ */
/* Pages                                                                */

static void test_page_records_and_json(void **state)
{
    fixture *f = *state;
    int64_t wm = ins(f->e, "acme", "{\"id\":\"t1\",\"n\":5,\"s\":\"a\\\"b\"}");
    assert_int_equal(wm, 2);      /* 1: the board's schema, 2: the rows */

    pier_changes_page *p = page_of(f->e, "acme", 0, 0);
    assert_false(p->resync);
    assert_int_equal(p->nrecords, 2);
    assert_int_equal(p->next, 2);
    const pier_change *c = &p->records[0];
    assert_int_equal(c->watermark, 1);
    assert_string_equal(c->board, "acme");
    assert_string_equal(c->kind, "schema");
    assert_int_equal(c->committed_at, T0);
    assert_int_equal(c->payload_len, strlen(c->payload));
    assert_non_null(strstr(c->payload, "{\"op\":\"create_board\","
                                       "\"strict\":false,\"columns\":["));
    assert_non_null(strstr(c->payload, "\"name\":\"n\",\"type\":\"bigint\","
                                       "\"origin\":\"inferred\"}"));
    c = &p->records[1];
    assert_int_equal(c->watermark, 2);
    assert_string_equal(c->kind, "insert");
    assert_string_equal(c->payload,
                        "{\"rows\":[{\"id\":\"t1\",\"n\":5,"
                        "\"s\":\"a\\\"b\"}]}");

    /* One record as JSON: the payload embedded as JSON, not a string. */
    char *one = pier_change_to_json(c);
    assert_string_equal(one,
                        "{\"watermark\":2,\"board\":\"acme\","
                        "\"kind\":\"insert\",\"payload\":{\"rows\":[{"
                        "\"id\":\"t1\",\"n\":5,\"s\":\"a\\\"b\"}]},"
                        "\"committed_at\":\"" T0_TEXT "\"}");
    pier_free(one);
    pier_changes_page_free(p);

    /* The page after the first record holds the second only. */
    p = page_of(f->e, "acme", 1, 0);
    assert_page_json(p, "{\"resync\":false,\"records\":["
                        "{\"watermark\":2,\"board\":\"acme\","
                        "\"kind\":\"insert\",\"payload\":{\"rows\":[{"
                        "\"id\":\"t1\",\"n\":5,\"s\":\"a\\\"b\"}]},"
                        "\"committed_at\":\"" T0_TEXT "\"}],\"next\":2}");
    pier_changes_page_free(p);

    /* Past the end: empty, next stays where it was. */
    p = page_of(f->e, "acme", 2, 0);
    assert_int_equal(p->nrecords, 0);
    assert_null(p->records);
    assert_int_equal(p->next, 2);
    assert_page_json(p, "{\"resync\":false,\"records\":[],\"next\":2}");
    pier_changes_page_free(p);
    p = page_of(f->e, "acme", 99, 0);
    assert_int_equal(p->next, 99);
    pier_changes_page_free(p);

    assert_null(pier_changes_page_to_json(NULL));
    assert_null(pier_change_to_json(NULL));
    pier_changes_page_free(NULL);
}

static void test_page_order_limit_next(void **state)
{
    fixture *f = *state;
    /* Two boards interleaved: each board's page holds its own records
     * only, in ascending order. */
    int64_t a[6], b[6];
    for (int i = 0; i < 6; i++) {
        char row[64];
        snprintf(row, sizeof row, "{\"id\":\"r%d\",\"n\":%d}", i, i);
        atomic_store(&f->now, T0 + i);
        a[i] = ins(f->e, "alpha", row);
        b[i] = ins(f->e, "beta", row);
    }
    /* Walk alpha two records at a time, following next. */
    int64_t after = 0, seen[16];
    size_t nseen = 0;
    for (int pages = 0;; pages++) {
        assert_true(pages < 10);
        pier_changes_page *p = page_of(f->e, "alpha", after, 2);
        assert_false(p->resync);
        assert_true(p->nrecords <= 2);
        if (p->nrecords == 0) {
            assert_int_equal(p->next, after);
            pier_changes_page_free(p);
            break;
        }
        for (size_t i = 0; i < p->nrecords; i++) {
            assert_string_equal(p->records[i].board, "alpha");
            assert_true(p->records[i].watermark > after);
            if (i > 0)
                assert_true(p->records[i].watermark >
                            p->records[i - 1].watermark);
            seen[nseen++] = p->records[i].watermark;
        }
        assert_int_equal(p->next, p->records[p->nrecords - 1].watermark);
        after = p->next;
        pier_changes_page_free(p);
    }
    /* The schema record, then one insert per write. */
    assert_int_equal(nseen, 7);
    assert_int_equal(seen[0], 1);
    for (int i = 0; i < 6; i++)
        assert_int_equal(seen[i + 1], a[i]);
    assert_int_equal(after, a[5]);

    pier_changes_page *p = page_of(f->e, "beta", 0, 100);
    assert_int_equal(p->nrecords, 7);
    assert_string_equal(p->records[0].kind, "schema");
    for (int i = 0; i < 6; i++) {
        assert_int_equal(p->records[i + 1].watermark, b[i]);
        assert_int_equal(p->records[i + 1].committed_at, T0 + i);
    }
    pier_changes_page_free(p);
}

/* limit 0 means 1000; a larger limit is cut to 10000. The records are
 * made with SQL straight into the log: ten thousand writes would only
 * slow the test down. */
static void test_page_default_and_cap(void **state)
{
    testlake_embedded_only();
    fixture *f = *state;
    ins(f->e, "bulk", "{\"id\":\"x\"}");
    assert_int_equal(lakedir_sql_exec(f->lake,
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
        "WHERE i < 10050) INSERT INTO _pier_changes(board, kind, payload, "
        "committed_at, stamp) SELECT 'bulk', 'delete', "
        "'{\"ids\":[\"x\"]}', 0, 0 FROM n", false), 0);
    pier_changes_page *p = page_of(f->e, "bulk", 0, 0);
    assert_int_equal(p->nrecords, 1000);
    assert_int_equal(p->next, 1000);
    pier_changes_page_free(p);
    p = page_of(f->e, "bulk", 0, 1000000);
    assert_int_equal(p->nrecords, 10000);
    assert_int_equal(p->next, 10000);
    pier_changes_page_free(p);
    p = page_of(f->e, "bulk", 10000, 1000000);
    assert_int_equal(p->nrecords, 52);
    assert_int_equal(p->next, 10052);
    pier_changes_page_free(p);
}

static void test_page_arguments(void **state)
{
    fixture *f = *state;
    pier_changes_page *p = NULL;
    pier_error err;
    assert_int_equal(pier_changes(&p, f->e, "Bad-Id", 0, 0, &err),
                     PIER_E_INVALID_BOARD_ID);
    assert_string_equal(err.tag, "InvalidBoardId");
    assert_null(p);
    assert_int_equal(pier_changes(&p, f->e, NULL, 0, 0, &err),
                     PIER_E_INVALID_BOARD_ID);
    assert_int_equal(pier_changes(&p, f->e, "acme", -1, 0, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_changes(NULL, f->e, "acme", 0, 0, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_changes(&p, NULL, "acme", 0, 0, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_null(p);
    /* A board that never existed has no records: an empty page, not an
     * error (a board's records outlive it, see below). */
    p = page_of(f->e, "nobody", 0, 0);
    assert_false(p->resync);
    assert_int_equal(p->nrecords, 0);
    assert_int_equal(p->next, 0);
    pier_changes_page_free(p);
    bool has = true;
    assert_int_equal(pier_board_has(&has, f->e, "nobody", &err), PIER_OK);
    assert_false(has);
}

/* A record whose payload is not JSON (a lake damaged outside Pier) ends
 * what can be read: the page that would hold it fails with ReadFailed
 * naming it, so that no page or page JSON hands the damage on; the
 * records before it and after it still read. */
static void test_page_damaged_payload(void **state)
{
    testlake_embedded_only();
    fixture *f = *state;
    ins(f->e, "acme", "{\"id\":\"a\"}");
    ins(f->e, "acme", "{\"id\":\"b\"}");
    ins(f->e, "acme", "{\"id\":\"c\"}");
    pier_changes_page *p = page_of(f->e, "acme", 0, 0);
    assert_int_equal(p->nrecords, 4);        /* schema, then 3 inserts */
    int64_t bad = p->records[2].watermark;
    pier_changes_page_free(p);
    char sql[160];
    snprintf(sql, sizeof sql, "UPDATE _pier_changes SET payload = "
             "'{\"rows\":[' WHERE watermark = %lld", (long long)bad);
    assert_int_equal(lakedir_sql_exec(f->lake, sql, false), 0);

    pier_error err;
    p = NULL;
    assert_int_equal(pier_changes(&p, f->e, "acme", 0, 0, &err),
                     PIER_E_READ_FAILED);
    assert_null(p);
    char want[64];
    snprintf(want, sizeof want, "change record %lld", (long long)bad);
    assert_non_null(strstr(err.message, want));
    p = page_of(f->e, "acme", 0, 2);
    assert_int_equal(p->nrecords, 2);
    pier_changes_page_free(p);
    p = page_of(f->e, "acme", bad, 0);
    assert_int_equal(p->nrecords, 1);
    pier_changes_page_free(p);
}

/* Every kind the lifecycle produces, with its payload; the drop record is
 * still read after the board is gone, and it is the last one. */
static void test_lifecycle_kinds_and_drop(void **state)
{
    fixture *f = *state;
    pier_error err;
    pier_column_def cols[] = { { "n", "integer" } };
    pier_board_options bo = PIER_BOARD_OPTIONS_INIT;
    bo.columns = cols;
    bo.ncolumns = 1;
    bo.strict = true;
    int64_t w[6];
    assert_int_equal(pier_board_create(&w[0], f->e, "life", &bo, &err),
                     PIER_OK);
    w[1] = ins(f->e, "life", "{\"id\":\"a\",\"n\":1}");
    assert_int_equal(pier_board_add_column(&w[2], f->e, "life", "tag",
                                           "text", &err), PIER_OK);
    assert_int_equal(pier_board_widen_column(&w[3], f->e, "life", "n",
                                             "bigint", &err), PIER_OK);
    assert_int_equal(pier_board_truncate(&w[4], f->e, "life", &err),
                     PIER_OK);
    assert_int_equal(pier_board_drop(&w[5], f->e, "life", &err), PIER_OK);

    pier_changes_page *p = page_of(f->e, "life", 0, 0);
    assert_int_equal(p->nrecords, 6);
    static const char *const kinds[] = { "schema", "insert", "schema",
                                         "schema", "truncate", "drop" };
    for (int i = 0; i < 6; i++) {
        assert_int_equal(p->records[i].watermark, w[i]);
        assert_string_equal(p->records[i].kind, kinds[i]);
        assert_string_equal(p->records[i].board, "life");
    }
    assert_non_null(strstr(p->records[0].payload,
                           "\"op\":\"create_board\",\"strict\":true"));
    assert_non_null(strstr(p->records[0].payload,
                           "\"name\":\"n\",\"type\":\"integer\","
                           "\"origin\":\"declared\""));
    assert_string_equal(p->records[1].payload,
                        "{\"rows\":[{\"id\":\"a\",\"n\":1}]}");
    assert_non_null(strstr(p->records[2].payload,
                           "{\"op\":\"add_column\",\"column\":{\"id\":"));
    assert_non_null(strstr(p->records[2].payload,
                           "\"name\":\"tag\",\"type\":\"text\","
                           "\"origin\":\"declared\"}}"));
    assert_non_null(strstr(p->records[3].payload,
                           "{\"op\":\"widen_column\",\"column\":{"));
    assert_non_null(strstr(p->records[3].payload,
                           "\"type\":\"bigint\""));
    assert_non_null(strstr(p->records[3].payload, "\"from\":\"integer\"}"));
    assert_string_equal(p->records[4].payload, "{}");
    assert_string_equal(p->records[5].payload, "{\"drop\":true}");
    assert_int_equal(p->next, w[5]);
    pier_changes_page_free(p);

    /* The board is gone; its records are not. */
    bool has = true;
    assert_int_equal(pier_board_has(&has, f->e, "life", &err), PIER_OK);
    assert_false(has);
    p = page_of(f->e, "life", w[4], 0);
    assert_page_json(p, "{\"resync\":false,\"records\":["
                        "{\"watermark\":6,\"board\":\"life\","
                        "\"kind\":\"drop\",\"payload\":{\"drop\":true},"
                        "\"committed_at\":\"" T0_TEXT "\"}],\"next\":6}");
    pier_changes_page_free(p);

    /* A board created again under the same id continues the same feed. */
    int64_t again = ins(f->e, "life", "{\"id\":\"b\"}");
    p = page_of(f->e, "life", w[5], 0);
    assert_int_equal(p->nrecords, 2);
    assert_string_equal(p->records[0].kind, "schema");
    assert_int_equal(p->records[1].watermark, again);
    pier_changes_page_free(p);
}

/* The record kinds of the other writes, with their payloads: what a
 * consumer applies to rebuild the board. */
static void test_write_kinds(void **state)
{
    fixture *f = *state;
    pier_error err;
    ins(f->e, "k", "{\"id\":\"a\",\"n\":1}");                 /* 1, 2 */
    const char up[] = "[{\"id\":\"a\",\"n\":2,\"s\":\"x\"},{\"id\":\"b\"}]";
    int64_t wu = 0;
    assert_int_equal(pier_upsert_json(&wu, f->e, "k", up, sizeof up - 1,
                                      &err), PIER_OK);            /* 3, 4 */
    const char patches[] = "[{\"id\":\"a\",\"patch\":{\"n\":3}},"
                           "{\"id\":\"b\",\"patch\":{\"s\":null,\"n\":4}}]";
    int64_t wp = 0;
    assert_int_equal(pier_update_many_json(&wp, f->e, "k", patches,
                                           sizeof patches - 1, &err),
                     PIER_OK);                                    /* 5, 6 */
    const char *const ids[] = { "a", "zz" };
    int64_t wd = 0;
    assert_int_equal(pier_delete_many(&wd, f->e, "k", ids, 2, &err),
                     PIER_OK);                                    /* 7 */
    assert_int_equal(wu, 4);
    assert_int_equal(wp, 6);
    assert_int_equal(wd, 7);

    pier_changes_page *p = page_of(f->e, "k", 2, 0);
    assert_int_equal(p->nrecords, 5);
    assert_string_equal(p->records[0].kind, "schema");
    assert_non_null(strstr(p->records[0].payload,
                           "{\"op\":\"add_column\",\"column\":{\"id\":"));
    assert_string_equal(p->records[1].kind, "upsert");
    assert_string_equal(p->records[1].payload,
                        "{\"rows\":[{\"id\":\"a\",\"n\":2,\"s\":\"x\"},"
                        "{\"id\":\"b\"}]}");
    /* One record per patch, in order; a null clears its column. */
    assert_string_equal(p->records[2].kind, "update");
    assert_string_equal(p->records[2].payload,
                        "{\"id\":\"a\",\"patch\":{\"n\":3}}");
    assert_string_equal(p->records[3].kind, "update");
    assert_string_equal(p->records[3].payload,
                        "{\"id\":\"b\",\"patch\":{\"s\":null,\"n\":4}}");
    /* Ids that were not there are listed too. */
    assert_string_equal(p->records[4].kind, "delete");
    assert_string_equal(p->records[4].payload, "{\"ids\":[\"a\",\"zz\"]}");
    pier_changes_page_free(p);
}

/* ------------------------------------------------------------------ */
/* Retention and resync                                                 */

/* Moves the commit time of records at or below `upto` back by `hours`. */
static void age_records(fixture *f, int64_t upto, int hours)
{
    char sql[160], pg[160];
    snprintf(sql, sizeof sql, "UPDATE _pier_changes SET committed_at = "
             "committed_at - %lld WHERE watermark <= %lld",
             (long long)(hours * HOUR), (long long)upto);
    snprintf(pg, sizeof pg, "UPDATE changes SET committed_at = "
             "committed_at - %lld WHERE watermark <= %lld",
             (long long)(hours * HOUR), (long long)upto);
    assert_int_equal(testlake_exec(f->dir, sql, pg), 0);
}

static void test_resync_after_maintain(void **state)
{
    fixture *f = *state;
    pier_error err;
    ins(f->e, "logs", "{\"id\":\"1\"}");                 /* 1, 2 */
    ins(f->e, "logs", "{\"id\":\"2\"}");                 /* 3 */
    int64_t w4 = ins(f->e, "logs", "{\"id\":\"3\"}");    /* 4 */
    int64_t w5 = ins(f->e, "logs", "{\"id\":\"4\"}");    /* 5 */
    assert_int_equal(w4, 4);
    age_records(f, 3, 2);

    /* Nothing is an hour old yet but the aged records. */
    pier_stats st;
    assert_int_equal(pier_stats_get(&st, f->e, &err), PIER_OK);
    assert_int_equal(st.floor, 0);
    assert_int_equal(st.last_maintenance, 0);
    atomic_store(&f->now, T0 + 10);
    assert_int_equal(pier_maintain(f->e, 1, &err), PIER_OK);
    assert_int_equal(pier_stats_get(&st, f->e, &err), PIER_OK);
    assert_int_equal(st.floor, 3);
    assert_int_equal(st.change_records, 2);
    assert_int_equal(st.last_maintenance, T0 + 10);
    assert_int_equal(st.head, w5);

    /* Below the floor: resync from it. */
    for (int64_t after = 0; after < 3; after++) {
        pier_changes_page *p = page_of(f->e, "logs", after, 0);
        assert_true(p->resync);
        assert_int_equal(p->from, 3);
        assert_int_equal(p->nrecords, 0);
        assert_page_json(p, "{\"resync\":true,\"from\":3}");
        pier_changes_page_free(p);
    }
    /* At the floor: every record after it is there. */
    pier_changes_page *p = page_of(f->e, "logs", 3, 0);
    assert_false(p->resync);
    assert_int_equal(p->nrecords, 2);
    assert_int_equal(p->records[0].watermark, w4);
    assert_int_equal(p->records[1].watermark, w5);
    pier_changes_page_free(p);
    /* The floor is the lake's: another board's consumer from 0 resyncs
     * too (its records below the floor could have been dropped). */
    p = page_of(f->e, "other", 0, 0);
    assert_true(p->resync);
    assert_int_equal(p->from, 3);
    pier_changes_page_free(p);

    /* Everything old: the newest record stays, whatever its age. */
    age_records(f, w5, 5);
    assert_int_equal(pier_maintain(f->e, 1, &err), PIER_OK);
    assert_int_equal(pier_stats_get(&st, f->e, &err), PIER_OK);
    assert_int_equal(st.floor, w4);
    assert_int_equal(st.change_records, 1);
    p = page_of(f->e, "logs", w4, 0);
    assert_int_equal(p->nrecords, 1);
    assert_int_equal(p->records[0].watermark, w5);
    pier_changes_page_free(p);
    /* The rows are untouched; a new write goes on from the head. */
    int64_t n = 0;
    assert_int_equal(pier_row_count(&n, f->e, "logs", &err), PIER_OK);
    assert_int_equal(n, 4);
    assert_int_equal(ins(f->e, "logs", "{\"id\":\"5\"}"), w5 + 1);
    /* Maintenance with nothing to drop keeps the floor. */
    assert_int_equal(pier_maintain(f->e, 1000, &err), PIER_OK);
    assert_int_equal(pier_stats_get(&st, f->e, &err), PIER_OK);
    assert_int_equal(st.floor, w4);
    assert_int_equal(st.change_records, 2);
}

/* ------------------------------------------------------------------ */
/* Watches                                                              */

static void sleep_ms(int ms)
{
    struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&t, NULL);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static pier_watch *watch_on(pier_engine *e, const char *board,
                            int64_t after, int poll_ms, size_t limit)
{
    pier_watch_options o = PIER_WATCH_OPTIONS_INIT;
    o.after = after;
    o.poll_ms = poll_ms;
    o.limit = limit;
    pier_watch *w = NULL;
    pier_error err;
    if (pier_watch_open(&w, e, board, &o, &err) != PIER_OK)
        fail_msg("pier_watch_open: %s: %s", err.tag, err.message);
    return w;
}

static pier_changes_page *next_page(pier_watch *w)
{
    pier_changes_page *p = NULL;
    pier_error err;
    if (pier_watch_next(&p, w, &err) != PIER_OK)
        fail_msg("pier_watch_next: %s: %s", err.tag, err.message);
    return p;
}

static void test_watch_catch_up(void **state)
{
    fixture *f = *state;
    for (int i = 0; i < 5; i++) {
        char row[32];
        snprintf(row, sizeof row, "{\"id\":\"%d\"}", i);
        ins(f->e, "cat", row);                       /* 1..6 */
    }
    ins(f->e, "dog", "{\"id\":\"x\"}");              /* 7, 8 */
    pier_watch *w = watch_on(f->e, "cat", 2, 100, 2);
    int64_t expect = 3;
    while (expect <= 6) {
        pier_changes_page *p = next_page(w);
        assert_non_null(p);
        assert_false(p->resync);
        assert_true(p->nrecords >= 1 && p->nrecords <= 2);
        for (size_t i = 0; i < p->nrecords; i++)
            assert_int_equal(p->records[i].watermark, expect++);
        pier_changes_page_free(p);
    }
    pier_watch_cancel(w);
    pier_watch_cancel(w);                     /* idempotent */
    pier_changes_page *p = (pier_changes_page *)1;
    pier_error err;
    assert_int_equal(pier_watch_next(&p, w, &err), PIER_OK);
    assert_null(p);
    pier_watch_close(w);
    pier_watch_close(NULL);
    pier_watch_cancel(NULL);
}

static void test_watch_arguments(void **state)
{
    fixture *f = *state;
    pier_watch *w = NULL;
    pier_error err;
    pier_watch_options o = PIER_WATCH_OPTIONS_INIT;
    assert_int_equal(pier_watch_open(&w, f->e, "No", &o, &err),
                     PIER_E_INVALID_BOARD_ID);
    o.after = -1;
    assert_int_equal(pier_watch_open(&w, f->e, "ok", &o, &err),
                     PIER_E_INVALID_ARGUMENT);
    o.after = 0;
    o.poll_ms = -1;
    assert_int_equal(pier_watch_open(&w, f->e, "ok", &o, &err),
                     PIER_E_INVALID_ARGUMENT);
    o.poll_ms = 100;
    o.version = 99;
    assert_int_equal(pier_watch_open(&w, f->e, "ok", &o, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_null(w);
    assert_int_equal(pier_watch_open(&w, f->e, "ok", NULL, &err), PIER_OK);
    pier_changes_page *p = NULL;
    assert_int_equal(pier_watch_next(NULL, w, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_watch_next(&p, NULL, &err),
                     PIER_E_INVALID_ARGUMENT);
    pier_watch_close(w);
}

typedef struct delayed {
    pier_engine *e;
    const char *board;
    const char *json;
    int delay_ms;
    pier_watch *cancel;          /* cancel this instead of writing */
    int64_t wm;
} delayed;

static void *delayed_main(void *arg)
{
    delayed *d = arg;
    sleep_ms(d->delay_ms);
    if (d->cancel != NULL) {
        pier_watch_cancel(d->cancel);
        return NULL;
    }
    pier_error err;
    if (pier_insert_json(&d->wm, d->e, d->board, d->json, strlen(d->json),
                         &err) != PIER_OK)
        d->wm = -1;
    return NULL;
}

/* A write of this engine wakes a waiting watch at once, long before its
 * poll interval: the bound checked is the interval itself, so a slow
 * machine cannot fail it, but a watch that only polls does. */
static void test_watch_woken_by_local_write(void **state)
{
    fixture *f = *state;
    int64_t first = ins(f->e, "live", "{\"id\":\"a\"}");
    pier_watch *w = watch_on(f->e, "live", first, 60000, 0);
    delayed d = { .e = f->e, .board = "live", .json = "{\"id\":\"b\"}",
                  .delay_ms = 50 };
    pthread_t t;
    double t0 = now_s();
    assert_int_equal(pthread_create(&t, NULL, delayed_main, &d), 0);
    pier_changes_page *p = next_page(w);
    double waited = now_s() - t0;
    pthread_join(t, NULL);
    assert_true(waited < 60.0);
    assert_non_null(p);
    assert_int_equal(p->nrecords, 1);
    assert_int_equal(p->records[0].watermark, d.wm);
    assert_string_equal(p->records[0].payload, "{\"rows\":[{\"id\":\"b\"}]}");
    pier_changes_page_free(p);
    pier_watch_close(w);
}

/* Another engine on the same directory (as another process would be)
 * does not wake this one: polling finds its write. */
static void test_watch_polls_other_engine(void **state)
{
    fixture *f = *state;
    pier_engine *other = fixture_engine(f);
    pier_watch *w = watch_on(f->e, "shared", 0, 20, 0);
    delayed d = { .e = other, .board = "shared",
                  .json = "{\"id\":\"from-other\"}", .delay_ms = 50 };
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, delayed_main, &d), 0);
    int64_t got = 0;
    while (got < 2) {                         /* schema, then the row */
        pier_changes_page *p = next_page(w);
        assert_non_null(p);
        for (size_t i = 0; i < p->nrecords; i++)
            assert_int_equal(p->records[i].watermark, ++got);
        pier_changes_page_free(p);
    }
    pthread_join(t, NULL);
    assert_int_equal(d.wm, 2);
    pier_watch_close(w);
    pier_close(&other);
}

static void test_watch_cancel_from_other_thread(void **state)
{
    fixture *f = *state;
    pier_watch *w = watch_on(f->e, "quiet", 0, 60000, 0);
    delayed d = { .cancel = w, .delay_ms = 50 };
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, delayed_main, &d), 0);
    pier_changes_page *p = (pier_changes_page *)1;
    pier_error err;
    assert_int_equal(pier_watch_next(&p, w, &err), PIER_OK);
    assert_null(p);
    pthread_join(t, NULL);
    /* Still cancelled: every later call returns at once. */
    p = (pier_changes_page *)1;
    assert_int_equal(pier_watch_next(&p, w, &err), PIER_OK);
    assert_null(p);
    pier_watch_close(w);
}

static void test_watch_resync(void **state)
{
    fixture *f = *state;
    pier_error err;
    ins(f->e, "r", "{\"id\":\"1\"}");                 /* 1, 2 */
    ins(f->e, "r", "{\"id\":\"2\"}");                 /* 3 */
    int64_t w4 = ins(f->e, "r", "{\"id\":\"3\"}");    /* 4 */
    age_records(f, 3, 48);
    assert_int_equal(pier_maintain(f->e, 24, &err), PIER_OK);
    pier_watch *w = watch_on(f->e, "r", 1, 100, 0);
    pier_changes_page *p = next_page(w);
    assert_non_null(p);
    assert_true(p->resync);
    assert_int_equal(p->from, 3);
    pier_changes_page_free(p);
    /* The watch went on from the floor. */
    p = next_page(w);
    assert_non_null(p);
    assert_false(p->resync);
    assert_int_equal(p->nrecords, 1);
    assert_int_equal(p->records[0].watermark, w4);
    pier_changes_page_free(p);
    pier_watch_close(w);
}

/* ------------------------------------------------------------------ */
/* Listeners                                                            */

#define MAX_EVENTS 32

typedef struct recorder {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int n;
    char board[MAX_EVENTS][64];
    int64_t first[MAX_EVENTS], last[MAX_EVENTS];
    /* For the blocking listener: */
    bool block;                 /* hold every call until released */
    bool entered;               /* a call is waiting for release */
    bool released;
    /* For the self-removing listener: */
    pier_listener *self;
    bool remove_self;
} recorder;

static void rec_init(recorder *r)
{
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->cond, NULL);
}

static void rec_destroy(recorder *r)
{
    pthread_cond_destroy(&r->cond);
    pthread_mutex_destroy(&r->lock);
}

static void record_fn(const pier_change_event *ev, void *payload)
{
    recorder *r = payload;
    pthread_mutex_lock(&r->lock);
    if (r->n < MAX_EVENTS) {
        snprintf(r->board[r->n], sizeof r->board[0], "%s", ev->board);
        r->first[r->n] = ev->first_watermark;
        r->last[r->n] = ev->last_watermark;
    }
    r->n++;
    pthread_cond_broadcast(&r->cond);
    if (r->block) {
        r->entered = true;
        pthread_cond_broadcast(&r->cond);
        while (!r->released)
            pthread_cond_wait(&r->cond, &r->lock);
        r->entered = false;
    }
    bool remove = r->remove_self;
    pthread_mutex_unlock(&r->lock);
    if (remove)
        pier_listener_remove(r->self);
}

static void wait_events(recorder *r, int n)
{
    pthread_mutex_lock(&r->lock);
    while (r->n < n)
        pthread_cond_wait(&r->cond, &r->lock);
    pthread_mutex_unlock(&r->lock);
}

static void wait_entered(recorder *r)
{
    pthread_mutex_lock(&r->lock);
    while (!r->entered)
        pthread_cond_wait(&r->cond, &r->lock);
    pthread_mutex_unlock(&r->lock);
}

static void release(recorder *r)
{
    pthread_mutex_lock(&r->lock);
    r->released = true;
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
}

static int events(recorder *r)
{
    pthread_mutex_lock(&r->lock);
    int n = r->n;
    pthread_mutex_unlock(&r->lock);
    return n;
}

static pier_listener *listen_on(pier_engine *e, recorder *r)
{
    pier_listener *l = NULL;
    pier_error err;
    if (pier_on_change(&l, e, record_fn, r, &err) != PIER_OK)
        fail_msg("pier_on_change: %s: %s", err.tag, err.message);
    return l;
}

static void test_listener_events(void **state)
{
    fixture *f = *state;
    pier_error err;
    ins(f->e, "before", "{\"id\":\"x\"}");     /* not seen: before it */
    recorder r;
    rec_init(&r);
    pier_listener *l = listen_on(f->e, &r);
    int64_t w1 = ins(f->e, "one", "{\"id\":\"a\"}");   /* schema + rows */
    int64_t w2 = ins(f->e, "one", "{\"id\":\"b\",\"k\":true}");
    int64_t w3 = 0;
    assert_int_equal(pier_board_drop(&w3, f->e, "before", &err), PIER_OK);
    wait_events(&r, 3);
    assert_string_equal(r.board[0], "one");
    assert_int_equal(r.first[0], w1 - 1);
    assert_int_equal(r.last[0], w1);
    assert_string_equal(r.board[1], "one");
    assert_int_equal(r.first[1], w2 - 1);     /* add_column, then rows */
    assert_int_equal(r.last[1], w2);
    assert_string_equal(r.board[2], "before");
    assert_int_equal(r.first[2], w3);
    assert_int_equal(r.last[2], w3);

    /* One write over two boards: one event per board. */
    pier_tx *tx = NULL;
    const char *const boards[] = { "one", "two" };
    assert_int_equal(pier_tx_begin(&tx, f->e, boards, 2, &err), PIER_OK);
    const char a[] = "{\"id\":\"c\"}";
    assert_int_equal(pier_tx_insert_json(tx, "one", a, sizeof a - 1, &err),
                     PIER_OK);
    assert_int_equal(pier_tx_insert_json(tx, "two", a, sizeof a - 1, &err),
                     PIER_OK);
    int64_t wt = 0;
    assert_int_equal(pier_tx_commit(&wt, tx, &err), PIER_OK);
    wait_events(&r, 5);
    int one = strcmp(r.board[3], "one") == 0 ? 3 : 4;
    int two = 7 - one;
    assert_string_equal(r.board[one], "one");
    assert_string_equal(r.board[two], "two");
    assert_int_equal(r.first[one], r.last[one]);      /* its rows only */
    assert_int_equal(r.last[two], wt);                /* schema + rows */
    assert_int_equal(r.first[two], wt - 1);
    assert_int_equal(r.last[one], wt - 2);
    /* A refused write is no event. */
    const char bad[] = "{\"id\":\"a\"}";
    assert_int_equal(pier_insert_json(NULL, f->e, "one", bad,
                                      sizeof bad - 1, &err),
                     PIER_E_DUPLICATE_ID);
    pier_listener_remove(l);
    assert_int_equal(events(&r), 5);
    rec_destroy(&r);

    pier_listener *none = (pier_listener *)1;
    assert_int_equal(pier_on_change(&none, f->e, NULL, NULL, &err),
                     PIER_E_INVALID_ARGUMENT);
    pier_listener_remove(NULL);
}

/* A listener that does not return holds up neither the write that
 * triggered it nor the next one. */
static void test_listener_not_on_write_path(void **state)
{
    fixture *f = *state;
    recorder r;
    rec_init(&r);
    r.block = true;
    pier_listener *l = listen_on(f->e, &r);
    ins(f->e, "slow", "{\"id\":\"1\"}");
    wait_entered(&r);
    /* The listener is blocked inside its first call; these return. */
    ins(f->e, "slow", "{\"id\":\"2\"}");
    ins(f->e, "slow", "{\"id\":\"3\"}");
    pier_changes_page *p = page_of(f->e, "slow", 0, 0);
    assert_int_equal(p->nrecords, 4);
    pier_changes_page_free(p);
    assert_int_equal(events(&r), 1);
    release(&r);
    wait_events(&r, 3);
    pier_listener_remove(l);
    rec_destroy(&r);
}

typedef struct remover {
    pier_listener *l;
    atomic_bool done;
} remover;

static void *remove_main(void *arg)
{
    remover *rm = arg;
    pier_listener_remove(rm->l);
    atomic_store(&rm->done, true);
    return NULL;
}

static void test_listener_remove_outside(void **state)
{
    fixture *f = *state;
    recorder gone, stays;
    rec_init(&gone);
    rec_init(&stays);
    gone.block = true;
    pier_listener *lg = listen_on(f->e, &gone);
    pier_listener *ls = listen_on(f->e, &stays);
    ins(f->e, "rm", "{\"id\":\"1\"}");
    wait_entered(&gone);

    /* Removing a listener that is running waits for it to return. */
    remover rm = { .l = lg };
    atomic_init(&rm.done, false);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, remove_main, &rm), 0);
    sleep_ms(50);
    assert_false(atomic_load(&rm.done));
    release(&gone);
    pthread_join(t, NULL);
    assert_true(atomic_load(&rm.done));

    /* Never called again; the other one is. */
    ins(f->e, "rm", "{\"id\":\"2\"}");
    ins(f->e, "rm", "{\"id\":\"3\"}");
    wait_events(&stays, 3);
    assert_int_equal(events(&gone), 1);
    pier_listener_remove(ls);
    rec_destroy(&gone);
    rec_destroy(&stays);
}

static void test_listener_remove_inside(void **state)
{
    fixture *f = *state;
    recorder self, other;
    rec_init(&self);
    rec_init(&other);
    self.remove_self = true;
    self.self = listen_on(f->e, &self);
    pier_listener *lo = listen_on(f->e, &other);
    ins(f->e, "in", "{\"id\":\"1\"}");
    ins(f->e, "in", "{\"id\":\"2\"}");
    ins(f->e, "in", "{\"id\":\"3\"}");
    wait_events(&other, 3);
    assert_int_equal(events(&self), 1);
    pier_listener_remove(lo);
    rec_destroy(&self);
    rec_destroy(&other);
}

typedef struct closer {
    recorder *r;
    int delay_ms;
} closer;

static void *release_main(void *arg)
{
    closer *c = arg;
    sleep_ms(c->delay_ms);
    release(c->r);
    return NULL;
}

/* pier_close with events queued behind a blocked listener: it lets the
 * dispatcher finish them, then frees the listeners never removed (the
 * sanitizers check that nothing leaks). */
static void test_close_with_listeners_and_queue(void **state)
{
    fixture *f = *state;
    recorder r, idle;
    rec_init(&r);
    rec_init(&idle);
    r.block = true;
    listen_on(f->e, &r);
    listen_on(f->e, &idle);
    ins(f->e, "q", "{\"id\":\"1\"}");
    wait_entered(&r);
    for (int i = 2; i <= 4; i++) {
        char row[32];
        snprintf(row, sizeof row, "{\"id\":\"%d\"}", i);
        ins(f->e, "q", row);
    }
    closer c = { .r = &r, .delay_ms = 50 };
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, release_main, &c), 0);
    pier_close(&f->e);
    pthread_join(t, NULL);
    assert_int_equal(events(&r), 4);
    assert_int_equal(events(&idle), 4);
    rec_destroy(&r);
    rec_destroy(&idle);
}

/* A listener may read the feed from inside its call. */
typedef struct reader {
    pier_engine *e;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    size_t nrecords;
    bool done;
} reader;

static void read_fn(const pier_change_event *ev, void *payload)
{
    reader *rd = payload;
    pier_changes_page *p = NULL;
    pier_error err;
    size_t n = 0;
    if (pier_changes(&p, rd->e, ev->board, ev->first_watermark - 1, 0,
                     &err) == PIER_OK) {
        n = p->nrecords;
        pier_changes_page_free(p);
    }
    pthread_mutex_lock(&rd->lock);
    rd->nrecords = n;
    rd->done = true;
    pthread_cond_broadcast(&rd->cond);
    pthread_mutex_unlock(&rd->lock);
}

static void test_listener_calls_engine(void **state)
{
    fixture *f = *state;
    reader rd = { .e = f->e };
    pthread_mutex_init(&rd.lock, NULL);
    pthread_cond_init(&rd.cond, NULL);
    pier_listener *l = NULL;
    pier_error err;
    assert_int_equal(pier_on_change(&l, f->e, read_fn, &rd, &err), PIER_OK);
    ins(f->e, "rd", "{\"id\":\"1\"}");
    pthread_mutex_lock(&rd.lock);
    while (!rd.done)
        pthread_cond_wait(&rd.cond, &rd.lock);
    pthread_mutex_unlock(&rd.lock);
    assert_int_equal(rd.nrecords, 2);
    pier_listener_remove(l);
    pthread_cond_destroy(&rd.cond);
    pthread_mutex_destroy(&rd.lock);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_page_records_and_json),
        T(test_page_order_limit_next),
        T(test_page_default_and_cap),
        T(test_page_arguments),
        T(test_page_damaged_payload),
        T(test_lifecycle_kinds_and_drop),
        T(test_write_kinds),
        T(test_resync_after_maintain),
        T(test_watch_catch_up),
        T(test_watch_arguments),
        T(test_watch_woken_by_local_write),
        T(test_watch_polls_other_engine),
        T(test_watch_cancel_from_other_thread),
        T(test_watch_resync),
        T(test_listener_events),
        T(test_listener_not_on_write_path),
        T(test_listener_remove_outside),
        T(test_listener_remove_inside),
        T(test_close_with_listeners_and_queue),
        T(test_listener_calls_engine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
