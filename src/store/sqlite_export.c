/*
 * sqlite_export.c: the embedded lake as JSON lines and back (pier export,
 * pier import; docs/backup.md has the format).
 *
 * The export is logical, row by row, and holds everything the lake file
 * holds: every table of the lake (the catalog's _pier_ tables, each
 * board's rows, the change feed, the declared tables) with every row and
 * its rowid, every index, view and trigger as SQLite keeps its SQL, and
 * the AUTOINCREMENT counters (sqlite_sequence). Values keep their storage
 * class exactly: an integer is a JSON number, a real {"real":TEXT} (its
 * shortest round-trip text, pier__double_format), a
 * text a JSON string (bytes that are not UTF-8: {"bytes":HEX}), a blob
 * {"blob":HEX}. Importing it into a new lake therefore makes a lake that
 * exports to the same bytes: boards with their types, strictness, column
 * ids and origins, rows with their updated_at, the feed with its
 * watermarks and stamps.
 *
 * The records, one per line, in this order:
 *   {"pier_export":1,"format":F}                 F: the lake's on-disk format
 *   {"object":"table","name":N,"table":T,"sql":S}   tables by name, then
 *                                indexes by name, views in creation order,
 *                                triggers by name
 *   {"rows":N,"columns":[...]}   then one {"r":[...]} per row, rowid first
 *                                when the table has one; tables by name,
 *                                sqlite_sequence last; a virtual table
 *                                has none (its shadow tables hold them)
 *   {"end":ROWS}                 how many rows came before: a file cut
 *                                short has no end, and is refused
 *
 * Import runs in the engine's write transaction: it refuses a lake that
 * is not new, creates what a new lake lacks, replaces the rows of every
 * table, and makes indexes, views and triggers after the rows (a trigger
 * must not fire on them; foreign keys are checked at the commit).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "store/sqlite_int.h"

/* The version of the export's own layout (the header's pier_export). */
#define EXPORT_VERSION 1

typedef struct exporter {
    pier__sqlite_lake *l;
    pier_write_fn fn;
    void *payload;
    pier__buf line;
    int64_t rows;
} exporter;

static pier_status emit(exporter *x, pier_error *err)
{
    pier__buf_putc(&x->line, '\n');
    if (x->line.oom)
        return pier__oom(err);
    bool ok = x->fn(x->line.p, x->line.len, x->payload);
    pier__buf_reset(&x->line);
    return ok ? PIER_OK
              : pier__fail(err, PIER_E_WRITE_FAILED,
                           "the export's output refused a write");
}

static void put_hex(pier__buf *b, const unsigned char *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    pier__buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        pier__buf_putc(b, digits[p[i] >> 4]);
        pier__buf_putc(b, digits[p[i] & 15]);
    }
    pier__buf_putc(b, '"');
}

static void put_value(pier__buf *b, sqlite3_stmt *st, int i)
{
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_INTEGER:
        pier__buf_printf(b, "%lld", (long long)sqlite3_column_int64(st, i));
        break;
    case SQLITE_FLOAT: {
        /* The shortest text that reads back as the same double, in the
         * C locale whatever the application's. */
        char text[PIER__DOUBLE_BUF];
        pier__double_format(sqlite3_column_double(st, i), text);
        pier__buf_printf(b, "{\"real\":\"%s\"}", text);
        break;
    }
    case SQLITE_TEXT: {
        const char *s = (const char *)sqlite3_column_text(st, i);
        size_t n = (size_t)sqlite3_column_bytes(st, i);
        if (pier__utf8_valid(s, n)) {
            pier__buf_json_string(b, s, n);
        } else {
            pier__buf_puts(b, "{\"bytes\":");
            put_hex(b, (const unsigned char *)s, n);
            pier__buf_putc(b, '}');
        }
        break;
    }
    case SQLITE_BLOB:
        pier__buf_puts(b, "{\"blob\":");
        put_hex(b, sqlite3_column_blob(st, i),
                (size_t)sqlite3_column_bytes(st, i));
        pier__buf_putc(b, '}');
        break;
    default:
        pier__buf_puts(b, "null");
    }
}

static pier_status read_fail(pier__sqlite_lake *l, pier_error *err)
{
    return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                             "cannot read the lake for the export");
}

