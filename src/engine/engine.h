/*
 * engine.h: the engine handle and the steps every public call shares.
 *
 * A call takes the engine's lock, opens a transaction on the lake (write or
 * read), brings the catalog cache up to the lake's catalog version, does
 * its work, and commits or rolls back. The cache is only ever replaced by
 * a committed state: writes work on clones (see catalog.h).
 */
#ifndef PIER_ENGINE_H
#define PIER_ENGINE_H

#include <pthread.h>

#include "base/base.h"
#include "catalog/catalog.h"
#include "store/lake.h"
#include "types/types.h"

struct pier_engine {
    pthread_mutex_t lock;      /* serializes every call on this engine */
    char *data_dir;
    pier_open_options opts;
    pier__lake *lake;          /* guarded by lock */
    pier__catalog catalog;     /* guarded by lock; a cache of the lake's */
};

/* Locks the engine, begins a transaction and refreshes the catalog. On
 * failure nothing is held. */
pier_status pier__engine_begin(pier_engine *e, bool write, pier_error *err);
/* Commits (rc == PIER_OK) or rolls back, then unlocks. Returns the status
 * of the whole call: a failed commit turns success into failure. */
pier_status pier__engine_end(pier_engine *e, pier_status rc,
                             pier_error *err);
/*
 * The last step of a write that changed a board's schema (inside its
 * transaction): bumps the catalog version and puts *draft in the cache in
 * place of the board it was cloned from, taking ownership (*draft becomes
 * NULL). A failed commit afterwards makes pier__engine_end forget it.
 */
pier_status pier__engine_install(pier_engine *e, pier__board **draft,
                                 pier_error *err);
/* The engine's clock. */
int64_t pier__engine_now(const pier_engine *e);

/* The board with this id, or PIER_E_BOARD_NOT_FOUND (inside a
 * transaction). */
pier_status pier__engine_board(pier_engine *e, const char *id,
                               pier__board **out, pier_error *err);

/* ---- change records (changes.c) ---- */

/* Appends a schema record describing a new board and all its columns. */
pier_status pier__change_board_created(pier_engine *e, const pier__board *b,
                                       int64_t now, int64_t *watermark,
                                       pier_error *err);
/* Appends a schema record for b->columns[col], just added. */
pier_status pier__change_column_added(pier_engine *e, const pier__board *b,
                                      size_t col, int64_t now,
                                      int64_t *watermark, pier_error *err);
/* Appends a schema record for a widening of b->columns[col] from `from`. */
pier_status pier__change_column_widened(pier_engine *e, const pier__board *b,
                                        size_t col, pier__type from,
                                        int64_t now, int64_t *watermark,
                                        pier_error *err);
/* Appends a record with a fixed payload (truncate, drop). */
pier_status pier__change_simple(pier_engine *e, const char *board,
                                const char *kind, const char *payload,
                                int64_t now, int64_t *watermark,
                                pier_error *err);
/* Appends one column's description, {"id":..,"name":..,"type":..,
 * "origin":..}. */
void pier__change_column_json(pier__buf *b, const pier__column *c);

/* ---- the shared insert path (insert.c) ---- */
pier_status pier__insert(int64_t *watermark, pier_engine *e,
                         const char *board, const pier_rows *rows,
                         pier_error *err);

#endif /* PIER_ENGINE_H */
