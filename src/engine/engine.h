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
#include <stdatomic.h>

#include "base/base.h"
#include "catalog/catalog.h"
#include "engine/feed.h"
#include "store/lake.h"
#include "types/types.h"

/* A statement of the SQL dialect whose operators were written as Pier's
 * exact functions (exec.c), kept so that running it again skips finding
 * that out: the text as given and as rewritten, under the schema of one
 * epoch (pier__lake.schema_epoch; another schema may not want it). */
typedef struct pier__exact_memo {
    char *from;
    char *to;
    uint64_t epoch;
} pier__exact_memo;

#define PIER__EXACT_MEMO 8

struct pier_engine {
    pthread_mutex_t lock;      /* serializes every call on this engine */
    char *data_dir;
    pier_open_options opts;    /* as given; opts.limits with the defaults
                                  filled in (each positive, or
                                  PIER_LIMIT_NONE) */
    atomic_uint_fast64_t interrupts; /* pier_interrupt calls, ever: a
                                  statement begun before the count moved
                                  stops (limits.c) */
    pier__lake *lake;          /* guarded by lock */
    pier__catalog catalog;     /* guarded by lock; a cache of the lake's */
    pier__touched *touched;    /* guarded by lock: the boards the open
                                  write transaction appended records for */
    size_t ntouched;
    size_t touched_cap;
    pier_tx *tx;               /* guarded by lock: the open pier_tx */
    pier__feed feed;           /* the change feed's shared state */
    bool feed_open;            /* pier__feed_open succeeded */
    _Atomic(pier_cursor *) spare_cursor; /* the last closed cursor, kept
                                  for the next query (query.c); NULL:
                                  none */
    pier__exact_memo exact_memo[PIER__EXACT_MEMO]; /* guarded by lock; the
                                  last used first */
    struct pier__trigger_scripts *trigger_scripts; /* guarded by lock: the
                                  commit triggers' statements, parsed
                                  (sql/history.c); NULL: none yet */
};

/* A write in progress: one call on its own, or one write of a pier_tx. */
typedef struct pier__write {
    pier_engine *e;
    int64_t now;               /* updated_at of every row it writes */
    int64_t stamp;             /* its version stamp (_v) */
    int64_t watermark;         /* the last record it appended; 0: none */
    bool moved;                /* pier__write_end: it failed only because
                                  another node changed the catalog */
} pier__write;

/* Starts a standalone write: engine_begin(write), then the time and the
 * version stamp. On failure nothing is held. */
pier_status pier__write_begin(pier__write *w, pier_engine *e,
                              pier_error *err);
/* A write inside a transaction the caller already holds (pier_exec's):
 * the time and the version stamp only. */
pier_status pier__write_join(pier__write *w, pier_engine *e,
                             pier_error *err);
/* Ends it: commits (rc == PIER_OK) or rolls back; on success stores the
 * watermark in *watermark (which may be NULL). */
/* pier_board_add_column and pier_board_widen_column inside a write the
 * caller holds (migrations): the change, its schema record, the cache. */
pier_status pier__board_add_column_in(pier__write *w, const char *board,
                                      const char *column, const char *type,
                                      pier_error *err);
pier_status pier__board_widen_column_in(pier__write *w, const char *board,
                                        const char *column, const char *type,
                                        pier_error *err);
pier_status pier__board_drop_in(pier__write *w, const char *board,
                                pier_error *err);
pier_status pier__write_end(pier__write *w, pier_status rc,
                            int64_t *watermark, pier_error *err);
/* After pier__write_end returned rc: whether to run the whole write again
 * from pier__write_begin, because it failed only as another node changed
 * the catalog meanwhile (a PostgreSQL lake; never on the embedded one):
 * a few times, counted in *attempts (start at 0). */
bool pier__write_again(const pier__write *w, pier_status rc, int *attempts);
/* Whether this thread has a pier_tx open on `e` (tx.c). */
bool pier__tx_open_here(const pier_engine *e);
/* Records that the open write appended `watermark` for `board`. */
pier_status pier__engine_touch(pier_engine *e, const char *board,
                               int64_t watermark, pier_error *err);

