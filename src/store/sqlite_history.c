/*
 * sqlite_history.c: change history on SQLite (docs/history.md): the
 * commit triggers' catalog, recordings, pier_changeset(), and reading and
 * applying changesets with SQLite's session extension.
 *
 *   _pier_commit_triggers(name, position, tables, sql, created_at)
 *       the commit triggers (format 4), never in sqlite_schema: `tables`
 *       is NULL for ALL, else the names as written, each followed by a
 *       line feed (names hold no control characters); `position` orders
 *       them as they run
 *
 * A recording is what a session (sqlite3session) on the writer's main
 * database would record, attached to every table and narrowed by a
 * filter: the engine's own tables (_pier_, sqlite_) never pass, so
 * boards, the catalog and the change log are never recorded, and a
 * trigger's list passes only its tables, compared case-insensitively.
 * The writer's recordings share one recorder (sqlite_record.c), which
 * writes the same bytes as such a session without a session's cost per
 * transaction. The changeset names each table as the schema spells it;
 * only tables with a PRIMARY KEY are recorded; a changeset is made from
 * the recorded keys and the rows as they are when it is taken, so a
 * change a savepoint rolled back does not appear in it.
 *
 * pier_changeset() is a function of the writer connection: it returns
 * what changeset_expose set (the changes of the commit trigger running),
 * else NULL.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/sqlite_int.h"
#include "store/sqlite_record.h"

const char pier__sqlite_history_schema[] =
    "CREATE TABLE _pier_commit_triggers("
    "  name TEXT PRIMARY KEY COLLATE NOCASE,"
    "  position INTEGER NOT NULL UNIQUE,"
    "  tables TEXT,"
    "  sql TEXT NOT NULL,"
    "  created_at INTEGER NOT NULL) STRICT;";

/* ---- the catalog ---- */

static pier_status damaged(pier_error *err, const char *name,
                           const char *what)
{
    return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                      "the catalog entry of commit trigger '%s' is "
                      "damaged: %s", name, what);
}

/* Splits `tables` (names each ended by a line feed) into *names. */
static pier_status split_tables(const char *name, const char *tables,
                                char **copy, const char ***names,
                                size_t *n, pier_error *err)
{
    *copy = NULL;
    *names = NULL;
    *n = 0;
    if (tables == NULL)
        return PIER_OK;
    size_t count = 0;
    for (const char *p = tables; *p != '\0'; p++)
        count += *p == '\n';
    size_t len = strlen(tables);
    if (count == 0 || tables[len - 1] != '\n')
        return damaged(err, name, "its list of tables");
    *copy = malloc(len + 1);
    *names = malloc(count * sizeof **names);
    if (*copy == NULL || *names == NULL) {
        free(*copy);
        free(*names);
        *copy = NULL;
        *names = NULL;
        return pier__oom(err);
    }
    memcpy(*copy, tables, len + 1);
    char *p = *copy;
    for (size_t i = 0; i < count; i++) {
        char *end = strchr(p, '\n');
        *end = '\0';
        (*names)[i] = p;
        p = end + 1;
    }
    *n = count;
    return PIER_OK;
}

pier_status pier__sqlite_triggers_load(pier__sqlite_lake *l,
                                       pier__catalog *out, pier_error *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(l->db, "SELECT name, tables, sql FROM "
                           "_pier_commit_triggers ORDER BY position", -1,
                           &st, NULL) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read the catalog");
    pier_status rc = PIER_OK;
    int step;
    while (rc == PIER_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        const char *tables = (const char *)sqlite3_column_text(st, 1);
        const char *sql = (const char *)sqlite3_column_text(st, 2);
        if (name == NULL || sql == NULL) {
            rc = sqlite3_errcode(l->db) == SQLITE_NOMEM
                ? pier__oom(err)
                : damaged(err, name != NULL ? name : "", "no SQL");
            break;
        }
        char *copy;
        const char **names;
        size_t n;
        rc = split_tables(name, tables, &copy, &names, &n, err);
        if (rc != PIER_OK)
            break;
        pier__commit_trigger *t = pier__trigger_new(name, sql, names, n);
        free(copy);
        free(names);
        if (t == NULL || !pier__catalog_put_trigger(out, t))
            rc = pier__oom(err);
    }
    if (rc == PIER_OK && step != SQLITE_DONE)
        rc = pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                               "cannot read the catalog");
    sqlite3_finalize(st);
    return rc;
}

