/*
 * sqlite_record.c: a transaction's changes, recorded from the pre-update
 * hook and written as SQLite's session extension writes a changeset.
 *
 * Why not a session: SQLite 3.40 cannot empty one, so every recorded
 * transaction needed a new one, whose first change to a table prepared
 * PRAGMA table_info and whose changeset prepared it again, a SELECT of the
 * changed rows and a SAVEPOINT around them. Those prepares were most of
 * what recording cost a small write (docs/benchmarks.md). The recorder
 * does a session's work with what it learnt of each table (its columns,
 * key and SELECT) kept across transactions.
 *
 * It does that work the way sqlite3session.c (3.40) does, so that the
 * bytes are the same; tests/unit/test_record.c compares them with a
 * session's on random workloads:
 *
 * - A table is recorded from its first change in the transaction, if the
 *   filter takes it and it has a PRIMARY KEY; its columns (PRAGMA
 *   table_info: generated columns are not among them) and key are read
 *   then. A change with another number of columns than that (a stored
 *   generated column, or a column added since) fails the recording with
 *   SQLITE_SCHEMA, as does finding other columns or another key when the
 *   changeset is written.
 * - A row's first change records its values before (an UPDATE or DELETE:
 *   every column) or its key (an INSERT: the row was not there); later
 *   changes to it record nothing. An UPDATE is also an INSERT of its new
 *   key, so that one that moves the key changes two rows. A row whose key
 *   holds a NULL is not recorded. A change made by a trigger or a foreign
 *   key's action (depth > 0) is indirect, until a direct one.
 * - The changeset reads each recorded row as it is when it is written (a
 *   SELECT by key): a row that was not there and is now is an INSERT of
 *   its values; one that was there is an UPDATE of the columns that
 *   differ (nothing if none does) or, if it is gone, a DELETE of its first
 *   values. So changes to one row coalesce, and what a rolled-back
 *   savepoint undid leaves nothing.
 * - Tables come in the order of their first change, each table's rows in
 *   the order of its hash table: the session's hash of the key, 256
 *   buckets doubled when half as many rows are recorded, each row put at
 *   the head of its bucket.
 *
 * A table's columns, key and SELECT (a rec_info) are kept for as long as
 * SQLite's schema cookie holds the value it had when they were read, if
 * that was the transaction's first cookie: committed schemas' cookies
 * only move forward, which is what SQLite trusts when it keeps a prepared
 * statement, so a later transaction that finds that cookie has that
 * schema. One read after the schema changed inside the transaction
 * serves that read only: a savepoint rolled back takes the cookie back,
 * and the next schema change can bring it to the same value with another
 * schema behind it. (The first cookie is read only when a read was not
 * kept: the cookie read at a table's first change is what tells whether
 * a kept one holds. When the changeset is written, the kept SELECT tells:
 * SQLite prepares it again if the schema changed, see put_table.)
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "store/sqlite_record.h"

typedef unsigned char u8;

/* Tables whose columns and SELECT are kept from one transaction to the
 * next: a lake's busy tables, each a prepared statement; past this many,
 * all are forgotten between two transactions and read again as needed. */
#define KEEP_TABLES 64
/* The buffers kept for the next changeset, up to this many bytes (a
 * larger one is freed once used). */
#define KEEP_BYTES (64 * 1024)

/* A table's columns as PRAGMA table_info gives them. */
typedef struct rec_info {
    char *name;                /* the table's, found without regard to
                                  ASCII case */
    int ncol;
    char **cols;               /* ncol names */
    u8 *pk;                    /* ncol: the column's place in the key (1,
                                  2, ...), or 0 */
    int rowid;                 /* the key's column when it is the rowid
                                  (INTEGER PRIMARY KEY), else -1 */
    int64_t cookie;            /* the schema cookie it holds under; -1:
                                  read again at the next use */
    sqlite3_stmt *select;      /* the columns of a row by its key; NULL
                                  until needed */
    int reprepares;            /* select's SQLITE_STMTSTATUS_REPREPARE when
                                  the columns were last checked */
} rec_info;

/* A recorded row: the first change of the transaction to it. */
typedef struct rec_change {
    struct rec_change *next;   /* in its bucket (or the table's list) */
    unsigned h;                /* the hash of its key */
    int op;                    /* SQLITE_INSERT (it was not there),
                                  SQLITE_UPDATE or SQLITE_DELETE */
    bool indirect;
    size_t n;
    u8 record[];               /* the values before, or for an INSERT its
                                  key (other columns "undefined", 0) */
} rec_change;

/* A table the transaction changed (the arena's). */
typedef struct rec_table {
    const char *name;          /* as the hook first named it */
    int rc;                    /* SQLITE_OK, or what failed its recording
                                  (what fails a session that has it) */
    bool taken;                /* the filter took it */
    bool ready;                /* its columns were read */
    rec_info *info;
    int ncol;                  /* as they were read */
    u8 *pk;                    /* a copy of info->pk as it was read; NULL:
                                  no PRIMARY KEY, nothing recorded */
    int rowid;                 /* info->rowid as it was read */
    bool text_key;             /* a key bound from a record was text or a
                                  blob */
    /* The session's hash table, of nbuckets (0 before the first row).
     * While it has its first 256, the rows are a list, newest first (the
     * order of each bucket), and buckets is NULL: the array is made only
     * when it grows. */
    rec_change **buckets;      /* the arena's */
    rec_change *list;
    size_t nbuckets;
    size_t nentries;
} rec_table;

