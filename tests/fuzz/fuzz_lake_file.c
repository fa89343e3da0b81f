/*
 * fuzz_lake_file.c: lake files from outside: the input's bytes become
 * DATA_DIR/lake.sqlite, which pier_open and every read then meet.
 *
 * A file of random bytes rarely gets past SQLite's header, so most inputs
 * are edits of a real lake made when the target starts (boards of every
 * inferred kind and of the dialect's types, a strict board, a dropped
 * one, a declared table with an index, a view and a read-only column,
 * change records past a maintenance). The first byte picks:
 *   'R'    the rest of the input is the whole file;
 *   other  the rest is edits of the real lake: each is a 3-byte offset
 *          (little-endian, modulo the file's size), a length byte n (0 to
 *          15: that many bytes follow and are written there; 16 and
 *          above: the file is cut at the offset), and the bytes.
 *
 * Invariants: pier_open answers PIER_OK or LakeUnavailable and never
 * crashes; on an open lake every read returns a status, never crashes or
 * hangs: boards, describe, count, scan, get, a query of every column,
 * changes, tables and their descriptions, stats, head, schema dump and
 * check; what they do return is sound (rows as valid JSON, as many rows
 * scanned as the query saw, pages as valid JSON). A corrupted or foreign
 * file is refused or read up to the damage.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/fuzz_rows.h"
#include "support/fuzz_support.h"
#include "support/lakedir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *dir;
static char *lake_path;
static unsigned char *real;     /* the real lake's bytes */
static size_t real_len;

static void make_real_lake(void)
{
    pier_engine *e = fz_open(dir);
    pier_error err;
    static const char rows[] =
        "[{\"id\":\"a\",\"state\":\"open\",\"n\":1,\"x\":2.5,\"t\":\"text\","
        "\"b\":true,\"j\":{\"k\":[1,\"x\"]},"
        "\"h\":170141183460469231731687303715884105727},"
        "{\"id\":\"b\",\"n\":-2,\"t\":\"two\",\"j\":[]}]";
    FZ_OK(pier_insert_json(NULL, e, "b1", rows, sizeof rows - 1, &err),
          &err);
    static const pier_column_def cols[] = {
        { "d", "decimal(12,2)" }, { "u", "uuid" },
        { "e", "enum('a','b')" }, { "at", "timestamp" },
        { "tags", "text[]" }, { "big", "uint64" },
        { "iv", "interval" }, { "dt", "date" },
    };
    pier_board_options o = PIER_BOARD_OPTIONS_INIT;
    o.columns = cols;
    o.ncolumns = sizeof cols / sizeof *cols;
    o.strict = true;
    FZ_OK(pier_board_create(NULL, e, "b2", &o, &err), &err);
    static const char typed[] =
        "{\"id\":\"x\",\"d\":\"12.5\",\"u\":\"A0EEBC99-9C0B-4EF8-BB6D-"
        "6BB9BD380A11\",\"e\":\"b\",\"at\":\"2026-03-01T10:00:00+02:00\","
        "\"tags\":[\"p\",null],\"big\":\"18446744073709551615\","
        "\"iv\":\"P1Y2DT3.5S\",\"dt\":\"2024-02-29\"}";
    FZ_OK(pier_insert_json(NULL, e, "b2", typed, sizeof typed - 1, &err),
          &err);
    FZ_OK(pier_insert_json(NULL, e, "b3", "{\"id\":\"z\"}", 10, &err), &err);
    FZ_OK(pier_board_drop(NULL, e, "b3", &err), &err);
    FZ_OK(pier_update_json(NULL, e, "b1", "a", "{\"n\":7}", 7, &err), &err);
    FZ_OK(pier_exec(NULL, e,
                    "CREATE TABLE t (id INT64 PRIMARY KEY, name TEXT NOT "
                    "NULL, price DECIMAL(12,2), at INSTANT, tags TEXT[], "
                    "k UUID READONLY);"
                    "CREATE INDEX t_name ON t(name);"
                    "CREATE VIEW v AS SELECT id, price FROM t;"
                    "INSERT INTO t VALUES (1, 'one', '1.5', "
                    "'2026-03-01T10:00:00Z', '[\"a\"]', "
                    "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),"
                    "(2, 'two', NULL, NULL, NULL, NULL);",
                    NULL, &err), &err);
    FZ_OK(pier_maintain(e, 0, &err), &err);
    pier_close(&e);
    real = (unsigned char *)lakedir_read_file(lake_path, &real_len);
    FZ_CHECK(real != NULL && real_len > 100, "the real lake: %zu bytes",
             real_len);
}

/* Removes the lake and its journals. */
static void clear_lake(void)
{
    static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
    char path[4096];
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        snprintf(path, sizeof path, "%s%s", lake_path, suffixes[i]);
        unlink(path);
    }
}

/* ---- the reads ---- */

typedef struct scan_count {
    size_t rows;
    char first_id[256];
} scan_count;

