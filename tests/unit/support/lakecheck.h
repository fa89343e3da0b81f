/*
 * lakecheck.h: the checks a lake must pass after something went wrong
 * under it (a crash, a power cut, an I/O error): SQLite finds no damage,
 * and each board's change feed, replayed from watermark 0, rebuilds
 * exactly the board's stored columns and rows.
 *
 * A check returns true when it passes, else false with a one-line reason
 * in `why`. Nothing here uses cmocka.
 */
#ifndef PIER_TEST_LAKECHECK_H
#define PIER_TEST_LAKECHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "pier.h"

/* Writes the reason into why (cap bytes) and returns false: how every
 * check here, and the other test kits' (migfiles.c), fail. */
bool failf(char *why, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* PRAGMA integrity_check on the SQLite file `db`, with a connection of its
 * own: true when it answers "ok". */
bool lakecheck_integrity(const char *db, char *why, size_t cap);

/*
 * For each board in `boards` (any id the lake ever used: a dropped or
 * never created board is checked too), replays its whole feed through
 * `e` (pier_changes from 0) into a copy (columns and their types, rows
 * with their updated_at, the board's existence) and compares it with
 * what the engine reads (pier_board_has, pier_board_describe,
 * pier_board_scan). Numbers compare by value (a bigint column widened to
 * double reads 5.0 where the feed said 5). A board whose feed starts
 * with a resync (maintenance dropped its early records) is skipped and
 * counted in *skipped (may be NULL).
 */
bool lakecheck_feed_matches_rows(pier_engine *e, const char *const *boards,
                                 size_t nboards, size_t *skipped, char *why,
                                 size_t cap);

#endif /* PIER_TEST_LAKECHECK_H */