struct pier__recorder {
    sqlite3 *db;
    bool *policy;              /* cleared around the recorder's statements;
                                  may be NULL */
    sqlite3_stmt *cookie;      /* PRAGMA schema_version, kept */
    sqlite3_stmt *columns;     /* pragma_table_info, kept */
    sqlite3_stmt *pk_index;    /* whether the key has an index, kept */
    rec_info **infos;          /* what was read of tables, kept */
    size_t ninfos, infos_cap;
    pier__buf scratch;         /* an UPDATE's new values, reused */
    pier__buf out;             /* the changeset being written, reused */
    /* The transaction recorded (start ... stop): */
    bool running;              /* the hook is installed */
    bool recording;            /* ... and records (not paused) */
    int rc;                    /* SQLITE_OK, or what failed the whole
                                  recording (tables have their own) */
    int64_t begin_cookie;      /* the schema cookie at start; -1: not read
                                  (every kept table held then) */
    bool need_begin;           /* a table read is not kept yet: read the
                                  cookie at the next start */
    pier__recorder_filter filter;
    void *payload;
    rec_table **tables;        /* in the order of their first change */
    size_t ntables, tables_cap;
    pier__arena mem;           /* the tables and changes */
};

/* ---- the record format (sqlite3session.c's "RECORD FORMAT") ---- */

/* SQLite's varint (sqlite3PutVarint) of a length: 1 to 5 bytes, 7 bits
 * each, most significant first. */
static int varint_put(u8 *p, uint32_t v)
{
    u8 tmp[5];
    int n = 0;
    do {
        tmp[n++] = (u8)((v & 0x7f) | 0x80);
        v >>= 7;
    } while (v != 0);
    tmp[0] &= 0x7f;
    for (int i = 0; i < n; i++)
        p[i] = tmp[n - 1 - i];
    return n;
}

static int varint_len(uint32_t v)
{
    int n = 1;
    while (v >>= 7)
        n++;
    return n;
}

/* Reads what varint_put wrote (the recorder reads only its own records). */
static int varint_get(const u8 *p, uint32_t *out)
{
    uint32_t v = 0;
    int i = 0;
    do
        v = (v << 7) | (p[i] & 0x7f);
    while (p[i++] & 0x80);
    *out = v;
    return i;
}

static void put_i64(u8 *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--) {
        p[i] = (u8)(v & 0xff);
        v >>= 8;
    }
}

static uint64_t get_i64(const u8 *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = (v << 8) | p[i];
    return v;
}

static uint64_t double_bits(double d)
{
    uint64_t v;
    memcpy(&v, &d, 8);
    return v;
}

/* The bytes of one value in a record: a type byte, then 8 bytes (an
 * integer, a real's bits) or a length and the bytes (text, blob); a NULL
 * value pointer is "undefined", type 0. */
static int value_len(sqlite3_value *v, size_t *n)
{
    if (v == NULL) {
        *n = 1;
        return SQLITE_OK;
    }
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        *n = 1;
        return SQLITE_OK;
    case SQLITE_INTEGER:
    case SQLITE_FLOAT:
        *n = 9;
        return SQLITE_OK;
    default: {
        int type = sqlite3_value_type(v);
        const void *z = type == SQLITE_TEXT
            ? (const void *)sqlite3_value_text(v) : sqlite3_value_blob(v);
        int bytes = sqlite3_value_bytes(v);
        if (z == NULL && (type != SQLITE_BLOB || bytes > 0))
            return SQLITE_NOMEM;
        *n = 1 + (size_t)varint_len((uint32_t)bytes) + (size_t)bytes;
        return SQLITE_OK;
    }
    }
}

/* Writes a value value_len measured (its conversions are cached). */
static size_t value_put(u8 *p, sqlite3_value *v)
{
    if (v == NULL) {
        p[0] = 0;
        return 1;
    }
    int type = sqlite3_value_type(v);
    p[0] = (u8)type;
    switch (type) {
    case SQLITE_NULL:
        return 1;
    case SQLITE_INTEGER:
        put_i64(p + 1, (uint64_t)sqlite3_value_int64(v));
        return 9;
    case SQLITE_FLOAT:
        put_i64(p + 1, double_bits(sqlite3_value_double(v)));
        return 9;
    default: {
        const void *z = type == SQLITE_TEXT
            ? (const void *)sqlite3_value_text(v) : sqlite3_value_blob(v);
        int bytes = sqlite3_value_bytes(v);
        int h = varint_put(p + 1, (uint32_t)bytes);
        if (bytes > 0)
            memcpy(p + 1 + h, z, (size_t)bytes);
        return 1 + (size_t)h + (size_t)bytes;
    }
    }
}

/* The length of the value at p, type byte included. */
static size_t serial_len(const u8 *p)
{
    if (p[0] == 0 || p[0] == SQLITE_NULL)
        return 1;
    if (p[0] == SQLITE_INTEGER || p[0] == SQLITE_FLOAT)
        return 9;
    uint32_t n;
    int h = varint_get(p + 1, &n);
    return 1 + (size_t)h + n;
}

/* ---- the session's hash of a key ---- */

static unsigned hash_add(unsigned h, unsigned add)
{
    return (h << 3) ^ h ^ add;
}

static unsigned hash_i64(unsigned h, uint64_t v)
{
    h = hash_add(h, (unsigned)(v & 0xffffffffu));
    return hash_add(h, (unsigned)(v >> 32));
}

static unsigned hash_bytes(unsigned h, const u8 *z, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = hash_add(h, z[i]);
    return h;
}

/* The old (bnew false) or new values' key in the hook
 * (sessionPreupdateHash); *null when part of it is NULL. */
