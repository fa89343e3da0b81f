/*
 * csvrows.c: a CSV or TSV input (insert --csv, --tsv) as batches of JSON
 * rows, for the batch writer that JSON from stdin has too (load.c); the
 * twin of stream.c's splitter.
 *
 * The first record names the columns; each later one becomes a JSON object
 * member by member (csv_value): the board's columns, as they are when the
 * load starts, type their values; a column the board does not have yet
 * gets the value a JSON writer would have written (docs/types.md, "CSV
 * values"). The id column (or the one --id names) becomes "id", always a
 * string, or a generated UUID (--id-generate).
 *
 * Invariants:
 * - the batch in progress holds whole rows only: a record refused (a field
 *   count, an empty id) or malformed stops the input before its batch is
 *   handed on, so nothing of that batch is written;
 * - memory is one batch of text (cut before PIER_MAX_BATCH_BYTES) and one
 *   record (csv.c bounds it by PIER_MAX_ROW_BYTES).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "csv.h"

/* Bytes read from the input at a time. */
#define READ_BYTES 65536

/* ---- the batch's text ---- */

typedef struct text_buf {
    char *p;
    size_t len, cap;
} text_buf;

static pier_status grow(text_buf *b, size_t more, pier_error *err)
{
    if (b->len + more <= b->cap)
        return PIER_OK;
    size_t cap = b->cap != 0 ? b->cap : 65536;
    while (cap < b->len + more)
        cap *= 2;
    char *p = realloc(b->p, cap);
    if (p == NULL)
        return cli_error_set(err, PIER_E_OUT_OF_MEMORY, "out of memory");
    b->p = p;
    b->cap = cap;
    return PIER_OK;
}

static pier_status add(text_buf *b, const char *s, size_t n, pier_error *err)
{
    if (n == 0)
        return PIER_OK;
    pier_status rc = grow(b, n, err);
    if (rc == PIER_OK) {
        memcpy(b->p + b->len, s, n);
        b->len += n;
    }
    return rc;
}

/* ---- records to JSON rows ---- */

typedef enum col_role { ROLE_VALUE, ROLE_ID } col_role;

typedef struct csv_col {
    char *key;             /* the member's name as JSON text, quoted */
    col_role role;
    int kind;              /* the board's column's pier_kind, or -1 */
} csv_col;

typedef struct csv_state {
    const cli_load_opts *opts;
    const char *where;     /* the input's name in messages */
    size_t batch_rows;
    cli_batch_fn fn;
    void *payload;
    pier_error *err;
    pier_status rc;        /* why the reader was stopped */
    const pier_board_info *board;   /* NULL: no such board yet */
    csv_col *cols;
    size_t ncols;
    bool have_header;
    bool has_id;           /* the header names the id column */
    text_buf text;         /* the batch being built */
    size_t rows;           /* rows in it */
    int64_t *lines;        /* the line of each */
    size_t rows_before;    /* rows in the batches handed on */
    pier_uuid_gen gen;     /* --id-generate's */
} csv_state;

static pier_status csv_fail(csv_state *cs, pier_status status,
                            const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static pier_status csv_fail(csv_state *cs, pier_status status,
                            const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_error_vset(cs->err, status, fmt, ap);
    va_end(ap);
    cs->rc = status;
    return status;
}

/* Appends s[0..n) as a JSON string. */
static pier_status add_string(text_buf *b, const char *s, size_t n,
                              pier_error *err)
{
    pier_status rc = grow(b, n * 6 + 2, err);
    if (rc != PIER_OK)
        return rc;
    char *o = b->p + b->len;
    *o++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            *o++ = '\\';
            *o++ = (char)c;
        } else if (c < 0x20) {
            static const char hex[] = "0123456789abcdef";
            memcpy(o, "\\u00", 4);
            o[4] = hex[c >> 4];
            o[5] = hex[c & 15];
            o += 6;
        } else {
            *o++ = (char)c;
        }
    }
    *o++ = '"';
    b->len = (size_t)(o - b->p);
    return PIER_OK;
}

/* Whether s[0..n) is a JSON number (RFC 8259's grammar, nothing else). */
static bool is_json_number(const char *s, size_t n)
{
    size_t i = 0;
    if (i < n && s[i] == '-')
        i++;
    if (i == n)
        return false;
    if (s[i] == '0') {
        i++;
    } else if (s[i] >= '1' && s[i] <= '9') {
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
    } else {
        return false;
    }
    if (i < n && s[i] == '.') {
        size_t d = ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == d)
            return false;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t d = i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == d)
            return false;
    }
    return i == n;
}

