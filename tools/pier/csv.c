/*
 * csv.c: the strict RFC 4180 reader of csv.h, a byte-at-a-time state
 * machine.
 *
 * Invariants:
 * - buf holds the bytes of the record in progress, each field's followed
 *   by a NUL; ends[i] is where field i's NUL is, for the fields complete so
 *   far, and fstart where the field in progress starts.
 * - buf grows only while the record stays within max_record_bytes (plus
 *   one NUL per field), so memory is bounded whatever the input.
 * - once an error is set it sticks: every later feed returns it.
 */
#include "csv.h"

#include <stdlib.h>
#include <string.h>

typedef enum csv_state {
    S_RECORD_START,   /* at the start of a line: nothing of a record yet */
    S_FIELD_START,    /* after a separator */
    S_UNQUOTED,       /* inside an unquoted field */
    S_QUOTED,         /* inside a quoted field */
    S_QUOTE,          /* a quote inside a quoted field: its end, or "" */
    S_CR              /* a CR outside quotes: only LF may follow */
} csv_state;

typedef struct field_end {
    size_t end;       /* offset of the field's NUL in buf */
    bool quoted;
} field_end;

struct cli_csv {
    char sep;
    size_t max_bytes;
    cli_csv_record_fn fn;
    void *payload;
    csv_state state;
    char *buf;
    size_t len, cap;
    size_t fstart;            /* where the field in progress starts */
    bool fquoted;             /* the field in progress is quoted */
    field_end *ends;
    size_t nfields, fcap;
    cli_csv_field *fields;    /* handed to the callback; fcap of them */
    int64_t line;             /* the line being read, from 1 */
    int64_t rec_line;         /* the line the record in progress starts on */
    int64_t pos;              /* input offset of the byte being read */
    int64_t rec_offset;
    bool started;             /* any byte read (for the BOM) */
    size_t bom;               /* bytes of a BOM matched at the start */
    cli_csv_status error;
    const char *message;
    int64_t error_line;
};

cli_csv *cli_csv_new(char sep, size_t max_record_bytes,
                     cli_csv_record_fn fn, void *payload)
{
    cli_csv *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->sep = sep;
    r->max_bytes = max_record_bytes;
    r->fn = fn;
    r->payload = payload;
    r->state = S_RECORD_START;
    r->line = 1;
    return r;
}

void cli_csv_free(cli_csv *r)
{
    if (r == NULL)
        return;
    free(r->buf);
    free(r->ends);
    free(r->fields);
    free(r);
}

static cli_csv_status fail(cli_csv *r, cli_csv_status status,
                           const char *message, int64_t line)
{
    r->error = status;
    r->message = message;
    r->error_line = line;
    return status;
}

/* Appends a byte of data (`nul` false: counted against the limit) or a
 * field's NUL. */
static cli_csv_status append(cli_csv *r, char c, bool nul)
{
    if (!nul && r->len - r->nfields >= r->max_bytes)
        return fail(r, CLI_CSV_TOO_LONG, "the record is too long",
                    r->rec_line);
    if (r->len == r->cap) {
        size_t cap = r->cap != 0 ? r->cap * 2 : 256;
        char *buf = realloc(r->buf, cap);
        if (buf == NULL)
            return fail(r, CLI_CSV_NO_MEMORY, "out of memory", r->line);
        r->buf = buf;
        r->cap = cap;
    }
    r->buf[r->len++] = c;
    return CLI_CSV_OK;
}

static cli_csv_status put(cli_csv *r, char c)
{
    return append(r, c, false);
}

static cli_csv_status begin_record(cli_csv *r)
{
    r->len = 0;
    r->nfields = 0;
    r->fstart = 0;
    r->fquoted = false;
    r->rec_line = r->line;
    r->rec_offset = r->pos;
    return CLI_CSV_OK;
}

static cli_csv_status end_field(cli_csv *r)
{
    cli_csv_status rc = append(r, '\0', true);
    if (rc != CLI_CSV_OK)
        return rc;
    if (r->nfields == r->fcap) {
        size_t cap = r->fcap != 0 ? r->fcap * 2 : 16;
        field_end *ends = realloc(r->ends, cap * sizeof *ends);
        if (ends == NULL)
            return fail(r, CLI_CSV_NO_MEMORY, "out of memory", r->line);
        r->ends = ends;
        cli_csv_field *fields = realloc(r->fields, cap * sizeof *fields);
        if (fields == NULL)
            return fail(r, CLI_CSV_NO_MEMORY, "out of memory", r->line);
        r->fields = fields;
        r->fcap = cap;
    }
    r->ends[r->nfields].end = r->len - 1;
    r->ends[r->nfields].quoted = r->fquoted;
    r->nfields++;
    r->fstart = r->len;
    r->fquoted = false;
    return CLI_CSV_OK;
}

/* Ends the record (its last field included) and hands it on. */
static cli_csv_status end_record(cli_csv *r)
{
    cli_csv_status rc = end_field(r);
    if (rc != CLI_CSV_OK)
        return rc;
    size_t start = 0;
    for (size_t i = 0; i < r->nfields; i++) {
        r->fields[i].text = r->buf + start;
        r->fields[i].len = r->ends[i].end - start;
        r->fields[i].quoted = r->ends[i].quoted;
        start = r->ends[i].end + 1;
    }
    cli_csv_record rec = { r->fields, r->nfields, r->rec_line,
                           r->rec_offset };
    r->state = S_RECORD_START;
    if (r->fn(&rec, r->payload) != 0)
        return fail(r, CLI_CSV_STOPPED, "stopped", r->rec_line);
    return CLI_CSV_OK;
}

