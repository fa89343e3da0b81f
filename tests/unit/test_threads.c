/*
 * test_threads.c: one engine shared by several threads. Writers to one
 * board and to boards of their own, readers and lifecycle calls all run at
 * once; every write lands exactly once, watermarks are unique, and the
 * catalog cache stays whole. tests/e2e/test_tsan.sh also runs this program
 * under ThreadSanitizer.
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

#include "pier.h"
#include "support/lakedir.h"
#include "support/testlake.h"

#define THREADS 4
#define WRITES 40

typedef struct worker {
    pier_engine *e;
    int id;
    int64_t watermarks[2 * WRITES];
    int failures;
} worker;

static void *write_loop(void *arg)
{
    worker *w = arg;
    char board[16], row[128];
    snprintf(board, sizeof board, "own_%d", w->id);
    for (int i = 0; i < WRITES; i++) {
        pier_error err;
        snprintf(row, sizeof row,
                 "{\"id\":\"w%d-%d\",\"n\":%d,\"col_%d\":true}", w->id, i, i,
                 i % 5);
        if (pier_insert_json(&w->watermarks[2 * i], w->e, "shared", row,
                             strlen(row), &err) != PIER_OK)
            w->failures++;
        if (pier_insert_json(&w->watermarks[2 * i + 1], w->e, board, row,
                             strlen(row), &err) != PIER_OK)
            w->failures++;
        /* Reads and descriptions interleave with the writes. */
        pier_board_info *info = NULL;
        if (pier_board_describe(&info, w->e, "shared", &err) == PIER_OK)
            pier_board_info_free(info);
        char **list = NULL;
        if (pier_board_list(&list, w->e, &err) == PIER_OK)
            pier_strings_free(list);
    }
    return NULL;
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void threads_share_one_engine(void **state)
{
    (void)state;
    char *dir = lakedir_make();
    assert_non_null(dir);
    pier_engine *e = NULL;
    pier_error err;
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    testlake_options(&o, dir);
    assert_int_equal(pier_open(&e, dir, &o, &err), PIER_OK);
    /* Create the shared board first so that every thread's first write
     * finds it; the columns col_0..col_4 are still added concurrently. */
    const char seed[] = "{\"id\":\"seed\",\"n\":0}";
    assert_int_equal(pier_insert_json(NULL, e, "shared", seed,
                                      sizeof seed - 1, &err), PIER_OK);

    static worker workers[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        workers[i] = (worker){ .e = e, .id = i };
        assert_int_equal(pthread_create(&t[i], NULL, write_loop,
                                        &workers[i]), 0);
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);

    static int64_t all[THREADS * 2 * WRITES];
    size_t n = 0;
    for (int i = 0; i < THREADS; i++) {
        assert_int_equal(workers[i].failures, 0);
        memcpy(all + n, workers[i].watermarks,
               sizeof workers[i].watermarks);
        n += 2 * WRITES;
    }
    qsort(all, n, sizeof *all, cmp64);
    for (size_t i = 1; i < n; i++)
        assert_true(all[i] > all[i - 1]);     /* every watermark unique */

    int64_t count = 0;
    assert_int_equal(pier_row_count(&count, e, "shared", &err), PIER_OK);
    assert_int_equal(count, 1 + THREADS * WRITES);
    pier_board_info *info = NULL;
    assert_int_equal(pier_board_describe(&info, e, "shared", &err), PIER_OK);
    assert_int_equal(info->ncolumns, 3 + 1 + 5);   /* base, n, col_0..4 */
    pier_board_info_free(info);
    for (int i = 0; i < THREADS; i++) {
        char board[16];
        snprintf(board, sizeof board, "own_%d", i);
        assert_int_equal(pier_row_count(&count, e, board, &err), PIER_OK);
        assert_int_equal(count, WRITES);
    }
    pier_close(&e);
    assert_int_equal(testlake_reset(dir), 0);
    lakedir_remove_tree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(threads_share_one_engine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