pier_status pier__sqlite_trigger_save(pier__lake *lake,
                                      const pier__commit_trigger *t,
                                      int64_t created_at, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    pier__buf tables;
    pier__buf_init(&tables);
    for (size_t i = 0; i < t->ntables; i++) {
        pier__buf_puts(&tables, t->tables[i]);
        pier__buf_putc(&tables, '\n');
    }
    if (tables.oom) {
        pier__buf_free(&tables);
        return pier__oom(err);
    }
    sqlite3_stmt *st = NULL;
    pier_status rc = PIER_OK;
    if (sqlite3_prepare_v2(l->db, "INSERT INTO _pier_commit_triggers("
                           "name, position, tables, sql, created_at) "
                           "VALUES (?1, (SELECT coalesce(max(position), 0) "
                           "+ 1 FROM _pier_commit_triggers), ?2, ?3, ?4)",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                               "cannot record the commit trigger");
    } else {
        sqlite3_bind_text(st, 1, t->name, -1, SQLITE_STATIC);
        if (t->ntables > 0)
            sqlite3_bind_text(st, 2, tables.p, (int)tables.len,
                              SQLITE_STATIC);
        sqlite3_bind_text(st, 3, t->sql, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 4, created_at);
        if (sqlite3_step(st) != SQLITE_DONE)
            rc = pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                   "cannot record the commit trigger");
    }
    sqlite3_finalize(st);
    pier__buf_free(&tables);
    return rc;
}

pier_status pier__sqlite_trigger_forget(pier__lake *lake, const char *name,
                                        pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    sqlite3_stmt *st = NULL;
    pier_status rc = PIER_OK;
    if (sqlite3_prepare_v2(l->db, "DELETE FROM _pier_commit_triggers "
                           "WHERE name = ?1", -1, &st, NULL) != SQLITE_OK) {
        rc = pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                               "cannot drop the commit trigger");
    } else {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        if (sqlite3_step(st) != SQLITE_DONE)
            rc = pier__sqlite_fail(l, err, PIER_E_WRITE_FAILED,
                                   "cannot drop the commit trigger");
    }
    sqlite3_finalize(st);
    return rc;
}

