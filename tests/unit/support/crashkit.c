/*
 * crashkit.c: see crashkit.h.
 */
#include "support/crashkit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/sqlite_int.h"

uint64_t ck_rand(uint64_t *s)
{
    uint64_t x = *s;                              /* xorshift64* */
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * UINT64_C(2685821657736338717);
}

uint64_t ck_seed(uint64_t fallback)
{
    uint64_t seed = fallback;
    const char *env = getenv("PIER_SEED");
    if (env != NULL && *env != '\0')
        seed = strtoull(env, NULL, 10);
    printf("seed %llu (PIER_SEED=%llu repeats this run)\n",
           (unsigned long long)seed, (unsigned long long)seed);
    fflush(stdout);
    return seed;
}

long ck_env_long(const char *name, long fallback)
{
    const char *env = getenv(name);
    if (env == NULL || *env == '\0')
        return fallback;
    char *end = NULL;
    long v = strtol(env, &end, 10);
    return *end == '\0' && v >= 0 ? v : fallback;
}

void ck_send(int fd, const void *p, size_t n)
{
    ssize_t k;
    do
        k = write(fd, p, n);
    while (k < 0 && errno == EINTR);
    if (k != (ssize_t)n)
        _exit(5);
}

ssize_t ck_recv(int fd, void *p, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = read(fd, (char *)p + got, n - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return got == 0 && k == 0 ? 0 : -1;
        got += (size_t)k;
    }
    return (ssize_t)n;
}

void ck_sleep_us(long us)
{
    struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

double ck_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

char *ck_integrity_check(const char *lake)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    size_t cap = 256, len = 0;
    char *out = malloc(cap);
    if (out == NULL)
        return NULL;
    out[0] = '\0';
    int rc = sqlite3_open_v2(lake, &db, SQLITE_OPEN_READWRITE, NULL);
    if (rc == SQLITE_OK)
        rc = pier__sqlite_register_dialect(db, NULL, NULL, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_busy_timeout(db, 5000);
        rc = sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st,
                                NULL);
    }
    while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(st, 0);
        size_t n = line != NULL ? strlen(line) : 0;
        if (len + n + 2 > cap) {
            char *p = realloc(out, cap = (len + n + 2) * 2);
            if (p == NULL)
                break;
            out = p;
        }
        memcpy(out + len, line != NULL ? line : "", n);
        len += n;
        out[len++] = '\n';
        out[len] = '\0';
    }
    if (len == 0)
        snprintf(out, cap, "cannot run: %s",
                 db != NULL ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
}