static int hook_hash(sqlite3 *db, const rec_table *t, bool bnew,
                     unsigned *out, bool *null)
{
    unsigned h = 0;
    for (int i = 0; i < t->ncol; i++) {
        if (t->pk[i] == 0)
            continue;
        sqlite3_value *v = NULL;
        int rc = bnew ? sqlite3_preupdate_new(db, i, &v)
                      : sqlite3_preupdate_old(db, i, &v);
        if (rc != SQLITE_OK)
            return rc;
        int type = sqlite3_value_type(v);
        h = hash_add(h, (unsigned)type);
        if (type == SQLITE_INTEGER) {
            h = hash_i64(h, (uint64_t)sqlite3_value_int64(v));
        } else if (type == SQLITE_FLOAT) {
            h = hash_i64(h, double_bits(sqlite3_value_double(v)));
        } else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
            const u8 *z = type == SQLITE_TEXT ? sqlite3_value_text(v)
                                              : sqlite3_value_blob(v);
            int n = sqlite3_value_bytes(v);
            if (z == NULL && (type != SQLITE_BLOB || n > 0))
                return SQLITE_NOMEM;
            h = hash_bytes(h, z, (size_t)n);
        } else {
            *null = true;
        }
    }
    *out = h;
    return SQLITE_OK;
}

/* Whether the hook's row is the row of change c (sessionPreupdateEqual):
 * the key of the new values for an INSERT, else of the old. */
static bool hook_equal(sqlite3 *db, const rec_table *t,
                       const rec_change *c, int op)
{
    const u8 *a = c->record;
    for (int i = 0; i < t->ncol; i++) {
        if (t->pk[i] == 0) {
            a += serial_len(a);
            continue;
        }
        sqlite3_value *v = NULL;
        /* cannot fail: hook_hash fetched these values already */
        if (op == SQLITE_INSERT)
            sqlite3_preupdate_new(db, i, &v);
        else
            sqlite3_preupdate_old(db, i, &v);
        int type = *a++;
        if (v == NULL || sqlite3_value_type(v) != type)
            return false;
        if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
            uint64_t bits = get_i64(a);
            a += 8;
            if (type == SQLITE_INTEGER) {
                if (sqlite3_value_int64(v) != (sqlite3_int64)bits)
                    return false;
            } else {
                double d;
                memcpy(&d, &bits, 8);
                if (sqlite3_value_double(v) != d)
                    return false;
            }
        } else {
            uint32_t n;
            a += varint_get(a, &n);
            if (sqlite3_value_bytes(v) != (int)n)
                return false;
            const void *z = type == SQLITE_TEXT
                ? (const void *)sqlite3_value_text(v)
                : sqlite3_value_blob(v);
            if (n > 0 && memcmp(a, z, n) != 0)
                return false;
            a += n;
        }
    }
    return true;
}

/* ---- the recorder's own statements ---- */

/* The owner's authorizer lets the recorder's statements pass. */
static bool own_begin(pier__recorder *r)
{
    bool was = r->policy != NULL && *r->policy;
    if (r->policy != NULL)
        *r->policy = false;
    return was;
}

static void own_end(pier__recorder *r, bool was)
{
    if (r->policy != NULL)
        *r->policy = was;
}

static int read_cookie(pier__recorder *r, int64_t *out)
{
    bool was = own_begin(r);
    int rc = SQLITE_OK;
    if (r->cookie == NULL)
        rc = sqlite3_prepare_v3(r->db, "PRAGMA main.schema_version", -1,
                                SQLITE_PREPARE_PERSISTENT, &r->cookie, NULL);
    if (rc == SQLITE_OK) {
        bool row = sqlite3_step(r->cookie) == SQLITE_ROW;
        if (row)
            *out = sqlite3_column_int64(r->cookie, 0);
        rc = sqlite3_reset(r->cookie);
        if (rc == SQLITE_OK && !row)
            rc = SQLITE_ERROR;
    }
    own_end(r, was);
    return rc;
}

static void info_forget(rec_info *info)
{
    sqlite3_finalize(info->select);
    info->select = NULL;
    for (int i = 0; i < info->ncol; i++)
        free(info->cols[i]);
    free(info->cols);
    free(info->pk);
    info->cols = NULL;
    info->pk = NULL;
    info->ncol = 0;
    info->rowid = -1;
    info->cookie = -1;
}

static void info_free(rec_info *info)
{
    info_forget(info);
    free(info->name);
    free(info);
}

/* What is kept of table `name`, a new empty entry if nothing; NULL: out
 * of memory. */
static rec_info *info_of(pier__recorder *r, const char *name)
{
    for (size_t i = 0; i < r->ninfos; i++)
        if (sqlite3_stricmp(r->infos[i]->name, name) == 0)
            return r->infos[i];
    if (r->ninfos == r->infos_cap) {
        size_t cap = r->infos_cap == 0 ? 8 : 2 * r->infos_cap;
        rec_info **v = realloc(r->infos, cap * sizeof *v);
        if (v == NULL)
            return NULL;
        r->infos = v;
        r->infos_cap = cap;
    }
    rec_info *info = calloc(1, sizeof *info);
    if (info == NULL || (info->name = pier__strdup(name)) == NULL) {
        free(info);
        return NULL;
    }
    info->cookie = -1;
    info->rowid = -1;
    r->infos[r->ninfos++] = info;
    return info;
}

/* Whether the table's key is its rowid: one column, without an index of
 * its own (a rowid table makes one for any other key, and a WITHOUT
 * ROWID table is its key's index). Then sqlite3_preupdate_new gives the
 * new rowid for it, which the hook has without unpacking the row. */
static int rowid_of(pier__recorder *r, rec_info *info)
{
    int key = -1, nkey = 0;
    for (int i = 0; i < info->ncol; i++)
        if (info->pk[i] != 0) {
            key = i;
            nkey++;
        }
    info->rowid = -1;
    if (nkey != 1)
        return SQLITE_OK;
    int rc = SQLITE_OK;
    if (r->pk_index == NULL)
        rc = sqlite3_prepare_v3(r->db, "SELECT 1 FROM pragma_index_list(?1, "
                                "'main') WHERE origin = 'pk'", -1,
                                SQLITE_PREPARE_PERSISTENT, &r->pk_index,
                                NULL);
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_bind_text(r->pk_index, 1, info->name, -1, SQLITE_STATIC);
    int step = sqlite3_step(r->pk_index);
    rc = sqlite3_reset(r->pk_index);
    sqlite3_clear_bindings(r->pk_index);
    if (rc == SQLITE_OK && step == SQLITE_DONE)
        info->rowid = key;
    return rc;
}

