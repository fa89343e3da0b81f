/*
 * sqlite_int.h: the SQLite lake's private state, shared by its files
 * (sqlite_lake.c: open, format, transactions; sqlite_catalog.c: the catalog
 * tables and board DDL; sqlite_rows.c: rows and the change log).
 *
 * The file holds, beside one physical table per board:
 *   _pier_meta(key, value)          format, catalog version
 *   _pier_boards(board, strict, created_at)
 *   _pier_columns(column_id AUTOINCREMENT, board, position, name, type,
 *                 origin)            ids are never reused
 *   _pier_changes(watermark AUTOINCREMENT, board, kind, payload,
 *                 committed_at)      the change log; its key is the
 *                                    watermark, monotonic even across
 *                                    deletions
 * and the declared tables' catalog (sqlite_tables.c) and the versioned
 * migration files applied (sqlite_files.c).
 * A board's rows live in "_pier_b_<board>": id TEXT PRIMARY KEY,
 * updated_at INTEGER (microseconds), state TEXT, _v INTEGER (the row's
 * version stamp), then one ANY column per user column, named as the user
 * named it. ANY keeps whatever encoding the
 * type registry chose, so numeric widening never touches a row.
 */
#ifndef PIER_STORE_SQLITE_INT_H
#define PIER_STORE_SQLITE_INT_H

#include <pthread.h>
#include <sqlite3.h>

#include "store/lake.h"

/* "PIER" in ASCII, in the header's application_id field. */
#define PIER__APPLICATION_ID 0x50494552
/* The on-disk format this code writes and reads: 2 added declared tables
 * (_pier_tables, _pier_table_columns, _pier_schema), 3 what migrations
 * keep (managed flags, declared defaults and backfills, views' declared
 * columns, indexes), 4 the commit triggers (_pier_commit_triggers), 5
 * the record of versioned migration files applied
 * (_pier_migration_files); an older lake is upgraded when it is opened. */
#define PIER__FORMAT 5

/* A statement kept prepared, keyed by its SQL text: the text says all a
 * statement does, so a cached one is valid as long as SQLite can re-prepare
 * it (it does so by itself after a schema change). */
typedef struct pier__cached_stmt {
    char *sql;
    sqlite3_stmt *stmt;
    char **params;             /* the dialect's: its parameters' names (one
                                  block; a NULL name is an anonymous ?),
                                  which SQLite looks up one by one in a
                                  list; NULL when not kept */
    size_t nparams;
    unsigned char *exact;      /* per parameter, PIER__PARAM_*: how a REAL
                                  bound to it is bound (sqlite_exact.c);
                                  NULL: as it is */
} pier__cached_stmt;

/* How a REAL bound to a parameter of the dialect is bound: as it is; as
 * its shortest text that reads back as the same double, for a parameter
 * that fills or is compared with an exact column (DECIMAL, UINT64,
 * INT128), which SQLite would otherwise turn into text of 15 digits; or
 * refused, for one that also fills another column. */
enum { PIER__PARAM_AS_IS = 0, PIER__PARAM_TEXT = 1, PIER__PARAM_BOTH = 2 };

/* Statements kept prepared, most recently used first. Writes to a few hot
 * boards (an insert, an upsert, an update of each) fit; preparing one that
 * fell out costs a few microseconds. */
#define PIER__STMT_CACHE 16

/* Statements of the dialect kept prepared: an application's hot INSERT,
 * UPDATE and SELECT fit; preparing one (with its checks) costs more than
 * running it. */
#define PIER__USER_STMT_CACHE 16

/* A changeset the engine made itself (sqlite_history.c): what the SQL
 * function pier_changeset() returns while a commit trigger runs. */
typedef struct pier__exposed {
    const void *p;             /* NULL: pier_changeset() is NULL */
    size_t len;
} pier__exposed;

