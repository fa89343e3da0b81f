/*
 * pgtest.c: see pgtest.h.
 */
#include "support/pgtest.h"

#include <stdio.h>
#include <stdlib.h>

const char *pgtest_url(const char *test)
{
    const char *url = getenv("PIER_TEST_PG_URL");
    if (url != NULL && url[0] != '\0')
        return url;
    fprintf(stderr, "SKIP: %s: PIER_TEST_PG_URL is not set, so there is "
            "no PostgreSQL to test against (the test pg/start, or "
            "tests/support/pg.sh start DIR, says why)\n", test);
    exit(PGTEST_SKIP);
}
