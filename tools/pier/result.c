/*
 * result.c: printing a query's result in the CLI's four formats: an
 * aligned table for people, and the library's JSON, JSON lines and CSV
 * (pier_cursor_write).
 *
 * Every format streams. The machine formats hold one row at a time; the
 * table holds a window of CLI_TABLE_WINDOW rows, enough to align most
 * results whole, and prints a longer one window by window, its columns
 * only ever widening (cli_table). A null shows as `null` in the table, as
 * in `get`; the table ends with the number of rows.
 */
#include <string.h>

#include "cli.h"

/* Rows the table aligns at once. */
#define CLI_TABLE_WINDOW 1000

static const char *const format_names[] = {
    [CLI_FORMAT_TABLE] = "table",
    [CLI_FORMAT_JSON] = "json",
    [CLI_FORMAT_JSONL] = "jsonl",
    [CLI_FORMAT_CSV] = "csv",
};

bool cli_parse_format(const char *s, cli_format *out)
{
    for (size_t i = 0; i < sizeof format_names / sizeof *format_names; i++) {
        if (strcmp(s, format_names[i]) == 0) {
            *out = (cli_format)i;
            return true;
        }
    }
    return false;
}

const char *cli_format_name(cli_format format)
{
    return format_names[format];
}

static bool write_file(const char *bytes, size_t len, void *payload)
{
    return fwrite(bytes, 1, len, (FILE *)payload) == len;
}

static pier_status print_table(pier_cursor *c, FILE *out, int64_t *nrows,
                               pier_error *err)
{
    size_t ncols = pier_cursor_column_count(c);
    cli_table *t = cli_table_new(ncols);
    bool ok = t != NULL;
    for (size_t i = 0; ok && i < ncols; i++) {
        const char *name = pier_cursor_column_name(c, i);
        ok = cli_table_add(t, name, strlen(name));
    }
    pier_status rc = ok ? PIER_OK
                        : cli_error_set(err, PIER_E_OUT_OF_MEMORY,
                                        "out of memory");
    int64_t n = 0, in_window = 0;
    while (rc == PIER_OK) {
        const pier_row *row = NULL;
        rc = pier_cursor_next(&row, c, err);
        if (rc != PIER_OK || row == NULL)
            break;
        for (size_t i = 0; ok && i < ncols; i++) {
            const pier_value *v = pier_row_value(row, i);
            ok = v->kind == PIER_KIND_NULL ? cli_table_add(t, "null", 4)
                                           : cli_table_add(t, v->text,
                                                           v->len);
        }
        if (!ok) {
            rc = cli_error_set(err, PIER_E_OUT_OF_MEMORY, "out of memory");
            break;
        }
        n++;
        if (++in_window == CLI_TABLE_WINDOW) {
            cli_table_print(t, out);
            cli_table_clear(t);
            in_window = 0;
            if (ferror(out)) {     /* a closed pipe: stop reading */
                rc = cli_error_set(err, PIER_E_WRITE_FAILED,
                                   "writing the query's result failed");
                break;
            }
        }
    }
    if (rc == PIER_OK) {
        cli_table_print(t, out);
        fprintf(out, "(%lld row%s)\n", (long long)n, n == 1 ? "" : "s");
    }
    cli_table_free(t);
    *nrows = n;
    return rc;
}

pier_status cli_print_cursor(pier_cursor *c, cli_format format, FILE *out,
                             int64_t *nrows, pier_error *err)
{
    int64_t n = 0;
    pier_status rc;
    switch (format) {
    case CLI_FORMAT_TABLE:
        rc = print_table(c, out, &n, err);
        break;
    case CLI_FORMAT_JSON:
        rc = pier_cursor_write(&n, c, PIER_FORMAT_JSON, write_file, out, err);
        break;
    case CLI_FORMAT_JSONL:
        rc = pier_cursor_write(&n, c, PIER_FORMAT_JSONL, write_file, out,
                               err);
        break;
    default:
        rc = pier_cursor_write(&n, c, PIER_FORMAT_CSV, write_file, out, err);
        break;
    }
    if (nrows != NULL)
        *nrows = n;
    return rc;
}
