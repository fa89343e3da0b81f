/*
 * testlake.h: which lake the engine's tests run against. The engine's
 * test programs (test_engine, test_writes, test_feed, test_query, ...)
 * are one set of cases for both lakes: run plainly, they open the
 * embedded lake in their temporary directory; run with
 * PIER_TEST_LAKE=postgres (ctest's unit/pg/<name>, through
 * tests/support/pg.sh run), they open a PostgreSQL lake in a namespace of
 * their own on the test server, named after that directory; every engine
 * opened on it is a node with a cache directory of its own inside it. A case about the embedded lake's file itself
 * calls testlake_embedded_only() and is skipped on PostgreSQL.
 */
#ifndef PIER_TEST_TESTLAKE_H
#define PIER_TEST_TESTLAKE_H

#include <stdbool.h>
#include <stdint.h>

#include "pier.h"

/* Whether the tests run against a PostgreSQL lake. */
bool testlake_pg(void);

/* Points o at the lake of data directory `dir`: nothing for the embedded
 * lake; the server, a namespace named after dir and a cache directory in
 * it for PostgreSQL. The strings live until testlake_reset(dir). */
void testlake_options(pier_open_options *o, const char *dir);

/* Removes dir's PostgreSQL lake (its namespace); 0, or -1 on failure.
 * Nothing for the embedded lake (its directory goes with the test's). */
int testlake_reset(const char *dir);

/* Everything the lake of `dir` stores, as text that changes when
 * anything stored changes (for "a refused call wrote nothing"); NULL on
 * failure. */
char *testlake_dump(const char *dir);

/* How many change records the lake of `dir` keeps; -1 on failure. */
int64_t testlake_changes(const char *dir);

/* Runs statements on the lake of `dir` behind the engine's back: sqlite_sql
 * on the embedded lake's file, pg_sql in the PostgreSQL lake's namespace
 * (its tables unqualified). 0, or non-zero on failure. */
int testlake_exec(const char *dir, const char *sqlite_sql,
                  const char *pg_sql);

/* A query's rows as text (columns joined by '|', rows ended by '\n',
 * nulls as NULL), on the lake of `dir`: on a PostgreSQL lake in its
 * namespace, with "_pier_changes" read as its change log ("changes").
 * NULL on failure. testlake_int: the first column of the first row as an
 * integer, or `fallback`. */
char *testlake_text(const char *dir, const char *sql);
int64_t testlake_int(const char *dir, const char *sql, int64_t fallback);

/* Skips the running cmocka case on a PostgreSQL lake: it is about the
 * embedded lake's file. */
#define testlake_embedded_only()                                          \
    do {                                                                  \
        if (testlake_pg())                                                \
            skip();                                                       \
    } while (0)

#endif /* PIER_TEST_TESTLAKE_H */