static bool is_bool(const char *s, size_t n)
{
    return (n == 4 && memcmp(s, "true", 4) == 0) ||
           (n == 5 && memcmp(s, "false", 5) == 0);
}

bool cli_csv_reads_as_json(const char *s, size_t n)
{
    return (n == 0) || is_json_number(s, n) || is_bool(s, n);
}

/* Whether s[0..n) is one JSON document. */
static bool is_json(const char *s, size_t n)
{
    json_error_t jerr;
    json_t *j = json_loadb(s, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
    json_decref(j);
    return j != NULL;
}

/*
 * Appends a field as the JSON value it stands for:
 * - no column yet (kind -1): empty unquoted is null; unquoted, a JSON
 *   number or true/false is that; anything else, and anything quoted, is
 *   a string;
 * - a column of the board: empty (quoted or not) is null unless the
 *   column holds text, where "" is the empty string; a number, a boolean,
 *   a json or array column takes the field's text as JSON when it is of
 *   that shape (quoted or not) and as a string otherwise, for the library
 *   to refuse in its own words; every other column takes a string.
 */
static pier_status csv_value(text_buf *b, const cli_csv_field *f,
                             int kind, pier_error *err)
{
    bool raw = false;
    if (kind < 0) {
        if (f->len == 0 && !f->quoted)
            return add(b, "null", 4, err);
        raw = !f->quoted && (is_json_number(f->text, f->len) ||
                             is_bool(f->text, f->len));
    } else {
        if (f->len == 0 && (!f->quoted || kind != PIER_KIND_TEXT))
            return add(b, "null", 4, err);
        switch ((pier_kind)kind) {
        case PIER_KIND_BOOLEAN:
            raw = is_bool(f->text, f->len);
            break;
        case PIER_KIND_TINYINT: case PIER_KIND_SMALLINT:
        case PIER_KIND_INTEGER: case PIER_KIND_BIGINT:
        case PIER_KIND_HUGEINT: case PIER_KIND_FLOAT:
        case PIER_KIND_DOUBLE: case PIER_KIND_UNSIGNED:
        case PIER_KIND_DECIMAL:
            raw = is_json_number(f->text, f->len);
            break;
        case PIER_KIND_JSON: case PIER_KIND_ARRAY:
            raw = is_json(f->text, f->len);
            break;
        default:
            break;
        }
    }
    return raw ? add(b, f->text, f->len, err)
               : add_string(b, f->text, f->len, err);
}

/* Whether two column names are one, as the library compares them:
 * without regard to ASCII case, whatever the locale. */
static bool name_eq(const char *a, const char *b)
{
    for (;; a++, b++) {
        unsigned char x = (unsigned char)*a, y = (unsigned char)*b;
        if (x >= 'A' && x <= 'Z')
            x = (unsigned char)(x + 32);
        if (y >= 'A' && y <= 'Z')
            y = (unsigned char)(y + 32);
        if (x != y)
            return false;
        if (x == '\0')
            return true;
    }
}

/* The kind of the board's column `name`, or -1. The base column state
 * is text on every board, one not made yet too: its field is read as text
 * like the id's ("5" is the state "5", not a number it would refuse). */
static int board_kind(const pier_board_info *b, const char *name)
{
    if (name_eq(name, "state"))
        return PIER_KIND_TEXT;
    if (b == NULL)
        return -1;
    for (size_t i = 0; i < b->ncolumns; i++)
        if (name_eq(b->columns[i].name, name))
            return (int)b->columns[i].kind;
    return -1;
}

/* The id column's name: --id's, or "id". */
static const char *id_column(const csv_state *cs)
{
    return cs->opts->id_column != NULL ? cs->opts->id_column : "id";
}

static pier_status csv_header(csv_state *cs, const cli_csv_record *rec)
{
    const char *idcol = id_column(cs);
    cs->cols = calloc(rec->nfields, sizeof *cs->cols);
    if (cs->cols == NULL)
        return csv_fail(cs, PIER_E_OUT_OF_MEMORY, "out of memory");
    cs->ncols = rec->nfields;
    bool plain_id = false;
    for (size_t i = 0; i < rec->nfields; i++) {
        const cli_csv_field *f = &rec->fields[i];
        if (f->len == 0)
            return csv_fail(cs, PIER_E_INVALID_COLUMN_NAME,
                            "field %zu of the header (line %" PRId64
                            " of %s) is empty: every column needs a name",
                            i + 1, rec->line, cs->where);
        if (memchr(f->text, '\0', f->len) != NULL)
            return csv_fail(cs, PIER_E_INVALID_COLUMN_NAME,
                            "field %zu of the header (line %" PRId64
                            " of %s) holds a NUL byte", i + 1, rec->line,
                            cs->where);
        for (size_t j = 0; j < i; j++) {
            if (rec->fields[j].len == f->len &&
                name_eq(rec->fields[j].text, f->text))
                return csv_fail(cs, PIER_E_DUPLICATE_COLUMN,
                                "the header (line %" PRId64 " of %s) names "
                                "column '%.100s' twice (fields %zu and %zu)",
                                rec->line, cs->where, f->text, j + 1, i + 1);
        }
        bool is_id = strcmp(f->text, idcol) == 0;
        if (strcmp(f->text, "id") == 0 && !is_id)
            plain_id = true;
        cs->cols[i].role = is_id ? ROLE_ID : ROLE_VALUE;
        cs->cols[i].kind = board_kind(cs->board, f->text);
        cs->has_id = cs->has_id || is_id;
        /* The key: "id" for the id column, else the name as JSON. */
        text_buf key = { NULL, 0, 0 };
        pier_status rc = is_id ? add_string(&key, "id", 2, cs->err)
                               : add_string(&key, f->text, f->len, cs->err);
        if (rc == PIER_OK)
            rc = grow(&key, 1, cs->err);   /* room for the NUL */
        if (rc != PIER_OK) {
            free(key.p);
            return cs->rc = rc;
        }
        key.p[key.len] = '\0';
        cs->cols[i].key = key.p;
    }
    if (plain_id && cs->has_id)
        return csv_fail(cs, PIER_E_INVALID_ARGUMENT,
                        "the header (line %" PRId64 " of %s) has both 'id' "
                        "and '%.100s', the column --id names", rec->line,
                        cs->where, idcol);
    if (plain_id && cs->opts->id_generate != 0)
        return csv_fail(cs, PIER_E_INVALID_ARGUMENT,
                        "the header (line %" PRId64 " of %s) has an 'id' "
                        "column, but --id names '%.100s'", rec->line,
                        cs->where, idcol);
    if (!cs->has_id && cs->opts->id_generate == 0)
        return csv_fail(cs, PIER_E_MISSING_ID,
                        "the header (line %" PRId64 " of %s) has no '%.100s' "
                        "column: name the column that holds the ids with "
                        "--id COL, or generate ids with --id-generate uuid7",
                        rec->line, cs->where, idcol);
    cs->have_header = true;
    return PIER_OK;
}

/* The row (from 1, in the whole input) an error names first ("row N" at
 * the start of its message or after '('), or 0. */
static size_t error_row(const char *m)
{
    for (const char *p = m; *p != '\0'; p++) {
        if ((p == m || p[-1] == '(') && strncmp(p, "row ", 4) == 0 &&
            p[4] >= '1' && p[4] <= '9')
            return (size_t)strtoul(p + 4, NULL, 10);
    }
    return 0;
}

/* Hands the batch on; a row the writer refuses gains its line:
 * "... (row 1502) (line 1504 of FILE)". */
static pier_status csv_flush(csv_state *cs)
{
    if (cs->rows == 0)
        return PIER_OK;
    pier_status rc = cs->fn(cs->text.p, cs->text.len, -1, cs->rows,
                            cs->payload, cs->err);
    if (rc != PIER_OK) {
        size_t row = error_row(cs->err->message);
        if (row == 0 && cs->rows == 1)
            row = cs->rows_before + 1;
        if (row > cs->rows_before && row <= cs->rows_before + cs->rows) {
            pier_error *err = cs->err;
            size_t n = strlen(err->message);
            snprintf(err->message + n, sizeof err->message - n,
                     " (line %" PRId64 " of %s)",
                     cs->lines[row - cs->rows_before - 1], cs->where);
        }
        return cs->rc = rc;
    }
    cs->rows_before += cs->rows;
    cs->text.len = 0;
    cs->rows = 0;
    return PIER_OK;
}

static pier_status add_uuid(csv_state *cs, pier_error *err)
{
    char uuid[PIER_UUID_TEXT_SIZE];
    pier_status rc = pier_uuid_generate(uuid, &cs->gen,
                                        cs->opts->id_generate, err);
    return rc == PIER_OK ? add_string(&cs->text, uuid, strlen(uuid), err)
                         : rc;
}

static pier_status csv_row(csv_state *cs, const cli_csv_record *rec)
{
    text_buf *b = &cs->text;
    pier_error *err = cs->err;
    if (rec->nfields != cs->ncols)
        return csv_fail(cs, PIER_E_INVALID_ARGUMENT,
                        "line %" PRId64 " of %s has %zu field%s, but the "
                        "header has %zu", rec->line, cs->where, rec->nfields,
                        rec->nfields == 1 ? "" : "s", cs->ncols);
    size_t row_start = b->len;
    pier_status rc = add(b, "{", 1, err);
    bool first = true;
    if (rc == PIER_OK && !cs->has_id) {
        rc = add(b, "\"id\":", 5, err);
        if (rc == PIER_OK)
            rc = add_uuid(cs, err);
        first = false;
    }
    for (size_t i = 0; rc == PIER_OK && i < rec->nfields; i++) {
        const cli_csv_field *f = &rec->fields[i];
        const csv_col *c = &cs->cols[i];
        if (!first)
            rc = add(b, ",", 1, err);
        first = false;
        if (rc == PIER_OK)
            rc = add(b, c->key, strlen(c->key), err);
        if (rc == PIER_OK)
            rc = add(b, ":", 1, err);
        if (rc != PIER_OK)
            break;
        if (c->role != ROLE_ID)
            rc = csv_value(b, f, c->kind, err);
        else if (f->len > 0)
            rc = add_string(b, f->text, f->len, err);
        else if (cs->opts->id_generate != 0)
            rc = add_uuid(cs, err);
        else
            return csv_fail(cs, PIER_E_MISSING_ID,
                            "line %" PRId64 " of %s has an empty id "
                            "(column '%.100s'); give every row one, or "
                            "generate ids with --id-generate uuid7",
                            rec->line, cs->where, id_column(cs));
    }
    if (rc == PIER_OK)
        rc = add(b, "}\n", 2, err);
    if (rc != PIER_OK)
        return cs->rc = rc;
    /* A row that would take the batch past its bytes goes to the next. */
    if (cs->rows > 0 && b->len > PIER_MAX_BATCH_BYTES) {
        size_t n = b->len - row_start;
        char *row = malloc(n);
        if (row == NULL)
            return csv_fail(cs, PIER_E_OUT_OF_MEMORY, "out of memory");
        memcpy(row, b->p + row_start, n);
        b->len = row_start;
        rc = csv_flush(cs);
        if (rc == PIER_OK)
            rc = add(b, row, n, err);
        free(row);
        if (rc != PIER_OK)
            return cs->rc = rc;
    }
    cs->lines[cs->rows++] = rec->line;
    return cs->rows == cs->batch_rows ? csv_flush(cs) : PIER_OK;
}

/* The length of the UTF-8 prefix of s[0..n): n when it is all valid
 * (no overlong form, surrogate, or code point past U+10FFFF). */
static size_t utf8_prefix(const char *text, size_t n)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        size_t len = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2
                     : c >= 0xE0 && c <= 0xEF ? 3
                     : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (len == 0 || n - i < len)
            return i;
        unsigned char lo = 0x80, hi = 0xBF;  /* the second byte's range */
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
        else if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
        if (len > 1 && (s[i + 1] < lo || s[i + 1] > hi))
            return i;
        for (size_t k = 2; k < len; k++)
            if (s[i + k] < 0x80 || s[i + k] > 0xBF)
                return i;
        i += len;
    }
    return n;
}

