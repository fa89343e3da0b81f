/*
 * fuzz_csv.c: the pier command's strict RFC 4180 reader (tools/pier/csv.c)
 * on any bytes, with ',' or a tab (the first byte's low bit) as the
 * separator and the rest as the input.
 *
 * Invariants:
 * - the input read whole, byte by byte, and in two pieces split where the
 *   first byte says, gives the same records and the same status, error
 *   line included: the pieces never change the result;
 * - every record has a field, a line from 1 that never goes back, and
 *   fields that end with a NUL;
 * - an accepted input's records, written out again with every field
 *   quoted (quotes doubled) and CRLF line ends, read back as the same
 *   fields, now all quoted.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "support/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Records written out as: per field, its quoted flag, its length (8
 * bytes) and its bytes; a record ends with 0xff. */
typedef struct log {
    unsigned char *p;
    size_t len, cap;
    int64_t last_line;
    bool all_quoted;   /* every field must have been quoted */
} log_t;

static void put(log_t *l, const void *b, size_t n)
{
    if (l->len + n > l->cap) {
        size_t cap = l->cap ? l->cap : 256;
        while (cap < l->len + n)
            cap *= 2;
        l->p = realloc(l->p, cap);
        if (l->p == NULL)
            abort();
        l->cap = cap;
    }
    memcpy(l->p + l->len, b, n);
    l->len += n;
}

static int on_record(const cli_csv_record *rec, void *payload)
{
    log_t *l = payload;
    FZ_CHECK(rec->nfields > 0 && rec->line >= 1 &&
             rec->line >= l->last_line,
             "record of %zu fields at line %" PRId64 " after line %" PRId64,
             rec->nfields, rec->line, l->last_line);
    l->last_line = rec->line;
    for (size_t i = 0; i < rec->nfields; i++) {
        const cli_csv_field *f = &rec->fields[i];
        FZ_CHECK(f->text[f->len] == '\0', "field %zu not NUL-terminated", i);
        FZ_CHECK(!l->all_quoted || f->quoted,
                 "field %zu of a fully quoted input read as unquoted", i);
        unsigned char q = l->all_quoted ? 0 : f->quoted;
        uint64_t n = f->len;
        put(l, &q, 1);
        put(l, &n, sizeof n);
        put(l, f->text, f->len);
    }
    unsigned char end = 0xff;
    put(l, &end, 1);
    return 0;
}

typedef struct result {
    cli_csv_status status;
    int64_t line;
    log_t log;
} result;

/* Reads in pieces: up to `cut` first, then `step` bytes at a time (0:
 * the rest at once). */
static void run(const char *in, size_t n, char sep, size_t cut, size_t step,
                bool all_quoted, result *out)
{
    memset(out, 0, sizeof *out);
    out->log.all_quoted = all_quoted;
    cli_csv *r = cli_csv_new(sep, 4096, on_record, &out->log);
    if (r == NULL)
        abort();
    cli_csv_status rc = CLI_CSV_OK;
    if (cut > n)
        cut = n;
    rc = cli_csv_feed(r, in, cut);
    for (size_t i = cut; rc == CLI_CSV_OK && i < n;) {
        size_t k = step != 0 && step < n - i ? step : n - i;
        rc = cli_csv_feed(r, in + i, k);
        i += k;
    }
    if (rc == CLI_CSV_OK)
        rc = cli_csv_finish(r);
    out->status = rc;
    out->line = rc == CLI_CSV_OK ? 0 : cli_csv_error_line(r);
    cli_csv_free(r);
}

static void same(const result *a, const result *b)
{
    FZ_CHECK(a->status == b->status && a->line == b->line &&
             a->log.len == b->log.len &&
             (a->log.len == 0 || memcmp(a->log.p, b->log.p, a->log.len) == 0),
             "the pieces changed the result: status %d/%d, line %" PRId64
             "/%" PRId64, (int)a->status, (int)b->status, a->line, b->line);
}

/* Writes the log's records as CSV with every field quoted. */
static char *rewrite(const log_t *l, char sep, size_t *len)
{
    size_t cap = l->len * 2 + 16, n = 0;
    char *o = malloc(cap);
    if (o == NULL)
        abort();
    bool first = true;
    for (size_t i = 0; i < l->len;) {
        if (l->p[i] == 0xff) {
            o[n++] = '\r';
            o[n++] = '\n';
            first = true;
            i++;
            continue;
        }
        uint64_t flen;
        memcpy(&flen, l->p + i + 1, sizeof flen);
        const char *t = (const char *)l->p + i + 1 + sizeof flen;
        if (!first)
            o[n++] = sep;
        first = false;
        o[n++] = '"';
        for (uint64_t k = 0; k < flen; k++) {
            if (t[k] == '"')
                o[n++] = '"';
            o[n++] = t[k];
        }
        o[n++] = '"';
        i += 1 + sizeof flen + (size_t)flen;
    }
    *len = n;
    return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char sep = (data[0] & 1) ? '\t' : ',';
    size_t cut = data[0] >> 1;
    const char *in = (const char *)data + 1;
    size_t n = size - 1;
    result whole, bytes, split;
    run(in, n, sep, n, 0, false, &whole);
    run(in, n, sep, 0, 1, false, &bytes);
    run(in, n, sep, cut, 0, false, &split);
    same(&whole, &bytes);
    same(&whole, &split);
    if (whole.status == CLI_CSV_OK) {
        size_t len = 0;
        char *again = rewrite(&whole.log, sep, &len);
        result back;
        run(again, len, sep, len, 0, true, &back);
        FZ_CHECK(back.status == CLI_CSV_OK || back.status == CLI_CSV_TOO_LONG,
                 "the quoted rewrite was refused (%d)", (int)back.status);
        if (back.status == CLI_CSV_OK) {
            /* the same fields, the quoted flags aside */
            log_t a = whole.log;
            for (size_t i = 0; i < a.len;) {
                if (a.p[i] == 0xff) {
                    i++;
                    continue;
                }
                a.p[i] = 0;
                uint64_t flen;
                memcpy(&flen, a.p + i + 1, sizeof flen);
                i += 1 + sizeof flen + (size_t)flen;
            }
            FZ_CHECK(a.len == back.log.len &&
                     (a.len == 0 || memcmp(a.p, back.log.p, a.len) == 0),
                     "the quoted rewrite read back other fields");
        }
        free(back.log.p);
        free(again);
    }
    free(whole.log.p);
    free(bytes.log.p);
    free(split.log.p);
    return 0;
}