typedef struct pier__sqlite_lake {
    pier__lake base;
    sqlite3 *db;
    char *path;
    char *data_dir;                /* the directory path is in, as given:
                                      what a refusal under --readonly
                                      names, as the engine's does */
    char *open_name;               /* what every connection opens: path, or
                                      a file: URI with immutable=1 (a
                                      read-only lake in a directory where
                                      no -shm can be made) */
    int open_flags;                /* SQLITE_OPEN_URI for that URI, or 0 */
    bool readonly;                 /* opened SQLITE_OPEN_READONLY: writes
                                      nothing (pier_open_options.readonly) */
    bool importing;                /* the authorizer judges an export's
                                      CREATE statement (sqlite_export.c) */
    bool import_denied;            /* ... and refused it */
    sqlite3_stmt *get_version;     /* persistent statements */
    sqlite3_stmt *bump_version;
    sqlite3_stmt *append_change;
    sqlite3_stmt *get_head;
    sqlite3_stmt *get_stamp;
    sqlite3_stmt *txn[4];          /* BEGIN IMMEDIATE, BEGIN, COMMIT and
                                      ROLLBACK, prepared at first use */
    sqlite3_stmt *data_version;    /* PRAGMA data_version, kept */
    int64_t catalog_seen;          /* the catalog version, read when
                                      data_version was catalog_seen_at
                                      (sqlite_catalog.c); valid when
                                      catalog_known */
    int64_t catalog_seen_at;
    bool catalog_known;
    pier__cached_stmt stmts[PIER__STMT_CACHE];
    /* Reader connections for queries (sqlite_query.c). */
    pthread_mutex_t readers_lock;  /* guards the readers_* fields */
    bool readers_lock_init;
    pier__reader *readers_idle;    /* idle readers, most recent first */
    size_t nreaders_idle;
    size_t nreaders_busy;          /* checked out (open cursors) */
    uint64_t readers_made;         /* ever opened; each reader's number
                                      makes its prepares' epochs its own */
    int busy_timeout_ms;           /* pier_open's setup and the readers */
    /* The SQL dialect's statements on the writer (sqlite_exec.c). */
    sqlite3_stmt *user_stmt;       /* the statement pier_exec runs */
    char **user_params;            /* its parameters' names, when the cache
                                      kept them (pier__cached_stmt) */
    size_t user_nparams;
    unsigned char *user_exact;     /* its parameters' PIER__PARAM_*, or
                                      NULL (pier__cached_stmt.exact) */
    bool user_cacheable;           /* it goes back to user_cache after */
    pier__cached_stmt user_cache[PIER__USER_STMT_CACHE]; /* statements of
                                      the dialect run before, most recent
                                      first, idle (reset, unbound) */
    sqlite3_stmt *schema_version;  /* PRAGMA schema_version, kept */
    int64_t fts_cookie;            /* the schema cookie fts_any was read
                                      under (sqlite_fts.c); -1: none, and
                                      after any rollback, which may take
                                      the cookie back to a value it had
                                      with another schema */
    bool fts_any;                  /* some board has a full-text index */
    int64_t cache_cookie;          /* the schema cookie user_cache's
                                      statements were prepared and checked
                                      under (sqlite_exact.c); -1: none */
    bool user_policy;              /* the authorizer judges: a user
                                      statement is being prepared or run */
    bool user_ddl;                 /* ... and it is DDL, which reads the
                                      schema table */
    char denied[256];              /* what the authorizer refused first */
    pier__stmt_failure failure;    /* why the statement failed */
    pier__stmt_shape shape;        /* user_stmt's, pointing at shape_mem */
    pier__arena shape_mem;
    pier__cell *cells;             /* one row of user_stmt, reused */
    size_t cells_cap;
    int64_t schema_checked;        /* the schema cookie that last matched
                                      the remembered schema; -1: never */
    pier__guard *guard;            /* what limits pier_exec's statements
                                      while it runs (stmt_guard); NULL:
                                      nothing (the engine's own writes) */
    pier__exposed exposed;         /* what pier_changeset() returns
                                      (changeset_expose) */
    struct pier__recorder *recorder; /* records the writer's changes for
                                      the recordings (sqlite_record.c);
                                      NULL until the first one */
    pier__recording *recordings;   /* the open ones, in the order opened
                                      (sqlite_history.c) */
} pier__sqlite_lake;

/* DATA_DIR/lake.sqlite, with `suffix` ("-wal", "-shm" or ""); NULL if out
 * of memory. */