/* The schema objects, in the order import makes them. */
static const char objects_sql[] =
    "SELECT type, name, tbl_name, sql FROM sqlite_schema "
    "WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
    "ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 "
    "WHEN 'view' THEN 2 ELSE 3 END, "
    "CASE type WHEN 'view' THEN rowid ELSE 0 END, name";

static pier_status export_objects(exporter *x, pier_error *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(x->l->db, objects_sql, -1, &st, NULL) !=
        SQLITE_OK)
        return read_fail(x->l, err);
    pier_status rc = PIER_OK;
    int step;
    while (rc == PIER_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
        pier__buf *b = &x->line;
        pier__buf_puts(b, "{\"object\":");
        for (int i = 0; i < 4; i++) {
            static const char *const keys[] = { "", ",\"name\":",
                                                ",\"table\":", ",\"sql\":" };
            pier__buf_puts(b, keys[i]);
            put_value(b, st, i);
        }
        pier__buf_putc(b, '}');
        rc = emit(x, err);
    }
    if (rc == PIER_OK && step != SQLITE_DONE)
        rc = read_fail(x->l, err);
    sqlite3_finalize(st);
    return rc;
}

/* The columns a row of `table` is written with: rowid first when the
 * table has one, then each stored column (not a generated one). The rowid
 * is named by the first of SQLite's three names for it that no column of
 * the table takes ("rowid" unless a column is named so: a board may have
 * a column "rowid" of its own); import writes the rowid by that name. A
 * table whose columns take all three has its rowid out of reach, and is
 * written without it. */
static pier_status table_columns(pier__sqlite_lake *l, const char *table,
                                 pier__buf *select, pier__buf *names,
                                 pier_error *err)
{
    static const char *const rowid_names[] = { "rowid", "_rowid_", "oid" };
    bool taken[3] = { false, false, false };
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(l->db, "SELECT name FROM pragma_table_xinfo(?1) "
                           "ORDER BY cid", -1, &st, NULL) != SQLITE_OK)
        return read_fail(l, err);
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *c = (const char *)sqlite3_column_text(st, 0);
        for (size_t i = 0; c != NULL && i < 3; i++)
            taken[i] = taken[i] || strcasecmp(c, rowid_names[i]) == 0;
    }
    sqlite3_finalize(st);
    st = NULL;
    const char *rowid_name = NULL;
    for (size_t i = 0; rowid_name == NULL && i < 3; i++)
        if (!taken[i])
            rowid_name = rowid_names[i];
    bool rowid = false;
    if (rowid_name != NULL) {
        pier__buf probe;
        pier__buf_init(&probe);
        pier__buf_printf(&probe, "SELECT %s FROM ", rowid_name);
        pier__sql_ident(&probe, table);
        if (probe.oom) {
            pier__buf_free(&probe);
            return pier__oom(err);
        }
        rowid = sqlite3_prepare_v2(l->db, probe.p, -1, &st, NULL) ==
                SQLITE_OK;
        sqlite3_finalize(st);
        pier__buf_free(&probe);
        st = NULL;
    }
    pier__buf_puts(select, "SELECT ");
    pier__buf_putc(names, '[');
    size_t n = 0;
    if (rowid) {
        pier__buf_puts(select, rowid_name);
        pier__buf_printf(names, "\"%s\"", rowid_name);
        n++;
    }
    if (sqlite3_prepare_v2(l->db, "SELECT name FROM pragma_table_xinfo(?1) "
                           "WHERE hidden = 0 ORDER BY cid", -1, &st,
                           NULL) != SQLITE_OK)
        return read_fail(l, err);
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        const char *c = (const char *)sqlite3_column_text(st, 0);
        if (n++ > 0) {
            pier__buf_putc(select, ',');
            pier__buf_putc(names, ',');
        }
        pier__sql_ident(select, c);
        pier__buf_json_string(names, c, strlen(c));
    }
    pier_status rc = step == SQLITE_DONE ? PIER_OK : read_fail(l, err);
    sqlite3_finalize(st);
    pier__buf_puts(select, " FROM ");
    pier__sql_ident(select, table);
    if (rowid)
        pier__buf_printf(select, " ORDER BY %s", rowid_name);
    pier__buf_putc(names, ']');
    if (rc == PIER_OK && (select->oom || names->oom))
        rc = pier__oom(err);
    return rc;
}

