/*
 * test_waitfd.c: waiting on a descriptor without missing a signal
 * (tools/pier/waitfd.c): a stop flag set before the wait, or by a signal
 * whose handler restarts the interrupted call (SA_RESTART, as a library
 * might install it), ends a read's wait for a producer that sends nothing
 * and a write's wait for a reader that reads nothing; without a stop the
 * bytes all arrive, in writes no larger than asked.
 *
 * alarm(10) guards each case: a wait that never ends kills the test with
 * SIGALRM rather than holding the run. The stop comes from a timer's
 * SIGUSR1.
 */
#define _GNU_SOURCE            /* F_GETPIPE_SZ */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static volatile sig_atomic_t stop;

static void on_timer(int sig)
{
    (void)sig;
    stop = 1;
}

static timer_t timer;

/* Sets `stop` from a SIGUSR1 handler that restarts the call it
 * interrupts, `ms` milliseconds from now. */
static void stop_in(int ms)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_timer;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
    struct itimerspec t = { { 0, 0 },
                            { ms / 1000, (long)(ms % 1000) * 1000000L } };
    assert_int_equal(timer_settime(timer, 0, &t, NULL), 0);
}

static int setup(void **state)
{
    (void)state;
    stop = 0;
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = SIGUSR1;
    assert_int_equal(timer_create(CLOCK_MONOTONIC, &ev, &timer), 0);
    alarm(10);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    alarm(0);
    timer_delete(timer);
    signal(SIGUSR1, SIG_DFL);
    return 0;
}

/* The bytes waiting in a pipe. */
static int queued(int fd)
{
    int n = -1;
    assert_int_equal(ioctl(fd, FIONREAD, &n), 0);
    return n;
}

/* A stop set before the wait ends it at once, even with nothing to
 * read: the case of a signal that came just before a read. */
static void test_stop_before_read(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    stop = 1;
    errno = 0;
    assert_int_equal(cli_wait_fd(p[0], POLLIN, &stop), 0);
    assert_int_equal(errno, EINTR);
    close(p[0]);
    close(p[1]);
}

/* A signal while the wait goes on, its handler restarting what it
 * interrupts: the wait still ends, and nothing was read. */
static void test_stop_while_reading(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    stop_in(50);
    assert_int_equal(cli_wait_fd(p[0], POLLIN, &stop), 0);
    assert_int_equal(stop, 1);
    close(p[0]);
    close(p[1]);
}

/* Input that is there, or the end of the input, is ready. */
static void test_ready(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    assert_int_equal(write(p[1], "ab", 2), 2);
    assert_int_equal(cli_wait_fd(p[0], POLLIN, &stop), 1);
    char buf[4];
    assert_int_equal(read(p[0], buf, sizeof buf), 2);
    close(p[1]);
    assert_int_equal(cli_wait_fd(p[0], POLLIN, NULL), 1);  /* the end */
    assert_int_equal(read(p[0], buf, sizeof buf), 0);
    close(p[0]);
}

/* A write into a pipe no one reads: once the pipe is full, a signal
 * ends the write, which says EINTR, and what it wrote fits the pipe. */
static void test_stop_while_writing(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    static char bytes[1 << 20];
    memset(bytes, 'x', sizeof bytes);
    stop_in(100);
    errno = 0;
    assert_false(cli_write_all(p[1], bytes, sizeof bytes, PIPE_BUF, &stop));
    assert_int_equal(errno, EINTR);
    int full = fcntl(p[1], F_GETPIPE_SZ);
    assert_true(full > 0);
    assert_true(queued(p[0]) > full - PIPE_BUF);
    assert_true(queued(p[0]) <= full);
    close(p[0]);
    close(p[1]);
}

typedef struct drain {
    int fd;
    size_t got;
    unsigned long sum;
} drain;

static void *drain_main(void *payload)
{
    drain *d = payload;
    char buf[1000];
    ssize_t n;
    while ((n = read(d->fd, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < n; i++)
            d->sum += (unsigned char)buf[i];
        d->got += (size_t)n;
    }
    return NULL;
}

/* With a reader, every byte arrives, in order of writes of at most
 * `most` bytes. */
static void test_write_all(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    static char bytes[300000];
    unsigned long sum = 0;
    for (size_t i = 0; i < sizeof bytes; i++) {
        bytes[i] = (char)(i * 7 + 3);
        sum += (unsigned char)bytes[i];
    }
    drain d = { p[0], 0, 0 };
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, drain_main, &d), 0);
    assert_true(cli_write_all(p[1], bytes, sizeof bytes, PIPE_BUF, &stop));
    assert_true(cli_write_all(p[1], bytes, 0, PIPE_BUF, &stop));
    close(p[1]);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(d.got, sizeof bytes);
    assert_int_equal(d.sum, sum);
    close(p[0]);
}

/* A write that fails says why: no reader is EPIPE. */
static void test_write_fails(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    close(p[0]);
    signal(SIGPIPE, SIG_IGN);
    errno = 0;
    assert_false(cli_write_all(p[1], "abc", 3, PIPE_BUF, &stop));
    assert_int_equal(errno, EPIPE);
    signal(SIGPIPE, SIG_DFL);
    close(p[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_stop_before_read, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_stop_while_reading, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_ready, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stop_while_writing, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_write_all, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_fails, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