static int scan_cb(const pier_row *row, void *payload)
{
    scan_count *s = payload;
    if (s->rows == 0 && pier_row_column_count(row) > 0) {
        const pier_value *id = pier_row_value(row, 0);
        if (id->text != NULL && id->len < sizeof s->first_id)
            memcpy(s->first_id, id->text, id->len + 1);
    }
    fz_check_row_json_valid(row);
    return ++s->rows >= 10000;
}

static void read_board(pier_engine *e, const char *board)
{
    pier_error err;
    pier_board_info *info = NULL;
    if (pier_board_describe(&info, e, board, &err) == PIER_OK)
        pier_board_info_free(info);
    int64_t count = -1;
    (void)pier_row_count(&count, e, board, &err);
    scan_count s = { 0, "" };
    if (pier_board_scan(e, board, scan_cb, &s, &err) == PIER_OK &&
        s.first_id[0] != '\0') {
        pier_row *row = NULL;
        if (pier_row_get(&row, e, board, s.first_id, &err) == PIER_OK) {
            fz_check_row_json_valid(row);
            pier_row_free(row);
        }
    }
    pier_cursor *c = NULL;
    if (pier_query(&c, e, board, "SELECT * FROM {{board}}", NULL, NULL,
                   &err) == PIER_OK) {
        const pier_row *row;
        size_t n = 0;
        while (n < 10000 && pier_cursor_next(&row, c, &err) == PIER_OK &&
               row != NULL) {
            fz_check_row_json_valid(row);
            n++;
        }
        pier_cursor_close(c);
    }
    pier_changes_page *page = NULL;
    if (pier_changes(&page, e, board, 0, 100, &err) == PIER_OK) {
        char *j = pier_changes_page_to_json(page);
        FZ_CHECK(j != NULL && fz_json_valid(j, strlen(j)),
                 "page JSON is no JSON: %s", j);
        pier_free(j);
        pier_changes_page_free(page);
    }
}

static void read_all(pier_engine *e)
{
    pier_error err;
    char **boards = NULL;
    if (pier_board_list(&boards, e, &err) == PIER_OK) {
        for (size_t i = 0; boards[i] != NULL && i < 16; i++)
            read_board(e, boards[i]);
        pier_strings_free(boards);
    }
    read_board(e, "b1");       /* also when the list failed */
    char **tables = NULL;
    if (pier_table_list(&tables, e, &err) == PIER_OK) {
        for (size_t i = 0; tables[i] != NULL && i < 16; i++) {
            pier_table_info *info = NULL;
            if (pier_table_describe(&info, e, tables[i], &err) == PIER_OK)
                pier_table_info_free(info);
        }
        pier_strings_free(tables);
    }
    pier_cursor *c = NULL;
    if (pier_exec(&c, e, "SELECT * FROM t", NULL, &err) == PIER_OK) {
        const pier_row *row;
        while (pier_cursor_next(&row, c, &err) == PIER_OK && row != NULL)
            fz_check_row_json_valid(row);
        pier_cursor_close(c);
    }
    pier_stats st;
    (void)pier_stats_get(&st, e, &err);
    int64_t head;
    (void)pier_head_from_catalog(&head, e, &err);
    char *dump = NULL;
    if (pier_schema_dump(&dump, e, &err) == PIER_OK)
        pier_free(dump);
    (void)pier_schema_check(e, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (dir == NULL) {
        dir = fz_dir("lake_file");
        lake_path = lakedir_join(dir, "lake.sqlite");
        make_real_lake();
    }
    if (size == 0)
        return 0;
    unsigned char *file;
    size_t len;
    if (data[0] == 'R') {
        len = size - 1;
        file = malloc(len + 1);
        FZ_CHECK(file != NULL, "out of memory");
        memcpy(file, data + 1, len);
    } else {
        len = real_len;
        file = malloc(len);
        FZ_CHECK(file != NULL, "out of memory");
        memcpy(file, real, len);
        size_t p = 1;
        while (p + 4 <= size) {
            size_t at = ((size_t)data[p] | (size_t)data[p + 1] << 8 |
                         (size_t)data[p + 2] << 16) % len;
            size_t n = data[p + 3];
            p += 4;
            if (n >= 16) {
                len = at;
                break;
            }
            for (size_t k = 0; k < n && p < size && at + k < len; k++)
                file[at + k] = data[p++];
        }
    }
    clear_lake();
    FZ_CHECK(lakedir_write_file(lake_path, file, len) == 0,
             "cannot write %s", lake_path);
    free(file);

    pier_open_options o = fz_open_options();
    o.busy_timeout_ms = 0;
    pier_engine *e = NULL;
    pier_error err;
    pier_status rc = pier_open(&e, dir, &o, &err);
    FZ_CHECK(rc == PIER_OK || rc == PIER_E_LAKE_UNAVAILABLE,
             "pier_open: %s: %s", pier_status_tag(rc), err.message);
    FZ_CHECK((rc == PIER_OK) == (e != NULL), "an engine only with PIER_OK");
    if (e != NULL) {
        read_all(e);
        pier_close(&e);
    }
    clear_lake();
    return 0;
}
