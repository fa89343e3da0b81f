/*
 * sqlite_query.c: board-scoped queries on the SQLite lake: a pool of
 * read-only connections ("readers"), the temporary views that give each
 * board its logical shape, the authorizer that confines a statement to its
 * boards, and a cache of prepared statements on each reader.
 *
 * A reader is checked out by one cursor at a time and used without the
 * engine's lock: WAL lets it read a snapshot while the writer commits.
 * A statement reads one snapshot, from its first step to its last row
 * (SQLite's read transaction in autocommit mode). Whether the catalog the
 * engine compiled it against is that snapshot's is decided after the
 * first step (reader_version): the pager's data version tells, without
 * I/O, that nothing changed since the reader last read the catalog
 * version.
 *
 * Why views rather than inline subqueries: a placeholder becomes
 * temp."_pier_v_<board>", a TEMP VIEW on the reader that selects id,
 * updated_at, state and the user columns (never _v) from
 * main."_pier_b_<board>". SQLite tells the authorizer which view a read
 * comes through (its last argument), so the policy can say "the physical
 * table of an allowed board, read through its view, and no other way"; an
 * inline subquery would make a read of the physical table by name
 * indistinguishable from the expansion. SQLite flattens a view exactly as
 * it flattens a subquery, so indexes (the id key) work the same, and the
 * result's column metadata still names the physical table and column.
 * The schema prefix makes the name immune to a CTE of the same name.
 * A column whose stored order is not its type's (a decimal, a hugeint...)
 * is shown through an expression with a collation (view_column); the
 * origin SQLite then no longer reports is read from a second compile
 * against a meta view of the plain columns (compute_origins).
 *
 * Invariants:
 * - A view record (views[]) means the view exists on the reader with that
 *   definition; without a record the view's state is unknown, so it is
 *   dropped (IF EXISTS) before being created. Creating or dropping a view
 *   changes the reader's schema: every cached statement is finalized then,
 *   because its columns may have changed.
 * - A cached statement passed every check (authorizer, one statement,
 *   read-only) for exactly its key: the template and the boards it may
 *   read, in order (which decide the expanded SQL). The same text with
 *   other boards is another entry.
 * - The authorizer stays installed for the reader's life. It allows
 *   everything only while the reader runs its own statements
 *   (AUTH_INTERNAL); a user statement is prepared, and stepped (SQLite may
 *   re-prepare it after a schema change), under the user policy.
 * - Every prepare takes a new epoch (the reader's number in the high 32
 *   bits, so no two readers of a lake share one) and forgets `last`; a
 *   successful one sets `last` to its statement. While the epoch is the
 *   one a prepare handed out, nothing has changed the policy, the views or
 *   the statement since, so reader_again may make it current as it is.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/sqlite_int.h"

/* Idle readers kept open; more are opened while cursors need them and
 * closed when they come back. Four covers a few threads querying at once
 * without keeping file handles and page caches nobody uses. */
#define READERS_IDLE 4
/* Views kept per reader (a query reads at most PIER__QUERY_MAX_BOARDS, so
 * a full table always has one to evict that the query does not need). */
#define READER_VIEWS 64
/* Prepared statements kept per reader: the hot queries of an application
 * fit; preparing one that fell out costs tens of microseconds. */
#define READER_STMTS 32

#define BOARD_TABLE_PREFIX "_pier_b_"
/* A board whose table is in another file (a PostgreSQL lake's replica of
 * it, pier__sqlite_reader_attach) is attached as "_pier_a_<board>". */
#define ATTACH_PREFIX "_pier_a_"
/* Debian's libsqlite3 attaches at most SQLITE_MAX_ATTACHED (10). */
#define ATTACH_MAX 10
#define VIEW_PREFIX "_pier_v_"
/* A board's full-text index (sqlite_fts.c): "_pier_f_<board>$". */
#define FTS_PREFIX "_pier_f_"
#define FTS_END "$"           /* ends the board's id (sqlite_fts.c) */
#define META_PREFIX "_pier_m_"
#define PREFIX_LEN 8

typedef struct view_rec {
    char board[PIER__NAME_MAX + 1];
    int64_t version;         /* the catalog version it was checked at */
    char *def;               /* the SELECT the view was created with */
    uint64_t used;           /* LRU tick */
} view_rec;                  /* a shaped view's meta view goes with it */

typedef struct stmt_rec {
    char *key;               /* the template, NUL, the boards "a,b,": the
                                expanded SQL follows from them */
    size_t key_len;
    sqlite3_stmt *stmt;
    size_t ncolumns;
    char **names;
    pier__query_origin *origins;
    int64_t origins_version; /* the catalog version origins reflect */
    pier__cell *cells;       /* one row's cells, reused */
    size_t nparams;
    char **params;           /* NULL entries: anonymous "?" */
} stmt_rec;

enum { AUTH_INTERNAL = 0, AUTH_USER = 1 };

typedef struct attached_rec {
    char board[PIER__NAME_MAX + 1];
    uint64_t token;          /* the caller's: which file it is */
} attached_rec;

typedef struct allowed_board {
    char id[PIER__NAME_MAX + 1];
    bool rowid_column;       /* a column of its own is named "ROWID" */
} allowed_board;

/* The fields every query touches come first, so that they share a few
 * cache lines; after them the statement list, then what only compiling
 * a new statement or a view touches. */
struct pier__reader {
    pier__sqlite_lake *lake;
    sqlite3 *db;
    pier__reader *next;          /* in the idle list */
    stmt_rec *current;           /* the statement of the open query;
                                    NULL once its snapshot ended */
    uint64_t epoch;              /* of the latest prepare */
    stmt_rec *last;              /* what it prepared; NULL if it failed */
    int auth_mode;
    bool version_known;          /* the catalog version `version` was
                                    read when the lake file's data version
                                    (SQLITE_FCNTL_DATA_VERSION) was
                                    `data_version` */
    unsigned data_version;
    int64_t version;
    allowed_board *allowed;      /* boards the statement may read */
    size_t nallowed;
    size_t allowed_cap;
    pier__arena bound;           /* the texts and blobs bound to `current`,
                                    emptied when its snapshot ends */
    pier__guard *guard;          /* the limits of `current` until its
                                    snapshot ends; NULL: none */
    int64_t now;                 /* what now() gives in `current`: its
                                    guard's instant; 0: the clock's */
    size_t nviews;
    uint64_t tick;
    size_t nstmts;
    stmt_rec *stmts[READER_STMTS];   /* most recently used first */
    sqlite3_stmt *get_version;   /* the catalog version */
    sqlite3_stmt *table_named;   /* whether a table or view of main or
                                    temp has the name ?1 */
    char ctes[PIER__QUERY_MAX_CTES][PIER__NAME_MAX + 1]; /* the names the
                                    statement's text gives CTEs: no table
                                    of the lake has one (reader_prepare) */
    size_t nctes;
    char fts[PIER__QUERY_MAX_BOARDS][PIER__NAME_MAX + 1]; /* the boards
                                    whose full-text index the statement
                                    names ({{fts}}) */
    size_t nfts;
    char tables[PIER__QUERY_MAX_BOARDS][PIER__NAME_MAX + 1]; /* the
                                    declared tables and views it names
                                    ({{table:NAME}}), as written */
    size_t ntables;
    sqlite3_stmt *object_named;  /* the type of main's table or view
                                    named ?1 (any case) */
    bool colmeta;                /* sqlite3_column_table_name works */
    pier__buf sql;               /* scratch: the expanded SQL */
    size_t *hole_at;             /* where each placeholder landed in it,
                                    and where its text ends: [2i], [2i+1] */
    size_t hole_cap;
    char denied[256];            /* what the authorizer refused first */
    char denied_board[PIER__NAME_MAX + 1];
    attached_rec attached[ATTACH_MAX];  /* boards in other files */
    size_t nattached;
    view_rec views[READER_VIEWS];
};

/*
 * Whether an SQLITE_NOMEM is FTS5's rather than the heap's: the FTS5 of
 * SQLite 3.40 reports one for snippet() of a column the index does not
 * have, on a row no MATCH selected (it asks for 0 bytes and takes the
 * NULL for a failure). A statement that reads an index and still can
 * allocate was failed that way: its caller gets ReadFailed, not
 * OutOfMemory, which would have it retry or give up for nothing.
 */
static bool fts_nomem(const pier__reader *r)
{
    if (r->nfts == 0)
        return false;
    void *p = sqlite3_malloc(4096);
    sqlite3_free(p);
    return p != NULL;
}

static pier_status reader_fail(pier__reader *r, pier_error *err,
                               pier_status status, const char *what)
{
    int code = sqlite3_extended_errcode(r->db);
    /* A limit of the query, or an interruption, stopped it. */
    pier_status limit = pier__sqlite_guard_fail(r->guard, code, err);
    if (limit != PIER_OK)
        return limit;
    if ((code & 0xff) == SQLITE_NOMEM && !fts_nomem(r))
        return pier__oom(err);
    if ((code & 0xff) == SQLITE_NOMEM) {
        pier__fail(err, status, "%s: FTS5 failed it as out of memory, "
                   "which it does for snippet() of a column the index "
                   "does not have", what);
        if (err != NULL)
            err->backend_code = code;
        return status;
    }
    pier__fail(err, status, "%s: %s", what, sqlite3_errmsg(r->db));
    if (err != NULL)
        err->backend_code = code;
    return status;
}