/* Reads the table's columns (sessionTableInfo) into info. */
static int info_read(pier__recorder *r, rec_info *info)
{
    info_forget(info);
    bool was = own_begin(r);
    int rc = SQLITE_OK;
    if (r->columns == NULL)
        rc = sqlite3_prepare_v3(r->db, "SELECT name, pk FROM "
                                "pragma_table_info(?1, 'main')", -1,
                                SQLITE_PREPARE_PERSISTENT, &r->columns,
                                NULL);
    size_t cap = 0;
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(r->columns, 1, info->name, -1, SQLITE_STATIC);
        while (rc == SQLITE_OK && sqlite3_step(r->columns) == SQLITE_ROW) {
            const char *col = (const char *)sqlite3_column_text(r->columns,
                                                                0);
            if (col == NULL) {
                rc = SQLITE_NOMEM;
                break;
            }
            if ((size_t)info->ncol == cap) {
                size_t c2 = cap == 0 ? 8 : 2 * cap;
                char **cols = realloc(info->cols, c2 * sizeof *cols);
                if (cols != NULL)
                    info->cols = cols;
                u8 *pk = cols != NULL ? realloc(info->pk, c2) : NULL;
                if (pk != NULL)
                    info->pk = pk;
                if (cols == NULL || pk == NULL) {
                    rc = SQLITE_NOMEM;
                    break;
                }
                cap = c2;
            }
            if ((info->cols[info->ncol] = pier__strdup(col)) == NULL) {
                rc = SQLITE_NOMEM;
                break;
            }
            /* PRAGMA table_info's pk, as a byte (the session's abPK) */
            info->pk[info->ncol] = (u8)sqlite3_column_int(r->columns, 1);
            info->ncol++;
        }
        int rrc = sqlite3_reset(r->columns);
        if (rc == SQLITE_OK)
            rc = rrc;
        sqlite3_clear_bindings(r->columns);
    }
    if (rc == SQLITE_OK)
        rc = rowid_of(r, info);
    own_end(r, was);
    if (rc != SQLITE_OK)
        info_forget(info);
    return rc;
}

/* Makes info hold for the schema as it is (cookie `now`): see the top of
 * this file for when what was read still holds. */
static int info_fresh(pier__recorder *r, rec_info *info, int64_t now)
{
    if (info->cookie >= 0 && info->cookie == now)
        return SQLITE_OK;
    int rc = info_read(r, info);
    if (rc == SQLITE_OK && now == r->begin_cookie)
        info->cookie = now;
    else
        r->need_begin = true;
    return rc;
}

/* Appends an identifier in grave accents: unlike double quotes (what a
 * session writes), a name that matches no column is an error, never a
 * string. */
static void put_ident(pier__buf *b, const char *name)
{
    pier__buf_putc(b, '`');
    for (const char *p = name; *p != '\0'; p++) {
        if (*p == '`')
            pier__buf_putc(b, '`');
        pier__buf_putc(b, *p);
    }
    pier__buf_putc(b, '`');
}

/* The SELECT of table t's row by its key (sessionSelectStmt, naming the
 * columns the session reads rather than `*`), prepared once. */
static int select_of(pier__recorder *r, rec_table *t, sqlite3_stmt **out)
{
    rec_info *info = t->info;
    if (info->select != NULL) {
        *out = info->select;
        return SQLITE_OK;
    }
    pier__buf sql;
    pier__buf_init(&sql);
    pier__buf_puts(&sql, "SELECT ");
    for (int i = 0; i < info->ncol; i++) {
        if (i > 0)
            pier__buf_puts(&sql, ", ");
        put_ident(&sql, info->cols[i]);
    }
    pier__buf_puts(&sql, " FROM `main`.");
    put_ident(&sql, t->name);
    const char *sep = " WHERE ";
    for (int i = 0; i < info->ncol; i++) {
        if (info->pk[i] == 0)
            continue;
        pier__buf_puts(&sql, sep);
        put_ident(&sql, info->cols[i]);
        pier__buf_printf(&sql, " IS ?%d", i + 1);
        sep = " AND ";
    }
    int rc = SQLITE_NOMEM;
    if (!sql.oom)
        rc = sqlite3_prepare_v3(r->db, sql.p, (int)sql.len,
                                SQLITE_PREPARE_PERSISTENT, &info->select,
                                NULL);
    info->reprepares = 0;
    pier__buf_free(&sql);
    *out = info->select;
    return rc;
}

/* ---- recording: the pre-update hook ---- */

/* The transaction's entry for table `name`, made at its first change;
 * NULL when it is not recorded (or memory ran out: r->rc says). */
static rec_table *table_of(pier__recorder *r, const char *name)
{
    for (size_t i = 0; i < r->ntables; i++)
        if (sqlite3_stricmp(r->tables[i]->name, name) == 0)
            return r->tables[i]->taken ? r->tables[i] : NULL;
    if (r->ntables == r->tables_cap) {
        size_t cap = r->tables_cap == 0 ? 8 : 2 * r->tables_cap;
        rec_table **v = realloc(r->tables, cap * sizeof *v);
        if (v == NULL) {
            r->rc = SQLITE_NOMEM;
            return NULL;
        }
        r->tables = v;
        r->tables_cap = cap;
    }
    rec_table *t = pier__arena_alloc(&r->mem, sizeof *t);
    char *copy = pier__arena_strndup(&r->mem, name, strlen(name));
    if (t == NULL || copy == NULL) {
        r->rc = SQLITE_NOMEM;
        return NULL;
    }
    /* The engine's tables (sqlite_stat1 and the like) are never recorded:
     * a session reads sqlite_stat1 in a way of its own. */
    *t = (rec_table){
        .name = copy,
        .taken = sqlite3_strnicmp(name, "sqlite_", 7) != 0 &&
                 (r->filter == NULL || r->filter(r->payload, name) != 0),
    };
    r->tables[r->ntables++] = t;
    return t->taken ? t : NULL;
}