pier_status pier__sqlite_table_keyed(pier__lake *lake, const char *name,
                                     bool *out, pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    sqlite3_stmt *st = NULL;
    *out = false;
    if (sqlite3_prepare_v2(l->db, "SELECT 1 FROM pragma_table_info(?1, "
                           "'main') WHERE pk > 0", -1, &st, NULL) !=
        SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read a table's key");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    *out = step == SQLITE_ROW;
    sqlite3_finalize(st);
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read a table's key");
    return PIER_OK;
}

/* ---- recordings ---- */

/* The writer's open recordings share its one recorder (sqlite_record.c),
 * started with the first and stopped with the last: a table is recorded
 * if a recording takes it, and each recording's changeset holds the
 * tables it takes, as a session of its own would. */
struct pier__recording {
    pier__sqlite_lake *l;
    pier__recording *next;     /* the lake's open recordings */
    size_t ntables;            /* 0: every table of the dialect */
    char **tables;             /* copies, case as written, in the same
                                  allocation */
};

static bool engine_table(const char *name)
{
    return sqlite3_strnicmp(name, "_pier_", 6) == 0 ||
           sqlite3_strnicmp(name, "sqlite_", 7) == 0;
}

/* Whether recording r takes table `table` (as a session's table filter:
 * the engine's tables never, a trigger's list compared without regard to
 * case). */
static int recording_takes(void *payload, const char *table)
{
    const pier__recording *r = payload;
    if (engine_table(table))
        return 0;
    if (r->ntables == 0)
        return 1;
    for (size_t i = 0; i < r->ntables; i++)
        if (sqlite3_stricmp(r->tables[i], table) == 0)
            return 1;
    return 0;
}

/* What the recorder records: a table that some open recording takes. */
static int any_takes(void *payload, const char *table)
{
    const pier__sqlite_lake *l = payload;
    for (const pier__recording *r = l->recordings; r != NULL; r = r->next)
        if (recording_takes((void *)r, table))
            return 1;
    return 0;
}

void pier__sqlite_recording_close(pier__recording *r)
{
    if (r == NULL)
        return;
    pier__sqlite_lake *l = r->l;
    for (pier__recording **p = &l->recordings; *p != NULL; p = &(*p)->next)
        if (*p == r) {
            *p = r->next;
            break;
        }
    if (l->recordings == NULL)
        pier__recorder_stop(l->recorder);
    free(r);
}

pier_status pier__sqlite_recording_open(pier__lake *lake,
                                        const char *const *tables,
                                        size_t ntables,
                                        pier__recording **out,
                                        pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    *out = NULL;
    size_t size = sizeof(pier__recording) + ntables * sizeof(char *);
    for (size_t i = 0; i < ntables; i++)
        size += strlen(tables[i]) + 1;
    pier__recording *r = malloc(size);
    if (r == NULL)
        return pier__oom(err);
    *r = (pier__recording){ .l = l, .ntables = ntables,
                            .tables = (char **)(r + 1) };
    char *text = (char *)(r->tables + ntables);
    for (size_t i = 0; i < ntables; i++) {
        size_t len = strlen(tables[i]) + 1;
        r->tables[i] = memcpy(text, tables[i], len);
        text += len;
    }
    if (l->recorder == NULL &&
        (l->recorder = pier__recorder_new(l->db, &l->user_policy)) == NULL) {
        free(r);
        return pier__oom(err);
    }
    if (l->recordings == NULL) {
        int src = pier__recorder_start(l->recorder, any_takes, l);
        if (src != SQLITE_OK) {
            free(r);
            return src == SQLITE_NOMEM
                ? pier__oom(err)
                : pier__fail(err, PIER_E_WRITE_FAILED,
                             "cannot record changes (SQLite's code %d)",
                             src);
        }
    }
    pier__recording **p = &l->recordings;
    while (*p != NULL)
        p = &(*p)->next;
    *p = r;
    *out = r;
    return PIER_OK;
}

void pier__sqlite_recordings_stop(pier__lake *lake)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    if (l->recorder != NULL)
        pier__recorder_pause(l->recorder);
}

pier_status pier__sqlite_recording_take(pier__recording *r, void **bytes,
                                        size_t *len, pier_error *err)
{
    int src = pier__recorder_changeset(r->l->recorder, recording_takes, r,
                                       bytes, len);
    if (src == SQLITE_OK) {
        /* A recorder writes changesets as a session does. */
        assert(pier__changeset_why(*bytes, *len) == NULL);
        return PIER_OK;
    }
    if (src == SQLITE_NOMEM)
        return pier__oom(err);
    if (src == SQLITE_SCHEMA)
        return pier__fail(err, PIER_E_QUERY_FAILED,
                          "the changes cannot be recorded: a recorded "
                          "table's columns changed after it was "
                          "written in the same transaction (change "
                          "the schema in a call of its own)");
    return pier__fail(err, PIER_E_WRITE_FAILED,
                      "cannot read the recorded changes (SQLite's "
                      "code %d)", src);
}

const char *pier__sqlite_recording_unkeyed(pier__recording *r)
{
    return pier__recorder_unkeyed(r->l->recorder, recording_takes, r);
}

/* ---- pier_changeset() ---- */

void pier__sqlite_changeset_expose(pier__lake *lake, const void *bytes,
                                   size_t len)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    l->exposed.p = bytes;
    l->exposed.len = len;
}

static void changeset_fn(sqlite3_context *ctx, int argc,
                         sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    const pier__sqlite_lake *l = sqlite3_user_data(ctx);
    /* Not copied: the bytes stay exposed until the trigger's statement
     * has run and been reset, which lets go of its values. */
    if (l->exposed.p == NULL)
        sqlite3_result_null(ctx);
    else
        sqlite3_result_blob64(ctx, l->exposed.p, l->exposed.len,
                              SQLITE_STATIC);
}

