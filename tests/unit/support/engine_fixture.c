/*
 * engine_fixture.c: see engine_fixture.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "support/engine_fixture.h"
#include "support/lakedir.h"
#include "support/testlake.h"

static int64_t fixture_clock(void *payload)
{
    engine_fixture *f = payload;
    return atomic_load(&f->now);
}

pier_engine *fixture_engine(engine_fixture *f)
{
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.clock = fixture_clock;
    o.clock_payload = f;
    o.durability = PIER_DURABILITY_NORMAL;
    testlake_options(&o, f->dir);
    pier_engine *e = NULL;
    pier_error err;
    if (pier_open(&e, f->dir, &o, &err) != PIER_OK)
        fail_msg("pier_open(%s): %s: %s", f->dir, err.tag, err.message);
    return e;
}

int64_t fixture_insert(pier_engine *e, const char *board, const char *json)
{
    int64_t wm = -1;
    pier_error err;
    if (pier_insert_json(&wm, e, board, json, strlen(json), &err) !=
        PIER_OK)
        fail_msg("insert into %s: %s: %s", board, err.tag, err.message);
    return wm;
}

engine_fixture *fixture_open(void)
{
    engine_fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->dir = lakedir_make();
    assert_non_null(f->dir);
    f->lake = lakedir_join(f->dir, "lake.sqlite");
    assert_non_null(f->lake);
    atomic_init(&f->now, FIXTURE_NOW);
    f->e = fixture_engine(f);
    return f;
}

int fixture_close(engine_fixture *f)
{
    if (f == NULL)
        return 0;
    pier_close(&f->e);
    int rc = testlake_reset(f->dir) == 0 ? 0 : -1;
    if (lakedir_remove_tree(f->dir) != 0)
        rc = -1;
    free(f->lake);
    free(f->dir);
    free(f);
    return rc;
}
