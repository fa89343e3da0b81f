/*
 * fuzz_sql_exec.c: the SQL dialect through pier_exec, on a lake in
 * /dev/shm with tight limits (200 ms, 1 MiB values, 64 MiB memory).
 *
 * The lake starts every input alike: a declared table "t" (a key, NOT
 * NULL, DECIMAL, INSTANT, TEXT[], a READONLY UUID, an ENUM) with rows, an
 * index and a view on it, a board "pub", and a board "secret" holding a
 * planted secret, which pier_exec must never reach (boards' rows are out
 * of its reach, and so are the engine's own tables). After a script that
 * succeeded, the lake is put back as it was (a copy of its file).
 *
 * Input: the script, and after a NUL byte its parameters as a JSON object
 * or array (pier_params_set_json).
 *
 * Invariants:
 * - every status is one pier_exec documents;
 * - a script that fails changes nothing: the schema dump, the head and
 *   the rows of "t" are as they were;
 * - after a script that succeeds: pier_schema_check finds no drift; the
 *   schema dump, run through pier_exec on an empty lake, succeeds and
 *   dumps the same text; the secret board and its row are as they were;
 *   the engine's objects (named _pier_*, in sqlite_schema read beside the
 *   engine) are all there, and the only new ones are what the dialect
 *   makes through the engine: a table for each board CREATE BOARD made,
 *   a trigger for each READONLY column;
 * - the secret appears in no value or column name of the result, and in
 *   no error message (an input that holds a piece of it is not judged);
 *   every result row's JSON is valid JSON;
 * - a script whose operators the front-end would write as exact functions
 *   (pier__sql_exact_ops) answers the same on a lake just opened from the
 *   same bytes: the same status and message, or the same columns, rows
 *   and count of changes (what the engine kept from earlier inputs, the
 *   rewrites it remembers and the statements it prepared, changes no
 *   answer). A limit reached on either side is not judged, nor a script
 *   that asks for what differs by design (random(), uuid_v7(), changes(),
 *   last_insert_rowid(), SQLite's 'now').
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"
#include "sql/sql.h"
#include "support/fuzz_rows.h"
#include "support/fuzz_support.h"
#include "support/lakedir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SECRET "Hw4rTq8Zn2Vy6Kb"

static pier_engine *engine, *replay;
static const char *dir, *replay_dir;
static char *lake_path;
static char *base_file;          /* the lake's bytes as every input meets it */
static size_t base_len;
static char *base_dump, *base_t, *base_secret;
static int64_t base_head;
static char *base_pier_objects;
static char *replayed;           /* the last dump replayed, and passed */
static pier__buf answer;         /* what the last script answered */

static pier_open_options options(void)
{
    pier_open_options o = fz_open_options();
    o.limits.time_ms = 200;
    o.limits.value_bytes = 1024 * 1024;
    o.limits.memory_bytes = 64 * 1024 * 1024;
    return o;
}

static pier_engine *open_at(const char *where)
{
    pier_open_options o = options();
    pier_engine *e = NULL;
    pier_error err;
    FZ_OK(pier_open(&e, where, &o, &err), &err);
    return e;
}

static char *dump_of(pier_engine *e)
{
    char *d = NULL;
    pier_error err;
    FZ_OK(pier_schema_dump(&d, e, &err), &err);
    return d;
}

/* Every row of "t", as JSON, one a line. */
static char *rows_of_t(void)
{
    pier_cursor *c = NULL;
    pier_error err;
    FZ_OK(pier_exec(&c, engine, "SELECT * FROM t ORDER BY id", NULL, &err),
          &err);
    pier__buf b;
    pier__buf_init(&b);
    const pier_row *row;
    while (pier_cursor_next(&row, c, &err) == PIER_OK && row != NULL) {
        char *j = pier_row_to_json(row);
        pier__buf_puts(&b, j);
        pier__buf_putc(&b, '\n');
        pier_free(j);
    }
    pier_cursor_close(c);
    FZ_CHECK(!b.oom, "out of memory");
    return b.p != NULL ? b.p : fz_strndup((const uint8_t *)"", 0);
}

