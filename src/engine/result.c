/*
 * result.c: a query's result as text: JSON (an array of objects, or JSON
 * lines) and CSV.
 *
 * pier_cursor_write streams: it holds one row's text at a time in a buffer
 * it reuses, hands it to the caller's writer and steps on, so a result of
 * any size converts in constant memory. The JSON of a row is
 * pier_row_to_json's; a CSV field is the value's canonical text, quoted by
 * RFC 4180's rules when it must be.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

/* Whether a CSV field must be quoted: it holds a separator, a quote or a
 * line break, or it would lose white space at its ends to a reader that
 * trims fields. The empty text is quoted so that it differs from null. */
static bool csv_needs_quotes(const char *s, size_t n)
{
    if (n == 0)
        return true;
    if (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t')
        return true;
    for (size_t i = 0; i < n; i++)
        if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
            return true;
    return false;
}

static void csv_field(pier__buf *b, const char *s, size_t n)
{
    if (!csv_needs_quotes(s, n)) {
        pier__buf_append(b, s, n);
        return;
    }
    pier__buf_putc(b, '"');
    for (const char *q; n > 0 && (q = memchr(s, '"', n)) != NULL;) {
        size_t upto = (size_t)(q - s) + 1;     /* through the quote */
        pier__buf_append(b, s, upto);
        pier__buf_putc(b, '"');
        s += upto;
        n -= upto;
    }
    pier__buf_append(b, s, n);
    pier__buf_putc(b, '"');
}

static void csv_record(pier__buf *b, const pier_row *row)
{
    for (size_t i = 0; i < row->ncolumns; i++) {
        const pier_value *v = &row->values[i];
        if (i > 0)
            pier__buf_putc(b, ',');
        if (v->kind != PIER_KIND_NULL)
            csv_field(b, v->text, v->len);
    }
}

PIER_API char *pier_row_to_csv(const pier_row *row)
{
    if (row == NULL)
        return NULL;
    pier__buf b;
    pier__buf_init(&b);
    csv_record(&b, row);
    return pier__buf_detach(&b);
}

/* Hands the buffer to the writer and empties it. */
static pier_status flush(pier__buf *b, pier_write_fn fn, void *payload,
                         pier_error *err)
{
    if (b->oom)
        return pier__oom(err);
    bool ok = b->len == 0 || fn(b->p, b->len, payload);
    pier__buf_reset(b);
    return ok ? PIER_OK
              : pier__fail(err, PIER_E_WRITE_FAILED,
                           "writing the query's result failed");
}

/* The text before the first row: CSV's header line, JSON's bracket. */
static void write_head(pier__buf *b, const pier_cursor *cursor,
                       pier_format format)
{
    if (format == PIER_FORMAT_JSON) {
        pier__buf_putc(b, '[');
        return;
    }
    if (format != PIER_FORMAT_CSV)
        return;
    size_t n = pier_cursor_column_count(cursor);
    for (size_t i = 0; i < n; i++) {
        const char *name = pier_cursor_column_name(cursor, i);
        if (i > 0)
            pier__buf_putc(b, ',');
        csv_field(b, name, strlen(name));
    }
    pier__buf_putc(b, '\n');
}

static void write_row(pier__buf *b, const pier_row *row, pier_format format,
                      int64_t index)
{
    switch (format) {
    case PIER_FORMAT_JSON:
        pier__buf_puts(b, index == 0 ? "\n" : ",\n");
        pier__row_json(b, row);
        return;
    case PIER_FORMAT_JSONL:
        pier__row_json(b, row);
        pier__buf_putc(b, '\n');
        return;
    case PIER_FORMAT_CSV:
        csv_record(b, row);
        pier__buf_putc(b, '\n');
        return;
    }
}

PIER_API pier_status pier_cursor_write(int64_t *nrows, pier_cursor *cursor,
                                       pier_format format, pier_write_fn fn,
                                       void *payload, pier_error *err)
{
    pier__error_clear(err);
    if (nrows != NULL)
        *nrows = 0;
    if (cursor == NULL || fn == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "pier_cursor_write needs a cursor and a writer");
    if (format != PIER_FORMAT_JSON && format != PIER_FORMAT_JSONL &&
        format != PIER_FORMAT_CSV)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "unknown result format %d", (int)format);
    pier__buf b;
    pier__buf_init(&b);
    write_head(&b, cursor, format);
    int64_t n = 0;
    pier_status rc = PIER_OK;
    for (;;) {
        const pier_row *row = NULL;
        rc = pier_cursor_next(&row, cursor, err);
        if (rc != PIER_OK || row == NULL)
            break;
        write_row(&b, row, format, n);
        rc = flush(&b, fn, payload, err);
        if (rc != PIER_OK)
            break;
        n++;
    }
    if (rc == PIER_OK && format == PIER_FORMAT_JSON)
        pier__buf_puts(&b, n == 0 ? "]\n" : "\n]\n");
    if (rc == PIER_OK)
        rc = flush(&b, fn, payload, err);
    pier__buf_free(&b);
    if (nrows != NULL)
        *nrows = n;
    return rc;
}
