/*
 * test_fulldisk.c: a full disk is a clean WriteFailed that says so and
 * writes nothing, and pier_maintain, given a little room, frees enough
 * that writes work again.
 *
 * The fault VFS (support/faultvfs.h) gives the lake's files a byte quota:
 * a write past it writes what fits and fails with SQLITE_FULL, as a short
 * write on a full file system does. An application writes single rows
 * until the disk is full. Then the clock moves a day on, and the quota
 * grows by four pages at a time (what deleting a stray file frees) until
 * pier_maintain succeeds, at a thirty-second of the disk at most: it
 * checkpoints the write-ahead log first, which needs room only for the
 * pages the log adds to the lake file and gives the log's space back,
 * then drops the day-old change records and returns their pages to the
 * file system. Every maintain that fails for want of room changes
 * nothing, and afterwards writes work again.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pier.h"
#include "support/faultvfs.h"
#include "support/lakecheck.h"
#include "support/lakedir.h"

#define T0 INT64_C(1772359200000000)
#define DAY_US (INT64_C(24) * 3600 * 1000000)
/* The disk. */
#define QUOTA (8 * 1024 * 1024)
/* The room given back before maintenance grows by four pages at a time,
 * up to a thirty-second of the disk. */
#define ROOM_STEP (16 * 1024)
#define ROOM_MAX (QUOTA / 32)

static int64_t now_us;

static int64_t test_clock(void *payload)
{
    (void)payload;
    return now_us;
}

static pier_engine *open_engine(const char *dir)
{
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.clock = test_clock;
    pier_engine *e = NULL;
    pier_error err;
    if (pier_open(&e, dir, &o, &err) != PIER_OK)
        fail_msg("open: %s: %s", err.tag, err.message);
    return e;
}

static pier_status insert_one(pier_engine *e, int i, pier_error *err)
{
    char row[600];
    int n = snprintf(row, sizeof row, "{\"id\":\"r%06d\",\"n\":%d,"
                     "\"text\":\"", i, i);
    memset(row + n, 'a' + i % 26, 400);
    memcpy(row + n + 400, "\"}", 3);
    return pier_insert_json(NULL, e, "log", row, strlen(row), err);
}

static int64_t rows_of(pier_engine *e)
{
    int64_t n = -1;
    pier_error err;
    if (pier_row_count(&n, e, "log", &err) != PIER_OK)
        fail_msg("count: %s: %s", err.tag, err.message);
    return n;
}

static void maintain_frees_a_full_disk(void **state)
{
    (void)state;
    assert_int_equal(faultvfs_install(), 0);
    faultvfs_reset();
    faultvfs_set_real_sync(false);
    char *dir = lakedir_make();
    char *lake = lakedir_join(dir, "lake.sqlite");
    now_us = T0;
    pier_engine *e = open_engine(dir);
    static const char *const boards[] = { "log" };
    faultvfs_set_quota(dir, QUOTA);

    /* Write until the disk is full. */
    pier_error err;
    pier_status rc = PIER_OK;
    int written = 0;
    while (written < QUOTA / 100 &&
           (rc = insert_one(e, written, &err)) == PIER_OK)
        written++;
    print_message("%d rows written before the disk was full; the lake "
                  "uses %lld bytes\n", written,
                  (long long)faultvfs_quota_used());
    assert_true(written > 100);
    assert_int_equal(rc, PIER_E_WRITE_FAILED);
    assert_string_equal(err.tag, "WriteFailed");
    assert_int_equal(err.backend_code & 0xff, SQLITE_FULL);
    assert_non_null(strstr(err.message, "disk is full"));

    /* Nothing of the refused write, and the same write is refused again
     * without a trace. */
    char *before = lakedir_sql_dump(lake);
    assert_non_null(before);
    assert_int_equal(insert_one(e, written, &err), PIER_E_WRITE_FAILED);
    char *after = lakedir_sql_dump(lake);
    assert_string_equal(before, after);
    free(before);
    free(after);
    assert_int_equal(rows_of(e), written);
    char why[512];
    if (!lakecheck_feed_matches_rows(e, boards, 1, NULL, why, sizeof why))
        fail_msg("%s", why);

    /* A little room, a day later: maintenance drops the day-old records
     * and returns their pages. It first needs room for the pages its
     * checkpoint adds to the lake file; until it has that, it fails and
     * changes nothing. */
    now_us = T0 + DAY_US;
    int64_t full = faultvfs_quota_used();
    int64_t room = 0;
    do {
        room += ROOM_STEP;
        if (room > ROOM_MAX)
            fail_msg("maintain still fails with %lld bytes freed: %s: %s",
                     (long long)(room - ROOM_STEP), err.tag, err.message);
        faultvfs_set_quota(dir, full + room);
        before = lakedir_sql_dump(lake);
        rc = pier_maintain(e, 1, &err);
        if (rc != PIER_OK) {
            assert_int_equal(rc, PIER_E_WRITE_FAILED);
            assert_int_equal(err.backend_code & 0xff, SQLITE_FULL);
            after = lakedir_sql_dump(lake);
            assert_string_equal(before, after);
            free(after);
        }
        free(before);
    } while (rc != PIER_OK);
    int64_t freed = full + room - faultvfs_quota_used();
    print_message("maintain succeeded with %lld bytes freed and freed "
                  "%lld bytes\n", (long long)room, (long long)freed);
    assert_true(freed > QUOTA / 2);
    pier_stats st;
    assert_int_equal(pier_stats_get(&st, e, &err), PIER_OK);
    assert_int_equal(st.change_records, 1);    /* the newest stays */
    assert_int_equal(st.rows, written);
    assert_int_equal(st.wal_bytes, 0);

    /* Writes work again, as many as the freed space holds. */
    int more = 0;
    while (more < 100 && insert_one(e, written + more, &err) == PIER_OK)
        more++;
    assert_int_equal(more, 100);
    assert_int_equal(rows_of(e), written + 100);
    if (!lakecheck_feed_matches_rows(e, boards, 1, NULL, why, sizeof why))
        fail_msg("%s", why);
    assert_true(lakecheck_integrity(lake, why, sizeof why));
    pier_close(&e);

    faultvfs_reset();
    faultvfs_uninstall();
    lakedir_remove_tree(dir);
    free(lake);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(maintain_frees_a_full_disk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
