/*
 * test_crash.c: a process killed part-way through one large write leaves
 * either all of it or none of it, and a lake that opens and takes writes.
 * The writer runs in a child process that the test kills with SIGKILL at
 * fractions of the time one uninterrupted write takes on this machine, so
 * that the kills land before, during and after the commit whatever the
 * build's speed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pier.h"

#define ROWS 50000

static char *big_write(void)
{
    size_t cap = (size_t)ROWS * 64 + 16, len = 0;
    char *s = malloc(cap);
    assert_non_null(s);
    s[len++] = '[';
    for (int i = 0; i < ROWS; i++)
        len += (size_t)snprintf(s + len, cap - len,
                                "%s{\"id\":\"r%06d\",\"n\":%d,\"t\":\"x\"}",
                                i ? "," : "", i, i);
    s[len++] = ']';
    s[len] = '\0';
    return s;
}

static long now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
    nanosleep(&ts, NULL);
}

static void killed_write_is_all_or_nothing(void **state)
{
    (void)state;
    char dir[] = "/tmp/pier-crash-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *json = big_write();
    int64_t expected = 0;
    long started = now_us();
    {
        pier_engine *e = NULL;
        pier_error err;
        assert_int_equal(pier_open(&e, dir, NULL, &err), PIER_OK);
        assert_int_equal(pier_insert_json(NULL, e, "timing", json,
                                          strlen(json), &err), PIER_OK);
        pier_close(&e);
    }
    long took = now_us() - started;
    /* Kill at several moments: before, during and after the commit. */
    static const int percent[] = { 5, 30, 60, 85, 100, 130, 200 };
    for (size_t k = 0; k < sizeof percent / sizeof *percent; k++) {
        char board[16];
        snprintf(board, sizeof board, "b%zu", k);
        fflush(NULL);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            pier_engine *e = NULL;
            pier_error err;
            if (pier_open(&e, dir, NULL, &err) != PIER_OK ||
                pier_insert_json(NULL, e, board, json, strlen(json), &err)
                    != PIER_OK)
                _exit(1);
            _exit(0);                        /* no cleanup: as a crash */
        }
        sleep_us(took * percent[k] / 100);
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);

        pier_engine *e = NULL;
        pier_error err;
        assert_int_equal(pier_open(&e, dir, NULL, &err), PIER_OK);
        bool has = false;
        assert_int_equal(pier_board_has(&has, e, board, &err), PIER_OK);
        int64_t n = 0;
        if (has) {
            assert_int_equal(pier_row_count(&n, e, board, &err), PIER_OK);
            assert_int_equal(n, ROWS);
            expected += ROWS;
        }
        /* The lake takes writes after the crash. */
        const char *row = "{\"id\":\"after\"}";
        char after[16];
        snprintf(after, sizeof after, "a%zu", k);
        assert_int_equal(pier_insert_json(NULL, e, after, row, strlen(row),
                                          &err), PIER_OK);
        pier_close(&e);
    }
    free(json);
    pier_error err;
    assert_int_equal(pier_reset_lake(dir, &err), PIER_OK);
    print_message("one write takes %ld us; rows that survived the kills: "
                  "%lld\n", took, (long long)expected);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(killed_write_is_all_or_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
