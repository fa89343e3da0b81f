/*
 * engine_fixture.h: an engine on a fresh temporary data directory, for
 * unit tests: a clock the test sets (it starts at FIXTURE_NOW; writers on
 * other threads may read it), durability=normal (the tests do not fsync),
 * and helpers that fail the running cmocka test when a setup write fails.
 */
#ifndef PIER_TEST_ENGINE_FIXTURE_H
#define PIER_TEST_ENGINE_FIXTURE_H

#include <stdatomic.h>
#include <stdint.h>

#include "pier.h"

/* Where the fixture's clock starts: 2026-03-01T10:00:00Z. */
#define FIXTURE_NOW INT64_C(1772359200000000)
#define FIXTURE_NOW_TEXT "2026-03-01T10:00:00.000000Z"

typedef struct engine_fixture {
    char *dir;               /* the data directory */
    char *lake;              /* its lake file */
    _Atomic int64_t now;     /* the engines' clock, microseconds */
    pier_engine *e;
} engine_fixture;

/* A new fixture (cmocka setup: fails the test if anything fails). */
engine_fixture *fixture_open(void);
/* Closes the engine and removes the directory. @return 0, or -1 if the
 * directory could not be removed. */
int fixture_close(engine_fixture *f);

/* Opens another engine on the fixture's directory, with its options. */
pier_engine *fixture_engine(engine_fixture *f);
/* pier_insert_json of `json` into `board`, failing the test on error;
 * returns the watermark. */
int64_t fixture_insert(pier_engine *e, const char *board, const char *json);

#endif /* PIER_TEST_ENGINE_FIXTURE_H */