/* At a table's first change: its columns and key (sessionInitTable). */
static void table_ready(pier__recorder *r, rec_table *t)
{
    int64_t now = -1;
    int rc = read_cookie(r, &now);
    rec_info *info = NULL;
    if (rc == SQLITE_OK && (info = info_of(r, t->name)) == NULL)
        rc = SQLITE_NOMEM;
    if (rc == SQLITE_OK)
        rc = info_fresh(r, info, now);
    bool keyed = false;
    for (int i = 0; rc == SQLITE_OK && i < info->ncol; i++)
        keyed = keyed || info->pk[i] != 0;
    if (rc == SQLITE_OK && keyed) {
        t->pk = pier__arena_alloc(&r->mem, (size_t)info->ncol);
        if (t->pk == NULL)
            rc = SQLITE_NOMEM;
        else
            memcpy(t->pk, info->pk, (size_t)info->ncol);
    }
    if (rc != SQLITE_OK) {
        t->rc = rc;
        return;
    }
    t->info = info;
    t->ncol = info->ncol;
    t->rowid = info->rowid;
    t->ready = true;
}

/* n empty buckets from the arena; NULL when out of memory. (Arrays
 * outgrown stay in the arena until the transaction ends: at most as much
 * again.) */
static rec_change **buckets_new(pier__recorder *r, size_t n)
{
    rec_change **b = n <= SIZE_MAX / sizeof *b
        ? pier__arena_alloc(&r->mem, n * sizeof *b) : NULL;
    if (b != NULL)
        memset(b, 0, n * sizeof *b);
    return b;
}

/* Room for the next row (sessionGrowHash): 256 buckets at first, twice as
 * many whenever half as many rows are recorded, rows moved over bucket
 * by bucket, each to the head of its new one. */
static int grow(pier__recorder *r, rec_table *t)
{
    if (t->nbuckets == 0) {
        t->nbuckets = 256;     /* the list stands for them */
        return SQLITE_OK;
    }
    if (t->nentries < t->nbuckets / 2)
        return SQLITE_OK;
    if (t->buckets == NULL) {
        /* the list's rows into the 256 buckets, oldest first, each to
         * the head of its bucket: as if they had always been there */
        if ((t->buckets = buckets_new(r, t->nbuckets)) == NULL)
            return SQLITE_NOMEM;
        rec_change *old = NULL, *next;
        for (rec_change *c = t->list; c != NULL; c = next) {
            next = c->next;
            c->next = old;
            old = c;
        }
        for (rec_change *c = old; c != NULL; c = next) {
            next = c->next;
            size_t at = c->h % t->nbuckets;
            c->next = t->buckets[at];
            t->buckets[at] = c;
        }
        t->list = NULL;
    }
    size_t n = 2 * t->nbuckets;
    rec_change **b = buckets_new(r, n);
    if (b == NULL)
        return SQLITE_NOMEM;
    for (size_t i = 0; i < t->nbuckets; i++) {
        rec_change *next;
        for (rec_change *c = t->buckets[i]; c != NULL; c = next) {
            next = c->next;
            c->next = b[c->h % n];
            b[c->h % n] = c;
        }
    }
    t->buckets = b;
    t->nbuckets = n;
    return SQLITE_OK;
}

/* Whether change c's key is the rowid `key` (t's key is its rowid). */
static bool rowid_equal(const rec_table *t, const rec_change *c,
                        sqlite3_int64 key)
{
    const u8 *a = c->record;
    for (int i = 0; i < t->rowid; i++)
        a += serial_len(a);
    return a[0] == SQLITE_INTEGER && (sqlite3_int64)get_i64(a + 1) == key;
}

/* One change to a row of t (sessionPreupdateOneChange); `key` is the new
 * rowid of an INSERT or UPDATE. A failure is the table's: it fails the
 * changesets that hold the table, as it would fail every session that
 * has the table. */