char *pier__sqlite_lake_path(const char *data_dir, const char *suffix);
/* Reports a SQLite failure as `status` with SQLite's message. */
pier_status pier__sqlite_fail(pier__sqlite_lake *l, pier_error *err,
                              pier_status status, const char *what);
/* Runs SQL without results. */
pier_status pier__sqlite_exec(pier__sqlite_lake *l, const char *sql,
                              pier_status status, pier_error *err);
/* Appends a double-quoted SQL identifier. */
void pier__sql_ident(pier__buf *b, const char *name);
/* Appends the quoted physical table name of a board. */
void pier__sql_board_table(pier__buf *b, const char *board);
/* The cached statement for this SQL (sql->p, sql->len), prepared if need
 * be; the statement is reset and its bindings cleared. */
pier_status pier__sqlite_stmt(pier__sqlite_lake *l, const pier__buf *sql,
                              sqlite3_stmt **out, pier_error *err);
/* Forgets every cached statement. */
void pier__sqlite_forget_statements(pier__sqlite_lake *l);
/* The status of a failed write, from SQLite's extended code, its message
 * and what the value check, a read-only trigger or a foreign key's
 * trigger recorded in l->failure (which it completes). */
pier_status pier__sqlite_step_status(pier__sqlite_lake *l, int code,
                                     const char *msg);

/* sqlite_fts.c: a board's full-text index (FTS5), kept in step by the
 * write paths. */
typedef struct pier__sqlite_fts {
    bool on;                   /* the board has an index */
    char **columns;            /* the indexed columns, in order */
    size_t ncolumns;
    size_t cap;
} pier__sqlite_fts;
/* What board's index holds (f->on false: it has none). */
pier_status pier__sqlite_fts_get(pier__sqlite_lake *l, const char *board,
                                 pier__sqlite_fts *out, pier_error *err);
void pier__sqlite_fts_free(pier__sqlite_fts *f);
/* The cached statements that remove (and, if `add` is not NULL, write
 * again) the entry of the row whose id is bound as ?1; both NULL when the
 * board has no index. */
pier_status pier__sqlite_fts_stmts(pier__sqlite_lake *l, const char *board,
                                   sqlite3_stmt **remove, sqlite3_stmt **add,
                                   pier_error *err);
/* Runs one of those for row `id` (st NULL: nothing). */
pier_status pier__sqlite_fts_run(pier__sqlite_lake *l, sqlite3_stmt *st,
                                 const char *id, size_t id_len,
                                 pier_error *err);
/* Empties the board's index, if it has one. */
pier_status pier__sqlite_fts_truncate(pier__sqlite_lake *l,
                                      const char *board, pier_error *err);
/* Drops the board's index, if it has one. */
pier_status pier__sqlite_fts_drop(pier__sqlite_lake *l, const char *board,
                                  pier_error *err);
/* The lake ops (lake.h). */
pier_status pier__sqlite_fts_enable(pier__lake *lake, const pier__board *b,
                                    const char *const *columns, size_t n,
                                    pier_error *err);
pier_status pier__sqlite_fts_disable(pier__lake *lake, const pier__board *b,
                                     pier_error *err);
pier_status pier__sqlite_fts_columns(pier__lake *lake, const char *board,
                                     char ***columns, size_t *n,
                                     pier_error *err);

/* sqlite_sqlfns.c */
/* Registers the SQL dialect's functions and collations on a connection;
 * _pier_fit records why it refused a value in *failure (may be NULL);
 * now() reads the running statement's instant in *stmt_now (microseconds,
 * UTC; 0 or a NULL pointer: the system clock's); a CHANGESET value equal
 * byte for byte to *made (may be NULL) passes _pier_fit unread. Returns
 * SQLite's code. */
int pier__sqlite_register_dialect(sqlite3 *db, pier__stmt_failure *failure,
                                  const int64_t *stmt_now,
                                  const pier__exposed *made);
/* What the dialect's function files share: */
/* A value as a decimal: an integer as itself, text and reals by their
 * text (0.1 reads "0.1"). NULL or why not. */
const char *pier__sqlfn_decimal(sqlite3_value *v, pier__decimal *out);
/* The common stored form of a decimal, "-123.45" (at most 18 digits, no
 * exponent), read without the general parser: false for anything else. */