static pier_status export_table(exporter *x, const char *table,
                                pier_error *err)
{
    pier__buf select, names;
    pier__buf_init(&select);
    pier__buf_init(&names);
    sqlite3_stmt *st = NULL;
    pier_status rc = table_columns(x->l, table, &select, &names, err);
    if (rc == PIER_OK) {
        pier__buf_puts(&x->line, "{\"rows\":");
        pier__buf_json_string(&x->line, table, strlen(table));
        pier__buf_puts(&x->line, ",\"columns\":");
        pier__buf_puts(&x->line, names.p);
        pier__buf_putc(&x->line, '}');
        rc = emit(x, err);
    }
    if (rc == PIER_OK &&
        sqlite3_prepare_v2(x->l->db, select.p, -1, &st, NULL) != SQLITE_OK)
        rc = read_fail(x->l, err);
    int step = SQLITE_DONE;
    while (rc == PIER_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
        pier__buf_puts(&x->line, "{\"r\":[");
        for (int i = 0; i < sqlite3_column_count(st); i++) {
            if (i > 0)
                pier__buf_putc(&x->line, ',');
            put_value(&x->line, st, i);
        }
        pier__buf_puts(&x->line, "]}");
        rc = emit(x, err);
        x->rows++;
    }
    if (rc == PIER_OK && step != SQLITE_DONE)
        rc = read_fail(x->l, err);
    sqlite3_finalize(st);
    pier__buf_free(&select);
    pier__buf_free(&names);
    return rc;
}

static pier_status export_rows(exporter *x, pier_error *err)
{
    sqlite3_stmt *st = NULL;
    /* A virtual table's rows live in its shadow tables, which are tables
     * of their own (an FTS5 index's _data, _idx, ...): its rows are not
     * written twice. */
    if (sqlite3_prepare_v2(x->l->db, "SELECT name FROM sqlite_schema "
                           "WHERE type = 'table' AND (name NOT LIKE "
                           "'sqlite\\_%' ESCAPE '\\' OR name = "
                           "'sqlite_sequence') AND sql NOT LIKE 'CREATE "
                           "VIRTUAL TABLE%' ORDER BY name = "
                           "'sqlite_sequence', name", -1, &st, NULL) !=
        SQLITE_OK)
        return read_fail(x->l, err);
    pier_status rc = PIER_OK;
    int step;
    while (rc == PIER_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
        char *name = pier__strdup((const char *)sqlite3_column_text(st, 0));
        rc = name != NULL ? export_table(x, name, err) : pier__oom(err);
        free(name);
    }
    if (rc == PIER_OK && step != SQLITE_DONE)
        rc = read_fail(x->l, err);
    sqlite3_finalize(st);
    return rc;
}

