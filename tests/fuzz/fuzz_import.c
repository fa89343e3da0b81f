/*
 * fuzz_import.c: pier_import (src/store/sqlite_export.c) on any text,
 * checked against pier_export.
 *
 * Input: the text given to pier_import, as a file given to `pier import`.
 * Lake A is new before every input; lake B is new whenever it is used.
 *
 * Invariants:
 * - pier_import answers a status it documents (or one a lake refusing a
 *   statement gives: WriteFailed, ReadFailed, QueryFailed, SchemaDrift);
 * - when it fails, A is still new: no board, no declared table, a head
 *   of 0, and the next input is imported into it as it stands;
 * - when it succeeds, A's export imports into the new lake B, and B's
 *   export is the same bytes as A's: whatever an import accepts, export
 *   and import carry whole.
 * A is made new again after an input it took (and B after every use).
 */
#include <stdlib.h>
#include <string.h>

#include "support/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pier_engine *lake_a, *lake_b;
static const char *dir_a, *dir_b;

typedef struct text {
    char *p;
    size_t len;
} text;

static bool collect(const char *bytes, size_t len, void *payload)
{
    text *t = payload;
    char *p = realloc(t->p, t->len + len + 1);
    FZ_CHECK(p != NULL, "out of memory");
    memcpy(p + t->len, bytes, len);
    t->p = p;
    t->len += len;
    return true;
}

static void check_new(pier_engine *e)
{
    pier_error err;
    char **list = NULL;
    FZ_OK(pier_board_list(&list, e, &err), &err);
    FZ_CHECK(list[0] == NULL, "a failed import left board '%s'", list[0]);
    pier_strings_free(list);
    FZ_OK(pier_table_list(&list, e, &err), &err);
    FZ_CHECK(list[0] == NULL, "a failed import left table '%s'", list[0]);
    pier_strings_free(list);
    FZ_CHECK(fz_head(e) == 0, "a failed import moved the head");
}

static bool documented(pier_status s)
{
    switch (s) {
    case PIER_E_INVALID_JSON:
    case PIER_E_INVALID_ARGUMENT:
    case PIER_E_CONSTRAINT_UNIQUE:
    case PIER_E_CONSTRAINT_NOT_NULL:
    case PIER_E_CONSTRAINT_CHECK:
    case PIER_E_CONSTRAINT_FOREIGN_KEY:
    case PIER_E_CONSTRAINT_PRIMARY_KEY:
    case PIER_E_WRITE_FAILED:
    case PIER_E_READ_FAILED:
    case PIER_E_QUERY_FAILED:
    case PIER_E_SCHEMA_DRIFT:
    case PIER_E_OUT_OF_MEMORY:
        return true;
    default:
        return false;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (dir_a == NULL) {
        dir_a = fz_dir("import_a");
        dir_b = fz_dir("import_b");
        lake_a = fz_open(dir_a);
        lake_b = fz_open(dir_b);
    }
    pier_error err;
    pier_status rc = pier_import(lake_a, (const char *)data, size, &err);
    FZ_CHECK(rc == PIER_OK || documented(rc), "pier_import: %s: %s",
             pier_status_tag(rc), err.message);
    if (rc != PIER_OK) {
        check_new(lake_a);
        return 0;
    }
    text a = { 0 }, b = { 0 };
    FZ_OK(pier_export(lake_a, collect, &a, &err), &err);
    FZ_OK(pier_import(lake_b, a.p, a.len, &err), &err);
    FZ_OK(pier_export(lake_b, collect, &b, &err), &err);
    FZ_CHECK(a.len == b.len && memcmp(a.p, b.p, a.len) == 0,
             "export, import, export differs (%zu and %zu bytes)", a.len,
             b.len);
    free(a.p);
    free(b.p);
    fz_reopen_empty(&lake_a, dir_a);
    fz_reopen_empty(&lake_b, dir_b);
    return 0;
}