/* ---- the authorizer ---- */

/*
 * Functions a query may call: SQLite's built-ins without side effects
 * (scalar, aggregate, window, date and time, math, JSON), the SQL
 * dialect's exact decimal and temporal functions, now() and the UUID
 * makers (sum and avg are its overloads too), _pier_hugeint_text,
 * which the views call (a template cannot name it: names starting with
 * _pier_ are refused before SQLite sees them), and the exact operators
 * the front-end writes for boards with exact columns (_pxe, _pxc, _pxsum,
 * _pxavg, _pxtotal) and for CAST to the dialect's types (_pcs); all
 * harmless called by hand.
 * Anything else is refused: load_extension, the connection's own state
 * (changes(), last_insert_rowid()), sqlite_*() (sqlite_log writes to the
 * error log), and whatever an application or a later SQLite might add.
 * Sorted for bsearch.
 */
static const char *const allowed_functions[] = {
    "->", "->>", "_pcs", "_pier_hugeint_text", "_pxavg", "_pxc", "_pxe",
    "_pxsum", "_pxtotal", "abs", "acos", "acosh", "age", "asin", "asinh",
    "atan", "atan2", "atanh", "avg", "bm25", "ceil", "ceiling", "char",
    "coalesce", "concat", "concat_ws", "cos", "cosh", "count", "cume_dist",
    "current_date", "current_time", "current_timestamp", "date", "date_add",
    "date_diff", "date_part", "date_sub", "date_trunc", "datetime", "decimal",
    "decimal_add", "decimal_div", "decimal_mul", "decimal_round",
    "decimal_sub", "degrees", "dense_rank", "exp", "extract", "first_value",
    "floor", "format", "glob", "group_concat", "hex", "highlight", "if",
    "ifnull", "iif", "instr", "interval_mul", "json", "json_array",
    "json_array_length", "json_error_position", "json_extract",
    "json_group_array", "json_group_object", "json_insert", "json_object",
    "json_patch", "json_pretty", "json_quote", "json_remove", "json_replace",
    "json_set", "json_type", "json_valid", "julianday", "lag", "last_value",
    "lead", "length", "like", "likelihood", "likely", "ln", "log", "log10",
    "log2", "lower", "ltrim", "make_interval", "match", "max", "min", "mod",
    "now", "nth_value", "ntile", "nullif", "octet_length", "percent_rank",
    "pi", "pow", "power", "printf", "quote", "radians", "random", "randomblob",
    "rank", "replace", "round", "row_number", "rtrim", "sign", "sin", "sinh",
    "snippet", "soundex", "sqrt", "strftime", "string_agg", "substr",
    "substring", "sum", "tan", "tanh", "time", "timediff", "total", "trim",
    "trunc", "typeof", "unhex", "unicode", "unixepoch", "unlikely", "upper",
    "uuid_v4", "uuid_v7", "zeroblob",
};

static int cmp_name(const void *key, const void *elem)
{
    return strcmp(key, *(const char *const *)elem);
}

static bool function_allowed(const char *name)
{
    if (name == NULL)
        return false;
    /* Function names are case-insensitive; the table is lower case. */
    char lower[32];
    size_t n = strlen(name);
    if (n >= sizeof lower)
        return false;
    for (size_t i = 0; i <= n; i++)
        lower[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32
                                                           : name[i]);
    return bsearch(lower, allowed_functions,
                   sizeof allowed_functions / sizeof *allowed_functions,
                   sizeof *allowed_functions, cmp_name) != NULL;
}

static const allowed_board *board_allowed(const pier__reader *r,
                                          const char *id)
{
    for (size_t i = 0; i < r->nallowed; i++)
        if (strcmp(r->allowed[i].id, id) == 0)
            return &r->allowed[i];
    return NULL;
}

/* Whether a column read is one of the board's own columns: never the
 * version stamp _v, nor the physical rowid (SQLite names it "ROWID" to the
 * authorizer, however the statement spelled it, unless a column of that
 * name stands in for it). An empty name reads no column. */
static bool column_visible(const allowed_board *b, const char *column)
{
    if (column == NULL)
        return true;
    if (strcmp(column, "ROWID") == 0)
        return b->rowid_column;
    return !pier__name_eq(column, strlen(column), "_v", 2);
}

static bool is_main(const char *db)
{
    return db == NULL || strcmp(db, "main") == 0;
}

/* Whether `rest` (a table's name after FTS_PREFIX) is the full-text index
 * of a board the statement names as {{fts}}, or one of the tables FTS5
 * keeps that index in. FTS5 reads those itself, through statements of its
 * own that the authorizer sees as the query's; the template cannot name
 * them (the scan refuses every _pier_ name), and they hold nothing but
 * the indexed text of a board the query may read anyway. */
static bool fts_allowed(const pier__reader *r, const char *rest)
{
    static const char *const shadows[] = { "", "_data", "_idx", "_content",
                                           "_docsize", "_config" };
    for (size_t i = 0; i < r->nfts; i++) {
        size_t n = strlen(r->fts[i]);
        if (strncmp(rest, r->fts[i], n) != 0 || rest[n] != FTS_END[0])
            continue;
        for (size_t k = 0; k < sizeof shadows / sizeof *shadows; k++)
            if (strcmp(rest + n + 1, shadows[k]) == 0)
                return true;
    }
    return false;
}

/* Whether `name` is a declared table or view the statement names as
 * {{table:NAME}}. */
static bool table_allowed(const pier__reader *r, const char *name)
{
    if (name == NULL)
        return false;
    size_t n = strlen(name);
    for (size_t i = 0; i < r->ntables; i++)
        if (strlen(r->tables[i]) == n &&
            pier__name_eq(r->tables[i], n, name, n))
            return true;
    return false;
}

/* The engine's names and SQLite's: never a declared table's. */
static bool engine_name(const char *name)
{
    size_t n = strlen(name);
    return (n >= 6 && pier__name_eq(name, 6, "_pier_", 6)) ||
           (n >= 7 && pier__name_eq(name, 7, "sqlite_", 7));
}

/* Whether board `id` is attached to the reader. */
static const attached_rec *attached_board(const pier__reader *r,
                                          const char *id)
{
    for (size_t i = 0; i < r->nattached; i++)
        if (strcmp(r->attached[i].board, id) == 0)
            return &r->attached[i];
    return NULL;
}

/* Whether `db` is where board `id`'s table is: main, or its attachment. */
static bool board_db(const pier__reader *r, const char *db, const char *id)
{
    if (attached_board(r, id) == NULL)
        return is_main(db);
    return db != NULL && strncmp(db, ATTACH_PREFIX, PREFIX_LEN) == 0 &&
           strcmp(db + PREFIX_LEN, id) == 0;
}

/* The schema holding board `id`'s table, as SQL: main or its
 * attachment. */
static void board_schema(pier__buf *b, const pier__reader *r,
                         const char *id)
{
    if (attached_board(r, id) != NULL)
        pier__buf_printf(b, "\"" ATTACH_PREFIX "%s\".", id);
    else
        pier__buf_puts(b, "main.");
}

/*
 * A read is allowed when it is
 * - the rows of a CTE of the statement's own (below);
 * - a visible column of an allowed board's view (temp."_pier_v_<board>");
 * - a visible column of an allowed board's table (main."_pier_b_<board>")
 *   read through that board's view (a CTE named like the view passes this
 *   test too, which is why visibility stands on its own), or no column of
 *   it at all: once SQLite has flattened the view into the statement, it
 *   checks a table whose columns it does not use (count(*)) with an empty
 *   column name and no view;
 * - a column of json_each or json_tree, which read only their arguments.
 */
static bool read_allowed(const pier__reader *r, const char *table,
                         const char *column, const char *db,
                         const char *via)
{
    if (table == NULL)
        return false;
    /* A CTE SQLite did not flatten, read for its rows' count: named in no
     * schema and with no column. No table of the lake has its name
     * (reader_prepare), so this name means the CTE wherever it stands. */
    if (db == NULL && (column == NULL || column[0] == '\0'))
        for (size_t i = 0; i < r->nctes; i++)
            if (pier__name_eq(r->ctes[i], strlen(r->ctes[i]), table,
                              strlen(table)))
                return true;
    if (db != NULL && strcmp(db, "temp") == 0 &&
        strncmp(table, VIEW_PREFIX, PREFIX_LEN) == 0) {
        const allowed_board *b = board_allowed(r, table + PREFIX_LEN);
        return b != NULL && column_visible(b, column);
    }
    if (strncmp(table, BOARD_TABLE_PREFIX, PREFIX_LEN) == 0) {
        const char *id = table + PREFIX_LEN;
        if (!board_db(r, db, id))
            return false;
        const allowed_board *b = board_allowed(r, id);
        if (b == NULL)
            return false;
        if (column == NULL || column[0] == '\0')
            return true;
        return via != NULL && strncmp(via, VIEW_PREFIX, PREFIX_LEN) == 0 &&
               strcmp(via + PREFIX_LEN, id) == 0 && column_visible(b, column);
    }
    if (is_main(db) && strncmp(table, FTS_PREFIX, PREFIX_LEN) == 0)
        return fts_allowed(r, table + PREFIX_LEN);
    /* A declared table or view the template names: any column of it;
     * through such a view, what the view reads (never the engine's). A
     * view read through another view is named by the inner one: refused
     * unless that one is named too. */
    if (is_main(db) && !engine_name(table) &&
        (table_allowed(r, table) || table_allowed(r, via)))
        return true;
    return is_main(db) && (strcmp(table, "json_each") == 0 ||
                           strcmp(table, "json_tree") == 0);
}