bool pier__sqlfn_plain_decimal(const unsigned char *p, int n,
                               int64_t *unscaled, int *scale);
/* sum(), avg() and total() of values computed elsewhere (the fused
 * aggregates of sqlite_exactfns.c): adds one, given as its parts, to the
 * call's accumulator (sign -1 takes it away, for windows): type
 * SQLITE_NULL (nothing), SQLITE_INTEGER (i), SQLITE_FLOAT (r), or
 * SQLITE_TEXT for an exact decimal *d (NULL: one beyond 38 digits). The
 * finals are the built-ins' own. */
void pier__sqlfn_sum_add(sqlite3_context *ctx, int type, int64_t i,
                         double r, const pier__decimal *d, int sign);
void pier__sqlfn_sum_final(sqlite3_context *ctx);
void pier__sqlfn_avg_final(sqlite3_context *ctx);
void pier__sqlfn_total_final(sqlite3_context *ctx);
/* A computed decimal as the result, at its smallest scale ("0.3", not
 * "0.30"): values are stored as written, and "0.10" or "0.1" must not
 * decide how a result reads. */
void pier__sqlfn_result_total(sqlite3_context *ctx, pier__decimal d);
/* Fails the call with a formatted message (at most 255 bytes). */
void pier__sqlfn_errorf(sqlite3_context *ctx, const char *fmt, ...)
    PIER__PRINTF(2, 3);
/* A refused value for a message: text quoted and cut, numbers as SQLite
 * writes them, blobs by their size. */
void pier__sqlfn_describe(char *out, size_t cap, sqlite3_value *v);

/* sqlite_exactfns.c */
/* Registers _pxa, _pxs, _pxm, _pxd, _pxr, _pxn and _pxc: the operators of
 * a statement computing on exact values, as the front-end writes them
 * (src/sql/exactops.c). Returns SQLite's code. */
int pier__sqlite_register_exact_ops(sqlite3 *db);

/* sqlite_timefns.c */
/* Registers the dialect's temporal functions, now() and the UUID makers
 * (docs/sql.md, "Functions"); stmt_now as for the above. */
int pier__sqlite_register_time(sqlite3 *db, const int64_t *stmt_now);

/* sqlite_tables.c */
/* SQLite's schema cookie (it moves with every schema change, in any
 * process); -1 if it cannot be read. */
int64_t pier__sqlite_schema_cookie(pier__sqlite_lake *l);
/* Loads the declared tables into the catalog (from catalog_load). */
pier_status pier__sqlite_tables_load(pier__sqlite_lake *l,
                                     pier__catalog *out, pier_error *err);
pier_status pier__sqlite_table_save(pier__lake *lake, pier__table *t,
                                    pier_error *err);
pier_status pier__sqlite_table_forget(pier__lake *lake, int64_t table_id,
                                      pier_error *err);
pier_status pier__sqlite_schema_objects(
    pier__lake *lake, int (*cb)(const pier__schema_object *o, void *payload),
    void *payload, pier_error *err);
pier_status pier__sqlite_board_indexes(
    pier__lake *lake, int (*cb)(const pier__schema_object *o, void *payload),
    void *payload, pier_error *err);
pier_status pier__sqlite_schema_remember(pier__lake *lake, pier_error *err);
pier_status pier__sqlite_schema_sql_set(pier__lake *lake, const char *name,
                                       const char *sql, pier_error *err);
pier_status pier__sqlite_migrate_meta_put(pier__lake *lake,
                                         const pier__migrate_meta *m,
                                         bool forget, pier_error *err);
pier_status pier__sqlite_null_witnesses(pier__lake *lake, const char *table,
                                        const char *column, const char *key,
                                        int64_t *count, pier__buf *keys,
                                        pier_error *err);
pier_status pier__sqlite_duplicate_witnesses(pier__lake *lake,
                                             const char *table,
                                             const char *const *list,
                                             size_t n, const char *where,
                                             int64_t *count, pier__buf *keys,
                                             pier_error *err);
pier_status pier__sqlite_sequence_get(pier__lake *lake, const char *name,
                                      int64_t *out, pier_error *err);
pier_status pier__sqlite_table_rows(pier__lake *lake, const char *name,
                                    int64_t *out, pier_error *err);