int pier__sqlite_register_history(pier__sqlite_lake *l)
{
    /* Not deterministic: its value changes from trigger to trigger. */
    return sqlite3_create_function_v2(l->db, "pier_changeset", 0,
                                      SQLITE_UTF8 | SQLITE_DIRECTONLY, l,
                                      changeset_fn, NULL, NULL, NULL);
}

/* ---- reading changesets ---- */

/* A varint of the changeset format (SQLite's: 1 to 9 bytes, 7 bits each
 * but the ninth's 8) at p[*i], bounded by n; false past the end. */
static bool read_varint(const unsigned char *p, size_t n, size_t *i,
                        uint64_t *out)
{
    uint64_t v = 0;
    for (int k = 0; k < 9; k++) {
        if (*i >= n)
            return false;
        unsigned char c = p[(*i)++];
        if (k == 8) {
            *out = (v << 8) | c;
            return true;
        }
        v = (v << 7) | (c & 0x7f);
        if ((c & 0x80) == 0) {
            *out = v;
            return true;
        }
    }
    return false;
}

/* A record of `ncol` values at p[*i]: each a type byte (0 none, 1 an
 * integer, 2 a real: 8 bytes; 3 text, 4 a blob: a varint length and the
 * bytes; 5 null). */
static bool read_record(const unsigned char *p, size_t n, size_t *i,
                        uint64_t ncol)
{
    for (uint64_t c = 0; c < ncol; c++) {
        if (*i >= n)
            return false;
        unsigned char type = p[(*i)++];
        uint64_t len = 0;
        switch (type) {
        case 0: case 5: break;
        case 1: case 2: len = 8; break;
        case 3: case 4:
            if (!read_varint(p, n, i, &len))
                return false;
            break;
        default: return false;
        }
        if (len > n - *i)
            return false;
        *i += (size_t)len;
    }
    return true;
}

/*
 * The changeset format read strictly, before SQLite's reader sees the
 * bytes: SQLite 3.40's loops without end on some damaged ones (a table
 * header whose name runs to the end, for one). A table header is 'T', the
 * number of columns, a byte each (part of the key or not) and the name to
 * a NUL; a change is its operation (INSERT 18, DELETE 9, UPDATE 23), an
 * indirect byte and its record(s). 'P' (a patchset's header) is refused.
 */
static bool changeset_shape(const unsigned char *p, size_t n, bool *patch)
{
    size_t i = 0;
    *patch = n > 0 && p[0] == 'P';
    uint64_t ncol = 0;
    bool table = false;
    while (i < n) {
        unsigned char op = p[i++];
        if (op == 'T') {
            if (!read_varint(p, n, &i, &ncol) || ncol == 0 ||
                ncol > 32767 || ncol > n - i)
                return false;
            i += (size_t)ncol;
            const unsigned char *nul = memchr(p + i, 0, n - i);
            if (nul == NULL || nul == p + i)
                return false;
            i = (size_t)(nul - p) + 1;
            table = true;
            continue;
        }
        if (!table || (op != 18 && op != 9 && op != 23) || i >= n ||
            p[i] > 1)
            return false;
        i++;                           /* indirect */
        if (!read_record(p, n, &i, ncol) ||
            (op == 23 && !read_record(p, n, &i, ncol)))
            return false;
    }
    return true;
}

const char *pier__changeset_why(const void *bytes, size_t len)
{
    static const char not_one[] = "not a changeset (SQLite's changeset "
                                  "format)";
    if (len == 0)
        return NULL;
    if (len > INT32_MAX)
        return "longer than SQLite reads a changeset";
    bool patch = false;
    if (!changeset_shape(bytes, len, &patch))
        return patch ? "a patchset, not a changeset (it cannot be inverted)"
                     : not_one;
    sqlite3_changeset_iter *it = NULL;
    if (sqlite3changeset_start(&it, (int)len, (void *)bytes) != SQLITE_OK)
        return not_one;
    int src;
    while ((src = sqlite3changeset_next(it)) == SQLITE_ROW) {
    }
    int frc = sqlite3changeset_finalize(it);
    if (src != SQLITE_DONE || frc != SQLITE_OK)
        return src == SQLITE_NOMEM || frc == SQLITE_NOMEM ? "out of memory"
                                                          : not_one;
    /* A patchset reads as well, but holds too little to be inverted. */
    int n = 0;
    void *inverse = NULL;
    src = sqlite3changeset_invert((int)len, bytes, &n, &inverse);
    sqlite3_free(inverse);
    if (src == SQLITE_NOMEM)
        return "out of memory";
    return src == SQLITE_OK ? NULL
                            : "a patchset, not a changeset (it cannot be "
                              "inverted)";
}