/* Refuses, keeping the first refusal's reason: before, what, after. */
static int deny(pier__reader *r, const char *before, const char *what,
                const char *after)
{
    if (r->denied[0] == '\0')
        snprintf(r->denied, sizeof r->denied, "%s%s%s", before,
                 what != NULL ? what : "", after);
    return SQLITE_DENY;
}

static int authorize(void *payload, int action, const char *a,
                     const char *b, const char *db, const char *via)
{
    pier__reader *r = payload;
    if (r->auth_mode == AUTH_INTERNAL)
        return SQLITE_OK;
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_READ:
        if (read_allowed(r, a, b, db, via))
            return SQLITE_OK;
        if (a != NULL && strncmp(a, BOARD_TABLE_PREFIX, PREFIX_LEN) == 0 &&
            r->denied[0] == '\0')
            pier__copy_field(r->denied_board, sizeof r->denied_board,
                             a + PREFIX_LEN);
        return deny(r, "a query reads only its boards ({{board}} and the "
                    "{{board:NAME}} its options name), not '", a, "'");
    case SQLITE_FUNCTION:
        if (function_allowed(b))
            return SQLITE_OK;
        return deny(r, "a query may not call ", b, "()");
    case SQLITE_PRAGMA:
        /* FTS5 reads the data version to know when its cached structure
         * is stale: a number, read-only. */
        if (r->nfts > 0 && a != NULL && strcmp(a, "data_version") == 0 &&
            b == NULL)
            return SQLITE_OK;
        return deny(r, "a query may not run PRAGMA ", a, "");
    case SQLITE_ATTACH:
    case SQLITE_DETACH:
        return deny(r, "a query may not attach or detach databases", "",
                    "");
    case SQLITE_INSERT:
    case SQLITE_UPDATE:
    case SQLITE_DELETE:
        /* Opening a virtual table for the first time on a connection
         * checks an update of the schema table: json_each and json_tree
         * were opened when the reader was (reader_new); others are not
         * for queries. */
        if (a != NULL && (strcmp(a, "sqlite_master") == 0 ||
                          strcmp(a, "sqlite_temp_master") == 0))
            return deny(r, "a query may not change the schema, nor open "
                        "virtual tables but json_each and json_tree", "",
                        "");
        return deny(r, "a query may not write ('", a, "')");
    case SQLITE_TRANSACTION:
    case SQLITE_SAVEPOINT:
        return deny(r, "a query may not begin or end transactions", "", "");
    default:
        return deny(r, "a query may not change the schema or the database",
                    "", "");
    }
}

/* ---- readers: opening, snapshots, the pool ---- */

static void view_forget(view_rec *v)
{
    free(v->def);
    memset(v, 0, sizeof *v);
}

static void stmt_free(stmt_rec *s)
{
    if (s == NULL)
        return;
    sqlite3_finalize(s->stmt);
    for (size_t i = 0; s->names != NULL && i < s->ncolumns; i++)
        free(s->names[i]);
    for (size_t i = 0; s->params != NULL && i < s->nparams; i++)
        free(s->params[i]);
    free(s->names);
    free(s->params);
    free(s->origins);
    free(s->cells);
    free(s->key);
    free(s);
}

static void forget_statements(pier__reader *r)
{
    for (size_t i = 0; i < r->nstmts; i++)
        stmt_free(r->stmts[i]);
    r->nstmts = 0;
    r->current = NULL;
    r->last = NULL;
}

static void reader_free(pier__reader *r)
{
    if (r == NULL)
        return;
    forget_statements(r);
    for (size_t i = 0; i < r->nviews; i++)
        view_forget(&r->views[i]);
    sqlite3_finalize(r->get_version);
    sqlite3_finalize(r->table_named);
    sqlite3_finalize(r->object_named);
    sqlite3_close(r->db);
    free(r->allowed);
    free(r->hole_at);
    pier__buf_free(&r->sql);
    pier__arena_free(&r->bound);
    free(r);
}

static pier_status reader_stmt(pier__reader *r, const char *sql,
                               sqlite3_stmt **out, pier_error *err)
{
    if (sqlite3_prepare_v3(r->db, sql, -1, SQLITE_PREPARE_PERSISTENT, out,
                           NULL) != SQLITE_OK)
        return reader_fail(r, err, PIER_E_READ_FAILED,
                           "cannot prepare a reader's statements");
    return PIER_OK;
}

/* Opens a read-only connection, locked down: no extension loading, no
 * attached databases, defensive, untrusted schema, double-quoted strings
 * refused (a double-quoted name is always an identifier), and the
 * authorizer installed before the first user statement. */
static pier_status reader_new(pier__sqlite_lake *l, uint64_t number,
                              pier__reader **out, pier_error *err)
{
    pier__reader *r = calloc(1, sizeof *r);
    if (r == NULL)
        return pier__oom(err);
    r->lake = l;
    r->epoch = number << 32;
    pier__buf_init(&r->sql);
    pier__arena_init(&r->bound);
    pier_status rc = PIER_OK;
    if (sqlite3_open_v2(l->open_name, &r->db,
                        SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX |
                            l->open_flags,
                        NULL) != SQLITE_OK) {
        rc = r->db == NULL ? pier__oom(err)
                           : reader_fail(r, err, PIER_E_READ_FAILED,
                                         "cannot open a reader");
        goto done;
    }
    sqlite3_busy_timeout(r->db, l->busy_timeout_ms);
    sqlite3_extended_result_codes(r->db, 1);
    static const int off[] = { SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION,
                               SQLITE_DBCONFIG_TRUSTED_SCHEMA,
                               SQLITE_DBCONFIG_DQS_DML,
                               SQLITE_DBCONFIG_DQS_DDL };
    for (size_t i = 0; i < sizeof off / sizeof *off; i++)
        if (sqlite3_db_config(r->db, off[i], 0, (int *)NULL) != SQLITE_OK)
            rc = PIER_E_READ_FAILED;
    if (sqlite3_db_config(r->db, SQLITE_DBCONFIG_DEFENSIVE, 1,
                          (int *)NULL) != SQLITE_OK)
        rc = PIER_E_READ_FAILED;
    if (rc != PIER_OK) {
        rc = reader_fail(r, err, PIER_E_READ_FAILED,
                         "cannot configure a reader");
        goto done;
    }
    /* The dialect's collations (the views order by them), its decimal
     * and temporal functions and sum/avg overloads, as the writer has
     * them. */
    int drc = pier__sqlite_register_dialect(r->db, NULL, &r->now,
                                                 NULL);
    if (drc != SQLITE_OK) {
        rc = drc == SQLITE_NOMEM ? pier__oom(err)
                                 : reader_fail(r, err, PIER_E_READ_FAILED,
                                               "cannot configure a reader");
        goto done;
    }
    sqlite3_limit(r->db, SQLITE_LIMIT_ATTACHED, 0);
    /* The query's limits (sqlite_guard.c), checked while it runs. */
    sqlite3_progress_handler(r->db, PIER__GUARD_STEPS,
                             pier__sqlite_guard_progress, &r->guard);
    /* temp_store stays at SQLite's default: the views are tiny, and a
     * large sort or GROUP BY must be free to spill to a temporary file
     * instead of growing the heap (bench_query measured +62 MB and a
     * sort 40% slower with temp_store = MEMORY). */
    r->colmeta = sqlite3_compileoption_used("ENABLE_COLUMN_METADATA") == 1;
    r->auth_mode = AUTH_INTERNAL;
    sqlite3_set_authorizer(r->db, authorize, r);
    /* Open the table-valued functions queries may use now, while the
     * authorizer lets the reader do anything: SQLite keeps them for the
     * connection's life, and opening one later would need the schema
     * update the user policy refuses. */
    sqlite3_stmt *vt = NULL;
    if (sqlite3_prepare_v2(r->db, "SELECT * FROM json_each('[]'), "
                           "json_tree('[]')", -1, &vt, NULL) != SQLITE_OK) {
        rc = reader_fail(r, err, PIER_E_READ_FAILED,
                         "cannot configure a reader");
        goto done;
    }
    sqlite3_finalize(vt);
    rc = reader_stmt(r, "SELECT value FROM main._pier_meta "
                     "WHERE key = 'catalog_version'", &r->get_version, err);
done:
    if (rc != PIER_OK) {
        reader_free(r);
        return rc;
    }
    *out = r;
    return PIER_OK;
}

/* Steps one of the reader's own statements (under no policy) to its
 * first row; *out is its first column. */
static pier_status step_one(pier__reader *r, sqlite3_stmt *st,
                            int64_t *out, pier_error *err)
{
    int mode = r->auth_mode;
    r->auth_mode = AUTH_INTERNAL;
    int rc = pier__sqlite_step_own(st);
    if (rc == SQLITE_ROW && out != NULL)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    r->auth_mode = mode;
    if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        return PIER_OK;
    return reader_fail(r, err, PIER_E_READ_FAILED,
                       "cannot read the lake for a query");
}

