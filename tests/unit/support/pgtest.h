/*
 * pgtest.h: what the tests of the PostgreSQL lake share. They need a
 * server; ctest gives them the throwaway one of tests/support/pg.sh by
 * running them through `pg.sh run`, which sets PIER_TEST_PG_URL to its
 * libpq connection string (CMakeLists.txt: a unit test named test_pg_*
 * gets the fixture). Nothing here uses cmocka or libpq.
 */
#ifndef PIER_TEST_PGTEST_H
#define PIER_TEST_PGTEST_H

/* ctest's code for a skipped test (SKIP_RETURN_CODE of the pg tests). */
#define PGTEST_SKIP 77

/*
 * The connection string of the test server ($PIER_TEST_PG_URL). Without
 * one, prints a SKIP line naming `test` to stderr and exits
 * with PGTEST_SKIP: a test that needs PostgreSQL never passes without it.
 * Call it first in main(), before cmocka prints anything.
 */
const char *pgtest_url(const char *test);

#endif /* PIER_TEST_PGTEST_H */