pier_status pier__sqlite_migrate_meta(
    pier__lake *lake, int (*cb)(const pier__migrate_meta *m, void *payload),
    void *payload, pier_error *err);
pier_status pier__sqlite_schema_compare(pier__lake *lake, pier__buf *report,
                                        pier_error *err);
/* The catalog tables of format 2 (declared tables and the remembered
 * schema), for a new lake and for upgrading a format 1 lake. */
extern const char pier__sqlite_tables_schema[];
/* What format 3 adds to a format 2 lake (migrations), for a new lake and
 * for upgrading an older one. */
extern const char pier__sqlite_migrations_schema[];

/* sqlite_files.c */
/* What format 5 adds to a format 4 lake (the versioned migration files
 * applied), for a new lake and for upgrading an older one. */
extern const char pier__sqlite_files_schema[];
pier_status pier__sqlite_files_applied(
    pier__lake *lake, int (*cb)(const pier__file_record *r, void *payload),
    void *payload, pier_error *err);
pier_status pier__sqlite_file_record(pier__lake *lake,
                                     const pier__file_record *r,
                                     pier_error *err);
pier_status pier__sqlite_file_forget(pier__lake *lake, const char *version,
                                     pier_error *err);

/* sqlite_exec.c */
pier_status pier__sqlite_stmt_prepare(pier__lake *lake, const char *sql,
                                      size_t len, bool ddl,
                                      pier__stmt_shape *shape,
                                      pier_error *err);
pier_status pier__sqlite_stmt_bind(pier__lake *lake, int i,
                                   const pier__cell *c, pier_error *err);
pier_status pier__sqlite_stmt_step(pier__lake *lake, const pier__cell **cells,
                                   const pier__stmt_failure **failure,
                                   pier_error *err);
int64_t pier__sqlite_stmt_changes(pier__lake *lake);
void pier__sqlite_stmt_finish(pier__lake *lake);
pier_status pier__sqlite_ddl(pier__lake *lake, const char *sql,
                             pier_error *err);
bool pier__sqlite_in_write(pier__lake *lake);
void pier__sqlite_stmt_guard(pier__lake *lake, pier__guard *g);
/* Installs the writer's authorizer (it allows everything until a user
 * statement is prepared). */
void pier__sqlite_exec_init(pier__sqlite_lake *l);
/* sqlite_exact.c: refuses a statement (QueryFailed) that computes with
 * + - * / or a numeric function on an exact value (DECIMAL, UINT64,
 * INT128), which SQLite would read as a float, or compares or orders a
 * computed one, which SQLite would read as text. *rewrite: the refusal is
 * one the front-end's rewrite of the operators answers (never when
 * `rewritten`, the statement being that rewrite). *params: NULL, or (the
 * caller frees it) each parameter's PIER__PARAM_*. */
pier_status pier__sqlite_check_exact(pier__sqlite_lake *l, const char *sql,
                                     size_t len, bool rewritten,
                                     bool *rewrite, unsigned char **params,
                                     pier_error *err);
/* Finalizes the statements the dialect kept (closing the lake). */
void pier__sqlite_exec_close(pier__sqlite_lake *l);

/* sqlite_catalog.c */
pier_status pier__sqlite_catalog_version(pier__lake *lake, int64_t *out,
                                         pier_error *err);
pier_status pier__sqlite_catalog_bump(pier__lake *lake, int64_t *out,
                                      pier_error *err);
pier_status pier__sqlite_catalog_load(pier__lake *lake, pier__catalog *out,
                                      pier_error *err);
pier_status pier__sqlite_board_create(pier__lake *lake, pier__board *b,
                                      pier_error *err);
/* Creates board b as it is, its columns keeping their ids (a replica of
 * another lake's board, src/cluster/replica.c). */
pier_status pier__sqlite_board_copy(pier__lake *lake, const pier__board *b,
                                    pier_error *err);
pier_status pier__sqlite_board_drop(pier__lake *lake, const pier__board *b,
                                    pier_error *err);
pier_status pier__sqlite_board_truncate(pier__lake *lake,
                                        const pier__board *b,
                                        pier_error *err);
pier_status pier__sqlite_column_add(pier__lake *lake, pier__board *b,
                                    size_t col, pier_error *err);