static char *secret_row(void)
{
    pier_row *row = NULL;
    pier_error err;
    FZ_OK(pier_row_get(&row, engine, "secret", "a", &err), &err);
    char *j = pier_row_to_json(row);
    pier_row_free(row);
    FZ_CHECK(j != NULL, "out of memory");
    char *copy = fz_strndup((const uint8_t *)j, strlen(j));
    pier_free(j);
    return copy;
}

/* The engine's objects in sqlite_schema (read beside the engine), one
 * "type name" a line, sorted. */
static char *pier_objects(void)
{
    char *text = lakedir_sql_text(lake_path,
                                  "SELECT type || ' ' || name FROM "
                                  "sqlite_schema WHERE name LIKE "
                                  "'\\_pier\\_%' ESCAPE '\\' ORDER BY 1");
    FZ_CHECK(text != NULL, "cannot read sqlite_schema");
    return text;
}

/* Whether `line` (one of pier_objects) is one the engine makes for what
 * the dialect may do: a board's table, a READONLY column's trigger. */
static bool made_by_dialect(const char *line, size_t n, char **boards)
{
    if ((n > 17 && memcmp(line, "trigger _pier_ro_", 17) == 0) ||
        (n > 16 && memcmp(line, "trigger _pier_fk", 16) == 0))
        return true;
    if (n <= 14 || memcmp(line, "table _pier_b_", 14) != 0)
        return false;
    for (size_t i = 0; boards[i] != NULL; i++)
        if (strlen(boards[i]) == n - 14 &&
            memcmp(boards[i], line + 14, n - 14) == 0)
            return true;
    return false;
}

static bool has_line(const char *text, const char *line, size_t n)
{
    for (const char *p = text; *p != '\0';) {
        const char *end = strchr(p, '\n');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        if (len == n && memcmp(p, line, n) == 0)
            return true;
        p += len + (end != NULL);
    }
    return false;
}

/* Every engine object of the base lake is still there (but READONLY and
 * foreign key triggers, which go with their columns), and every new one
 * is a board's table or such a trigger. */
static void check_pier_objects(void)
{
    char *now = pier_objects();
    char **boards = NULL;
    pier_error err;
    FZ_OK(pier_board_list(&boards, engine, &err), &err);
    for (const char *p = now; *p != '\0';) {
        const char *end = strchr(p, '\n');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        FZ_CHECK(has_line(base_pier_objects, p, len) ||
                 made_by_dialect(p, len, boards),
                 "a script made the engine's object %.*s", (int)len, p);
        p += len + (end != NULL);
    }
    for (const char *p = base_pier_objects; *p != '\0';) {
        const char *end = strchr(p, '\n');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        FZ_CHECK(has_line(now, p, len) ||
                 (len > 17 && memcmp(p, "trigger _pier_ro_", 17) == 0) ||
                 (len > 16 && memcmp(p, "trigger _pier_fk", 16) == 0),
                 "a script dropped the engine's object %.*s", (int)len, p);
        p += len + (end != NULL);
    }
    pier_strings_free(boards);
    free(now);
}

static void clear_lake(void)
{
    static const char *const suffixes[] = { "", "-wal", "-shm" };
    char path[4096];
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        snprintf(path, sizeof path, "%s%s", lake_path, suffixes[i]);
        unlink(path);
    }
}

/* Puts the lake back as every input meets it. */
static void restore(void)
{
    pier_close(&engine);
    clear_lake();
    FZ_CHECK(lakedir_write_file(lake_path, base_file, base_len) == 0,
             "cannot write %s", lake_path);
    engine = open_at(dir);
}