/* A field that is not UTF-8 is malformed input, named by its line and
 * field, as the reader's own errors are (the JSON it would become could
 * only say a byte offset in text the input never held). */
static pier_status check_utf8(csv_state *cs, const cli_csv_record *rec)
{
    for (size_t i = 0; i < rec->nfields; i++) {
        const cli_csv_field *f = &rec->fields[i];
        size_t ok = utf8_prefix(f->text, f->len);
        if (ok < f->len)
            return csv_fail(cs, PIER_E_INVALID_ARGUMENT,
                            "line %" PRId64 " of %s: field %zu%s is not "
                            "UTF-8 (byte 0x%02X at its byte %zu)",
                            rec->line, cs->where, i + 1,
                            cs->have_header ? "" : " of the header",
                            (unsigned char)f->text[ok], ok + 1);
    }
    return PIER_OK;
}

static int csv_record(const cli_csv_record *rec, void *payload)
{
    csv_state *cs = payload;
    if (cli_stream_stop != NULL && *cli_stream_stop != 0) {
        cs->rc = cli_error_set(cs->err, PIER_E_INTERRUPTED, "stopped");
        return 1;
    }
    if (check_utf8(cs, rec) != PIER_OK)
        return 1;
    pier_status rc = cs->have_header ? csv_row(cs, rec)
                                     : csv_header(cs, rec);
    return rc != PIER_OK;
}

