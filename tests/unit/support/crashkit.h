/*
 * crashkit.h: what the programs that kill writers share (test_crash_loop,
 * the soak programs): a seeded random generator that a parent and its
 * forked children run identically, the seed itself (PIER_SEED overrides),
 *
 * acknowledgements sent through a pipe in one write(), clocks, and the
 * integrity check of a lake file.
 *
 * Nothing here uses cmocka: a child process calls these too.
 */
#ifndef PIER_TEST_CRASHKIT_H
#define PIER_TEST_CRASHKIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The next value of a xorshift64* generator whose state is *s (never 0). */
uint64_t ck_rand(uint64_t *s);

/* The seed: PIER_SEED when set, else `fallback`. Prints it, with how to
 * repeat the run, on stdout. */
uint64_t ck_seed(uint64_t fallback);

/* A whole number from the environment variable `name`, else `fallback`
 * (also for a value that is not a number). */
long ck_env_long(const char *name, long fallback);

/* Sends `n` bytes (at most PIPE_BUF) in one write(), so that a reader sees
 * all of them or none even when the writer is killed; a failure ends the
 * process with status 5 (it runs in a child). */
void ck_send(int fd, const void *p, size_t n);

/* Reads exactly `n` bytes, retrying on EINTR. @return n, 0 at end of
 * file before any byte, or -1 (a short read or an error). */
ssize_t ck_recv(int fd, void *p, size_t n);

/*
 * PRAGMA integrity_check on the lake file `lake`, through a connection of
 * its own with the SQL dialect's functions and collations registered (the
 * declared tables' CHECK constraints and indexes need them). @return its
 * output ("ok\n" for a sound file), or the reason it could not run; for
 * free().
 */
char *ck_integrity_check(const char *lake);

void ck_sleep_us(long us);
/* Seconds on the monotonic clock. */
double ck_now_s(void);

#endif /* PIER_TEST_CRASHKIT_H */