/* Ends the statement's snapshot: resetting it ends SQLite's read
 * transaction. Nothing else is ever left open (no statement of the reader
 * runs in an explicit transaction). The statement is done with: a query
 * that reached its end is not reset again when its cursor closes. */
static void snapshot_end(pier__reader *r)
{
    if (r->current != NULL) {
        sqlite3_reset(r->current->stmt);
        sqlite3_clear_bindings(r->current->stmt);
        r->current = NULL;
    }
    pier__arena_reset(&r->bound);  /* nothing is bound to them now */
    r->auth_mode = AUTH_INTERNAL;
    if (r->guard != NULL)
        pier__sqlite_guard_attach(r->db, &r->guard, NULL);
    assert(sqlite3_get_autocommit(r->db));
}

pier_status pier__sqlite_reader_version(pier__reader *r, bool fresh,
                                        int64_t *version, pier_error *err)
{
    /* The pager's data version changes whenever any connection changed
     * the file between two of this reader's transactions: if it is what
     * it was when the reader last read the catalog version, the latest
     * transaction (the statement's, when it read the lake) saw that
     * version. */
    unsigned dv = 0;
    /* A NULL schema name is "main" without the name lookup. */
    if (!fresh && r->version_known &&
        sqlite3_file_control(r->db, NULL, SQLITE_FCNTL_DATA_VERSION,
                             &dv) == SQLITE_OK &&
        dv == r->data_version) {
        *version = r->version;
        return PIER_OK;
    }
    *version = -1;
    pier_status rc = step_one(r, r->get_version, version, err);
    if (rc != PIER_OK)
        return rc;
    r->version_known = sqlite3_file_control(r->db, NULL,
                                            SQLITE_FCNTL_DATA_VERSION,
                                            &r->data_version) == SQLITE_OK;
    r->version = *version;
    return PIER_OK;
}

void pier__sqlite_reader_restart(pier__reader *r)
{
    snapshot_end(r);
}

void pier__sqlite_reader_guard(pier__reader *r, pier__guard *g)
{
    r->now = g != NULL ? g->now_us : 0;
    pier__sqlite_guard_attach(r->db, &r->guard, g);
}

pier_status pier__sqlite_readers_init(pier__sqlite_lake *l,
                                      int busy_timeout_ms, pier_error *err)
{
    if (pthread_mutex_init(&l->readers_lock, NULL) != 0)
        return pier__oom(err);
    l->readers_lock_init = true;
    l->busy_timeout_ms = busy_timeout_ms;
    return PIER_OK;
}

void pier__sqlite_readers_close(pier__sqlite_lake *l)
{
    if (!l->readers_lock_init)
        return;
    /* A cursor still open would use a connection closed under it. */
    assert(l->nreaders_busy == 0 && "cursors must be closed before the "
                                    "engine");
    while (l->readers_idle != NULL) {
        pier__reader *r = l->readers_idle;
        l->readers_idle = r->next;
        reader_free(r);
    }
    l->nreaders_idle = 0;
    pthread_mutex_destroy(&l->readers_lock);
    l->readers_lock_init = false;
}

pier_status pier__sqlite_reader_open(pier__lake *lake, pier__reader **out,
                                     pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    *out = NULL;
    pthread_mutex_lock(&l->readers_lock);
    pier__reader *r = l->readers_idle;
    if (r != NULL) {
        l->readers_idle = r->next;
        l->nreaders_idle--;
    }
    l->nreaders_busy++;
    uint64_t number = ++l->readers_made;
    pthread_mutex_unlock(&l->readers_lock);
    pier_status rc = PIER_OK;
    if (r != NULL)
        r->next = NULL;
    else
        rc = reader_new(l, number, &r, err);
    if (rc != PIER_OK) {
        pthread_mutex_lock(&l->readers_lock);
        l->nreaders_busy--;
        pthread_mutex_unlock(&l->readers_lock);
        return rc;
    }
    *out = r;
    return PIER_OK;
}

/* Forgets the view record of board `id`: its view is made again at its
 * next use (its table moved between main and an attachment). */
static void view_forget_board(pier__reader *r, const char *id)
{
    for (size_t i = 0; i < r->nviews; i++)
        if (strcmp(r->views[i].board, id) == 0)
            view_forget(&r->views[i]);
}

