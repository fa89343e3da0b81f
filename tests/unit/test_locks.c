/*
 * test_locks.c: a lock held by one connection never surfaces as a lock
 * error in another caller's write, as long as that caller waits its busy
 * timeout: nothing Pier does holds the lake's write lock for long.
 *
 * Each case comes from the 8-process soak (tests/soak/soak_mixed.c),
 * where the error first reached a caller.
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

#include <sqlite3.h>

#include "pier.h"
#include "support/crashkit.h"
#include "support/engine_fixture.h"

typedef struct maintainer {
    pier_engine *e;
    pier_status rc;
    pier_error err;
} maintainer;

static void *maintain_main(void *arg)
{
    maintainer *m = arg;
    m->rc = pier_maintain(m->e, 0, &m->err);
    return NULL;
}

/*
 * pier_maintain checkpoints the log; a checkpoint that truncates it must
 * wait for every reader of the log, and while it waits it holds the
 * writer lock. A maintenance that waited its whole busy timeout for a
 * reader (here one that never finishes) kept every writer of every
 * process out for as long: a writer with a shorter timeout failed with
 * "database is locked". It must give the truncation up at once instead.
 */
static void maintain_beside_a_reader_never_locks_writers_out(void **state)
{
    (void)state;
    engine_fixture *f = fixture_open();
    for (int i = 0; i < 20; i++) {
        char row[64];
        snprintf(row, sizeof row, "{\"id\":\"r%d\",\"n\":%d}", i, i);
        fixture_insert(f->e, "b", row);
    }
    /* A reader of another process, its snapshot in the log, held. */
    sqlite3 *reader = NULL;
    assert_int_equal(sqlite3_open_v2(f->lake, &reader, SQLITE_OPEN_READONLY,
                                     NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(reader, "BEGIN; SELECT count(*) FROM "
                                  "_pier_changes", NULL, NULL, NULL),
                     SQLITE_OK);

    maintainer m = { fixture_engine(f), PIER_OK, { 0 } };
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, maintain_main, &m), 0);
    ck_sleep_us(300000);        /* let the maintenance reach its checkpoint */

    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.busy_timeout_ms = 1000;
    o.durability = PIER_DURABILITY_NORMAL;
    pier_engine *writer = NULL;
    pier_error err;
    assert_int_equal(pier_open(&writer, f->dir, &o, &err), PIER_OK);
    const char *row = "{\"id\":\"late\",\"n\":1}";
    pier_status rc = pier_insert_json(NULL, writer, "b", row, strlen(row),
                                      &err);
    if (rc != PIER_OK)
        fail_msg("a write beside a maintenance: %s: %s", err.tag,
                 err.message);
    pier_close(&writer);

    assert_int_equal(pthread_join(t, NULL), 0);
    if (m.rc != PIER_OK)
        fail_msg("pier_maintain: %s: %s", m.err.tag, m.err.message);
    pier_close(&m.e);
    sqlite3_exec(reader, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(reader);

    /* With nobody reading, maintenance truncates the log as before. */
    assert_int_equal(pier_maintain(f->e, 0, &err), PIER_OK);
    pier_stats st;
    assert_int_equal(pier_stats_get(&st, f->e, &err), PIER_OK);
    assert_int_equal(st.wal_bytes, 0);
    assert_int_equal(fixture_close(f), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(maintain_beside_a_reader_never_locks_writers_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
