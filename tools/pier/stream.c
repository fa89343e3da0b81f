/*
 * stream.c: splits a stream of JSON objects (stdin of `insert BOARD -`
 * and `upsert BOARD -`) into batches for pier_insert_json and
 * pier_upsert_json, without parsing the objects; and reads a whole input
 * whose text must be one piece (a patch, a transaction's operations).
 *
 * The input is either one JSON array of objects or objects separated by
 * white space (JSON lines). The splitter only finds where each top-level
 * object starts and ends: it follows strings, their escapes and the depth
 * of brackets, and leaves the objects' contents for the library to check.
 *
 * Invariants:
 * - buf holds the input's bytes from offset `base` on, exactly, except
 *   that the commas between array elements become spaces: a batch is then
 *   valid JSON-lines text, and an offset in it plus `base` is the offset
 *   in the input.
 * - buf holds at most one batch and the object in progress: a batch is
 *   handed on at batch_rows objects, or before its text would pass
 *   PIER_MAX_BATCH_BYTES; an object longer than PIER_MAX_ROW_BYTES stops
 *   the stream (the library would refuse it anyway), so memory stays under
 *   their sum whatever the input.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Bytes read from the input at a time. */
#define CHUNK_BYTES 65536

typedef enum scan_state {
    ST_START,        /* before the first non-blank byte */
    ST_ARRAY_FIRST,  /* after '[': an object or ']' */
    ST_ARRAY_NEXT,   /* after an element: ',' or ']' */
    ST_ARRAY_ITEM,   /* after ',': an object */
    ST_ARRAY_DONE,   /* after ']': only white space */
    ST_LINES,        /* between objects of JSON lines */
    ST_OBJECT        /* inside an object */
} scan_state;

typedef struct scanner {
    cli_batch_fn fn;
    void *payload;
    pier_error *err;
    size_t batch_rows;
    char *buf;
    size_t len, cap;
    int64_t base;          /* input offset of buf[0] */
    size_t rows;           /* complete objects in buf */
    size_t complete;       /* bytes of buf through the last complete one */
    size_t obj_start;      /* where in buf the object in progress starts */
    int64_t pos;           /* input offset of the byte being scanned */
    scan_state state;
    bool array;            /* the input is an array, not JSON lines */
    size_t depth;          /* brackets open in the current object */
    bool in_string, escaped;
} scanner;

