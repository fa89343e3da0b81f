/*
 * result.c: printing a query's result in the CLI's formats: an aligned
 * table for people, and the library's JSON, JSON lines and CSV
 * (pier_cursor_write); the shell's box too.
 *
 * Every format but the box streams. The machine formats hold one row at a
 * time; the table holds a window of CLI_TABLE_WINDOW rows, enough to align
 * most results whole, and prints a longer one window by window, its
 * columns only ever widening (cli_table). The box holds the whole result,
 * since its rules are drawn to the columns' final widths. A null shows as
 * `null` in the table and the box, as in `get`; both end with the number
 * of rows.
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
    [CLI_FORMAT_BOX] = "box",
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

/* CSV without its header line: the writer drops the bytes up to the end
 * of the first record (a quoted name may hold a line end). */
typedef struct headless {
    FILE *out;
    bool in_header;
    bool quoted;
} headless;

static bool write_headless(const char *bytes, size_t len, void *payload)
{
    headless *h = payload;
    size_t i = 0;
    for (; h->in_header && i < len; i++) {
        if (bytes[i] == '"')
            h->quoted = !h->quoted;
        else if (bytes[i] == '\n' && !h->quoted)
            h->in_header = false;
    }
    return fwrite(bytes + i, 1, len - i, h->out) == len - i;
}

static pier_status print_table(pier_cursor *c, const cli_print_options *o,
                               FILE *out, int64_t *nrows, pier_error *err)
{
    size_t ncols = pier_cursor_column_count(c);
    bool box = o->format == CLI_FORMAT_BOX;
    cli_table *t = cli_table_new(ncols);
    bool ok = t != NULL;
    for (size_t i = 0; ok && !o->no_headers && i < ncols; i++) {
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
        if (!box && ++in_window == CLI_TABLE_WINDOW) {
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
        if (box)
            cli_table_print_box(t, out, o->no_headers ? 0 : 1);
        else
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
    cli_print_options o = { format, false };
    return cli_print_rows(c, &o, out, nrows, err);
}

pier_status cli_print_rows(pier_cursor *c, const cli_print_options *o,
                           FILE *out, int64_t *nrows, pier_error *err)
{
    int64_t n = 0;
    pier_status rc;
    headless h = { out, true, false };
    switch (o->format) {
    case CLI_FORMAT_TABLE:
    case CLI_FORMAT_BOX:
        rc = print_table(c, o, out, &n, err);
        break;
    case CLI_FORMAT_JSON:
        rc = pier_cursor_write(&n, c, PIER_FORMAT_JSON, write_file, out, err);
        break;
    case CLI_FORMAT_JSONL:
        rc = pier_cursor_write(&n, c, PIER_FORMAT_JSONL, write_file, out,
                               err);
        break;
    default:
        rc = o->no_headers ? pier_cursor_write(&n, c, PIER_FORMAT_CSV,
                                               write_headless, &h, err)
                           : pier_cursor_write(&n, c, PIER_FORMAT_CSV,
                                               write_file, out, err);
        break;
    }
    if (nrows != NULL)
        *nrows = n;
    return rc;
}
