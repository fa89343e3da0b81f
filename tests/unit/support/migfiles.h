/*
 * migfiles.h: versioned migration files for the tests that break a lake
 * under its writes (the workload of support/workload.h, test_crash_loop,
 * test_oom, the soak programs), and the check that a lake's record of
 * them agrees with what their SQL did.
 *
 * The versions come in generations of MIGFILES_PER_GEN, version i being
 * kind i % MIGFILES_PER_GEN of generation g = i / MIGFILES_PER_GEN, on
 * its own table mf<g>:
 *   0 create_table_<g>  CREATE TABLE mf<g>; down: DROP TABLE
 *   1 add_rows_<g>      MIGFILES_ROWS rows (several pages); down: DELETE
 *   2 add_index_<g>     CREATE INDEX mf<g>_label; down: DROP INDEX
 *   3 bump_<g>          every qty + 1000 and row 1000 added; irreversible
 *                       (an empty down section, or none in odd
 *                       generations)
 *   4 add_note_<g>      BEGIN; ALTER TABLE ADD COLUMN note; fill it;
 *                       COMMIT; down: ALTER TABLE DROP COLUMN note
 * Each leaves a mark of its own that the others do not touch, so that
 * whether a version's SQL took effect reads off the lake alone. Version
 * i is MIGFILES_T0 + i seconds; the texts and names are fixed, so runs
 * that write the same versions leave the same bytes.
 *
 * Nothing here uses cmocka: a child process calls these too. A check
 * returns true when it passes, else false with a one-line reason in
 * `why`.
 */
#ifndef PIER_TEST_MIGFILES_H
#define PIER_TEST_MIGFILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pier.h"

#define MIGFILES_PER_GEN 5
/* The rows version 1 of a generation adds: 40 rows of a 200-byte label
 * fill several pages, so its commit is more than one write. */
#define MIGFILES_ROWS 40
/* Version 0's time: 2026-01-01T00:00:00Z, seconds. */
#define MIGFILES_T0 INT64_C(1767225600)

enum {
    MIGFILES_CREATE = 0,
    MIGFILES_ADD_ROWS,
    MIGFILES_ADD_INDEX,
    MIGFILES_BUMP,             /* the irreversible one */
    MIGFILES_ADD_NOTE
};

/* Version i's 14 digits (out: 15 bytes), and its file's name
 * "VERSION_NAME.sql" (cap bytes). */
void migfiles_version(size_t i, char *out);
void migfiles_file(size_t i, char *out, size_t cap);
/* Whether version i can be rolled back. */
bool migfiles_reversible(size_t i);

/* `dir` "/" "migrations": the directory of a lake's files (malloc). */
char *migfiles_dir_of(const char *data_dir);

/*
 * Makes `dir` (and its parents) hold the files of versions 0 .. n-1 with
 * their texts; files already right are left alone. The first version
 * missing is made as `pier migrations new` makes one
 * (pier_migration_file_create at the version's time) when `create`, then
 * given its text. A text is written to a hidden file and renamed over the
 * version's, so that a process killed meanwhile leaves the file whole,
 * as a template, or not at all.
 * @return PIER_OK, or the failure with err filled in.
 */
pier_status migfiles_write(const char *dir, size_t n, bool create,
                           pier_error *err);

/*
 * The check after a crash, a power cut, an I/O fault or a failed
 * allocation, on the lake file `lake` (read with a connection of its
 * own) and through `e`:
 * - each version's record in _pier_migration_files is there exactly when
 *   what its SQL does is (its table, its rows whole, its index, its
 *   bump, its column), and names the version's file with its checksum;
 * - the records are versions 0 .. k-1, for some k (*applied, may be
 *   NULL): up applies in order, down takes the last;
 * - when `dir` exists (and is not NULL, which leaves `e` unused),
 *   pier_migration_files_status lists each file of it applied exactly
 *   when its SQL took effect, none modified.
 */
bool migfiles_check(pier_engine *e, const char *lake, const char *dir,
                    size_t *applied, char *why, size_t cap);

/*
 * The lake recovers: pier_migration_files_up on `dir` succeeds, then
 * every file of it is applied and migfiles_check passes (*applied: the
 * versions applied after; may be NULL). Does nothing, and passes, when
 * `dir` does not exist.
 */
bool migfiles_rerun(pier_engine *e, const char *lake, const char *dir,
                    size_t *applied, char *why, size_t cap);

#endif /* PIER_TEST_MIGFILES_H */