static void make_lake(void)
{
    dir = fz_dir("sql_exec");
    replay_dir = fz_dir("sql_exec_replay");
    lake_path = lakedir_join(dir, "lake.sqlite");
    engine = open_at(dir);
    replay = open_at(replay_dir);
    pier_error err;
    FZ_OK(pier_exec(NULL, engine,
                    "CREATE TABLE t (id INT64 PRIMARY KEY, name TEXT NOT "
                    "NULL, price DECIMAL(12,2), at INSTANT, tags TEXT[], "
                    "k UUID READONLY, e ENUM('a','b') DEFAULT 'a');"
                    "CREATE INDEX t_name ON t(name);"
                    "CREATE VIEW v AS SELECT id, price FROM t;"
                    "INSERT INTO t(id, name, price, at, tags, k) VALUES "
                    "(1, 'one', '1.5', '2026-03-01T10:00:00+02:00', "
                    "'[\"a\"]', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),"
                    "(2, 'two', NULL, NULL, NULL, NULL);"
                    "CREATE BOARD pub (n bigint, d decimal(12,2));",
                    NULL, &err), &err);
    static const char secret[] =
        "{\"id\":\"a\",\"t\":\"" SECRET "\",\"j\":{\"s\":\"" SECRET "\"}}";
    FZ_OK(pier_insert_json(NULL, engine, "secret", secret, sizeof secret - 1,
                           &err), &err);
    static const char pub[] = "{\"id\":\"p\",\"n\":1,\"d\":\"2.50\"}";
    FZ_OK(pier_insert_json(NULL, engine, "pub", pub, sizeof pub - 1, &err),
          &err);
    pier_close(&engine);
    base_file = lakedir_read_file(lake_path, &base_len);
    FZ_CHECK(base_file != NULL, "cannot read %s", lake_path);
    engine = open_at(dir);
    base_dump = dump_of(engine);
    base_t = rows_of_t();
    base_secret = secret_row();
    base_head = fz_head(engine);
    base_pier_objects = pier_objects();
    FZ_CHECK(strstr(base_pier_objects, "table _pier_changes") != NULL,
             "the engine's tables are not seen: %s", base_pier_objects);
}

/* ---- the secret ---- */

static bool judged;

static bool input_knows(const uint8_t *data, size_t size)
{
    const char *s = SECRET;
    for (size_t i = 0; i + 4 <= strlen(s); i++)
        if (fz_contains((const char *)data, size, s + i, 4))
            return true;
    return false;
}

static void no_secret(const char *s, size_t n, const char *what)
{
    if (judged && s != NULL)
        FZ_CHECK(!fz_contains(s, n, SECRET, strlen(SECRET)),
                 "the secret leaked through %s: %.*s", what, (int)n, s);
}

/* ---- statuses ---- */

static bool documented(pier_status rc)
{
    switch (rc) {
    case PIER_E_COLUMN_TYPE_CONFLICT:
    case PIER_E_READONLY_COLUMN:
    case PIER_E_CONSTRAINT_UNIQUE:
    case PIER_E_CONSTRAINT_NOT_NULL:
    case PIER_E_CONSTRAINT_CHECK:
    case PIER_E_CONSTRAINT_FOREIGN_KEY:
    case PIER_E_CONSTRAINT_PRIMARY_KEY:
    case PIER_E_UNKNOWN_TYPE:
    case PIER_E_INVALID_COLUMN_NAME:
    case PIER_E_RESERVED_COLUMN_NAME:
    case PIER_E_DUPLICATE_COLUMN:
    case PIER_E_UNKNOWN_COLUMN:
    case PIER_E_TABLE_NOT_FOUND:
    case PIER_E_ENTITY_NOT_ALLOWED:
    case PIER_E_PLACEHOLDER_UNBOUND:
    case PIER_E_SCHEMA_DRIFT:
    case PIER_E_QUERY_FAILED:
    case PIER_E_LIMIT_EXCEEDED:
    /* CREATE BOARD's, as pier_board_create's: */
    case PIER_E_BOARD_EXISTS:
    case PIER_E_INVALID_BOARD_ID:
        return true;
    default:
        return false;
    }
}

/* ---- after a script that succeeded ---- */