pier_status pier__sqlite_column_widen(pier__lake *lake, const pier__board *b,
                                      size_t col, pier__type from,
                                      pier_error *err);
/* Registers the SQL functions the catalog's DDL uses. */
pier_status pier__sqlite_register_functions(pier__sqlite_lake *l,
                                            pier_error *err);

/* sqlite_rows.c */
/* The cell a SQLite value holds, into *out (in place: a cursor calls this
 * for every value it reads); bytes borrowed from the value. */
void pier__sqlite_cell(pier__cell *out, sqlite3_value *v);
pier_status pier__sqlite_rows_write(pier__lake *lake, const pier__board *b,
                                    int mode, const pier__cell *cells,
                                    size_t nrows, int64_t stamp,
                                    size_t *failed_row, pier_error *err);
pier_status pier__sqlite_row_update(pier__lake *lake, const pier__board *b,
                                    const char *id, size_t id_len,
                                    const size_t *cols,
                                    const pier__cell *cells, size_t n,
                                    int64_t updated_at, int64_t stamp,
                                    bool *found, pier_error *err);
pier_status pier__sqlite_rows_delete(pier__lake *lake, const pier__board *b,
                                     const char *const *ids, size_t nids,
                                     int64_t *deleted, pier_error *err);
pier_status pier__sqlite_last_stamp(pier__lake *lake, int64_t *out,
                                    pier_error *err);
pier_status pier__sqlite_rows_scan(pier__lake *lake, const pier__board *b,
                                   const char *id, pier__row_cb cb,
                                   void *payload, pier_error *err);
pier_status pier__sqlite_rows_count(pier__lake *lake, const pier__board *b,
                                    int64_t *out, pier_error *err);
pier_status pier__sqlite_change_append(pier__lake *lake, const char *board,
                                       const char *kind, const char *payload,
                                       size_t len, int64_t committed_at,
                                       int64_t stamp, int64_t *watermark,
                                       pier_error *err);
pier_status pier__sqlite_head(pier__lake *lake, int64_t *out,
                              pier_error *err);

/* sqlite_feed.c */
pier_status pier__sqlite_changes_read(pier__lake *lake, const char *board,
                                      int64_t after, size_t limit,
                                      int (*cb)(const pier_change *rec,
                                                void *payload),
                                      void *payload, pier_error *err);
pier_status pier__sqlite_floor(pier__lake *lake, int64_t *out,
                               pier_error *err);
pier_status pier__sqlite_changes_expire(pier__lake *lake, int64_t before,
                                        int64_t now, int64_t *dropped,
                                        pier_error *err);
pier_status pier__sqlite_checkpoint(pier__lake *lake, pier_error *err);
pier_status pier__sqlite_backup(pier__lake *lake, const char *dest_file,
                                const atomic_uint_fast64_t *interrupts,
                                pier_error *err);
pier_status pier__sqlite_export(pier__lake *lake, pier_write_fn fn,
                                void *payload, pier_error *err);
pier_status pier__sqlite_import(pier__lake *lake, pier_read_fn fn,
                                void *payload, pier_error *err);
pier_status pier__sqlite_compact_files(pier__lake *lake, pier_error *err);
pier_status pier__sqlite_stats(pier__lake *lake, const pier__catalog *cat,
                               pier_stats *out, pier_error *err);
pier_status pier__sqlite_board_stats(pier__lake *lake, const pier__board *b,
                                     pier_board_stats *out,
                                     pier_error *err);

/* sqlite_guard.c */
/* The progress handler of a connection whose statements a guard may
 * limit; `slot` points at the connection's current guard (NULL: none). */
int pier__sqlite_guard_progress(void *slot);
/* sqlite3_prepare_v3 without the guard's limit on one value: the column
 * names, types and schema SQLite reads to prepare a statement are the
 * query's text and the lake's own, not values the statement makes or
 * reads (a limit of 10 bytes must not refuse "SELECT 1 AS a"). */
int pier__sqlite_prepare(sqlite3 *db, const char *sql, int len,
                         unsigned flags, sqlite3_stmt **out,
                         const char **tail);