static void one_change(pier__recorder *r, rec_table *t, int op,
                       sqlite3_int64 key)
{
    if (t->rc != SQLITE_OK)
        return;
    if (!t->ready) {
        table_ready(r, t);
        if (t->rc != SQLITE_OK)
            return;
    }
    if (t->pk == NULL)
        return;
    if (t->ncol != sqlite3_preupdate_count(r->db)) {
        t->rc = SQLITE_SCHEMA;
        return;
    }
    if (grow(r, t) != SQLITE_OK) {
        t->rc = SQLITE_NOMEM;
        return;
    }
    /* A new key that is the rowid is `key`: the row need not be read. */
    bool by_rowid = op == SQLITE_INSERT && t->rowid >= 0;
    unsigned h = 0;
    bool null = false;
    int rc = SQLITE_OK;
    if (by_rowid)
        h = hash_i64(hash_add(0, SQLITE_INTEGER), (uint64_t)key);
    else
        rc = hook_hash(r->db, t, op == SQLITE_INSERT, &h, &null);
    if (rc != SQLITE_OK) {
        t->rc = rc;
        return;
    }
    if (null)
        return;
    rec_change **head = t->buckets != NULL
        ? &t->buckets[(size_t)h % t->nbuckets] : &t->list;
    rec_change *c = *head;
    while (c != NULL &&
           (c->h != h || !(by_rowid ? rowid_equal(t, c, key)
                                    : hook_equal(r->db, t, c, op))))
        c = c->next;
    if (c != NULL) {
        if (c->indirect && sqlite3_preupdate_depth(r->db) == 0)
            c->indirect = false;
        return;
    }
    /* The values before (an UPDATE or a DELETE), or the key (an INSERT). */
    size_t n = 0;
    for (int i = 0; rc == SQLITE_OK && i < t->ncol; i++) {
        sqlite3_value *v = NULL;
        size_t len = 0;
        if (by_rowid)
            len = i == t->rowid ? 9 : 1;
        else if (op != SQLITE_INSERT)
            rc = sqlite3_preupdate_old(r->db, i, &v);
        else if (t->pk[i] != 0)
            rc = sqlite3_preupdate_new(r->db, i, &v);
        if (rc == SQLITE_OK && !by_rowid)
            rc = value_len(v, &len);
        n += len;
    }
    t->nentries++;             /* as the session counts it, even failing */
    if (rc == SQLITE_OK &&
        (c = pier__arena_alloc(&r->mem, sizeof *c + n)) == NULL)
        rc = SQLITE_NOMEM;
    if (rc != SQLITE_OK) {
        t->rc = rc;
        return;
    }
    size_t off = 0;
    for (int i = 0; i < t->ncol; i++) {
        sqlite3_value *v = NULL;
        if (by_rowid) {
            c->record[off] = i == t->rowid ? SQLITE_INTEGER : 0;
            if (i == t->rowid)
                put_i64(c->record + off + 1, (uint64_t)key);
            off += i == t->rowid ? 9 : 1;
            continue;
        }
        if (op != SQLITE_INSERT)
            sqlite3_preupdate_old(r->db, i, &v);
        else if (t->pk[i] != 0)
            sqlite3_preupdate_new(r->db, i, &v);
        off += value_put(c->record + off, v);
    }
    c->n = n;
    c->h = h;
    c->op = op;
    c->indirect = sqlite3_preupdate_depth(r->db) > 0;
    c->next = *head;
    *head = c;
}

static void hook(void *payload, sqlite3 *db, int op, const char *zdb,
                 const char *name, sqlite3_int64 key1, sqlite3_int64 key2)
{
    (void)db;
    (void)key1;
    pier__recorder *r = payload;
    if (!r->recording || r->rc != SQLITE_OK ||
        sqlite3_stricmp(zdb, "main") != 0)
        return;
    rec_table *t = table_of(r, name);
    if (t == NULL)
        return;
    one_change(r, t, op, key2);
    /* an UPDATE is also the arrival of its new key */
    if (op == SQLITE_UPDATE)
        one_change(r, t, SQLITE_INSERT, key2);
}

/* ---- writing the changeset ---- */

/* Binds change c's key to its table's SELECT (sessionSelectBind); the
 * record stays put while the statement runs. */
static int bind_key(sqlite3_stmt *st, rec_table *t, const rec_change *c)
{
    const u8 *a = c->record;
    int rc = SQLITE_OK;
    for (int i = 0; rc == SQLITE_OK && i < t->ncol; i++) {
        int type = *a++;
        bool key = t->pk[i] != 0;
        switch (type) {
        case 0:
        case SQLITE_NULL:
            break;
        case SQLITE_INTEGER:
            if (key)
                rc = sqlite3_bind_int64(st, i + 1, (sqlite3_int64)get_i64(a));
            a += 8;
            break;
        case SQLITE_FLOAT: {
            uint64_t bits = get_i64(a);
            double d;
            memcpy(&d, &bits, 8);
            if (key)
                rc = sqlite3_bind_double(st, i + 1, d);
            a += 8;
            break;
        }
        default: {
            uint32_t n;
            a += varint_get(a, &n);
            t->text_key = t->text_key || key;
            if (key && type == SQLITE_TEXT)
                rc = sqlite3_bind_text(st, i + 1, (const char *)a, (int)n,
                                       SQLITE_STATIC);
            else if (key)
                rc = sqlite3_bind_blob(st, i + 1, a, (int)n, SQLITE_STATIC);
            a += n;
            break;
        }
        }
    }
    return rc;
}

/* Room for n more bytes at the end of b (its NUL is the caller's to
 * put back); NULL when memory ran out (b->oom says so). */
static u8 *room(pier__buf *b, size_t n)
{
    return pier__buf_reserve(b, n) ? (u8 *)b->p + b->len : NULL;
}

/* Appends a value of the row (sessionAppendCol: the column's value is
 * read as sqlite3_column_* would read it). */
static void put_column(pier__buf *b, sqlite3_value *v, int *rc)
{
    int type = sqlite3_value_type(v);
    u8 *p;
    if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
        if ((p = room(b, 9)) == NULL)
            return;
        p[0] = (u8)type;
        put_i64(p + 1, type == SQLITE_INTEGER
                           ? (uint64_t)sqlite3_value_int64(v)
                           : double_bits(sqlite3_value_double(v)));
        b->len += 9;
    } else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
        const void *z = type == SQLITE_BLOB
            ? sqlite3_value_blob(v)
            : (const void *)sqlite3_value_text(v);
        int n = sqlite3_value_bytes(v);
        if (z == NULL && (type != SQLITE_BLOB || n != 0)) {
            *rc = SQLITE_NOMEM;
            return;
        }
        if ((p = room(b, 6 + (size_t)n)) == NULL)
            return;
        p[0] = (u8)type;
        int h = varint_put(p + 1, (uint32_t)n);
        if (n > 0)
            memcpy(p + 1 + h, z, (size_t)n);
        b->len += 1 + (size_t)h + (size_t)n;
    } else {
        if ((p = room(b, 1)) == NULL)
            return;
        p[0] = (u8)type;
        b->len += 1;
    }
    b->p[b->len] = '\0';
}

