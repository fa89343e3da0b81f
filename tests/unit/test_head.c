/*
 * test_head.c: a node's cache of its lake's head (src/cluster/head.c):
 * when it is read again, how the node's own writes and a caller's
 * minimum raise it, and the bound the clustered topology promises: a
 * sync never goes to a head older than one refresh interval.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "cluster/head.h"

enum { REFRESH = 100000 };     /* 100 ms */

static void test_policy(void **state)
{
    (void)state;
    pier__head_cache h;
    pier__head_init(&h, REFRESH);
    assert_true(pier__head_stale(&h, 5, 0));           /* never read */
    pier__head_heard(&h, 5, 1000);
    assert_false(pier__head_stale(&h, 1000, 0));
    assert_false(pier__head_stale(&h, 1000 + REFRESH - 1, 5));
    assert_true(pier__head_stale(&h, 1000 + REFRESH, 0));
    assert_true(pier__head_stale(&h, 2000, 6));         /* a minimum above */
    assert_true(pier__head_stale(&h, 999, 0));          /* clock went back */
    assert_int_equal(pier__head_target(&h, 0), 5);
    /* the node's own write: at once, no read */
    pier__head_raise(&h, 7);
    assert_int_equal(pier__head_target(&h, 0), 7);
    assert_false(pier__head_stale(&h, 2000, 7));
    assert_int_equal(pier__head_target(&h, 9), 9);
    /* a head heard lower than one raised since (a read that started before
     * the write) never lowers it */
    pier__head_heard(&h, 6, 3000);
    assert_int_equal(pier__head_target(&h, 0), 7);
    pier__head_raise(&h, 3);
    assert_int_equal(pier__head_target(&h, 0), 7);
}

/* Writes of other nodes land at random times; this node syncs at random
 * times, reading the head when the cache says so. Every sync goes to at
 * least the head as it was one interval before. */
static void test_stale_by_one_interval_at_most(void **state)
{
    (void)state;
    uint64_t seed = 0x9e3779b97f4a7c15u;
    enum { STEPS = 200000 };
    static int64_t head_at[STEPS];          /* the lake's head, per 1 ms */
    int64_t head = 0;
    for (int t = 0; t < STEPS; t++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        if ((seed >> 33) % 7 == 0)
            head++;
        head_at[t] = head;
    }
    pier__head_cache h;
    pier__head_init(&h, REFRESH);
    int reads = 0, syncs = 0;
    for (int t = 0; t < STEPS; t++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        if ((seed >> 33) % 3 != 0)
            continue;                       /* no query this millisecond */
        int64_t now = (int64_t)t * 1000;
        if (pier__head_stale(&h, now, 0)) {
            pier__head_heard(&h, head_at[t], now);
            reads++;
        }
        syncs++;
        int64_t target = pier__head_target(&h, 0);
        int64_t back = t - REFRESH / 1000;
        if (back >= 0 && target < head_at[back])
            fail_msg("at %d ms a sync went to %lld, older than the head "
                     "of one interval before (%lld)", t, (long long)target,
                     (long long)head_at[back]);
    }
    /* and the server is asked at most once an interval */
    assert_true(reads <= STEPS / (REFRESH / 1000) + 1);
    assert_true(syncs > reads * 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_policy),
        cmocka_unit_test(test_stale_by_one_interval_at_most),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