static void check_replay(const char *dump)
{
    if (replayed != NULL && strcmp(replayed, dump) == 0)
        return;
    fz_reopen_empty(&replay, replay_dir);
    pier_error err;
    pier_status rc = pier_exec(NULL, replay, dump, NULL, &err);
    FZ_CHECK(rc == PIER_OK, "the schema dump does not run on an empty "
             "lake: %s: %s\n%s", pier_status_tag(rc), err.message, dump);
    char *again = dump_of(replay);
    FZ_CHECK(strcmp(again, dump) == 0, "the dump, replayed, dumps "
             "otherwise:\n%s\nthen\n%s", dump, again);
    pier_free(again);
    free(replayed);
    replayed = fz_strndup((const uint8_t *)dump, strlen(dump));
}

/* A result's columns and count of changes, then each row, into the
 * answer. */
static void answer_columns(const pier_cursor *c)
{
    for (size_t i = 0; i < pier_cursor_column_count(c); i++)
        pier__buf_printf(&answer, "%s%s", i > 0 ? ", " : "",
                         pier_cursor_column_name(c, i));
    pier__buf_printf(&answer, " (%" PRId64 " changed)\n",
                     pier_cursor_changes(c));
}

static void answer_row(const pier_row *row)
{
    char *j = pier_row_to_json(row);
    FZ_CHECK(j != NULL, "out of memory");
    pier__buf_printf(&answer, "%s\n", j);
    pier_free(j);
}

static void check_success(pier_cursor *c)
{
    pier_error err;
    if (c != NULL) {
        for (size_t i = 0; i < pier_cursor_column_count(c); i++) {
            const char *name = pier_cursor_column_name(c, i);
            no_secret(name, strlen(name), "a column name");
        }
        answer_columns(c);
        const pier_row *row;
        pier_status rc;
        while ((rc = pier_cursor_next(&row, c, &err)) == PIER_OK &&
               row != NULL) {
            for (size_t i = 0; i < pier_row_column_count(row); i++) {
                const pier_value *v = pier_row_value(row, i);
                no_secret(v->text, v->len, "a value");
            }
            fz_check_row_json_valid(row);
            answer_row(row);
        }
        FZ_CHECK(rc == PIER_OK, "a result held in memory failed: %s",
                 err.message);
    }
    pier_status rc = pier_schema_check(engine, &err);
    FZ_CHECK(rc == PIER_OK, "schema drift after a script: %s", err.message);
    char *dump = dump_of(engine);
    check_replay(dump);
    pier_free(dump);
    char *secret = secret_row();
    FZ_CHECK(strcmp(secret, base_secret) == 0, "the secret row changed: %s",
             secret);
    free(secret);
    check_pier_objects();
}

/* ---- the same script on a lake just opened ---- */

/* Whether the front-end would write some statement's operators as exact
 * functions. */
static bool rewrites(const char *sql)
{
    pier__sql_script s;
    bool any = false;
    if (pier__sql_parse(&s, sql, strlen(sql), NULL) == PIER_OK) {
        for (size_t i = 0; !any && i < s.nstmts; i++) {
            pier__buf b;
            pier__buf_init(&b);
            any = pier__sql_exact_ops(&b, s.text + s.stmts[i].offset,
                                      s.stmts[i].len,
                                      sql + s.stmts[i].offset);
            pier__buf_free(&b);
        }
    }
    pier__sql_script_free(&s);
    return any;
}

/* Whether the script asks for what differs between two engines by
 * design: a random value (random(), uuid_v4(), uuid_v7()), the
 * connection's counts of changes or its last rowid, SQLite's own clock
 * ('now', CURRENT_TIMESTAMP). (Compared by hand: libFuzzer would learn
 * the words from strncasecmp.) */
static bool engine_dependent(const char *sql)
{
    static const char *const words[] = {
        "random", "uuid_v", "changes", "last_insert_rowid", "now",
        "current_", NULL,
    };
    for (const char *p = sql; *p != '\0'; p++)
        for (size_t i = 0; words[i] != NULL; i++) {
            size_t k = 0;
            while (words[i][k] != '\0' &&
                   (p[k] >= 'A' && p[k] <= 'Z' ? p[k] + 32 : p[k]) ==
                       words[i][k])
                k++;
            if (words[i][k] == '\0')
                return true;
        }
    return false;
}