static pier_status not_changeset(pier_error *err, const char *why)
{
    if (strcmp(why, "out of memory") == 0)
        return pier__oom(err);
    return pier__fail(err, PIER_E_INVALID_ARGUMENT, "the bytes are %s",
                      why);
}

pier_status pier__changeset_walk(const void *bytes, size_t len,
                                 int (*cb)(const pier__change *c,
                                           void *payload),
                                 void *payload, pier_error *err)
{
    const char *why = pier__changeset_why(bytes, len);
    if (why != NULL)
        return not_changeset(err, why);
    if (len == 0)
        return PIER_OK;
    sqlite3_changeset_iter *it = NULL;
    if (sqlite3changeset_start(&it, (int)len, (void *)bytes) != SQLITE_OK)
        return pier__oom(err);
    pier_status rc = PIER_OK;
    pier__cell *cells = NULL;
    bool *has = NULL;
    size_t cap = 0;
    int src;
    while (rc == PIER_OK && (src = sqlite3changeset_next(it)) ==
                                SQLITE_ROW) {
        const char *table = NULL;
        int ncol = 0, op = 0, indirect = 0;
        unsigned char *pk = NULL;
        int pkcol = 0;
        sqlite3changeset_op(it, &table, &ncol, &op, &indirect);
        sqlite3changeset_pk(it, &pk, &pkcol);
        size_t n = (size_t)ncol;
        if (n > cap) {
            free(cells);
            free(has);
            cells = calloc(2 * n, sizeof *cells);
            has = calloc(2 * n, sizeof *has);
            if (cells == NULL || has == NULL) {
                rc = pier__oom(err);
                break;
            }
            cap = n;
        }
        for (size_t i = 0; i < n; i++) {
            sqlite3_value *v = NULL;
            has[i] = has[n + i] = false;
            if (op != SQLITE_INSERT &&
                sqlite3changeset_old(it, (int)i, &v) == SQLITE_OK &&
                v != NULL) {
                pier__sqlite_cell(&cells[i], v);
                has[i] = true;
            }
            v = NULL;
            if (op != SQLITE_DELETE &&
                sqlite3changeset_new(it, (int)i, &v) == SQLITE_OK &&
                v != NULL) {
                pier__sqlite_cell(&cells[n + i], v);
                has[n + i] = true;
            }
        }
        pier__change c = {
            .table = table,
            .op = op == SQLITE_INSERT ? 'i' : op == SQLITE_DELETE ? 'd'
                                                                  : 'u',
            .indirect = indirect != 0,
            .ncolumns = n,
            .pk = pk,
            .old = op != SQLITE_INSERT ? cells : NULL,
            .has_old = has,
            .new_ = op != SQLITE_DELETE ? cells + n : NULL,
            .has_new = has + n,
        };
        if (cb(&c, payload) != 0)
            break;
    }
    free(cells);
    free(has);
    if (sqlite3changeset_finalize(it) == SQLITE_NOMEM && rc == PIER_OK)
        rc = pier__oom(err);
    return rc;
}

static int count_change(const pier__change *c, void *payload)
{
    (void)c;
    (*(int64_t *)payload)++;
    return 0;
}

pier_status pier__changeset_count(const void *bytes, size_t len,
                                  int64_t *out, pier_error *err)
{
    *out = 0;
    return pier__changeset_walk(bytes, len, count_change, out, err);
}

/* ---- applying ---- */

typedef struct apply_ctx {
    pier__sqlite_lake *l;
    int policy;
    int64_t skipped, replaced;
    int conflict;              /* the conflict that aborted, or 0 */
    char table[128];           /* ... its table */
    int op;
    pier_status status;        /* a constraint conflict's status */
    char message[256];         /* ... and SQLite's message */
    pier__stmt_failure failure; /* ... and what the checks recorded */
    char orphan[128];          /* a foreign key conflict: a child table */
    char parent[128];          /* ... and its parent table */
} apply_ctx;