/* Detaches r->attached[i]. */
static pier_status detach_at(pier__reader *r, size_t i, pier_error *err)
{
    char sql[PIER__NAME_MAX + 40];
    snprintf(sql, sizeof sql, "DETACH DATABASE \"" ATTACH_PREFIX "%s\"",
             r->attached[i].board);
    view_forget_board(r, r->attached[i].board);
    r->attached[i] = r->attached[--r->nattached];
    r->auth_mode = AUTH_INTERNAL;
    if (sqlite3_exec(r->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return reader_fail(r, err, PIER_E_READ_FAILED,
                           "cannot detach a board's replica");
    return PIER_OK;
}

pier_status pier__sqlite_reader_attach(pier__reader *r,
                                       const char *const *boards,
                                       const char *const *paths,
                                       const uint64_t *tokens, size_t n,
                                       pier_error *err)
{
    if (n > ATTACH_MAX)
        return pier__fail(err, PIER_E_LIMIT_EXCEEDED, "a query on a "
                          "PostgreSQL lake reads at most %d boards besides "
                          "its own (it names %zu)", ATTACH_MAX, n);
    snapshot_end(r);
    bool changed = false;
    pier_status rc = PIER_OK;
    for (size_t i = r->nattached; rc == PIER_OK && i-- > 0;) {
        bool wanted = false;
        for (size_t k = 0; k < n && !wanted; k++)
            wanted = strcmp(boards[k], r->attached[i].board) == 0 &&
                     tokens[k] == r->attached[i].token;
        if (!wanted) {
            rc = detach_at(r, i, err);
            changed = true;
        }
    }
    for (size_t k = 0; rc == PIER_OK && k < n; k++) {
        if (attached_board(r, boards[k]) != NULL)
            continue;
        char name[PIER__NAME_MAX + 16];
        snprintf(name, sizeof name, ATTACH_PREFIX "%s", boards[k]);
        sqlite3_stmt *st = NULL;
        r->auth_mode = AUTH_INTERNAL;
        sqlite3_limit(r->db, SQLITE_LIMIT_ATTACHED, ATTACH_MAX);
        int src = sqlite3_prepare_v2(r->db, "ATTACH DATABASE ?1 AS ?2", -1,
                                     &st, NULL);
        if (src == SQLITE_OK)
            src = sqlite3_bind_text(st, 1, paths[k], -1, SQLITE_STATIC);
        if (src == SQLITE_OK)
            src = sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
        if (src == SQLITE_OK)
            src = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
        if (src != SQLITE_OK)
            rc = reader_fail(r, err, PIER_E_READ_FAILED,
                             "cannot attach a board's replica");
        sqlite3_finalize(st);
        /* (queries attach nothing: the authorizer says so too) */
        sqlite3_limit(r->db, SQLITE_LIMIT_ATTACHED, 0);
        if (rc != PIER_OK)
            break;
        attached_rec *a = &r->attached[r->nattached++];
        pier__copy_field(a->board, sizeof a->board, boards[k]);
        a->token = tokens[k];
        view_forget_board(r, boards[k]);
        changed = true;
    }
    /* (statements compiled against the old attachments) */
    if (changed)
        forget_statements(r);
    return rc;
}

void pier__sqlite_reader_close(pier__reader *r)
{
    if (r == NULL)
        return;
    snapshot_end(r);
    if (r->nattached > 0) {
        /* (a reader back in the pool holds no other file open) */
        pier_error ignored;
        pier__sqlite_reader_attach(r, NULL, NULL, NULL, 0, &ignored);
    }
    pier__sqlite_lake *l = r->lake;
    bool keep = false;
    pthread_mutex_lock(&l->readers_lock);
    l->nreaders_busy--;
    if (l->nreaders_idle < READERS_IDLE) {
        r->next = l->readers_idle;
        l->readers_idle = r;
        l->nreaders_idle++;
        keep = true;
    }
    pthread_mutex_unlock(&l->readers_lock);
    if (!keep)
        reader_free(r);
}

/* ---- views ---- */

static pier_status view_exec(pier__reader *r, const char *sql,
                             pier_error *err)
{
    r->auth_mode = AUTH_INTERNAL;
    if (sqlite3_exec(r->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return reader_fail(r, err, PIER_E_READ_FAILED,
                           "cannot set up a board's view");
    return PIER_OK;
}

/* A slot for a new view record: a free one, or the least recently used
 * one whose board the query does not read (its view is dropped). */
static pier_status view_slot(pier__reader *r, view_rec **out,
                             pier_error *err)
{
    if (r->nviews < READER_VIEWS) {
        *out = &r->views[r->nviews++];
        return PIER_OK;
    }
    view_rec *victim = NULL;
    for (size_t i = 0; i < r->nviews; i++)
        if (!board_allowed(r, r->views[i].board) &&
            (victim == NULL || r->views[i].used < victim->used))
            victim = &r->views[i];
    assert(victim != NULL);
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_printf(&sql, "DROP VIEW IF EXISTS temp.\"" VIEW_PREFIX "%s\";"
                     " DROP VIEW IF EXISTS temp.\"" META_PREFIX "%s\"",
                     victim->board, victim->board);
    pier_status rc = sql.oom ? pier__oom(err) : view_exec(r, sql.p, err);
    pier__buf_free(&sql);
    forget_statements(r);
    view_forget(victim);
    if (rc == PIER_OK)
        *out = victim;
    return rc;
}

/*
 * A column as its view shows it: as stored, or, where SQLite's own order
 * of the stored values is not the type's, through the expression that
 * makes SQLite compare them by value:
 *   decimal, uint64   CAST(c AS TEXT) COLLATE pier_numeric: by value,
 *                     and with TEXT affinity, so that `price = 12.5` and
 *                     `n > 10` compare a number with the text as numbers
 *   hugeint           CAST(_pier_hugeint_text(c) AS TEXT) COLLATE
 *                     pier_numeric: its cells are INTEGER up to 64 bits
 *                     and 16-byte BLOBs beyond, which SQLite orders by
 *                     storage class first (every BLOB after every
 *                     INTEGER); as digits they order by value
 *   uuid, time, datetime, interval
 *                     c COLLATE pier_uuid (pier_time...)
 * The collation of a view's column is the outer query's for `=`, `<`,
 * ORDER BY, MIN/MAX, GROUP BY and DISTINCT (SQLite keeps it when it
 * flattens the view; test_board_types proves each). Returns whether the column
 * is shaped so: such a column has no origin in SQLite's column metadata,
 * which is then read from the board's meta view (compute_origins).
 */
/* The collation a board column's view needs: its type's, but none for
 * arrays, which a board stores compact (a declared table stores them as
 * written, and compares them white space aside). */
static const char *board_collation(const pier__coltype *t)
{
    return t != NULL && t->t.dims == 0 ? pier__coltype_collation(t) : NULL;
}

static bool view_column(pier__buf *def, const pier__column *c)
{
    const pier__coltype *t = pier__type_sql(c->type);
    const char *coll = board_collation(t);
    bool huge = t == NULL && c->type.kind == PIER_KIND_HUGEINT;
    if (coll == NULL && !huge) {
        pier__sql_ident(def, c->name);
        return false;
    }
    if (huge)
        coll = "pier_numeric";
    bool numeric = strcmp(coll, "pier_numeric") == 0;
    if (numeric)
        pier__buf_puts(def, "CAST(");
    if (huge)
        pier__buf_puts(def, "_pier_hugeint_text(");
    pier__sql_ident(def, c->name);
    if (huge)
        pier__buf_putc(def, ')');
    if (numeric)
        pier__buf_puts(def, " AS TEXT)");
    pier__buf_printf(def, " COLLATE %s AS ", coll);
    pier__sql_ident(def, c->name);
    return true;
}

/* Whether board `b`'s view shapes a column (and has a meta view). */
static bool board_shaped(const pier__board *b)
{
    for (size_t c = PIER__BASE_COLUMNS; c < b->ncolumns; c++) {
        const pier__coltype *t = pier__type_sql(b->columns[c].type);
        if (t != NULL ? board_collation(t) != NULL
                      : b->columns[c].type.kind == PIER_KIND_HUGEINT)
            return true;
    }
    return false;
}

/*
 * Makes the reader's view of board `b` select exactly its current
 * columns, shaped (view_column); a board with shaped columns also gets a
 * meta view, temp."_pier_m_<board>", selecting them as stored, which no
 * query runs: compiling a query against it tells where each result
 * column comes from.
 */
static pier_status ensure_view(pier__reader *r, const pier__board *b,
                               int64_t version, pier_error *err)
{
    view_rec *v = NULL;
    for (size_t i = 0; i < r->nviews && v == NULL; i++)
        if (strcmp(r->views[i].board, b->id) == 0)
            v = &r->views[i];
    if (v != NULL && v->version == version) {
        v->used = ++r->tick;
        return PIER_OK;
    }
    pier__buf def;
    pier__buf_init(&def);
    pier__buf_puts(&def, "SELECT ");
    bool shaped = false;
    for (size_t c = 0; c < b->ncolumns; c++) {
        if (c > 0)
            pier__buf_puts(&def, ", ");
        shaped |= view_column(&def, &b->columns[c]);
    }
    pier__buf_puts(&def, " FROM ");
    board_schema(&def, r, b->id);
    pier__sql_board_table(&def, b->id);
    if (def.oom) {
        pier__buf_free(&def);
        return pier__oom(err);
    }
    if (v != NULL && strcmp(v->def, def.p) == 0) {
        v->version = version;
        v->used = ++r->tick;
        pier__buf_free(&def);
        return PIER_OK;
    }
    pier_status rc = PIER_OK;
    if (v != NULL)
        view_forget(v);            /* unknown state from here on */
    else
        rc = view_slot(r, &v, err);
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_printf(&sql, "DROP VIEW IF EXISTS temp.\"" VIEW_PREFIX "%s\";"
                     " DROP VIEW IF EXISTS temp.\"" META_PREFIX "%s\";"
                     " CREATE TEMP VIEW \"" VIEW_PREFIX "%s\" AS %s", b->id,
                     b->id, b->id, def.p);
    if (shaped) {
        pier__buf_printf(&sql, "; CREATE TEMP VIEW \"" META_PREFIX "%s\" AS "
                         "SELECT ", b->id);
        for (size_t c = 0; c < b->ncolumns; c++) {
            if (c > 0)
                pier__buf_puts(&sql, ", ");
            pier__sql_ident(&sql, b->columns[c].name);
        }
        pier__buf_puts(&sql, " FROM ");
        board_schema(&sql, r, b->id);
        pier__sql_board_table(&sql, b->id);
    }
    if (rc == PIER_OK)
        rc = sql.oom ? pier__oom(err) : view_exec(r, sql.p, err);
    pier__buf_free(&sql);
    /* The reader's schema changed: statements may now mean other
     * columns. */
    forget_statements(r);
    if (rc != PIER_OK) {
        if (v != NULL)
            view_forget(v);
        pier__buf_free(&def);
        return rc;
    }
    pier__copy_field(v->board, sizeof v->board, b->id);
    v->def = pier__buf_detach(&def);
    v->version = version;
    v->used = ++r->tick;
    return PIER_OK;
}

/* ---- statements ---- */

/* The length of a query's key in the statement cache, as stmt_rec.key
 * lays it out. No hash: the most recently used statement is compared
 * first, and keys of another length are passed over without reading
 * them. */
static size_t key_length(const pier__query_text *q)
{
    size_t len = q->len + 1;
    for (size_t i = 0; i < q->nboards; i++)
        len += strlen(q->boards[i]->id) + 1;
    return len;
}

static bool key_matches(const stmt_rec *s, const pier__query_text *q)
{
    if (memcmp(s->key, q->sql, q->len) != 0 || s->key[q->len] != '\0')
        return false;
    const char *p = s->key + q->len + 1;
    for (size_t i = 0; i < q->nboards; i++) {
        size_t n = strlen(q->boards[i]->id);
        if (memcmp(p, q->boards[i]->id, n) != 0 || p[n] != ',')
            return false;
        p += n + 1;
    }
    return true;
}

static char *key_make(const pier__query_text *q, size_t len)
{
    char *key = malloc(len);
    if (key == NULL)
        return NULL;
    memcpy(key, q->sql, q->len);
    char *p = key + q->len;
    *p++ = '\0';
    for (size_t i = 0; i < q->nboards; i++) {
        size_t n = strlen(q->boards[i]->id);
        memcpy(p, q->boards[i]->id, n);
        p[n] = ',';
        p += n + 1;
    }
    return key;
}

/* Writes the expanded SQL into r->sql, each placeholder naming its
 * board's view, or for `meta` the meta view of a board that has one
 * (their prefixes are both PREFIX_LEN long). */
static pier_status expand(pier__reader *r, const pier__query_text *q,
                          bool meta, size_t *sql_len, pier_error *err)
{
    if (q->nholes > r->hole_cap) {
        size_t *p = realloc(r->hole_at, 2 * q->nholes * sizeof *p);
        if (p == NULL)
            return pier__oom(err);
        r->hole_at = p;
        r->hole_cap = q->nholes;
    }
    pier__buf *b = &r->sql;
    pier__buf_reset(b);
    size_t at = 0;
    for (size_t i = 0; i < q->nholes; i++) {
        const pier__placeholder *h = &q->holes[i];
        pier__buf_append(b, q->sql + at, h->offset - at);
        r->hole_at[2 * i] = b->len;
        /* Spaces keep the name a token of its own, whatever touches the
         * placeholder. */
        if (h->kind == PIER__HOLE_FTS) {
            /* Unqualified: the name is also the index's own column, which
             * MATCH, bm25() and snippet() take; no temp object and no CTE
             * can have a _pier_ name. */
            pier__buf_printf(b, " \"" FTS_PREFIX "%s" FTS_END "\" ",
                             q->boards[h->board]->id);
        } else if (h->kind == PIER__HOLE_TABLE) {
            /* The name as the template writes it, "{{table:" and "}}"
             * taken off, in main: no CTE can stand for it. */
            pier__buf_puts(b, " main.\"");
            for (size_t k = h->offset + 8; k < h->offset + h->len - 2; k++) {
                if (q->sql[k] == '"')
                    pier__buf_putc(b, '"');
                pier__buf_putc(b, q->sql[k]);
            }
            pier__buf_puts(b, "\" ");
        } else {
            const pier__board *board = q->boards[h->board];
            pier__buf_puts(b, " temp.\"");
            pier__buf_puts(b, meta && board_shaped(board) ? META_PREFIX
                                                          : VIEW_PREFIX);
            pier__buf_puts(b, board->id);
            pier__buf_puts(b, "\" ");
        }
        r->hole_at[2 * i + 1] = b->len;
        at = h->offset + h->len;
    }
    pier__buf_append(b, q->sql + at, q->len - at);
    *sql_len = b->len;
    return b->oom ? pier__oom(err) : PIER_OK;
}

/* A byte offset in the expanded SQL as an offset in the template: a
 * position inside a placeholder's expansion is the placeholder's. */
static int64_t template_offset(const pier__reader *r,
                               const pier__query_text *q, size_t at)
{
    size_t shift_t = 0, shift_e = 0;   /* template and expanded starts */
    for (size_t i = 0; i < q->nholes; i++) {
        const pier__placeholder *h = &q->holes[i];
        size_t e_start = r->hole_at[2 * i];
        size_t e_len = r->hole_at[2 * i + 1] - e_start;
        if (at < e_start)
            break;
        if (at < e_start + e_len)
            return (int64_t)h->offset;
        shift_t = h->offset + h->len;
        shift_e = e_start + e_len;
    }
    return (int64_t)(shift_t + (at - shift_e));
}

/* Whether the rest of a statement is white space and comments only. */
static const char *skip_blank(const char *p, const char *end)
{
    while (p < end) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
            *p == '\f' || *p == '\v') {
            p++;
        } else if (p + 1 < end && p[0] == '-' && p[1] == '-') {
            while (p < end && *p != '\n')
                p++;
        } else if (p + 1 < end && p[0] == '/' && p[1] == '*') {
            p += 2;
            while (p + 1 < end && !(p[0] == '*' && p[1] == '/'))
                p++;
            p = p + 1 < end ? p + 2 : end;
        } else {
            break;
        }
    }
    return p;
}

/* The origins of s's columns as `st`'s column metadata gives them. */
static void origins_from(const pier__reader *r, sqlite3_stmt *st,
                         stmt_rec *s, const pier__query_text *q)
{
    for (size_t i = 0; i < s->ncolumns; i++) {
        pier__query_origin o = { -1, -1 };
        const char *table = r->colmeta
            ? sqlite3_column_table_name(st, (int)i) : NULL;
        const char *column = r->colmeta
            ? sqlite3_column_origin_name(st, (int)i) : NULL;
        const char *db = r->colmeta
            ? sqlite3_column_database_name(st, (int)i) : NULL;
        if (table != NULL && column != NULL && db != NULL &&
            strncmp(table, BOARD_TABLE_PREFIX, PREFIX_LEN) == 0 &&
            board_db(r, db, table + PREFIX_LEN)) {
            for (size_t k = 0; k < q->nboards; k++) {
                const pier__board *b = q->boards[k];
                if (strcmp(b->id, table + PREFIX_LEN) != 0)
                    continue;
                ptrdiff_t c = pier__board_find(b, column, strlen(column));
                if (c >= 0) {
                    o.board = (ptrdiff_t)k;
                    o.column = c;
                }
                break;
            }
        }
        s->origins[i] = o;
    }
}

/*
 * Where each of s's columns comes from. SQLite's column metadata names a
 * table's column only for a result read straight from one: a shaped
 * view's column is an expression (view_column), which has none. So a
 * query that reads a board with shaped columns is compiled once more,
 * against the meta views, which select the same columns as stored: the
 * same statement over the same columns, so its result columns are the
 * same, and their metadata says where each comes from. That statement is
 * never run (nor authorized: prepared under AUTH_INTERNAL, and finalized
 * at once); should it not compile, every column reads as computed.
 */
static pier_status compute_origins(pier__reader *r, stmt_rec *s,
                                   const pier__query_text *q,
                                   pier_error *err)
{
    s->origins_version = q->catalog_version;
    bool shaped = false;
    for (size_t i = 0; i < q->nholes && !shaped; i++)
        shaped = q->holes[i].kind == PIER__HOLE_BOARD &&
                 board_shaped(q->boards[q->holes[i].board]);
    if (!shaped || !r->colmeta) {
        origins_from(r, s->stmt, s, q);
        return PIER_OK;
    }
    for (size_t i = 0; i < s->ncolumns; i++)
        s->origins[i] = (pier__query_origin){ -1, -1 };
    size_t len = 0;
    pier_status rc = expand(r, q, true, &len, err);
    if (rc != PIER_OK)
        return rc;
    int mode = r->auth_mode;
    r->auth_mode = AUTH_INTERNAL;
    sqlite3_stmt *st = NULL;
    int prc = pier__sqlite_prepare(r->db, r->sql.p, (int)len, 0, &st, NULL);
    r->auth_mode = mode;
    if ((prc & 0xff) == SQLITE_NOMEM)
        return pier__oom(err);
    if (prc == SQLITE_OK && st != NULL &&
        (size_t)sqlite3_column_count(st) == s->ncolumns)
        origins_from(r, st, s, q);
    sqlite3_finalize(st);
    return PIER_OK;
}

/*
 * The name of a result column as the query's text gives it: SQLite names
 * a column without an alias by its expression's text in the expanded SQL
 * (r->sql, `sql_len` bytes), where a placeholder stands as the name of a
 * view of the engine's ("max( temp."_pier_v_m" .id)"). When the name is
 * that text and spans a placeholder's expansion, it is the template's
 * text over the same span instead ("max({{board}}.id)"), as
 * docs/query.md says. Otherwise (an alias, a plain column) NULL: the
 * name is SQLite's.
 */
static char *template_name(const pier__reader *r, const pier__query_text *q,
                           size_t sql_len, const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || q->nholes == 0 || n > sql_len)
        return NULL;
    const char *sql = r->sql.p;
    for (size_t at = 0; at + n <= sql_len; at++) {
        if (memcmp(sql + at, name, n) != 0)
            continue;
        /* A match counts if it holds each expansion it meets whole (but
         * the spaces around it): "id" is not the "id" inside the name of
         * board "idx"'s view. */
        size_t end = at + n;
        bool spans = false, part = false;
        for (size_t i = 0; i < q->nholes; i++) {
            size_t e0 = r->hole_at[2 * i], e1 = r->hole_at[2 * i + 1];
            if (e0 >= end || e1 <= at)
                continue;
            spans = true;
            part = part || at > e0 + 1 || end < e1 - 1;
        }
        if (part)
            continue;
        if (!spans)
            return NULL;
        size_t t_start = (size_t)template_offset(r, q, at);
        /* The end: a position inside an expansion ends the placeholder. */
        size_t t_end = (size_t)template_offset(r, q, end - 1) + 1;
        for (size_t i = 0; i < q->nholes; i++)
            if (r->hole_at[2 * i] <= end - 1 &&
                end - 1 < r->hole_at[2 * i + 1])
                t_end = q->holes[i].offset + q->holes[i].len;
        if (t_end <= t_start || t_end > q->len)
            return NULL;
        char *out = malloc(t_end - t_start + 1);
        if (out != NULL) {
            memcpy(out, q->sql + t_start, t_end - t_start);
            out[t_end - t_start] = '\0';
        }
        return out;
    }
    return NULL;
}

/* Describes a freshly prepared statement, from the expanded SQL that
 * made it (r->sql, `sql_len` bytes). */
static pier_status stmt_describe(stmt_rec *s, const pier__reader *r,
                                 const pier__query_text *q, size_t sql_len,
                                 pier_error *err)
{
    s->ncolumns = (size_t)sqlite3_column_count(s->stmt);
    s->nparams = (size_t)sqlite3_bind_parameter_count(s->stmt);
    size_t nc = s->ncolumns > 0 ? s->ncolumns : 1;
    size_t np = s->nparams > 0 ? s->nparams : 1;
    s->names = calloc(nc, sizeof *s->names);
    s->origins = calloc(nc, sizeof *s->origins);
    s->cells = calloc(nc, sizeof *s->cells);
    s->params = calloc(np, sizeof *s->params);
    if (s->names == NULL || s->origins == NULL || s->cells == NULL ||
        s->params == NULL)
        return pier__oom(err);
    for (size_t i = 0; i < s->ncolumns; i++) {
        const char *name = sqlite3_column_name(s->stmt, (int)i);
        s->names[i] = name != NULL ? template_name(r, q, sql_len, name)
                                   : NULL;
        if (s->names[i] == NULL && name != NULL)
            s->names[i] = pier__strdup(name);
        if (s->names[i] == NULL)
            return pier__oom(err);
    }
    for (size_t i = 0; i < s->nparams; i++) {
        const char *name = sqlite3_bind_parameter_name(s->stmt, (int)i + 1);
        if (name == NULL)
            continue;                 /* an anonymous "?" */
        s->params[i] = pier__strdup(name);
        if (s->params[i] == NULL)
            return pier__oom(err);
    }
    return PIER_OK;
}

/* When SQLite could not find a table, names it in err->board (without a
 * schema name): pier_query then tells whether it is a board read by its
 * own name. */
static void missing_table(pier_error *err, const char *msg)
{
    static const char prefix[] = "no such table: ";
    if (strncmp(msg, prefix, sizeof prefix - 1) != 0)
        return;
    const char *name = msg + sizeof prefix - 1;
    const char *dot = strchr(name, '.');
    if (dot != NULL)
        name = dot + 1;
    snprintf(err->board, sizeof err->board, "%s", name);
}

/* Prepares the expanded SQL in r->sql under the user policy and checks
 * it: one statement, read-only, not EXPLAIN. */
static pier_status stmt_prepare(pier__reader *r, const pier__query_text *q,
                                size_t sql_len, sqlite3_stmt **out,
                                pier_error *err)
{
    const char *sql = r->sql.p;
    const char *tail = NULL;
    sqlite3_stmt *st = NULL;
    r->denied[0] = '\0';
    r->denied_board[0] = '\0';
    r->auth_mode = AUTH_USER;
    int rc = pier__sqlite_prepare(r->db, sql, (int)sql_len,
                                  SQLITE_PREPARE_PERSISTENT, &st, &tail);
    if (rc != SQLITE_OK) {
        /* A refusal can surface as another error ("vtable constructor
         * failed"): what the authorizer refused decides. */
        if ((rc & 0xff) == SQLITE_AUTH || r->denied[0] != '\0') {
            pier__fail(err, PIER_E_ENTITY_NOT_ALLOWED, "%s",
                       r->denied[0] != '\0' ? r->denied
                                            : sqlite3_errmsg(r->db));
            pier__error_board(err, r->denied_board);
            return PIER_E_ENTITY_NOT_ALLOWED;
        }
        if ((rc & 0xff) == SQLITE_NOMEM)
            return pier__oom(err);
        int at = sqlite3_error_offset(r->db);
        pier_status s = reader_fail(r, err, PIER_E_QUERY_FAILED,
                                    "the query does not compile");
        if (err == NULL)
            return s;
        if (at >= 0 && (size_t)at <= sql_len) {
            err->offset = template_offset(r, q, (size_t)at);
            size_t n = strlen(err->message);
            snprintf(err->message + n, sizeof err->message - n,
                     " (at byte %lld of the query)", (long long)err->offset);
        }
        missing_table(err, sqlite3_errmsg(r->db));
        return s;
    }
    pier_status s = PIER_OK;
    const char *end = sql + sql_len;
    if (st == NULL) {
        s = pier__fail(err, PIER_E_QUERY_FAILED,
                       "the query holds no statement");
    } else if (tail != NULL && skip_blank(tail, end) != end) {
        int64_t at = template_offset(r, q, (size_t)(skip_blank(tail, end) -
                                                    sql));
        s = pier__fail(err, PIER_E_ENTITY_NOT_ALLOWED,
                       "a query is one statement; another one starts at "
                       "offset %lld", (long long)at);
        if (err != NULL)
            err->offset = at;
    } else if (!sqlite3_stmt_readonly(st) || sqlite3_stmt_isexplain(st)) {
        s = pier__fail(err, PIER_E_ENTITY_NOT_ALLOWED,
                       "a query is one read-only SELECT (or WITH ... "
                       "SELECT)");
    }
    if (s != PIER_OK) {
        sqlite3_finalize(st);
        return s;
    }
    *out = st;
    return PIER_OK;
}

/*
 * Keeps the names q's text gives CTEs, so that the authorizer lets the
 * statement count a CTE's rows (SQLite names the CTE then, in no schema,
 * exactly as it names an unqualified table). Sound because no table or
 * view of the lake may have such a name: one that does (a declared table,
 * SQLite's own) is refused here, before anything is compiled, on every
 * prepare, so a table made since the statement was cached is seen too.
 * A name too long to be a board's is not kept: reading it as a table is
 * refused.
 */
static pier_status ctes_check(pier__reader *r, const pier__query_text *q,
                              pier_error *err)
{
    r->nctes = 0;
    for (size_t i = 0; i < q->nctes && i < PIER__QUERY_MAX_CTES; i++) {
        const pier__query_cte *c = &q->ctes[i];
        if (c->len == 0 || c->len > PIER__NAME_MAX)
            continue;
        char name[PIER__NAME_MAX + 1];
        memcpy(name, c->name, c->len);
        name[c->len] = '\0';
        bool taken = c->len >= 7 && pier__name_eq(name, 7, "sqlite_", 7);
        if (!taken) {
            r->auth_mode = AUTH_INTERNAL;
            if (r->table_named == NULL &&
                reader_stmt(r, "SELECT 1 FROM main.sqlite_schema WHERE "
                            "type IN ('table', 'view') AND name = ?1 "
                            "COLLATE NOCASE UNION ALL SELECT 1 FROM "
                            "temp.sqlite_schema WHERE type IN ('table', "
                            "'view') AND name = ?1 COLLATE NOCASE",
                            &r->table_named, err) != PIER_OK)
                return PIER_E_READ_FAILED;
            sqlite3_bind_text(r->table_named, 1, name, (int)c->len,
                              SQLITE_STATIC);
            int step = pier__sqlite_step_own(r->table_named);
            taken = step == SQLITE_ROW;
            sqlite3_reset(r->table_named);
            sqlite3_clear_bindings(r->table_named);
            if (step != SQLITE_ROW && step != SQLITE_DONE)
                return reader_fail(r, err, PIER_E_READ_FAILED,
                                   "cannot read the lake's schema");
        }
        if (taken) {
            pier__fail(err, PIER_E_ENTITY_NOT_ALLOWED, "a query's CTE may "
                       "not be named like a table of the lake ('%s'): name "
                       "it otherwise", name);
            if (err != NULL)
                err->offset = (int64_t)c->offset;
            return PIER_E_ENTITY_NOT_ALLOWED;
        }
        memcpy(r->ctes[r->nctes++], name, c->len + 1);
    }
    return PIER_OK;
}

/* The type ("table", "view") of main's table or view named `name` (any
 * case), in *type; "" when there is none. */
static pier_status object_type(pier__reader *r, const char *name,
                               char type[8], pier_error *err)
{
    r->auth_mode = AUTH_INTERNAL;
    type[0] = '\0';
    if (r->object_named == NULL &&
        reader_stmt(r, "SELECT type FROM main.sqlite_schema WHERE type IN "
                    "('table', 'view') AND name = ?1 COLLATE NOCASE",
                    &r->object_named, err) != PIER_OK)
        return PIER_E_READ_FAILED;
    sqlite3_bind_text(r->object_named, 1, name, -1, SQLITE_STATIC);
    int step = pier__sqlite_step_own(r->object_named);
    if (step == SQLITE_ROW)
        snprintf(type, 8, "%s",
                 (const char *)sqlite3_column_text(r->object_named, 0));
    sqlite3_reset(r->object_named);
    sqlite3_clear_bindings(r->object_named);
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return reader_fail(r, err, PIER_E_READ_FAILED,
                           "cannot read the lake's schema");
    return PIER_OK;
}

/*
 * The policy's indexes and declared tables: those the template names
 * ({{fts}}, {{table:NAME}}), each checked to be there, so that a missing
 * one is a clear error rather than SQLite's "no such table" naming the
 * engine's table. The template decides both, which is why they are not
 * part of a cached statement's key.
 */
static pier_status named_check(pier__reader *r, const pier__query_text *q,
                               pier_error *err)
{
    r->nfts = 0;
    r->ntables = 0;
    for (size_t i = 0; i < q->nholes; i++) {
        const pier__placeholder *h = &q->holes[i];
        char type[8];
        if (h->kind == PIER__HOLE_FTS) {
            const char *id = q->boards[h->board]->id;
            size_t k = 0;
            while (k < r->nfts && strcmp(r->fts[k], id) != 0)
                k++;
            if (k < r->nfts)
                continue;
            char name[PIER__NAME_MAX + PREFIX_LEN + 2];
            snprintf(name, sizeof name, FTS_PREFIX "%s" FTS_END, id);
            pier_status rc = object_type(r, name, type, err);
            if (rc != PIER_OK)
                return rc;
            if (strcmp(type, "table") != 0) {
                pier__fail(err, PIER_E_QUERY_FAILED, "board '%s' has no "
                           "full-text index (pier fts enable %s COLUMN... "
                           "makes one)", id, id);
                if (err != NULL)
                    err->offset = (int64_t)h->offset;
                return PIER_E_QUERY_FAILED;
            }
            /* Connected now, under no policy: connecting a virtual table
             * checks a write of the schema table, which the user policy
             * refuses. SQLite keeps it connected until the schema
             * changes, and this runs on every prepare. */
            pier__buf sql;
            pier__buf_init(&sql);
            pier__buf_printf(&sql, "SELECT 1 FROM main.\"%s\"", name);
            sqlite3_stmt *st = NULL;
            int prc = sql.oom ? SQLITE_NOMEM
                              : pier__sqlite_prepare(r->db, sql.p, -1, 0,
                                                     &st, NULL);
            sqlite3_finalize(st);
            pier__buf_free(&sql);
            if (prc != SQLITE_OK)
                return prc == SQLITE_NOMEM
                    ? pier__oom(err)
                    : reader_fail(r, err, PIER_E_READ_FAILED,
                                  "cannot open a full-text index");
            pier__copy_field(r->fts[r->nfts++], sizeof r->fts[0], id);
        } else if (h->kind == PIER__HOLE_TABLE) {
            char name[PIER__NAME_MAX + 1];
            size_t n = h->len - 10;          /* "{{table:" and "}}" */
            if (n > PIER__NAME_MAX)
                n = PIER__NAME_MAX;
            memcpy(name, q->sql + h->offset + 8, n);
            name[n] = '\0';
            pier_status rc = object_type(r, name, type, err);
            if (rc != PIER_OK)
                return rc;
            if (type[0] == '\0') {
                pier__fail(err, PIER_E_TABLE_NOT_FOUND, "no table or view "
                           "'%s' (a query reads declared tables and views "
                           "as {{table:NAME}}; boards as {{board:NAME}})",
                           name);
                if (err != NULL)
                    err->offset = (int64_t)h->offset;
                return PIER_E_TABLE_NOT_FOUND;
            }
            if (r->ntables < PIER__QUERY_MAX_BOARDS && !table_allowed(r, name))
                memcpy(r->tables[r->ntables++], name, n + 1);
        }
    }
    return PIER_OK;
}

pier_status pier__sqlite_reader_prepare(pier__reader *r,
                                        const pier__query_text *q,
                                        pier__query_shape *shape,
                                        pier_error *err)
{
    r->current = NULL;
    r->epoch++;
    r->last = NULL;
    /* The policy first: views and statements below are judged by it. */
    if (q->nboards > r->allowed_cap) {
        void *p = realloc(r->allowed, q->nboards * sizeof *r->allowed);
        if (p == NULL)
            return pier__oom(err);
        r->allowed = p;
        r->allowed_cap = q->nboards;
    }
    for (size_t i = 0; i < q->nboards; i++) {
        const pier__board *b = q->boards[i];
        pier__copy_field(r->allowed[i].id, sizeof r->allowed[i].id, b->id);
        /* SQLite reports the rowid as "ROWID"; so it does a column of
         * that exact spelling. */
        r->allowed[i].rowid_column = false;
        for (size_t c = PIER__BASE_COLUMNS; c < b->ncolumns; c++)
            if (b->columns[c].name[0] == 'R' &&
                strcmp(b->columns[c].name, "ROWID") == 0)
                r->allowed[i].rowid_column = true;
    }
    r->nallowed = q->nboards;
    pier_status rc = ctes_check(r, q, err);
    if (rc == PIER_OK)
        rc = named_check(r, q, err);
    if (rc != PIER_OK)
        return rc;
    /* Views only for the boards the template names. */
    for (size_t k = 0; k < q->nboards && rc == PIER_OK; k++)
        for (size_t i = 0; i < q->nholes; i++)
            if (q->holes[i].board == k &&
                q->holes[i].kind == PIER__HOLE_BOARD) {
                rc = ensure_view(r, q->boards[k], q->catalog_version, err);
                break;
            }
    if (rc != PIER_OK)
        return rc;
    size_t key_len = key_length(q);
    size_t i = 0;
    for (; i < r->nstmts; i++) {
        const stmt_rec *s = r->stmts[i];
        if (s->key_len == key_len && key_matches(s, q))
            break;
    }
    stmt_rec *s = NULL;
    if (i < r->nstmts) {
        s = r->stmts[i];
        if (s->origins_version != q->catalog_version &&
            (rc = compute_origins(r, s, q, err)) != PIER_OK) {
            r->auth_mode = AUTH_INTERNAL;
            return rc;
        }
    } else {
        size_t sql_len = 0;
        sqlite3_stmt *st = NULL;
        rc = expand(r, q, false, &sql_len, err);
        if (rc == PIER_OK)
            rc = stmt_prepare(r, q, sql_len, &st, err);
        if (rc != PIER_OK) {
            r->auth_mode = AUTH_INTERNAL;
            return rc;
        }
        s = calloc(1, sizeof *s);
        if (s == NULL) {
            sqlite3_finalize(st);
            r->auth_mode = AUTH_INTERNAL;
            return pier__oom(err);
        }
        s->stmt = st;
        s->key = key_make(q, key_len);
        if (s->key == NULL)
            rc = pier__oom(err);
        s->key_len = key_len;
        if (rc == PIER_OK)
            rc = stmt_describe(s, r, q, sql_len, err);
        if (rc == PIER_OK)
            rc = compute_origins(r, s, q, err);
        if (rc != PIER_OK) {
            stmt_free(s);
            r->auth_mode = AUTH_INTERNAL;
            return rc;
        }
        if (r->nstmts == READER_STMTS)
            stmt_free(r->stmts[--r->nstmts]);
        i = r->nstmts++;
    }
    /* Most recently used first. */
    memmove(&r->stmts[1], &r->stmts[0], i * sizeof *r->stmts);
    r->stmts[0] = s;
    r->current = s;
    r->last = s;
    r->auth_mode = AUTH_USER;  /* stepping may re-prepare: same policy */
    *shape = (pier__query_shape){
        .ncolumns = s->ncolumns,
        .names = (const char *const *)s->names,
        .origins = s->origins,
        .nparams = s->nparams,
        .params = (const char *const *)s->params,
        .epoch = r->epoch,
    };
    return PIER_OK;
}

/* The views' and statements' recency is not refreshed here: a query run
 * again this way may see its view or statement evicted by another one's
 * prepare sooner than it would have, and is then prepared anew. */
bool pier__sqlite_reader_again(pier__reader *r, uint64_t epoch)
{
    if (r->last == NULL || r->epoch != epoch)
        return false;
    r->current = r->last;
    r->auth_mode = AUTH_USER;
    return true;
}

/*
 * Texts and blobs are copied into the reader's `bound` arena and bound as
 * SQLITE_STATIC: the caller's parameters may change or go while the
 * cursor is open, and the arena lives until snapshot_end has reset the
 * statement and cleared its bindings. SQLITE_TRANSIENT would have SQLite
 * allocate each copy and free it again at the reset, once per query.
 */
pier_status pier__sqlite_reader_bind(pier__reader *r, int i,
                                     const pier__cell *c, pier_error *err)
{
    sqlite3_stmt *st = r->current->stmt;
    int rc;
    switch (c->st) {
    case PIER__ST_INT:
        rc = sqlite3_bind_int64(st, i, c->i);
        break;
    case PIER__ST_REAL:
        rc = sqlite3_bind_double(st, i, c->d);
        break;
    case PIER__ST_TEXT:
    case PIER__ST_BLOB: {
        if (c->n > (size_t)sqlite3_limit(r->db, SQLITE_LIMIT_LENGTH, -1)) {
            rc = SQLITE_TOOBIG;
            break;
        }
        char *copy = NULL;   /* a blob without bytes binds as NULL */
        if (c->p != NULL || c->st == PIER__ST_TEXT) {
            copy = pier__arena_strndup(&r->bound, c->p != NULL ? c->p : "",
                                       c->n);
            if (copy == NULL)
                return pier__oom(err);
        }
        rc = c->st == PIER__ST_TEXT
            ? sqlite3_bind_text64(st, i, copy, c->n, SQLITE_STATIC,
                                  SQLITE_UTF8)
            : sqlite3_bind_blob64(st, i, copy, c->n, SQLITE_STATIC);
        break;
    }
    default:
        rc = sqlite3_bind_null(st, i);
        break;
    }
    if (rc == SQLITE_OK)
        return PIER_OK;
    if (rc == SQLITE_TOOBIG) {
        pier__fail(err, PIER_E_LIMIT_EXCEEDED, "query parameter %d is "
                   "longer than %d bytes, the query's limit on one value",
                   i, sqlite3_limit(r->db, SQLITE_LIMIT_LENGTH, -1));
        return PIER_E_LIMIT_EXCEEDED;
    }
    return reader_fail(r, err, PIER_E_READ_FAILED,
                       "cannot bind a query parameter");
}

pier_status pier__sqlite_reader_step(pier__reader *r,
                                     const pier__cell **cells,
                                     pier_error *err)
{
    stmt_rec *s = r->current;
    assert(s != NULL && "stepped after its end or before a prepare");
    *cells = NULL;
    r->auth_mode = AUTH_USER;
    pier__sqlite_guard_step(r->guard, true);
    int rc = sqlite3_step(s->stmt);
    pier__sqlite_guard_step(r->guard, false);
    if (rc == SQLITE_ROW) {
        for (size_t i = 0; i < s->ncolumns; i++)
            pier__sqlite_cell(&s->cells[i],
                              sqlite3_column_value(s->stmt, (int)i));
        *cells = s->cells;
        return PIER_OK;
    }
    pier_status status = PIER_OK;
    if (rc != SQLITE_DONE) {
        if ((rc & 0xff) == SQLITE_AUTH) {
            status = pier__fail(err, PIER_E_ENTITY_NOT_ALLOWED, "%s",
                                r->denied[0] != '\0'
                                    ? r->denied : sqlite3_errmsg(r->db));
        } else {
            status = reader_fail(r, err, PIER_E_READ_FAILED,
                                 "the query failed");
        }
    }
    snapshot_end(r);
    return status;
}