static pier_status fail(scanner *s, pier_status status, int64_t offset,
                        const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static pier_status fail(scanner *s, pier_status status, int64_t offset,
                        const char *fmt, ...)
{
    pier_error *err = s->err;
    cli_error_init(err);
    err->status = status;
    err->tag = pier_status_tag(status);
    err->offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return status;
}

static pier_status flush(scanner *s);

/* Adds a byte to buf, handing the batch on first if the byte would take
 * it past PIER_MAX_BATCH_BYTES. */
static pier_status append(scanner *s, char c)
{
    if (s->rows > 0 && s->len >= PIER_MAX_BATCH_BYTES) {
        pier_status rc = flush(s);
        if (rc != PIER_OK || (s->state != ST_OBJECT && s->rows == 0))
            return rc;   /* a separator after a flushed batch is dropped */
    }
    if (s->len == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : CHUNK_BYTES;
        char *buf = realloc(s->buf, cap);
        if (buf == NULL)
            return fail(s, PIER_E_OUT_OF_MEMORY, -1, "out of memory");
        s->buf = buf;
        s->cap = cap;
    }
    s->buf[s->len++] = c;
    return PIER_OK;
}

/* Hands the complete objects in buf to the callback, and keeps the object
 * in progress, if any, at the start of buf. */
static pier_status flush(scanner *s)
{
    if (s->rows == 0)
        return PIER_OK;
    pier_status rc = s->fn(s->buf, s->complete, s->base, s->rows, s->payload,
                           s->err);
    if (rc != PIER_OK)
        return rc;
    if (s->state == ST_OBJECT) {
        memmove(s->buf, s->buf + s->obj_start, s->len - s->obj_start);
        s->len -= s->obj_start;
        s->base += (int64_t)s->obj_start;
        s->obj_start = 0;
    } else {
        s->len = 0;
    }
    s->rows = 0;
    s->complete = 0;
    return PIER_OK;
}

static pier_status begin_object(scanner *s)
{
    if (s->rows == 0) {   /* a new batch starts with this object */
        s->len = 0;
        s->base = s->pos;
    }
    s->obj_start = s->len;
    s->state = ST_OBJECT;
    s->depth = 1;
    s->in_string = s->escaped = false;
    return append(s, '{');
}

/* White space, or an array's comma as a space, between two objects of one
 * batch; dropped when no batch is open. */
static pier_status separator(scanner *s, char c)
{
    return s->rows > 0 ? append(s, c) : PIER_OK;
}

static pier_status in_object(scanner *s, char c)
{
    pier_status rc = append(s, c);
    if (rc != PIER_OK)
        return rc;
    if (s->in_string) {
        if (s->escaped)
            s->escaped = false;
        else if (c == '\\')
            s->escaped = true;
        else if (c == '"')
            s->in_string = false;
    } else if (c == '"') {
        s->in_string = true;
    } else if (c == '{' || c == '[') {
        s->depth++;
    } else if (c == '}' || c == ']') {
        s->depth--;
    }
    if (s->depth == 0) {
        s->rows++;
        s->complete = s->len;
        s->state = s->array ? ST_ARRAY_NEXT : ST_LINES;
        return s->rows == s->batch_rows ? flush(s) : PIER_OK;
    }
    if (s->len - s->obj_start > PIER_MAX_ROW_BYTES) {
        int64_t at = s->base + (int64_t)s->obj_start;
        return fail(s, PIER_E_LIMIT_EXCEEDED, at,
                    "the object at byte %" PRId64 " of stdin is larger "
                    "than %d bytes, the most one row may take", at,
                    PIER_MAX_ROW_BYTES);
    }
    return PIER_OK;
}

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static pier_status step(scanner *s, char c)
{
    switch (s->state) {
    case ST_OBJECT:
        return in_object(s, c);
    case ST_START:
        if (blank(c))
            return PIER_OK;
        if (c == '[') {
            s->array = true;
            s->state = ST_ARRAY_FIRST;
            return PIER_OK;
        }
        if (c == '{')
            return begin_object(s);
        return fail(s, PIER_E_INVALID_JSON, s->pos,
                    "expected an object or an array of objects at byte "
                    "%" PRId64 " of stdin", s->pos);
    case ST_ARRAY_FIRST:
        if (blank(c))
            return PIER_OK;
        if (c == ']') {
            s->state = ST_ARRAY_DONE;
            return PIER_OK;
        }
        if (c == '{')
            return begin_object(s);
        return fail(s, PIER_E_INVALID_JSON, s->pos,
                    "expected an object or ']' at byte %" PRId64
                    " of stdin", s->pos);
    case ST_ARRAY_NEXT:
        if (blank(c))
            return separator(s, c);
        if (c == ',') {
            s->state = ST_ARRAY_ITEM;
            return separator(s, ' ');
        }
        if (c == ']') {
            s->state = ST_ARRAY_DONE;
            return PIER_OK;
        }
        return fail(s, PIER_E_INVALID_JSON, s->pos,
                    "expected ',' or ']' at byte %" PRId64 " of stdin",
                    s->pos);
    case ST_ARRAY_ITEM:
        if (blank(c))
            return separator(s, c);
        if (c == '{')
            return begin_object(s);
        return fail(s, PIER_E_INVALID_JSON, s->pos,
                    "expected an object at byte %" PRId64 " of stdin",
                    s->pos);
    case ST_ARRAY_DONE:
        if (blank(c))
            return PIER_OK;
        return fail(s, PIER_E_INVALID_JSON, s->pos,
                    "unexpected data after the array at byte %" PRId64
                    " of stdin", s->pos);
    case ST_LINES:
        if (blank(c))
            return separator(s, c);
        if (c == '{')
            return begin_object(s);
        return fail(s, PIER_E_INVALID_JSON, s->pos,
                    "expected an object at byte %" PRId64 " of stdin "
                    "(JSON lines are objects separated by white space)",
                    s->pos);
    }
    return PIER_OK;
}

/* What the end of the input means in each state. */
static pier_status finish(scanner *s)
{
    switch (s->state) {
    case ST_OBJECT: {
        int64_t start = s->base + (int64_t)s->obj_start;
        return fail(s, PIER_E_INVALID_JSON, s->pos,
                    "stdin ends at byte %" PRId64 ", inside the object "
                    "that starts at byte %" PRId64, s->pos, start);
    }
    case ST_ARRAY_FIRST:
    case ST_ARRAY_NEXT:
    case ST_ARRAY_ITEM:
        return fail(s, PIER_E_INVALID_JSON, s->pos,
                    "stdin ends at byte %" PRId64 ", before the array is "
                    "closed", s->pos);
    case ST_START:
    case ST_ARRAY_DONE:
    case ST_LINES:
        break;
    }
    return flush(s);
}

volatile sig_atomic_t *cli_stream_stop;

ssize_t cli_read_some(FILE *in, char *buf, size_t cap, size_t least)
{
    int fd = fileno(in);
    size_t n = 0;
    while (n < cap && (n == 0 || n < least)) {
        /* (waited for apart from the read, so that a signal that comes
         * between a look at cli_stream_stop and the read is not missed
         * while the read waits for input that may never come) */
        if (cli_stream_stop != NULL) {
            int ready = cli_wait_fd(fd, POLLIN, cli_stream_stop);
            if (ready < 0 || (ready == 0 && n == 0))
                return -1;
            if (ready == 0)
                break;              /* (what was read is handed on) */
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got > 0) {
            n += (size_t)got;
        } else if (got == 0) {
            break;                          /* the end of the input */
        } else if (errno != EINTR ||
                   (cli_stream_stop != NULL && *cli_stream_stop != 0)) {
            return -1;
        }
    }
    return (ssize_t)n;
}

pier_status cli_stream_split(FILE *in, size_t batch_rows, cli_batch_fn fn,
                             void *payload, pier_error *err)
{
    static const unsigned char bom[3] = { 0xEF, 0xBB, 0xBF };
    scanner s;
    memset(&s, 0, sizeof s);
    s.fn = fn;
    s.payload = payload;
    s.err = err;
    s.batch_rows = batch_rows > 0 ? batch_rows : 1;
    s.state = ST_START;
    char *chunk = malloc(CHUNK_BYTES);
    if (chunk == NULL)
        return fail(&s, PIER_E_OUT_OF_MEMORY, -1, "out of memory");
    pier_status rc = PIER_OK;
    ssize_t got = 0;
    bool first = true;
    /* (a stop asked for by a signal between two reads ends the stream
     * before the next: a read it interrupts ends it too, as an error) */
    while (rc == PIER_OK && (cli_stream_stop == NULL || *cli_stream_stop == 0)
           && (got = cli_read_some(in, chunk, CHUNK_BYTES,
                                   first ? sizeof bom : 1)) > 0) {
        size_t i = 0, n = (size_t)got;
        /* Editors on some systems start UTF-8 files with a byte order
         * mark; the library skips it too. The first read waits for three
         * bytes unless the input ends, so a BOM is never split across two
         * reads. */
        if (first && n >= 3 && memcmp(chunk, bom, 3) == 0) {
            i = 3;
            s.pos = 3;
        }
        first = false;
        for (; rc == PIER_OK && i < n; i++, s.pos++)
            rc = step(&s, chunk[i]);
    }
    if (rc == PIER_OK && got < 0)
        rc = fail(&s, PIER_E_READ_FAILED, -1, "cannot read stdin: %s",
                  strerror(errno));
    if (rc == PIER_OK)
        rc = finish(&s);
    free(chunk);
    free(s.buf);
    return rc;
}

/* ---- whole inputs ---- */

pier_status cli_read_all(FILE *in, const char *name, const char *what,
                         size_t max, char **out, size_t *len,
                         pier_error *err)
{
    char *buf = NULL;
    size_t n = 0, cap = 0;
    pier_status rc = PIER_OK;
    for (;;) {
        if (n + 1 >= cap) {
            /* One byte past `max` tells a long input from one that ends
             * exactly there; one more for the NUL. Full at max + 2 bytes,
             * the input is already too long: cap only grows below it. */
            size_t want = cap ? cap * 2 : CHUNK_BYTES;
            if (want > max + 2)
                want = max + 2;
            char *grown = realloc(buf, want);
            if (grown == NULL) {
                rc = PIER_E_OUT_OF_MEMORY;
                break;
            }
            buf = grown;
            cap = want;
        }
        size_t room = cap - 1 - n;
        size_t got = fread(buf + n, 1, room, in);
        n += got;
        if (n > max) {
            rc = PIER_E_LIMIT_EXCEEDED;
            break;
        }
        if (got < room)   /* the end of the input, or an error */
            break;
    }
    if (rc == PIER_OK && ferror(in))
        rc = PIER_E_READ_FAILED;
    if (rc != PIER_OK) {
        int why = errno;
        free(buf);
        cli_error_init(err);
        err->status = rc;
        err->tag = pier_status_tag(rc);
        if (rc == PIER_E_READ_FAILED)
            snprintf(err->message, sizeof err->message, "cannot read %s: %s",
                     name, strerror(why));
        else if (rc == PIER_E_LIMIT_EXCEEDED)
            snprintf(err->message, sizeof err->message,
                     "%s is larger than %zu bytes, the most %s may take",
                     name, max, what);
        else
            snprintf(err->message, sizeof err->message, "out of memory");
        return rc;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return PIER_OK;
}

int cli_read_path(cli_ctx *ctx, const char *path, const char *what,
                  size_t max, char **out, size_t *len)
{
    pier_error err;
    cli_error_init(&err);
    bool from_stdin = strcmp(path, "-") == 0;
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    if (f == NULL) {
        cli_error_set(&err, PIER_E_READ_FAILED, "cannot read '%.300s': %s",
                      path, strerror(errno));
        return cli_fail(ctx, &err);
    }
    pier_status rc = cli_read_all(f, from_stdin ? "stdin" : path, what, max,
                                  out, len, &err);
    if (!from_stdin)
        fclose(f);
    return rc == PIER_OK ? CLI_CONTINUE : cli_fail(ctx, &err);
}