/* An insert SQLite's apply refused: its search for a row with the same
 * key has run since, and taken the refusal's code and message with it.
 * The insert is run again, as the apply ran it, and undone, to have
 * them back. */
static void insert_again(pier__sqlite_lake *l, sqlite3_changeset_iter *it,
                         const char *table, int ncol)
{
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_puts(&sql, "INSERT INTO main.");
    pier__sql_ident(&sql, table);
    pier__buf_puts(&sql, " VALUES(");
    for (int i = 0; i < ncol; i++)
        pier__buf_puts(&sql, i > 0 ? ", ?" : "?");
    pier__buf_putc(&sql, ')');
    sqlite3_stmt *st = NULL;
    if (!sql.oom && sqlite3_exec(l->db, "SAVEPOINT _pier_apply_why", NULL,
                                 NULL, NULL) == SQLITE_OK) {
        if (sqlite3_prepare_v2(l->db, sql.p, (int)sql.len, &st, NULL) ==
            SQLITE_OK) {
            for (int i = 0; i < ncol; i++) {
                sqlite3_value *v = NULL;
                if (sqlite3changeset_new(it, i, &v) == SQLITE_OK &&
                    v != NULL)
                    sqlite3_bind_value(st, i + 1, v);
            }
            sqlite3_step(st);
            sqlite3_reset(st);     /* the refusal stays the db's error */
        }
        /* (finalizing and undoing keep the db's error: only the next
         * statement's step sets it) */
        sqlite3_finalize(st);
    }
    pier__buf_free(&sql);
}

/* Undoes insert_again's insert, if it wrote one. */
static void insert_undo(pier__sqlite_lake *l)
{
    sqlite3_exec(l->db, "ROLLBACK TO _pier_apply_why; "
                 "RELEASE _pier_apply_why", NULL, NULL, NULL);
}

/* Reads why SQLite refused a change (the statement the apply ran has
 * just failed with a constraint), then readies l->failure for the next
 * change. */
static void constraint_why(apply_ctx *a, sqlite3_changeset_iter *it,
                           const char *table, int op, int ncol)
{
    pier__sqlite_lake *l = a->l;
    bool again = op == SQLITE_INSERT &&
                 (sqlite3_errcode(l->db) & 0xff) != SQLITE_CONSTRAINT;
    if (again) {
        memset(&l->failure, 0, sizeof l->failure);
        l->failure.applying = true;
        insert_again(l, it, table, ncol);
    }
    const char *msg = sqlite3_errmsg(l->db);
    a->status = pier__sqlite_step_status(l, sqlite3_extended_errcode(l->db),
                                         msg);
    if (a->status == PIER_E_CONSTRAINT_CHECK && l->failure.column_id != 0)
        a->status = PIER_E_COLUMN_TYPE_CONFLICT;   /* _pier_fit said no */
    snprintf(a->message, sizeof a->message, "%s", msg);
    a->failure = l->failure;
    memset(&l->failure, 0, sizeof l->failure);
    l->failure.applying = true;
    if (again)
        insert_undo(l);
}

/* At the apply's end, with its changes still in place: a child table
 * whose foreign key names no parent row, and the parent's (SQLite's
 * check counts them but says nothing of which). */