pier_status pier__sqlite_export(pier__lake *lake, pier_write_fn fn,
                                void *payload, pier_error *err)
{
    exporter x = { .l = (pier__sqlite_lake *)lake, .fn = fn,
                   .payload = payload };
    pier__buf_init(&x.line);
    int64_t format = 0;
    sqlite3_stmt *st = NULL;
    pier_status rc = PIER_OK;
    if (sqlite3_prepare_v2(x.l->db, "PRAGMA user_version", -1, &st, NULL) ==
            SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        format = sqlite3_column_int64(st, 0);
    else
        rc = read_fail(x.l, err);
    sqlite3_finalize(st);
    if (rc == PIER_OK) {
        pier__buf_printf(&x.line, "{\"pier_export\":%d,\"format\":%lld}",
                         EXPORT_VERSION, (long long)format);
        rc = emit(&x, err);
    }
    if (rc == PIER_OK)
        rc = export_objects(&x, err);
    if (rc == PIER_OK)
        rc = export_rows(&x, err);
    if (rc == PIER_OK) {
        pier__buf_printf(&x.line, "{\"end\":%lld}", (long long)x.rows);
        rc = emit(&x, err);
    }
    pier__buf_free(&x.line);
    return rc;
}

/* ---- import ---- */

/* Bytes of the export read at a time. */
#define IMPORT_CHUNK ((size_t)64 * 1024)

typedef struct importer {
    pier__sqlite_lake *l;
    size_t line;               /* the line being read, from 1 */
    sqlite3_stmt *insert;      /* the current table's INSERT */
    int ncolumns;
    json_t *later;             /* indexes, views, triggers: after rows */
    int64_t rows;
    bool ended;
} importer;

static pier_status bad(importer *im, pier_error *err, const char *what)
{
    return pier__fail(err, PIER_E_INVALID_JSON, "line %zu of the export: %s",
                      im->line, what);
}

static pier_status exec_fail(importer *im, pier_error *err, const char *what)
{
    int code = sqlite3_extended_errcode(im->l->db);
    pier_status st;
    switch (code) {
    case SQLITE_CONSTRAINT_UNIQUE:
        st = PIER_E_CONSTRAINT_UNIQUE;
        break;
    case SQLITE_CONSTRAINT_PRIMARYKEY:
    case SQLITE_CONSTRAINT_ROWID:
        st = PIER_E_CONSTRAINT_PRIMARY_KEY;
        break;
    case SQLITE_CONSTRAINT_NOTNULL:
        st = PIER_E_CONSTRAINT_NOT_NULL;
        break;
    case SQLITE_CONSTRAINT_CHECK:
        st = PIER_E_CONSTRAINT_CHECK;
        break;
    case SQLITE_CONSTRAINT_FOREIGNKEY:
        st = PIER_E_CONSTRAINT_FOREIGN_KEY;
        break;
    default:
        st = (code & 0xff) == SQLITE_NOMEM        ? PIER_E_OUT_OF_MEMORY
             : (code & 0xff) == SQLITE_CONSTRAINT ? PIER_E_INVALID_ARGUMENT
                                                  : PIER_E_WRITE_FAILED;
    }
    pier__fail(err, st, "line %zu of the export: %s: %s", im->line, what,
               sqlite3_errmsg(im->l->db));
    if (err != NULL)
        err->backend_code = code;
    return st;
}

static int64_t count_of(pier__sqlite_lake *l, const char *sql)
{
    sqlite3_stmt *st = NULL;
    int64_t n = -1;
    if (sqlite3_prepare_v2(l->db, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

/* A new lake: no board, no change record, nothing declared. */
static pier_status check_empty(pier__sqlite_lake *l, pier_error *err)
{
    int64_t boards = count_of(l, "SELECT count(*) FROM _pier_boards");
    int64_t records = count_of(l, "SELECT coalesce((SELECT seq FROM "
                               "sqlite_sequence WHERE name = "
                               "'_pier_changes'), 0)");
    int64_t objects = count_of(l, "SELECT count(*) FROM sqlite_schema "
                               "WHERE name NOT LIKE '\\_pier\\_%' ESCAPE "
                               "'\\' AND name NOT LIKE 'sqlite\\_%' "
                               "ESCAPE '\\'");
    if (boards < 0 || records < 0 || objects < 0)
        return pier__sqlite_fail(l, err, PIER_E_READ_FAILED,
                                 "cannot read the lake");
    if (boards == 0 && records == 0 && objects == 0)
        return PIER_OK;
    return pier__fail(err, PIER_E_INVALID_ARGUMENT, "import needs a new, "
                      "empty lake: this one has %lld boards, %lld declared "
                      "objects and a head of %lld; nothing was written",
                      (long long)boards, (long long)objects,
                      (long long)records);
}

/* Whether sqlite_schema has an object of this name. */
static bool exists(pier__sqlite_lake *l, const char *name)
{
    sqlite3_stmt *st = NULL;
    bool there = false;
    if (sqlite3_prepare_v2(l->db, "SELECT 1 FROM sqlite_schema WHERE "
                           "name = ?1", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        there = sqlite3_step(st) == SQLITE_ROW;
    }
    sqlite3_finalize(st);
    return there;
}

/* Runs one object's SQL: one CREATE statement and nothing else (the
 * export is data; it may not run anything else as the lake's owner). */
static pier_status create_object(importer *im, const char *sql,
                                 pier_error *err)
{
    const char *p = sql;
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    if (strncasecmp(p, "CREATE ", 7) != 0)
        return bad(im, err, "an object's sql is not a CREATE statement");
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    im->l->importing = true;
    im->l->import_denied = false;
    int prepared = sqlite3_prepare_v2(im->l->db, sql, -1, &st, &tail);
    im->l->importing = false;
    if (prepared != SQLITE_OK)
        return im->l->import_denied
                   ? bad(im, err, "an object's sql makes something else "
                         "than the lake's own schema (a temporary object)")
                   : exec_fail(im, err, "cannot create an object");
    while (tail != NULL && (*tail == ' ' || *tail == '\n' || *tail == '\t' ||
                            *tail == '\r' || *tail == ';'))
        tail++;
    pier_status rc = PIER_OK;
    if (tail != NULL && *tail != '\0') {
        rc = bad(im, err, "an object's sql holds more than one statement");
    } else {
        im->l->importing = true;        /* (a step may prepare it again) */
        int step = sqlite3_step(st);
        im->l->importing = false;
        if (step != SQLITE_DONE)
            rc = exec_fail(im, err, "cannot create an object");
    }
    sqlite3_finalize(st);
    return rc;
}

static const char *member_str(json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

static pier_status on_object(importer *im, json_t *o, pier_error *err)
{
    const char *type = member_str(o, "object");
    const char *name = member_str(o, "name");
    const char *sql = member_str(o, "sql");
    if (type == NULL || name == NULL || sql == NULL ||
        member_str(o, "table") == NULL)
        return bad(im, err, "an object needs string object, name, table "
                   "and sql");
    if (im->insert != NULL)
        return bad(im, err, "objects come before rows");
    if (strcmp(type, "table") != 0) {
        /* (after the rows: a trigger must not fire on them) */
        if (json_array_append(im->later, o) != 0)
            return pier__oom(err);
        return PIER_OK;
    }
    return exists(im->l, name) ? PIER_OK : create_object(im, sql, err);
}

static pier_status on_rows(importer *im, json_t *o, pier_error *err)
{
    const char *table = member_str(o, "rows");
    json_t *columns = json_object_get(o, "columns");
    if (table == NULL || !json_is_array(columns) ||
        json_array_size(columns) == 0 || json_array_size(columns) > 32767)
        return bad(im, err, "rows need a table name and its columns");
    sqlite3_finalize(im->insert);
    im->insert = NULL;
    if (!exists(im->l, table))
        return bad(im, err, "rows of a table that neither the lake nor the "
                   "export makes");
    pier__buf b;
    pier__buf_init(&b);
    pier__buf_puts(&b, "DELETE FROM ");
    pier__sql_ident(&b, table);
    pier_status rc = PIER_OK;
    if (b.oom)
        rc = pier__oom(err);
    else if (sqlite3_exec(im->l->db, b.p, NULL, NULL, NULL) != SQLITE_OK)
        rc = exec_fail(im, err, "cannot empty a table");
    pier__buf_reset(&b);
    pier__buf_puts(&b, "INSERT INTO ");
    pier__sql_ident(&b, table);
    pier__buf_putc(&b, '(');
    size_t i;
    json_t *c;
    json_array_foreach(columns, i, c) {
        if (!json_is_string(c)) {
            if (rc == PIER_OK)
                rc = bad(im, err, "a column name is not a string");
            break;
        }
        if (i > 0)
            pier__buf_putc(&b, ',');
        pier__sql_ident(&b, json_string_value(c));
    }
    pier__buf_puts(&b, ") VALUES (");
    for (i = 0; i < json_array_size(columns); i++)
        pier__buf_puts(&b, i > 0 ? ",?" : "?");
    pier__buf_putc(&b, ')');
    if (rc == PIER_OK && b.oom)
        rc = pier__oom(err);
    if (rc == PIER_OK &&
        sqlite3_prepare_v2(im->l->db, b.p, -1, &im->insert, NULL) !=
            SQLITE_OK)
        rc = exec_fail(im, err, "cannot write a table");
    im->ncolumns = (int)json_array_size(columns);
    pier__buf_free(&b);
    return rc;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                  : -1;
}

/* Binds a {"blob":HEX} or {"bytes":HEX} value. */
static pier_status bind_hex(importer *im, int i, const char *hex, bool text,
                            pier_error *err)
{
    size_t n = strlen(hex);
    if (n % 2 != 0)
        return bad(im, err, "a hexadecimal value has an odd length");
    unsigned char *p = malloc(n / 2 + 1);
    if (p == NULL)
        return pier__oom(err);
    for (size_t k = 0; k < n / 2; k++) {
        int hi = hexval(hex[2 * k]), lo = hexval(hex[2 * k + 1]);
        if (hi < 0 || lo < 0) {
            free(p);
            return bad(im, err, "a hexadecimal value holds another "
                       "character than 0-9 and a-f");
        }
        p[k] = (unsigned char)(hi * 16 + lo);
    }
    int rc = text ? sqlite3_bind_text(im->insert, i, (const char *)p,
                                      (int)(n / 2), free)
                  : sqlite3_bind_blob(im->insert, i, p, (int)(n / 2), free);
    return rc == SQLITE_OK ? PIER_OK : pier__oom(err);
}

static pier_status bind_value(importer *im, int i, json_t *v,
                              pier_error *err)
{
    sqlite3_stmt *st = im->insert;
    if (json_is_null(v))
        return sqlite3_bind_null(st, i) == SQLITE_OK ? PIER_OK
                                                     : pier__oom(err);
    if (json_is_integer(v))
        return sqlite3_bind_int64(st, i, json_integer_value(v)) == SQLITE_OK
                   ? PIER_OK : pier__oom(err);
    if (json_is_string(v))
        return sqlite3_bind_text(st, i, json_string_value(v),
                                 (int)json_string_length(v),
                                 SQLITE_TRANSIENT) == SQLITE_OK
                   ? PIER_OK : pier__oom(err);
    if (json_is_object(v) && json_object_size(v) == 1) {
        const char *real = member_str(v, "real");
        const char *blob = member_str(v, "blob");
        const char *bytes = member_str(v, "bytes");
        if (real != NULL) {
            char *end = NULL;
            double d = pier__strtod(real, &end);
            if (end == real || *end != '\0')
                return bad(im, err, "a real is not a number");
            return sqlite3_bind_double(st, i, d) == SQLITE_OK
                       ? PIER_OK : pier__oom(err);
        }
        if (blob != NULL || bytes != NULL)
            return bind_hex(im, i, blob != NULL ? blob : bytes,
                            bytes != NULL, err);
    }
    return bad(im, err, "a value is not null, an integer, a string, "
               "{\"real\":...}, {\"blob\":...} or {\"bytes\":...}");
}

static pier_status on_row(importer *im, json_t *r, pier_error *err)
{
    if (im->insert == NULL)
        return bad(im, err, "a row before its table's rows record");
    if (!json_is_array(r) || (int)json_array_size(r) != im->ncolumns)
        return bad(im, err, "a row does not have one value per column");
    sqlite3_reset(im->insert);
    sqlite3_clear_bindings(im->insert);
    size_t i;
    json_t *v;
    json_array_foreach(r, i, v) {
        pier_status rc = bind_value(im, (int)i + 1, v, err);
        if (rc != PIER_OK)
            return rc;
    }
    if (sqlite3_step(im->insert) != SQLITE_DONE)
        return exec_fail(im, err, "cannot write a row");
    im->rows++;
    return PIER_OK;
}

static pier_status on_line(importer *im, const char *s, size_t n,
                           pier_error *err)
{
    json_error_t jerr;
    json_t *o = json_loadb(s, n, JSON_ALLOW_NUL, &jerr);
    if (!json_is_object(o)) {
        json_decref(o);
        return bad(im, err, "not a JSON object");
    }
    pier_status rc;
    if (im->ended)
        rc = bad(im, err, "a record after the end");
    else if (im->line == 1) {
        json_t *v = json_object_get(o, "pier_export");
        json_t *f = json_object_get(o, "format");
        if (!json_is_integer(v) || !json_is_integer(f))
            rc = bad(im, err, "not a Pier export (no pier_export header)");
        else if (json_integer_value(v) != EXPORT_VERSION)
            rc = bad(im, err, "an export of another layout version");
        else if (json_integer_value(f) != PIER__FORMAT)
            rc = pier__fail(err, PIER_E_INVALID_ARGUMENT, "the export is of "
                            "a lake of format %lld; this Pier imports "
                            "format %d", (long long)json_integer_value(f),
                            PIER__FORMAT);
        else
            rc = PIER_OK;
    } else if (json_object_get(o, "r") != NULL)
        rc = on_row(im, json_object_get(o, "r"), err);
    else if (json_object_get(o, "object") != NULL)
        rc = on_object(im, o, err);
    else if (json_object_get(o, "rows") != NULL)
        rc = on_rows(im, o, err);
    else if (json_is_integer(json_object_get(o, "end"))) {
        im->ended = true;
        rc = json_integer_value(json_object_get(o, "end")) == im->rows
                 ? PIER_OK
                 : bad(im, err, "the end record counts other rows than "
                       "came before it");
    } else
        rc = bad(im, err, "an unknown record");
    json_decref(o);
    return rc;
}

/* The rows' foreign keys, all checked now (they were deferred): the
 * first row that names no parent fails the import. */
static pier_status check_foreign_keys(importer *im, pier_error *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(im->l->db, "SELECT \"table\", rowid, parent "
                           "FROM pragma_foreign_key_check LIMIT 1", -1, &st,
                           NULL) != SQLITE_OK)
        return exec_fail(im, err, "cannot check foreign keys");
    pier_status rc = PIER_OK;
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        rc = pier__fail(err, PIER_E_CONSTRAINT_FOREIGN_KEY, "a row of '%s' "
                        "(rowid %lld) names no row of '%s': nothing was "
                        "written", (const char *)sqlite3_column_text(st, 0),
                        (long long)sqlite3_column_int64(st, 1),
                        (const char *)sqlite3_column_text(st, 2));
    else if (step != SQLITE_DONE)
        rc = exec_fail(im, err, "cannot check foreign keys");
    sqlite3_finalize(st);
    return rc;
}

/* Hands each line of the export read from fn to on_line, reading
 * IMPORT_CHUNK bytes at a time: memory holds the line being read and the
 * rest of its chunk. A last line without its newline is a line. */
static pier_status read_lines(importer *im, pier_read_fn fn, void *payload,
                              pier_error *err)
{
    pier__buf in;              /* [start, len): read, not yet taken */
    pier__buf_init(&in);
    size_t start = 0, scanned = 0;   /* scanned: bytes known to hold no
                                        newline, from start */
    bool ended = false;
    pier_status rc = PIER_OK;
    while (rc == PIER_OK) {
        char *nl = in.len > start + scanned
                       ? memchr(in.p + start + scanned, '\n',
                                in.len - start - scanned)
                       : NULL;
        if (nl != NULL || (ended && in.len > start)) {
            size_t end = nl != NULL ? (size_t)(nl - in.p) : in.len;
            im->line++;
            rc = on_line(im, in.p + start, end - start, err);
            start = end + (nl != NULL);
            scanned = 0;
            continue;
        }
        if (ended)
            break;
        scanned = in.len - start;
        if (start > 0) {       /* the line so far to the front */
            memmove(in.p, in.p + start, in.len - start);
            in.len -= start;
            start = 0;
        }
        size_t got = 0;
        if (!pier__buf_reserve(&in, IMPORT_CHUNK))
            rc = pier__oom(err);
        else if (!fn(in.p + in.len, IMPORT_CHUNK, &got, payload) ||
                 got > IMPORT_CHUNK)
            rc = pier__fail(err, PIER_E_READ_FAILED, "reading the export "
                            "failed after line %zu: nothing was written",
                            im->line);
        else if (got == 0)
            ended = true;
        else
            in.len += got;
    }
    pier__buf_free(&in);
    return rc;
}

pier_status pier__sqlite_import(pier__lake *lake, pier_read_fn fn,
                                void *payload, pier_error *err)
{
    importer im = { .l = (pier__sqlite_lake *)lake };
    im.l->catalog_known = false;
    pier__sqlite_forget_statements(im.l);
    pier_status rc = check_empty(im.l, err);
    im.later = json_array();
    if (rc == PIER_OK && im.later == NULL)
        rc = pier__oom(err);
    /* Foreign keys are checked at the commit: rows come table by table. */
    if (rc == PIER_OK &&
        sqlite3_exec(im.l->db, "PRAGMA defer_foreign_keys = ON", NULL, NULL,
                     NULL) != SQLITE_OK)
        rc = exec_fail(&im, err, "cannot defer foreign keys");
    if (rc == PIER_OK)
        rc = read_lines(&im, fn, payload, err);
    sqlite3_finalize(im.insert);
    im.insert = NULL;
    if (rc == PIER_OK && im.line == 0)
        rc = pier__fail(err, PIER_E_INVALID_JSON, "the export is empty: "
                        "nothing was written");
    if (rc == PIER_OK && !im.ended)
        rc = pier__fail(err, PIER_E_INVALID_JSON, "the export ends without "
                        "its end record (cut short?): nothing was "
                        "written");
    size_t i;
    json_t *o;
    json_array_foreach(im.later, i, o) {
        if (rc != PIER_OK)
            break;
        const char *name = member_str(o, "name");
        if (!exists(im.l, name))
            rc = create_object(&im, member_str(o, "sql"), err);
    }
    json_decref(im.later);
    if (rc == PIER_OK)
        rc = check_foreign_keys(&im, err);
    im.l->catalog_known = false;
    return rc;
}