static void failure_answer(pier_status rc, const pier_error *err)
{
    pier__buf_printf(&answer, "%s at %" PRId64 ": %s\n",
                     pier_status_tag(rc), err->offset, err->message);
}

/* The script, run on the replay lake made again from the base lake's
 * bytes, answers as it answered on the lake every input meets. */
static void check_twin(const char *sql, const pier_params *params,
                       pier_status rc)
{
    pier__buf first = answer;
    pier__buf_init(&answer);
    pier_close(&replay);
    free(replayed);
    replayed = NULL;
    static const char *const suffixes[] = { "", "-wal", "-shm" };
    char path[4096];
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        snprintf(path, sizeof path, "%s/lake.sqlite%s", replay_dir,
                 suffixes[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/lake.sqlite", replay_dir);
    FZ_CHECK(lakedir_write_file(path, base_file, base_len) == 0,
             "cannot write %s", path);
    replay = open_at(replay_dir);
    pier_cursor *c = NULL;
    pier_error err;
    pier_status rc2 = pier_exec(&c, replay, sql, params, &err);
    if (rc2 != PIER_OK) {
        failure_answer(rc2, &err);
    } else {
        const pier_row *row;
        answer_columns(c);
        while (pier_cursor_next(&row, c, &err) == PIER_OK && row != NULL)
            answer_row(row);
    }
    pier_cursor_close(c);
    FZ_CHECK(!answer.oom && !first.oom, "out of memory");
    if (rc != PIER_E_LIMIT_EXCEEDED && rc2 != PIER_E_LIMIT_EXCEEDED)
        FZ_CHECK(answer.len == first.len &&
                 memcmp(answer.p, first.p, first.len) == 0,
                 "the script answers otherwise on a lake just opened from "
                 "the same bytes:\n%.*s\nthen\n%.*s", (int)first.len,
                 first.p, (int)answer.len, answer.p);
    pier__buf_free(&first);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (engine == NULL)
        make_lake();
    judged = !input_knows(data, size);
    const char *nul = memchr(data, '\0', size);
    size_t sn = nul != NULL ? (size_t)(nul - (const char *)data) : size;
    char *sql = fz_strndup(data, sn);
    pier_params *params = NULL;
    pier_error err;
    if (nul != NULL) {
        params = pier_params_new();
        FZ_CHECK(params != NULL, "out of memory");
        (void)pier_params_set_json(params, nul + 1, size - sn - 1, &err);
    }

    pier_cursor *c = NULL;
    pier__buf_reset(&answer);
    pier_status rc = pier_exec(&c, engine, sql, params, &err);
    FZ_CHECK(rc == PIER_OK || documented(rc), "pier_exec: %s: %s",
             pier_status_tag(rc), err.message);
    FZ_CHECK((rc == PIER_OK) == (c != NULL), "a cursor only with PIER_OK");
    if (rc != PIER_OK) {
        failure_answer(rc, &err);
        no_secret(err.message, strlen(err.message), "an error message");
        if (rc == PIER_E_QUERY_FAILED)
            FZ_CHECK(err.offset >= -1 && err.offset <= (int64_t)sn,
                     "offset %" PRId64 " of %zu bytes", err.offset, sn);
        /* Nothing of the script was applied. */
        char *dump = dump_of(engine);
        FZ_CHECK(strcmp(dump, base_dump) == 0, "a failed script (%s) "
                 "changed the schema:\n%s", err.tag, dump);
        pier_free(dump);
        FZ_CHECK(fz_head(engine) == base_head, "a failed script moved the "
                 "head");
        char *t = rows_of_t();
        FZ_CHECK(strcmp(t, base_t) == 0, "a failed script (%s) changed "
                 "table t:\n%s", err.tag, t);
        free(t);
    } else {
        check_success(c);
        pier_cursor_close(c);
        restore();
    }
    if (rewrites(sql) && !engine_dependent(sql))
        check_twin(sql, params, rc);
    pier_params_free(params);
    free(sql);
    return 0;
}