pier_status cli_csv_split(const cli_csv_source *src,
                          const pier_board_info *board,
                          const cli_load_opts *opts, size_t batch_rows,
                          cli_batch_fn fn, void *payload, pier_error *err)
{
    csv_state cs;
    memset(&cs, 0, sizeof cs);
    cs.opts = opts;
    cs.where = src->name;
    cs.batch_rows = batch_rows > 0 ? batch_rows : 1;
    cs.fn = fn;
    cs.payload = payload;
    cs.err = err;
    cs.rc = PIER_OK;
    cs.board = board;
    pier_status rc = PIER_OK;
    cs.lines = malloc(cs.batch_rows * sizeof *cs.lines);
    cli_csv *r = cli_csv_new(src->sep, PIER_MAX_ROW_BYTES, csv_record, &cs);
    char *chunk = malloc(READ_BYTES);
    if (cs.lines == NULL || r == NULL || chunk == NULL) {
        rc = cli_error_set(err, PIER_E_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    cli_csv_status cr = CLI_CSV_OK;
    ssize_t n = 0;
    /* (a stop asked for by a signal ends the input before the next read;
     * a read it interrupts ends it too, and the caller says why). What
     * has arrived is fed at once: rows a slow producer writes are
     * committed as soon as their batch is complete. */
    while (cr == CLI_CSV_OK &&
           (cli_stream_stop == NULL || *cli_stream_stop == 0) &&
           (n = cli_read_some(src->in, chunk, READ_BYTES, 1)) > 0)
        cr = cli_csv_feed(r, chunk, (size_t)n);
    if (cr == CLI_CSV_OK && n < 0) {
        rc = cli_error_set(err, PIER_E_READ_FAILED, "cannot read %s: %s",
                           cs.where, strerror(errno));
        goto done;
    }
    if (cli_stream_stop != NULL && *cli_stream_stop != 0 &&
        cr == CLI_CSV_OK) {
        rc = cli_error_set(err, PIER_E_INTERRUPTED, "stopped");
        goto done;
    }
    if (cr == CLI_CSV_OK)
        cr = cli_csv_finish(r);
    switch (cr) {
    case CLI_CSV_OK:      /* the last batch; none for an empty input */
        rc = csv_flush(&cs);
        break;
    case CLI_CSV_STOPPED:
        rc = cs.rc;
        break;
    case CLI_CSV_SYNTAX:
        rc = cli_error_set(err, PIER_E_INVALID_ARGUMENT,
                           "line %" PRId64 " of %s: %s",
                           cli_csv_error_line(r), cs.where,
                           cli_csv_error(r));
        break;
    case CLI_CSV_TOO_LONG:
        rc = cli_error_set(err, PIER_E_LIMIT_EXCEEDED,
                           "the record at line %" PRId64 " of %s is larger "
                           "than %d bytes, the most one row may take",
                           cli_csv_error_line(r), cs.where,
                           PIER_MAX_ROW_BYTES);
        break;
    case CLI_CSV_NO_MEMORY:
        rc = cli_error_set(err, PIER_E_OUT_OF_MEMORY, "out of memory");
        break;
    }
done:
    free(chunk);
    cli_csv_free(r);
    free(cs.lines);
    free(cs.text.p);
    for (size_t i = 0; i < cs.ncols; i++)
        free(cs.cols[i].key);
    free(cs.cols);
    return rc;
}