static cli_csv_status step(cli_csv *r, char c)
{
    switch (r->state) {
    case S_RECORD_START:
        if (c == '\n')          /* an empty line: no record */
            return CLI_CSV_OK;
        if (c == '\r') {
            r->state = S_CR;
            return begin_record(r);
        }
        begin_record(r);   /* the byte starts the record's first field */
        r->state = S_FIELD_START;
        return step(r, c);
    case S_FIELD_START:
        if (c == '"') {
            r->fquoted = true;
            r->state = S_QUOTED;
            return CLI_CSV_OK;
        }
        if (c == r->sep)
            return end_field(r);
        if (c == '\r') {
            r->state = S_CR;
            return CLI_CSV_OK;
        }
        if (c == '\n')
            return end_record(r);
        r->state = S_UNQUOTED;
        return put(r, c);
    case S_UNQUOTED:
        if (c == r->sep) {
            r->state = S_FIELD_START;
            return end_field(r);
        }
        if (c == '\r') {
            r->state = S_CR;
            return CLI_CSV_OK;
        }
        if (c == '\n')
            return end_record(r);
        if (c == '"')
            return fail(r, CLI_CSV_SYNTAX,
                        "a quote inside an unquoted field (quote the whole "
                        "field and double the quotes in it)", r->line);
        return put(r, c);
    case S_QUOTED:
        if (c == '"') {
            r->state = S_QUOTE;
            return CLI_CSV_OK;
        }
        return put(r, c);
    case S_QUOTE:
        if (c == '"') {
            r->state = S_QUOTED;
            return put(r, '"');
        }
        if (c == r->sep) {
            r->state = S_FIELD_START;
            return end_field(r);
        }
        if (c == '\r') {
            r->state = S_CR;
            return CLI_CSV_OK;
        }
        if (c == '\n')
            return end_record(r);
        return fail(r, CLI_CSV_SYNTAX,
                    "text after the closing quote of a field (a quote "
                    "inside a quoted field is written twice)", r->line);
    case S_CR:
        if (c == '\n') {
            /* (a CR alone on its line was an empty line: no record) */
            if (r->len == 0 && r->nfields == 0 && !r->fquoted &&
                r->rec_offset == r->pos - 1) {
                r->state = S_RECORD_START;
                return CLI_CSV_OK;
            }
            return end_record(r);
        }
        return fail(r, CLI_CSV_SYNTAX,
                    "a carriage return not followed by a line feed "
                    "outside quotes", r->line);
    }
    return CLI_CSV_OK;
}

cli_csv_status cli_csv_feed(cli_csv *r, const char *bytes, size_t n)
{
    static const unsigned char bom[3] = { 0xEF, 0xBB, 0xBF };
    size_t i = 0;
    if (r->error != CLI_CSV_OK)
        return r->error;
    /* A BOM is matched byte by byte, whatever the pieces; a prefix of one
     * that stops matching is input after all. */
    while (!r->started && i < n) {
        if ((unsigned char)bytes[i] == bom[r->bom]) {
            i++;
            if (++r->bom == 3) {
                r->started = true;
                r->pos = 3;
            }
            continue;
        }
        r->started = true;
        for (size_t k = 0; k < r->bom; k++) {
            cli_csv_status rc = step(r, (char)bom[k]);
            r->pos++;
            if (rc != CLI_CSV_OK)
                return rc;
        }
    }
    for (; i < n; i++) {
        char c = bytes[i];
        cli_csv_status rc = step(r, c);
        if (rc != CLI_CSV_OK)
            return rc;
        if (c == '\n')
            r->line++;
        r->pos++;
    }
    return CLI_CSV_OK;
}

cli_csv_status cli_csv_finish(cli_csv *r)
{
    if (r->error != CLI_CSV_OK)
        return r->error;
    if (!r->started && r->bom > 0) {   /* an input shorter than a BOM */
        r->started = true;
        size_t k = r->bom;
        r->bom = 0;
        cli_csv_status rc = cli_csv_feed(r, (const char *)"\xEF\xBB", k);
        if (rc != CLI_CSV_OK)
            return rc;
    }
    switch (r->state) {
    case S_RECORD_START:
        return CLI_CSV_OK;
    case S_QUOTED:
        return fail(r, CLI_CSV_SYNTAX,
                    "the input ends inside a quoted field", r->line);
    case S_CR:
        if (r->len == 0 && r->nfields == 0 && !r->fquoted &&
            r->rec_offset == r->pos - 1)
            return CLI_CSV_OK;   /* a lone CR at the end */
        return fail(r, CLI_CSV_SYNTAX,
                    "a carriage return not followed by a line feed "
                    "outside quotes", r->line);
    case S_FIELD_START:
    case S_UNQUOTED:
    case S_QUOTE:
        break;
    }
    return end_record(r);
}

const char *cli_csv_error(const cli_csv *r)
{
    return r->message != NULL ? r->message : "";
}

int64_t cli_csv_error_line(const cli_csv *r)
{
    return r->error_line;
}