/* PIER_E_WRITE_FAILED if the engine was opened read-only (a write is
 * refused before the lake is touched), else PIER_OK. */
pier_status pier__engine_writable(const pier_engine *e, pier_error *err);
/* Locks the engine, begins a transaction and refreshes the catalog. On
 * failure nothing is held; a write on a read-only engine is refused
 * (pier__engine_writable). */
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
/* ---- limits on statements (limits.c) ---- */

/* Checks the fields of caller-given limits (each >= PIER_LIMIT_NONE). */
pier_status pier__limits_check(const pier_limits *l, pier_error *err);
/* Fills the fields left at 0 with the built-in defaults. */
void pier__limits_default(pier_limits *l);
/* Prepares a guard for one statement begun now, with the engine's limits
 * where `over` (may be NULL) leaves a field at 0. `noun` names the
 * statement in messages ("query"). */
void pier__guard_init(pier__guard *g, pier_engine *e, const pier_limits *over,
                      const char *noun);
/* Whether the guard's statement was interrupted (pier_cursor_interrupt,
 * pier_interrupt): a check cheap enough for every row. */
bool pier__guard_interrupted(const pier__guard *g);

/* PIER_OK on a lake that serves the SQL dialect (the embedded one);
 * PIER_E_TOPOLOGY_UNSUPPORTED naming `what` ("declared tables") on a
 * PostgreSQL lake, whose clustered topology serves boards only (ops.c). */
pier_status pier__engine_embedded(pier_engine *e, const char *what,
                                  pier_error *err);

/* The engine's clock. */
int64_t pier__engine_now(const pier_engine *e);

/* Creates a board inside an open write: validates the options (as
 * pier_board_create documents), records the board and its change record.
 * `origins` gives each declared column's origin (NULL: all declared). */
pier_status pier__board_create_in(pier__write *w, const char *board,
                                  const pier_board_options *opts,
                                  const pier_column_origin *origins,
                                  pier_error *err);

/* The board with this id, or PIER_E_BOARD_NOT_FOUND (inside a
 * transaction). */
pier_status pier__engine_board(pier_engine *e, const char *id,
                               pier__board **out, pier_error *err);

/* ---- change records (changes.c) ---- */

/* Each appends one record in the write's transaction, with its time and
 * stamp, records the board as touched and sets w->watermark. */
/* A schema record describing a new board and all its columns. */
pier_status pier__change_board_created(pier__write *w, const pier__board *b,
                                       pier_error *err);
/* A schema record for b->columns[col], just added. */
pier_status pier__change_column_added(pier__write *w, const pier__board *b,
                                      size_t col, pier_error *err);
/* A schema record for a widening of b->columns[col] from `from`. */
pier_status pier__change_column_widened(pier__write *w, const pier__board *b,
                                        size_t col, pier__type from,
                                        pier_error *err);
/* A record with a fixed payload (truncate, drop). */
pier_status pier__change_simple(pier__write *w, const char *board,
                                const char *kind, const char *payload,
                                pier_error *err);
/* A record whose payload the caller built; frees the buffer. */
pier_status pier__change_append(pier__write *w, const char *board,
                                const char *kind, pier__buf *payload,
                                pier_error *err);
/* Appends one column's description, {"id":..,"name":..,"type":..,
 * "origin":..}. */
void pier__change_column_json(pier__buf *b, const pier__column *c);

/* ---- the write paths (write.c, tx.c) ---- */

/* How a batch of rows is written. */
typedef enum pier__write_mode {
    PIER__MODE_INSERT,       /* new rows; a stored id is DuplicateId */
    PIER__MODE_UPSERT,       /* complete rows replacing any of their id */
    PIER__MODE_UPDATE        /* patches of stored rows */
} pier__write_mode;

/* A row's id, for the update path: not NUL-terminated. */
typedef struct pier__idref {
    const char *p;
    size_t n;
} pier__idref;