/* sqlite3_step of one of Pier's own statements (the catalog version, a
 * name's lookup) without the guard's limit on one value, which is the
 * user's statement's: its literals are not the user's values. */
int pier__sqlite_step_own(sqlite3_stmt *st);
/* Sets the connection's limit on one value to g's (NULL: none), for the
 * moments a user's statement binds or steps. */
void pier__sqlite_guard_length(sqlite3 *db, const pier__guard *g);
/* Makes g (NULL: none) the guard of the connection's statements, *slot,
 * with its value limit, and starts its count of time and memory. */
void pier__sqlite_guard_attach(sqlite3 *db, pier__guard **slot,
                               pier__guard *g);
/* A step of the guarded statement begins or ends (its time counts). */
void pier__sqlite_guard_step(pier__guard *g, bool begin);
/* The status of a statement that failed with SQLite's extended `code`
 * under guard g: a limit or an interruption it explains, else PIER_OK
 * (the caller reports the failure as usual). */
pier_status pier__sqlite_guard_fail(pier__guard *g, int code,
                                    pier_error *err);
pier_status pier__sqlite_guard_check(pier__lake *lake, pier__guard *g,
                                     pier_error *err);

/* sqlite_history.c */
extern const char pier__sqlite_history_schema[];
/* Loads the commit triggers into the catalog (catalog_load). */
pier_status pier__sqlite_triggers_load(pier__sqlite_lake *l,
                                       pier__catalog *out, pier_error *err);
/* Registers pier_changeset() on the writer. */
int pier__sqlite_register_history(pier__sqlite_lake *l);
pier_status pier__sqlite_trigger_save(pier__lake *lake,
                                      const pier__commit_trigger *t,
                                      int64_t created_at, pier_error *err);
pier_status pier__sqlite_trigger_forget(pier__lake *lake, const char *name,
                                        pier_error *err);
pier_status pier__sqlite_table_keyed(pier__lake *lake, const char *name,
                                     bool *out, pier_error *err);
pier_status pier__sqlite_recording_open(pier__lake *lake,
                                        const char *const *tables,
                                        size_t ntables,
                                        pier__recording **out,
                                        pier_error *err);
void pier__sqlite_recordings_stop(pier__lake *lake);
const char *pier__sqlite_recording_unkeyed(pier__recording *r);
pier_status pier__sqlite_recording_take(pier__recording *r, void **bytes,
                                        size_t *len, pier_error *err);
void pier__sqlite_recording_close(pier__recording *r);
void pier__sqlite_changeset_expose(pier__lake *lake, const void *bytes,
                                   size_t len);
pier_status pier__sqlite_changeset_apply(pier__lake *lake, const void *bytes,
                                         size_t len, bool invert, int policy,
                                         int64_t *skipped, int64_t *replaced,
                                         pier__stmt_failure *failure,
                                         pier_error *err);

/* sqlite_query.c */
/* Sets up the reader pool (pier__sqlite_lake_open). */
pier_status pier__sqlite_readers_init(pier__sqlite_lake *l,
                                      int busy_timeout_ms, pier_error *err);
/* Closes the idle readers; every reader must be back (cursors are closed
 * before their engine). */
void pier__sqlite_readers_close(pier__sqlite_lake *l);
pier_status pier__sqlite_reader_open(pier__lake *lake, pier__reader **out,
                                     pier_error *err);
pier_status pier__sqlite_reader_prepare(pier__reader *r,
                                        const pier__query_text *q,
                                        pier__query_shape *shape,
                                        pier_error *err);
pier_status pier__sqlite_reader_bind(pier__reader *r, int i,
                                     const pier__cell *c, pier_error *err);
pier_status pier__sqlite_reader_step(pier__reader *r,
                                     const pier__cell **cells,
                                     pier_error *err);
pier_status pier__sqlite_reader_version(pier__reader *r, bool fresh,
                                        int64_t *version, pier_error *err);
bool pier__sqlite_reader_again(pier__reader *r, uint64_t epoch);
void pier__sqlite_reader_restart(pier__reader *r);
void pier__sqlite_reader_guard(pier__reader *r, pier__guard *g);
void pier__sqlite_reader_close(pier__reader *r);

#endif /* PIER_STORE_SQLITE_INT_H */