static void orphan_of(apply_ctx *a)
{
    sqlite3_stmt *st = NULL;
    a->orphan[0] = a->parent[0] = '\0';
    if (sqlite3_prepare_v2(a->l->db, "SELECT \"table\", parent FROM "
                           "pragma_foreign_key_check LIMIT 1", -1, &st,
                           NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        const char *p = (const char *)sqlite3_column_text(st, 1);
        snprintf(a->orphan, sizeof a->orphan, "%s", t != NULL ? t : "");
        snprintf(a->parent, sizeof a->parent, "%s", p != NULL ? p : "");
    }
    sqlite3_finalize(st);
}

static int apply_conflict(void *payload, int type,
                          sqlite3_changeset_iter *it)
{
    apply_ctx *a = payload;
    const char *table = NULL;
    int ncol = 0, op = 0, indirect = 0;
    sqlite3changeset_op(it, &table, &ncol, &op, &indirect);
    bool row = type == SQLITE_CHANGESET_DATA ||
               type == SQLITE_CHANGESET_NOTFOUND ||
               type == SQLITE_CHANGESET_CONFLICT;
    if (type == SQLITE_CHANGESET_CONSTRAINT)
        constraint_why(a, it, table, op, ncol);
    if (type == SQLITE_CHANGESET_FOREIGN_KEY)
        orphan_of(a);
    if (a->policy == PIER__APPLY_SKIP && type != SQLITE_CHANGESET_FOREIGN_KEY) {
        a->skipped++;
        return SQLITE_CHANGESET_OMIT;
    }
    if (a->policy == PIER__APPLY_REPLACE && row) {
        if (type == SQLITE_CHANGESET_NOTFOUND) {
            /* nothing to replace: the row is already gone */
            a->skipped++;
            return SQLITE_CHANGESET_OMIT;
        }
        a->replaced++;
        return SQLITE_CHANGESET_REPLACE;
    }
    a->conflict = type;
    a->op = op;
    snprintf(a->table, sizeof a->table, "%s", table != NULL ? table : "");
    return SQLITE_CHANGESET_ABORT;
}

static const char *op_name(int op)
{
    return op == SQLITE_INSERT ? "insert" : op == SQLITE_DELETE ? "delete"
                                                                : "update";
}

static pier_status conflict_failure(const apply_ctx *a,
                                    pier__stmt_failure *failure,
                                    pier_error *err)
{
    const char *what;
    pier_status st = PIER_E_CHANGESET_CONFLICT;
    switch (a->conflict) {
    case SQLITE_CHANGESET_DATA:
        what = "the row's values are not the ones the change expects";
        break;
    case SQLITE_CHANGESET_NOTFOUND:
        what = "the row is not there";
        break;
    case SQLITE_CHANGESET_CONFLICT:
        what = "a row with its key is already there";
        break;
    case SQLITE_CHANGESET_FOREIGN_KEY:
        /* (the whole changeset: SQLite checks keys once, at the end) */
        if (a->orphan[0] == '\0') {
            pier__fail(err, PIER_E_CONSTRAINT_FOREIGN_KEY,
                       "changeset conflict: the changes leave a foreign "
                       "key without its parent row");
            return PIER_E_CONSTRAINT_FOREIGN_KEY;
        }
        pier__fail(err, PIER_E_CONSTRAINT_FOREIGN_KEY,
                   "changeset conflict: the changes leave a row of %s "
                   "without its %s row", a->orphan, a->parent);
        if (err != NULL)
            snprintf(err->board, sizeof err->board, "%s", a->orphan);
        return PIER_E_CONSTRAINT_FOREIGN_KEY;
    default:
        what = a->message;
        st = a->status;
        *failure = a->failure;
        break;
    }
    pier__fail(err, st, "changeset conflict: %s of a row of %s: %s",
               op_name(a->op), a->table, what);
    if (err != NULL)
        snprintf(err->board, sizeof err->board, "%s", a->table);
    return st;
}

/* The number of columns and the key of main table `name` as sessions see
 * them (PRAGMA table_info: generated columns are not among them). */
static pier_status table_shape(pier__sqlite_lake *l, const char *name,
                               int *ncol, pier__buf *pk, pier_error *err)
{
    sqlite3_stmt *st = NULL;
    *ncol = 0;
    if (sqlite3_prepare_v2(l->db, "SELECT pk FROM pragma_table_info(?1, "
                           "'main')", -1, &st, NULL) != SQLITE_OK)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read a table's columns");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    while (sqlite3_step(st) == SQLITE_ROW) {
        pier__buf_putc(pk, sqlite3_column_int(st, 0) > 0 ? 1 : 0);
        (*ncol)++;
    }
    sqlite3_finalize(st);
    return pk->oom ? pier__oom(err) : PIER_OK;
}

typedef struct check_ctx {
    pier__sqlite_lake *l;
    pier_status rc;
    pier_error *err;
    char last[128];            /* the table checked last */
} check_ctx;