/*
 * Writes a batch inside an open write (standalone or in a transaction).
 * For PIER__MODE_UPDATE, `ids` gives the row each patch applies to (NULL:
 * each row's own `id` field).
 */
pier_status pier__write_rows(pier__write *w, const char *board,
                             pier__write_mode mode, const pier_rows *rows,
                             const pier__idref *ids, pier_error *err);
/* Reads the JSON input of a write: rows for insert and upsert, exactly one
 * patch object for an update. */
pier_status pier__read_json(pier_rows *rows, pier__write_mode mode,
                            const char *json, size_t len, pier_error *err);
/* Deletes rows by id inside an open write. */
pier_status pier__write_delete(pier__write *w, const char *board,
                               const char *const *ids, size_t nids,
                               pier_error *err);

/* ---- decoded rows (read.c) ---- */

/* A row handed to the caller: by pier_row_get and pier_board_scan (names,
 * values and texts all in the arena), or by a cursor (names and values
 * are the cursor's; text and json values' texts are SQLite's, and only
 * the other values' texts live in the arena, reset per row). */
struct pier_row {
    pier__arena arena;
    size_t ncolumns;
    const char **names;
    pier_value *values;
};

/* Appends the row as a JSON object (pier_row_to_json). */
void pier__row_json(pier__buf *b, const pier_row *row);

/* Decodes a stored cell into *out, its text in `a`: by its column's type,
 * or, with type NULL, a computed value by its storage class (integer:
 * bigint, real: double, text: text, blob: text of its bytes in
 * hexadecimal, null: null). PIER__FIT_CONFLICT if the cell is no encoding
 * of `type`. With `borrow`, a text is not copied but left in the cell (or
 * in static storage), as pier__cell_view does. */
pier__fit pier__value_read(pier_value *out, const pier__cell *cell,
                           const pier__type *type, pier__arena *a,
                           bool borrow);

/* ---- queries (query.c) ---- */

/* Frees the cursor kept for reuse (pier_close). */
void pier__cursor_spare_free(pier_engine *e);
/* Frees e->trigger_scripts (sql/history.c). */
void pier__trigger_scripts_free(pier_engine *e);

/* ---- results held in memory (memrows.c) ---- */

/* The rows of one statement of pier_exec, decoded and copied. */
typedef struct pier__memrows pier__memrows;

/* NULL if out of memory. Every column is then named by
 * pier__memrows_column before a row is added. */
pier__memrows *pier__memrows_new(size_t ncolumns);
void pier__memrows_free(pier__memrows *m);
/* Names column i and gives its logical type's name (NULL: computed). */
pier_status pier__memrows_column(pier__memrows *m, size_t i,
                                 const char *name, const char *type,
                                 pier_error *err);
/* Appends a row of ncolumns values, copying their texts and bytes. */
pier_status pier__memrows_add(pier__memrows *m, const pier_value *values,
                              pier_error *err);
void pier__memrows_set_changes(pier__memrows *m, int64_t changes);
int64_t pier__memrows_changes(const pier__memrows *m);
/* The bytes the rows hold so far. */
size_t pier__memrows_bytes(const pier__memrows *m);
size_t pier__memrows_column_count(const pier__memrows *m);
const char *pier__memrows_column_name(const pier__memrows *m, size_t i);
const char *pier__memrows_column_type(const pier__memrows *m, size_t i);
/* The next row, or NULL after the last. */
const pier_row *pier__memrows_next(pier__memrows *m);
/* A cursor handing out m's rows; takes m (freed with the cursor, or here
 * on failure). */
pier_status pier__cursor_of_memrows(pier_cursor **out, pier_engine *e,
                                    pier__memrows *m, pier_error *err);

/* ---- query parameters (params.c) ---- */

/* The value bound to the statement parameter spelled `name` (":n", "$n",
 * "@n", "?3"; NULL for an anonymous "?", which is numbered `index`), or
 * NULL if `params` (which may be NULL) has none. */
const pier__cell *pier__params_find(const pier_params *params,
                                    const char *name, int index);

#endif /* PIER_ENGINE_H */
