/*
 * test_ops.c: the head (cached and read from the lake), per-board
 * watermarks and sync, and the operations: maintain, flush, evict,
 * stats and a board's stats, through the public API.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pier.h"
#include "support/engine_fixture.h"
#include "support/lakedir.h"
#include "support/testlake.h"

/* 2026-03-01T10:00:00Z, in microseconds. */
#define T0 FIXTURE_NOW
#define HOUR INT64_C(3600000000)

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

static int64_t head_from_catalog(pier_engine *e)
{
    int64_t h = -1;
    pier_error err;
    assert_int_equal(pier_head_from_catalog(&h, e, &err), PIER_OK);
    return h;
}

/* ------------------------------------------------------------------ */

static void test_head_cached_and_from_catalog(void **state)
{
    fixture *f = *state;
    assert_int_equal(pier_head(NULL), 0);
    assert_int_equal(head_from_catalog(f->e), 0);
    assert_int_equal(pier_head(f->e), 0);

    int64_t w1 = ins(f->e, "h", "{\"id\":\"1\"}");
    assert_int_equal(pier_head(f->e), w1);        /* its own write */
    assert_int_equal(head_from_catalog(f->e), w1);

    /* Another engine on the lake (another process, say): its write is
     * in the lake at once, in this engine's cached head only once this
     * engine reads the lake. */
    pier_engine *other = fixture_engine(f);
    int64_t w2 = ins(other, "h", "{\"id\":\"2\"}");
    assert_true(w2 > w1);
    assert_int_equal(pier_head(other), w2);
    assert_int_equal(pier_head(f->e), w1);
    assert_int_equal(head_from_catalog(f->e), w2);
    assert_int_equal(pier_head(f->e), w2);

    /* A read of the feed raises it too. */
    int64_t w3 = ins(other, "h", "{\"id\":\"3\"}");
    assert_int_equal(pier_head(f->e), w2);
    pier_changes_page *p = NULL;
    pier_error err;
    assert_int_equal(pier_changes(&p, f->e, "elsewhere", 0, 0, &err),
                     PIER_OK);
    pier_changes_page_free(p);
    assert_int_equal(pier_head(f->e), w3);
    assert_int_equal(head_from_catalog(other), w3);
    assert_int_equal(pier_head(other), w3);
    pier_close(&other);

    int64_t h = 0;
    assert_int_equal(pier_head_from_catalog(NULL, f->e, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_head_from_catalog(&h, NULL, &err),
                     PIER_E_INVALID_ARGUMENT);
}

static void test_watermark_of_and_sync(void **state)
{
    fixture *f = *state;
    pier_error err;
    int64_t wa = ins(f->e, "a", "{\"id\":\"1\"}");
    int64_t wb = ins(f->e, "b", "{\"id\":\"1\"}");
    int64_t w = -1;
    assert_int_equal(pier_watermark_of(&w, f->e, "a", &err), PIER_OK);
    if (testlake_pg()) {
        /* A node holds no replica of a board it has not read. */
        assert_int_equal(w, 0);
    } else {
        /* Every board is at the lake's head in the embedded topology. */
        assert_int_equal(w, wb);
        assert_true(w > wa);
    }
    w = -1;
    assert_int_equal(pier_sync(&w, f->e, "a", &err), PIER_OK);
    assert_int_equal(w, wb);
    assert_int_equal(pier_watermark_of(&w, f->e, "a", &err), PIER_OK);
    assert_int_equal(w, wb);
    assert_int_equal(pier_sync(NULL, f->e, "b", &err), PIER_OK);

    w = 77;
    assert_int_equal(pier_watermark_of(&w, f->e, "nope", &err),
                     PIER_E_BOARD_NOT_FOUND);
    assert_string_equal(err.tag, "BoardNotFound");
    assert_string_equal(err.board, "nope");
    assert_int_equal(w, 77);
    assert_int_equal(pier_sync(&w, f->e, "nope", &err),
                     PIER_E_BOARD_NOT_FOUND);
    assert_int_equal(w, 77);
    assert_int_equal(pier_watermark_of(&w, f->e, "No!", &err),
                     PIER_E_INVALID_BOARD_ID);
    assert_int_equal(pier_sync(&w, f->e, NULL, &err),
                     PIER_E_INVALID_BOARD_ID);
    assert_int_equal(pier_watermark_of(NULL, f->e, "a", &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_watermark_of(&w, NULL, "a", &err),
                     PIER_E_INVALID_ARGUMENT);

    /* A dropped board has no watermark any more. */
    assert_int_equal(pier_board_drop(NULL, f->e, "a", &err), PIER_OK);
    assert_int_equal(pier_watermark_of(&w, f->e, "a", &err),
                     PIER_E_BOARD_NOT_FOUND);
}

static void test_flush_and_evict(void **state)
{
    fixture *f = *state;
    pier_error err;
    ins(f->e, "here", "{\"id\":\"1\"}");
    assert_int_equal(pier_flush(f->e, NULL, &err), PIER_OK);
    assert_int_equal(pier_flush(f->e, "here", &err), PIER_OK);
    assert_int_equal(pier_flush(f->e, "gone", &err),
                     PIER_E_BOARD_NOT_FOUND);
    assert_string_equal(err.board, "gone");
    assert_int_equal(pier_flush(f->e, "Bad Id", &err),
                     PIER_E_INVALID_BOARD_ID);
    assert_int_equal(pier_flush(NULL, "here", &err),
                     PIER_E_INVALID_ARGUMENT);

    assert_int_equal(pier_evict(f->e, "here", &err), PIER_OK);
    assert_int_equal(pier_evict(f->e, "gone", &err),
                     PIER_E_BOARD_NOT_FOUND);
    assert_int_equal(pier_evict(f->e, "Bad Id", &err),
                     PIER_E_INVALID_BOARD_ID);
    assert_int_equal(pier_evict(f->e, NULL, &err),
                     PIER_E_INVALID_BOARD_ID);
    assert_int_equal(pier_evict(NULL, "here", &err),
                     PIER_E_INVALID_ARGUMENT);
    /* Neither touches the rows. */
    int64_t n = 0;
    assert_int_equal(pier_row_count(&n, f->e, "here", &err), PIER_OK);
    assert_int_equal(n, 1);
}

static void test_stats(void **state)
{
    fixture *f = *state;
    pier_error err;
    pier_stats st;
    memset(&st, 0xff, sizeof st);
    assert_int_equal(pier_stats_get(&st, f->e, &err), PIER_OK);
    assert_int_equal(st.boards, 0);
    assert_int_equal(st.rows, 0);
    assert_int_equal(st.change_records, 0);
    assert_int_equal(st.head, 0);
    assert_int_equal(st.floor, 0);
    assert_true(st.lake_bytes > 0);
    assert_int_equal(st.writes, 0);
    assert_int_equal(st.queries, 0);
    assert_int_equal(st.last_maintenance, 0);

    ins(f->e, "a", "[{\"id\":\"1\"},{\"id\":\"2\"},{\"id\":\"3\"}]");
    ins(f->e, "a", "{\"id\":\"4\",\"x\":1}");     /* add_column + rows */
    int64_t last = ins(f->e, "b", "{\"id\":\"1\"}");
    assert_int_equal(pier_board_create(NULL, f->e, "empty", NULL, &err),
                     PIER_OK);
    /* A refused write counts for nothing. */
    assert_int_equal(pier_insert_json(NULL, f->e, "a", "{\"id\":\"1\"}", 10,
                                      &err), PIER_E_DUPLICATE_ID);
    pier_changes_page *p = NULL;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(pier_changes(&p, f->e, "a", 0, 0, &err), PIER_OK);
        pier_changes_page_free(p);
    }

    assert_int_equal(pier_stats_get(&st, f->e, &err), PIER_OK);
    assert_int_equal(st.boards, 3);
    assert_int_equal(st.rows, 5);
    assert_int_equal(st.change_records, 7);  /* a: 4, b: 2, empty: 1 */
    assert_int_equal(st.head, last + 1);
    assert_int_equal(st.floor, 0);
    assert_true(st.lake_bytes > 0);
    /* nothing checkpointed yet (a PostgreSQL lake reports none) */
    assert_true(testlake_pg() ? st.wal_bytes == 0 : st.wal_bytes > 0);
    assert_int_equal(st.writes, 4);
    assert_int_equal(st.queries, 3);
    assert_int_equal(st.last_maintenance, 0);

    /* Maintenance: nothing is old enough; the WAL is checkpointed away. */
    atomic_store(&f->now, T0 + HOUR);
    assert_int_equal(pier_maintain(f->e, 24, &err), PIER_OK);
    assert_int_equal(pier_stats_get(&st, f->e, &err), PIER_OK);
    assert_int_equal(st.change_records, 7);
    assert_int_equal(st.floor, 0);
    assert_int_equal(st.last_maintenance, T0 + HOUR);
    assert_int_equal(st.wal_bytes, 0);
    assert_true(st.lake_bytes > 0);
    assert_int_equal(st.writes, 4);          /* maintain is not a write */

    /* A second engine has its own counters and sees the same lake. */
    pier_engine *other = fixture_engine(f);
    pier_stats so;
    assert_int_equal(pier_stats_get(&so, other, &err), PIER_OK);
    assert_int_equal(so.writes, 0);
    assert_int_equal(so.queries, 0);
    assert_int_equal(so.boards, 3);
    assert_int_equal(so.rows, 5);
    assert_int_equal(so.head, st.head);
    assert_int_equal(so.last_maintenance, T0 + HOUR);
    assert_int_equal(pier_head(other), st.head);
    pier_close(&other);

    assert_int_equal(pier_stats_get(NULL, f->e, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_stats_get(&st, NULL, &err),
                     PIER_E_INVALID_ARGUMENT);
}

static void test_maintain(void **state)
{
    testlake_embedded_only();
    fixture *f = *state;
    pier_error err;
    assert_int_equal(pier_maintain(f->e, -1, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_string_equal(err.tag, "InvalidArgument");
    assert_int_equal(pier_maintain(NULL, 1, &err), PIER_E_INVALID_ARGUMENT);
    /* An empty lake: nothing to drop, still recorded. */
    assert_int_equal(pier_maintain(f->e, 0, &err), PIER_OK);
    pier_stats st;
    assert_int_equal(pier_stats_get(&st, f->e, &err), PIER_OK);
    assert_int_equal(st.floor, 0);
    assert_int_equal(st.last_maintenance, T0);

    /* 0 hours: everything committed before now goes but the newest. */
    for (int i = 0; i < 20; i++) {
        char row[256];
        snprintf(row, sizeof row, "{\"id\":\"%d\",\"pad\":\"%0200d\"}", i,
                 i);
        ins(f->e, "m", row);
    }
    int64_t head = pier_head(f->e);
    atomic_store(&f->now, T0 + 1);
    assert_int_equal(pier_maintain(f->e, 0, &err), PIER_OK);
    assert_int_equal(pier_stats_get(&st, f->e, &err), PIER_OK);
    assert_int_equal(st.change_records, 1);
    assert_int_equal(st.floor, head - 1);
    assert_int_equal(st.head, head);
    assert_int_equal(st.rows, 20);
    assert_int_equal(st.last_maintenance, T0 + 1);
    assert_int_equal(lakedir_sql_int(f->lake, "SELECT min(watermark) FROM "
                                     "_pier_changes", -1), head);
    /* The floor is stored: a new engine reads it. */
    pier_close(&f->e);
    f->e = fixture_engine(f);
    assert_int_equal(pier_stats_get(&st, f->e, &err), PIER_OK);
    assert_int_equal(st.floor, head - 1);
    assert_int_equal(st.head, head);
    /* A huge age is no overflow: nothing goes. */
    assert_int_equal(pier_maintain(f->e, 2147483647, &err), PIER_OK);
    assert_int_equal(pier_stats_get(&st, f->e, &err), PIER_OK);
    assert_int_equal(st.change_records, 1);
}

/* Dropped records and rows give their pages back to the file system. */
static void test_maintain_returns_space(void **state)
{
    testlake_embedded_only();
    fixture *f = *state;
    pier_error err;
    static char row[4200];
    for (int i = 0; i < 100; i++) {
        int n = snprintf(row, sizeof row, "{\"id\":\"%d\",\"text\":\"", i);
        memset(row + n, 'a' + i % 26, 4000);
        memcpy(row + n + 4000, "\"}", 3);
        ins(f->e, "big", row);
    }
    /* Nothing old yet: this only moves the WAL into the lake file. */
    pier_stats full, after;
    assert_int_equal(pier_maintain(f->e, 1, &err), PIER_OK);
    assert_int_equal(pier_stats_get(&full, f->e, &err), PIER_OK);
    assert_int_equal(full.wal_bytes, 0);
    assert_true(full.lake_bytes > 800 * 1024);

    assert_int_equal(pier_board_truncate(NULL, f->e, "big", &err), PIER_OK);
    atomic_store(&f->now, T0 + 1);
    assert_int_equal(pier_maintain(f->e, 0, &err), PIER_OK);
    assert_int_equal(pier_stats_get(&after, f->e, &err), PIER_OK);
    assert_int_equal(after.change_records, 1);
    assert_int_equal(after.wal_bytes, 0);
    assert_true(after.lake_bytes < full.lake_bytes / 4);
}

/* Checks that a failed pier_board_stats_get left *s as it was. */
static void assert_untouched(const pier_board_stats *s, unsigned version)
{
    assert_int_equal(s->version, version);
    assert_int_equal(s->rows, 77);
    assert_int_equal(s->bytes, 77);
    assert_int_equal(s->columns, 77);
    assert_int_equal(s->change_records, 77);
}

static pier_board_stats board_stats_init(unsigned version)
{
    pier_board_stats s = { version, 77, 77, 77, 77 };
    return s;
}

static void test_board_stats(void **state)
{
    fixture *f = *state;
    pier_error err;
    ins(f->e, "a", "[{\"id\":\"1\"},{\"id\":\"2\"},{\"id\":\"3\"}]");
    ins(f->e, "a", "{\"id\":\"4\",\"x\":1}");     /* add_column + rows */
    ins(f->e, "b", "{\"id\":\"1\"}");
    assert_int_equal(pier_board_create(NULL, f->e, "empty", NULL, &err),
                     PIER_OK);

    pier_board_stats s = board_stats_init(PIER_BOARD_STATS_VERSION);
    if (testlake_pg()) {
        /* A node holds replicas, not the boards' files: refused. */
        assert_int_equal(pier_board_stats_get(&s, f->e, "a", &err),
                         PIER_E_TOPOLOGY_UNSUPPORTED);
        assert_string_equal(err.tag, "TopologyUnsupported");
        assert_non_null(strstr(err.message, "per-board stats"));
        assert_untouched(&s, PIER_BOARD_STATS_VERSION);
        return;
    }
    assert_int_equal(pier_board_stats_get(&s, f->e, "a", &err), PIER_OK);
    assert_int_equal(s.version, PIER_BOARD_STATS_VERSION);
    assert_int_equal(s.rows, 4);
    assert_int_equal(s.columns, 4);               /* id, updated_at, state, x */
    assert_int_equal(s.change_records, 4);        /* schema, insert, column,
                                                     insert */
    /* Its table and its primary key's index: a page each, 4 KiB. */
    assert_int_equal(s.bytes, 2 * 4096);

    s = board_stats_init(PIER_BOARD_STATS_VERSION);
    assert_int_equal(pier_board_stats_get(&s, f->e, "empty", &err), PIER_OK);
    assert_int_equal(s.rows, 0);
    assert_int_equal(s.columns, 3);
    assert_int_equal(s.change_records, 1);
    assert_int_equal(s.bytes, 2 * 4096);

    /* Bytes follow the rows: 2000 rows of 100 bytes take 200 KB and more
     * in pages; after truncate the pages go back to the freelist. */
    char *big = malloc(2000 * 128 + 2);
    assert_non_null(big);
    size_t n = 0;
    big[n++] = '[';
    for (int i = 0; i < 2000; i++)
        n += (size_t)sprintf(big + n, "%s{\"id\":\"r%04d\",\"t\":\"%090d\"}",
                             i > 0 ? "," : "", i, i);
    big[n++] = ']';
    assert_int_equal(pier_insert_json(NULL, f->e, "b", big, n, &err),
                     PIER_OK);
    free(big);
    s = board_stats_init(PIER_BOARD_STATS_VERSION);
    assert_int_equal(pier_board_stats_get(&s, f->e, "b", &err), PIER_OK);
    assert_int_equal(s.rows, 2001);
    assert_true(s.bytes > 2000 * 100);
    assert_true(s.bytes < 2000 * 400);
    assert_int_equal(s.bytes % 4096, 0);
    assert_int_equal(s.change_records, 4);   /* schema, insert, column t,
                                                insert */
    /* ... and another board's did not move. */
    pier_board_stats sa = board_stats_init(PIER_BOARD_STATS_VERSION);
    assert_int_equal(pier_board_stats_get(&sa, f->e, "a", &err), PIER_OK);
    assert_int_equal(sa.bytes, 2 * 4096);
    assert_int_equal(pier_board_truncate(NULL, f->e, "b", &err), PIER_OK);
    s = board_stats_init(PIER_BOARD_STATS_VERSION);
    assert_int_equal(pier_board_stats_get(&s, f->e, "b", &err), PIER_OK);
    assert_int_equal(s.rows, 0);
    assert_true(s.bytes <= 2 * 4096);
    assert_int_equal(s.change_records, 5);   /* and the truncate */

    /* Bad input fails, names why, and leaves *out as it was. */
    s = board_stats_init(PIER_BOARD_STATS_VERSION);
    assert_int_equal(pier_board_stats_get(&s, f->e, "nope", &err),
                     PIER_E_BOARD_NOT_FOUND);
    assert_string_equal(err.tag, "BoardNotFound");
    assert_string_equal(err.board, "nope");
    assert_untouched(&s, PIER_BOARD_STATS_VERSION);
    assert_int_equal(pier_board_stats_get(&s, f->e, "Bad!", &err),
                     PIER_E_INVALID_BOARD_ID);
    assert_untouched(&s, PIER_BOARD_STATS_VERSION);
    assert_int_equal(pier_board_stats_get(&s, f->e, NULL, &err),
                     PIER_E_INVALID_BOARD_ID);
    assert_untouched(&s, PIER_BOARD_STATS_VERSION);
    s = board_stats_init(0);
    assert_int_equal(pier_board_stats_get(&s, f->e, "a", &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "version 0 is unknown"));
    assert_untouched(&s, 0);
    s = board_stats_init(PIER_BOARD_STATS_VERSION + 1);
    assert_int_equal(pier_board_stats_get(&s, f->e, "a", &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_untouched(&s, PIER_BOARD_STATS_VERSION + 1);
    assert_int_equal(pier_board_stats_get(NULL, f->e, "a", &err),
                     PIER_E_INVALID_ARGUMENT);
    s = board_stats_init(PIER_BOARD_STATS_VERSION);
    assert_int_equal(pier_board_stats_get(&s, NULL, "a", &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_untouched(&s, PIER_BOARD_STATS_VERSION);
    /* The INIT macro gives a version this library takes. */
    pier_board_stats init = PIER_BOARD_STATS_INIT;
    assert_int_equal(pier_board_stats_get(&init, f->e, "a", &err), PIER_OK);
    assert_int_equal(init.rows, 4);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_head_cached_and_from_catalog),
        T(test_watermark_of_and_sync),
        T(test_flush_and_evict),
        T(test_stats),
        T(test_board_stats),
        T(test_maintain),
        T(test_maintain_returns_space),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