/* Every table a changeset names must be one the dialect reaches, with
 * the columns and key its changes carry: SQLite's apply would skip a
 * table it cannot match, silently. */
static int check_table(const pier__change *c, void *payload)
{
    check_ctx *k = payload;
    if (strcmp(k->last, c->table) == 0)
        return 0;
    if (engine_table(c->table)) {
        k->rc = pier__fail(k->err, PIER_E_ENTITY_NOT_ALLOWED,
                           "the changeset changes '%s', which belongs to "
                           "the engine", c->table);
        return 1;
    }
    pier__buf pk;
    pier__buf_init(&pk);
    int ncol = 0;
    k->rc = table_shape(k->l, c->table, &ncol, &pk, k->err);
    if (k->rc == PIER_OK) {
        bool same = (size_t)ncol == c->ncolumns;
        for (size_t i = 0; same && i < c->ncolumns; i++)
            same = (pk.p[i] != 0) == (c->pk[i] != 0);
        if (ncol == 0)
            k->rc = pier__fail(k->err, PIER_E_TABLE_NOT_FOUND,
                               "the changeset changes table '%s', which "
                               "the lake does not have", c->table);
        else if (!same)
            k->rc = pier__fail(k->err, PIER_E_TABLE_NOT_FOUND,
                               "the changeset changes table '%s' with %zu "
                               "columns and another key; the lake's has "
                               "%d columns", c->table, c->ncolumns, ncol);
        if (k->rc != PIER_OK && k->err != NULL)
            snprintf(k->err->board, sizeof k->err->board, "%s", c->table);
    }
    pier__buf_free(&pk);
    snprintf(k->last, sizeof k->last, "%s", c->table);
    return k->rc != PIER_OK;
}

pier_status pier__sqlite_changeset_apply(pier__lake *lake, const void *bytes,
                                         size_t len, bool invert, int policy,
                                         int64_t *skipped, int64_t *replaced,
                                         pier__stmt_failure *failure,
                                         pier_error *err)
{
    pier__sqlite_lake *l = (pier__sqlite_lake *)lake;
    *skipped = *replaced = 0;
    memset(failure, 0, sizeof *failure);
    check_ctx k = { .l = l, .rc = PIER_OK, .err = err };
    pier_status rc = pier__changeset_walk(bytes, len, check_table, &k, err);
    if (rc == PIER_OK)
        rc = k.rc;
    if (rc != PIER_OK || len == 0)
        return rc;
    void *inverse = NULL;
    int n = (int)len;
    if (invert) {
        int src = sqlite3changeset_invert(n, bytes, &n, &inverse);
        if (src != SQLITE_OK)
            return src == SQLITE_NOMEM
                ? pier__oom(err)
                : pier__fail(err, PIER_E_INVALID_ARGUMENT,
                             "the changeset cannot be inverted");
    }
    apply_ctx a = { .l = l, .policy = policy };
    /* SQLite's apply defers foreign keys to its end and meets a refused
     * value as a constraint conflict: the dialect's checks do the same
     * while it runs (pier__stmt_failure.applying). */
    memset(&l->failure, 0, sizeof l->failure);
    l->failure.applying = true;
    int src = sqlite3changeset_apply_v2(l->db, n,
                                        invert ? inverse : (void *)bytes,
                                        NULL, apply_conflict, &a, NULL, NULL,
                                        0);
    l->failure.applying = false;
    sqlite3_free(inverse);
    if (a.conflict != 0)
        return conflict_failure(&a, failure, err);
    if (src != SQLITE_OK) {
        if (src == SQLITE_NOMEM)
            return pier__oom(err);
        int code = sqlite3_extended_errcode(l->db);
        pier_status st = pier__sqlite_step_status(l, code,
                                                  sqlite3_errmsg(l->db));
        if (st == PIER_E_QUERY_FAILED)  /* not the changes' fault */
            st = PIER_E_WRITE_FAILED;
        *failure = l->failure;
        return pier__sqlite_fail(l, err, st, "cannot apply the changeset");
    }
    *skipped = a.skipped;
    *replaced = a.replaced;
    return PIER_OK;
}