/* Appends an UPDATE of the columns that differ from the first values,
 * the key's and the changed ones' old values, or nothing when none
 * differs (sessionAppendUpdate). */
static int put_update(pier__recorder *r, pier__buf *b, sqlite3_stmt *st,
                      const rec_table *t, const rec_change *c)
{
    int rc = SQLITE_OK;
    size_t rewind = b->len;
    pier__buf *news = &r->scratch;
    pier__buf_reset(news);
    bool noop = true;
    pier__buf_putc(b, SQLITE_UPDATE);
    pier__buf_putc(b, c->indirect ? 1 : 0);
    const u8 *a = c->record;
    for (int i = 0; i < t->ncol; i++) {
        sqlite3_value *v = sqlite3_column_value(st, i);
        int type = *a;
        size_t adv = serial_len(a);
        bool changed;
        if (type == SQLITE_NULL) {
            changed = sqlite3_value_type(v) != SQLITE_NULL;
        } else if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
            changed = true;
            if (type == sqlite3_value_type(v)) {
                uint64_t bits = get_i64(a + 1);
                if (type == SQLITE_INTEGER) {
                    changed = (sqlite3_int64)bits != sqlite3_value_int64(v);
                } else {
                    double d;
                    memcpy(&d, &bits, 8);
                    changed = d != sqlite3_value_double(v);
                }
            }
        } else {
            uint32_t n;
            int h = varint_get(a + 1, &n);
            changed = !(type == sqlite3_value_type(v) &&
                        (int)n == sqlite3_value_bytes(v) &&
                        (n == 0 || memcmp(a + 1 + h, sqlite3_value_blob(v),
                                          n) == 0));
        }
        if (changed)
            noop = false;
        if (changed || t->pk[i] != 0)
            pier__buf_append(b, a, adv);
        else
            pier__buf_putc(b, 0);
        if (changed)
            put_column(news, v, &rc);
        else
            pier__buf_putc(news, 0);
        a += adv;
    }
    if (news->oom)
        rc = SQLITE_NOMEM;
    if (noop)
        b->len = rewind;
    else if (news->len > 0)
        pier__buf_append(b, news->p, news->len);
    return rc;
}

/* Appends the change of row c as it is now (sessionGenerateChangeset's
 * loop): an INSERT of its values, an UPDATE, a DELETE, or nothing. */
static int put_row(pier__recorder *r, pier__buf *b, sqlite3_stmt *st,
                   rec_table *t, const rec_change *c)
{
    int rc = bind_key(st, t, c);
    if (rc != SQLITE_OK)
        return rc;
    if (sqlite3_step(st) == SQLITE_ROW) {
        if (c->op == SQLITE_INSERT) {
            pier__buf_putc(b, SQLITE_INSERT);
            pier__buf_putc(b, c->indirect ? 1 : 0);
            for (int k = 0; k < t->ncol; k++)
                put_column(b, sqlite3_column_value(st, k), &rc);
        } else {
            rc = put_update(r, b, st, t, c);
        }
    } else if (c->op != SQLITE_INSERT) {
        pier__buf_putc(b, SQLITE_DELETE);
        pier__buf_putc(b, c->indirect ? 1 : 0);
        pier__buf_append(b, c->record, c->n);
    }
    int rrc = sqlite3_reset(st);
    return rc != SQLITE_OK ? rc : rrc;
}

/* The columns of t as they are now (the cookie, read once per changeset
 * into *now), which must be those its rows were recorded with: what a
 * session's second PRAGMA table_info checks. */
static int check_columns(pier__recorder *r, rec_table *t, int64_t *now)
{
    int rc = *now < 0 ? read_cookie(r, now) : SQLITE_OK;
    if (rc == SQLITE_OK)
        rc = info_fresh(r, t->info, *now);
    if (rc == SQLITE_OK && (t->info->ncol != t->ncol ||
                            memcmp(t->info->pk, t->pk, (size_t)t->ncol)))
        rc = SQLITE_SCHEMA;
    if (rc == SQLITE_OK && t->info->select != NULL)
        t->info->reprepares = sqlite3_stmt_status(
            t->info->select, SQLITE_STMTSTATUS_REPREPARE, 0);
    return rc;
}

/* Appends table t's header and rows; nothing when no row changed. */
static int put_rows(pier__recorder *r, pier__buf *b, rec_table *t)
{
    size_t rewind = b->len;
    u8 ncol[5];
    pier__buf_putc(b, 'T');
    pier__buf_append(b, ncol, (size_t)varint_put(ncol, (uint32_t)t->ncol));
    pier__buf_append(b, t->pk, (size_t)t->ncol);
    pier__buf_append(b, t->name, strlen(t->name) + 1);
    size_t noop = b->len;
    sqlite3_stmt *st = NULL;
    int rc = select_of(r, t, &st);
    if (t->buckets != NULL) {
        for (size_t i = 0; rc == SQLITE_OK && i < t->nbuckets; i++)
            for (rec_change *c = t->buckets[i]; rc == SQLITE_OK && c != NULL;
                 c = c->next)
                rc = put_row(r, b, st, t, c);
    } else {
        /* the list in bucket order: by bucket, and newest first in each
         * (it holds fewer than 129 rows: more would have grown it) */
        rec_change *v[129];
        size_t n = 0;
        for (rec_change *c = t->list; c != NULL && n < 129; c = c->next) {
            size_t k = n++;
            for (; k > 0 && v[k - 1]->h % 256 > c->h % 256; k--)
                v[k] = v[k - 1];
            v[k] = c;
        }
        for (size_t i = 0; rc == SQLITE_OK && i < n; i++)
            rc = put_row(r, b, st, t, v[i]);
    }
    if (st != NULL) {
        if (rc != SQLITE_OK)
            sqlite3_reset(st);
        if (t->text_key)
            sqlite3_clear_bindings(st);    /* they point into the arena */
    }
    if (b->len == noop || rc != SQLITE_OK)
        b->len = rewind;
    return rc;
}

