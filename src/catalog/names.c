/*
 * names.c: the naming rules for board ids and column names.
 *
 * Board ids become part of physical table names, so they are kept to a
 * small alphabet. Column names are free UTF-8 text (they are always quoted
 * in SQL), compared case-insensitively in ASCII as SQLite compares
 * identifiers, so that a board and its physical table agree on which two
 * names are the same.
 */
#include <string.h>

#include "catalog/catalog.h"

static const char *const base_names[PIER__BASE_COLUMNS] = {
    [PIER__COL_ID] = "id",
    [PIER__COL_UPDATED_AT] = "updated_at",
    [PIER__COL_STATE] = "state",
};

void pier__quote_name(pier__buf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t shown = n > 64 ? 64 : n;
    /* Do not cut a valid multi-byte character in half. */
    while (shown < n && shown > 0 && ((unsigned char)s[shown] & 0xC0) == 0x80)
        shown--;
    size_t i = 0;
    while (i < shown) {
        unsigned char c = (unsigned char)s[i];
        size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        if (c >= 0x20 && c < 0x7F && c != '\\') {
            pier__buf_putc(b, (char)c);
            i++;
        } else if (c >= 0xC2 && i + len <= shown &&
                   pier__utf8_valid(s + i, len) &&
                   !(c == 0xC2 && (unsigned char)s[i + 1] < 0xA0)) {
            pier__buf_append(b, s + i, len);  /* printable non-ASCII */
            i += len;
        } else {
            char esc[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };
            pier__buf_append(b, esc, sizeof esc);
            i++;
        }
    }
    if (shown < n)
        pier__buf_puts(b, "...");
}

pier_status pier__board_id_check(const char *id, pier_error *err)
{
    if (id == NULL)
        return pier__fail(err, PIER_E_INVALID_BOARD_ID,
                          "a board id is required");
    size_t n = strlen(id);
    bool ok = n >= 1 && n <= PIER__NAME_MAX && id[0] >= 'a' && id[0] <= 'z';
    for (size_t i = 1; ok && i < n; i++) {
        char c = id[i];
        ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    }
    if (ok)
        return PIER_OK;
    pier__buf q;
    pier__buf_init(&q);
    pier__quote_name(&q, id, n);
    pier__fail(err, PIER_E_INVALID_BOARD_ID,
               "invalid board id '%s': a board id matches "
               "[a-z][a-z0-9_]{0,62} (a lowercase letter, then up to 62 "
               "lowercase letters, digits or underscores)",
               q.p != NULL ? q.p : "");
    pier__buf_free(&q);
    return PIER_E_INVALID_BOARD_ID;
}

/* Whether s[0..n) holds a C0 control, DEL or a C1 control (U+0080 to
 * U+009F, encoded C2 80 to C2 9F). */
static bool has_control(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7F)
            return true;
        if (c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
            (unsigned char)s[i + 1] <= 0x9F)
            return true;
    }
    return false;
}

pier_status pier__column_name_check(const char *name, size_t len,
                                    const char *board, pier_error *err)
{
    const char *why = NULL;
    if (len == 0)
        why = "a column name cannot be empty";
    else if (len > PIER__NAME_MAX)
        why = "a column name is at most 63 bytes";
    else if (!pier__utf8_valid(name, len))
        why = "a column name must be valid UTF-8";
    else if (has_control(name, len))
        why = "a column name cannot hold control characters";
    if (why == NULL && name[0] != PIER__RESERVED_PREFIX)
        return PIER_OK;

    pier__buf q;
    pier__buf_init(&q);
    pier__quote_name(&q, name, len);
    const char *shown = q.p != NULL ? q.p : "";
    pier_status st;
    if (why != NULL)
        st = pier__fail(err, PIER_E_INVALID_COLUMN_NAME,
                        "invalid column name '%s': %s", shown, why);
    else
        st = pier__fail(err, PIER_E_RESERVED_COLUMN_NAME,
                        "column name '%s' is reserved: names starting "
                        "with '_' belong to the engine", shown);
    pier__error_board(err, board);
    if (err != NULL && why == NULL)
        pier__error_column(err, shown);
    pier__buf_free(&q);
    return st;
}

int pier__base_column_index(const char *name, size_t len)
{
    for (int i = 0; i < PIER__BASE_COLUMNS; i++)
        if (pier__name_eq(name, len, base_names[i], strlen(base_names[i])))
            return i;
    return -1;
}

const char *pier__object_name_why(const char *name)
{
    size_t n = strlen(name);
    if (n == 0)
        return "a name cannot be empty";
    if (n > PIER__NAME_MAX)
        return "a name is at most 63 bytes";
    if (!pier__utf8_valid(name, n))
        return "a name must be valid UTF-8";
    if (has_control(name, n))
        return "a name cannot hold control characters";
    return NULL;
}

/* Whether `name` starts with `prefix`, compared in ASCII case. */
static bool has_prefix(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    return strlen(name) >= n && pier__name_eq(name, n, prefix, n);
}

const char *pier__object_name_reserved(const char *name)
{
    if (has_prefix(name, "_pier_"))
        return "_pier_";
    if (has_prefix(name, "sqlite_"))
        return "sqlite_";
    return NULL;
}
