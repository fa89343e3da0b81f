/*
 * workload.h: a fixed sequence of writes that goes through every write
 * path of Pier once, for the tests that break the lake under it
 * (test_powerloss, test_iofault).
 *
 * Step i may be run only after steps 0 .. i-1, on an engine opened by
 * workload_open: each step relies on what the earlier ones made (boards
 * "a", "b", "c" and "d", declared table "t"). Everything is
 * deterministic: the engine's clock and SQLite's ('now', through
 * faultvfs_set_clock) read the step's own time, WORKLOAD_T0 plus one
 * second per step, so two runs of the same steps leave the same bytes in
 * every table (lakedir_sql_dump) and hand out the same watermarks.
 *
 * The steps cover: pier_insert_json and _rows (a new board, inferred
 * columns, a batch that spans pages), pier_fts_enable (a full-text index
 * on board a, which every later write of a keeps), pier_update_json, _many_json and
 * _rows, pier_upsert_json and _rows (small and large), pier_delete and
 * _many, a pier_tx over three boards that creates one, pier_board_create
 * (declared, strict), _add_column, _widen_column (numeric: a catalog
 * change; to text: every row rewritten), _truncate and _drop, pier_exec
 * (CREATE TABLE and INDEX, INSERT with a parameter, ALTER TABLE ADD and
 * RENAME COLUMN, UPDATE, DELETE, a script with BEGIN/COMMIT, CREATE
 * BOARD), pier_migrate (a declaration made, then evolved),
 * pier_changeset_apply, versioned migration files in the lake's
 * directory (support/migfiles.h; the steps named "files_...": up to
 * version 1 with its files made by pier_migration_file_create, down one,
 * up all, down one, down refused at the irreversible version, up again;
 * each writes the files it needs), pier_maintain (keeping every
 * record, then, last, dropping all but the newest), pier_compact, and
 * closing and reopening the engine.
 */
#ifndef PIER_TEST_WORKLOAD_H
#define PIER_TEST_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "pier.h"

/* Step 0's time: 2026-03-01T10:00:00Z, microseconds. */
#define WORKLOAD_T0 INT64_C(1772359200000000)

typedef struct workload {
    const char *dir;           /* the data directory */
    pier_durability durability;
    int busy_timeout_ms;       /* 0: pier_open's default */
    pier_engine *e;            /* open between workload_open and _close */
    int64_t now;               /* the clocks' time, microseconds */
} workload;

/* Opens w->e on w->dir with the workload's clock and durability (at
 * WORKLOAD_T0 when no step has run). */
pier_status workload_open(workload *w, pier_error *err);
void workload_close(workload *w);

/* The number of steps, and step i's name ("insert_json"...). */
size_t workload_steps(void);
const char *workload_step_name(size_t i);
/* Runs step i at its time. *watermark: what the call returned, or
 * pier_head() for a call that returns none. */
pier_status workload_run(workload *w, size_t i, int64_t *watermark,
                         pier_error *err);

/*
 * The transactions of step i that a failure can leave apart: 1, but for
 * an up of several migration files, which commits each version on its
 * own (a failure keeps the versions before it). Running parts 0 ..
 * workload_parts(i) - 1 of a step in order, each with workload_run_part,
 * does what workload_run does, and between them leaves the lake as a run
 * of the whole step leaves it between its transactions: a clean run
 * keeps those contents too, since a power cut or a fault may leave them.
 */
size_t workload_parts(size_t i);
pier_status workload_run_part(workload *w, size_t i, size_t p,
                              int64_t *watermark, pier_error *err);

/* Every board the steps name, for lakecheck_feed_matches_rows. */
extern const char *const workload_boards[];
extern const size_t workload_nboards;

#endif /* PIER_TEST_WORKLOAD_H */