/* Appends table t's changes. A kept SELECT that SQLite ran without
 * preparing it again proves that the schema is still the one its columns
 * were read in (SQLite prepares a statement again after any schema
 * change, one a savepoint rolled back included), so the cookie is read
 * only when the SELECT is new or was prepared again; then the rows are
 * written again, with the columns checked. */
static int put_table(pier__recorder *r, pier__buf *b, rec_table *t,
                     int64_t *now)
{
    bool checked = t->info->select == NULL;
    int rc = checked ? check_columns(r, t, now) : SQLITE_OK;
    if (rc != SQLITE_OK)
        return rc;
    size_t start = b->len;
    rc = put_rows(r, b, t);
    if (checked)
        return rc;
    if (rc == SQLITE_OK && t->info->select != NULL &&
        sqlite3_stmt_status(t->info->select, SQLITE_STMTSTATUS_REPREPARE,
                            0) == t->info->reprepares)
        return SQLITE_OK;
    b->len = start;
    rc = check_columns(r, t, now);
    return rc == SQLITE_OK ? put_rows(r, b, t) : rc;
}

int pier__recorder_changeset(pier__recorder *r, pier__recorder_filter take,
                             void *payload, void **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    if (!r->running)
        return SQLITE_MISUSE;
    if (r->rc != SQLITE_OK)
        return r->rc;
    pier__buf *b = &r->out;
    pier__buf_reset(b);
    bool was = own_begin(r);
    int rc = SQLITE_OK;
    int64_t now = -1;          /* the schema cookie, once read */
    /* A failed table fails the changeset before any is written. */
    for (size_t i = 0; rc == SQLITE_OK && i < r->ntables; i++) {
        const rec_table *t = r->tables[i];
        if (t->taken && t->rc != SQLITE_OK &&
            (take == NULL || take(payload, t->name) != 0))
            rc = t->rc;
    }
    for (size_t i = 0; rc == SQLITE_OK && i < r->ntables; i++) {
        rec_table *t = r->tables[i];
        if (!t->taken || t->pk == NULL || t->nentries == 0 ||
            (take != NULL && take(payload, t->name) == 0))
            continue;
        rc = put_table(r, b, t, &now);
    }
    own_end(r, was);
    if (rc == SQLITE_OK && b->oom)
        rc = SQLITE_NOMEM;
    if (rc == SQLITE_OK && b->len > 0) {
        if ((*out = malloc(b->len)) == NULL) {
            rc = SQLITE_NOMEM;
        } else {
            memcpy(*out, b->p, b->len);
            *len = b->len;
        }
    }
    if (b->cap > KEEP_BYTES)
        pier__buf_free(b);
    if (r->scratch.cap > KEEP_BYTES)
        pier__buf_free(&r->scratch);
    return rc;
}

const char *pier__recorder_unkeyed(pier__recorder *r,
                                   pier__recorder_filter take,
                                   void *payload)
{
    for (size_t i = 0; i < r->ntables; i++) {
        const rec_table *t = r->tables[i];
        if (t->taken && t->rc == SQLITE_OK && t->ready && t->pk == NULL &&
            (take == NULL || take(payload, t->name) != 0))
            return t->name;
    }
    return NULL;
}

/* ---- the recorder ---- */

pier__recorder *pier__recorder_new(sqlite3 *db, bool *policy)
{
    pier__recorder *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->db = db;
    r->policy = policy;
    pier__buf_init(&r->scratch);
    pier__buf_init(&r->out);
    pier__arena_init(&r->mem);
    return r;
}

int pier__recorder_start(pier__recorder *r, pier__recorder_filter filter,
                         void *payload)
{
    pier__recorder_stop(r);
    if (r->ninfos > KEEP_TABLES) {
        for (size_t i = 0; i < r->ninfos; i++)
            info_free(r->infos[i]);
        r->ninfos = 0;
    }
    /* The cookie at start tells whether a table read now may be kept; it
     * is read only while a read was not kept. */
    r->begin_cookie = -1;
    if (r->need_begin || r->ninfos == 0) {
        int rc = read_cookie(r, &r->begin_cookie);
        if (rc != SQLITE_OK)
            return rc;
        r->need_begin = false;
    }
    r->filter = filter;
    r->payload = payload;
    r->rc = SQLITE_OK;
    r->running = true;
    r->recording = true;
    void *was = sqlite3_preupdate_hook(r->db, hook, r);
    (void)was;
    assert(was == NULL);       /* one recorder, and no session, per
                                  connection */
    return SQLITE_OK;
}

void pier__recorder_pause(pier__recorder *r)
{
    r->recording = false;
}

void pier__recorder_stop(pier__recorder *r)
{
    if (r == NULL || !r->running)
        return;
    sqlite3_preupdate_hook(r->db, NULL, NULL);
    r->ntables = 0;
    pier__arena_reset(&r->mem);
    r->running = false;
    r->recording = false;
}

void pier__recorder_free(pier__recorder *r)
{
    if (r == NULL)
        return;
    pier__recorder_stop(r);
    for (size_t i = 0; i < r->ninfos; i++)
        info_free(r->infos[i]);
    free(r->infos);
    free(r->tables);
    sqlite3_finalize(r->cookie);
    sqlite3_finalize(r->columns);
    sqlite3_finalize(r->pk_index);
    pier__buf_free(&r->scratch);
    pier__buf_free(&r->out);
    pier__arena_free(&r->mem);
    free(r);
}
