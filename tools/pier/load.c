/*
 * load.c: writing rows given on the command line or streamed in, for
 * insert and upsert: JSON from stdin (stream.c splits it), CSV and TSV
 * from a file or stdin (csvrows.c makes them JSON rows), the id options,
 * and the progress line.
 *
 * Every streamed input goes through one path: its rows become JSON-lines
 * text in batches of CLI_STDIN_BATCH_ROWS (fewer when the text would pass
 * PIER_MAX_BATCH_BYTES), and each batch is one atomic pier_insert_json or
 * pier_upsert_json (write_text). A failed batch leaves the batches before
 * it committed, and the error says how many rows that was; SIGINT and
 * SIGTERM let the batch being written commit or not, whole, and begin no
 * other. So a CSV load fails, stops and resumes exactly as a JSON one.
 *
 * CSV records become JSON rows in csvrows.c, typed by the board's columns
 * as they are when the load starts (docs/types.md, "CSV values").
 *
 * The id options rewrite each row's id member in the text, leaving every
 * other member's bytes alone (rewrite_object): the library still parses
 * and checks the whole row, and values keep their exact spelling.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* The progress line is redrawn at most this often (4 a second), the first
 * time after as long, and never before the second batch: a load that ends
 * sooner prints nothing. */
#define PROGRESS_EVERY_US 250000

/* ---- options ---- */

int cli_load_option(const cli_command *cmd, const char *name,
                    const char *value, cli_load_opts *opts)
{
    if (strcmp(name, "--csv") == 0 || strcmp(name, "--tsv") == 0) {
        if (opts->format != CLI_LOAD_JSON)
            return cli_usage(cmd, "%s: give one of --csv and --tsv, once",
                             cmd->name);
        opts->format = name[2] == 'c' ? CLI_LOAD_CSV : CLI_LOAD_TSV;
        opts->source = value;
        return 0;
    }
    if (strcmp(name, "--id") == 0) {
        if (value[0] == '\0')
            return cli_usage(cmd, "%s: --id needs a column name",
                             cmd->name);
        opts->id_column = value;
        return 0;
    }
    if (strcmp(name, "--id-generate") == 0) {
        if (strcmp(value, "uuid7") == 0)
            opts->id_generate = 7;
        else if (strcmp(value, "uuid4") == 0)
            opts->id_generate = 4;
        else
            return cli_usage(cmd, "%s: --id-generate takes uuid7 or uuid4, "
                             "not '%s'", cmd->name, value);
        return 0;
    }
    return cli_usage(cmd, "%s: unknown option '%s'", cmd->name, name);
}

/* ---- progress ---- */

typedef struct progress {
    bool on;               /* stderr is a terminal */
    bool shown;            /* a line was drawn: end it with a newline */
    int64_t start_us, last_us;
} progress;

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void progress_draw(progress *p, size_t rows, int64_t t)
{
    double secs = (double)(t - p->start_us) / 1e6;
    double rate = secs > 0 ? (double)rows / secs : 0;
    fprintf(stderr, "\rpier: %zu rows committed (%.0f rows/s)", rows, rate);
    fflush(stderr);
    p->shown = true;
    p->last_us = t;
}

/* After a batch is committed; `batches` counts it. The first batch never
 * draws: a load of one batch ends as it began, with no line at all. */
static void progress_tick(progress *p, size_t rows, size_t batches)
{
    if (!p->on || batches < 2)
        return;
    int64_t t = now_us();
    if (t - p->last_us >= PROGRESS_EVERY_US)
        progress_draw(p, rows, t);
}

static void progress_end(progress *p, size_t rows)
{
    if (!p->shown)
        return;
    progress_draw(p, rows, now_us());
    fputc('\n', stderr);
}

/* ---- the batch writer ---- */

typedef struct write_state {
    cli_ctx *ctx;
    const char *board;
    cli_json_write_fn fn;  /* pier_insert_json, pier_upsert_json */
    const cli_load_opts *opts;
    const char *where;     /* "stdin", or the file's name */
    int64_t watermark;     /* of the last committed batch */
    size_t committed;      /* rows in the committed batches */
    size_t batches;        /* committed batches */
    struct span *spans;    /* JSON with id options: where each object of
                              the batch is, in the input and rewritten */
    size_t nspans;         /* in the batch being written; 0: none */
    size_t span_cap;
    progress progress;
    pier_uuid_gen gen;
    char *text;            /* a rewritten batch (JSON with id options) */
    size_t text_len, text_cap;
} write_state;

/* An object of a JSON batch whose ids were rewritten: where it starts in
 * the batch as read (`from`) and in the rewritten text (`to`, `len`
 * bytes), and whether its text is unchanged. */
typedef struct span {
    size_t from, to, len;
    bool same;
} span;

/* SIGINT or SIGTERM while a stream loads: the batch being written commits
 * (or not) whole, and no other begins. */
static volatile sig_atomic_t load_stopped;

bool cli_load_stopped(void)
{
    return load_stopped != 0;
}

static void stop_load(int sig)
{
    load_stopped = sig;
}

/* The library's refusal of a row without a string id, made to say what
 * the command line offers. */
static void id_hint(write_state *st, pier_status rc, pier_error *err)
{
    if (st->opts->id_column != NULL || st->opts->id_generate != 0)
        return;
    bool id_type = rc == PIER_E_COLUMN_TYPE_CONFLICT &&
                   strcmp(err->column, "id") == 0 &&
                   (strcmp(err->value_type, "bigint") == 0 ||
                    strcmp(err->value_type, "hugeint") == 0);
    if (rc != PIER_E_MISSING_ID && !id_type)
        return;
    size_t n = strlen(err->message);
    snprintf(err->message + n, sizeof err->message - n, "%s",
             id_type ? "; --id id takes an integer id as its digits"
                     : "; name the field that holds it with --id COL, or "
                       "generate ids with --id-generate uuid7");
}

/*
 * Makes a byte offset of the library's, counted in a rewritten batch,
 * count in the batch as read: exact in an object left as it was (the
 * objects the library finds malformed are), the object's first byte in
 * one whose id was rewritten. The " at byte N" of the message follows.
 */
static void map_offset(const write_state *st, pier_error *err)
{
    int64_t off = err->offset;
    size_t k = 0;
    while (k + 1 < st->nspans && (int64_t)st->spans[k + 1].to <= off)
        k++;
    const span *sp = &st->spans[k];
    int64_t rel = off - (int64_t)sp->to;
    int64_t orig = (int64_t)sp->from;
    if (sp->same && rel >= 0 && rel <= (int64_t)sp->len)
        orig += rel;
    char was[48], now[48];
    snprintf(was, sizeof was, " at byte %" PRId64, off);
    snprintf(now, sizeof now, " at byte %" PRId64, orig);
    char *p = strstr(err->message, was);
    size_t wl = strlen(was), nl = strlen(now);
    if (p != NULL && !(p[wl] >= '0' && p[wl] <= '9')) {
        size_t tail = strlen(p + wl);
        size_t room = sizeof err->message - 1 - (size_t)(p - err->message);
        if (nl + tail > room)
            tail = room > nl ? room - nl : 0;
        memmove(p + nl, p + wl, tail);
        memcpy(p, now, nl < room ? nl : room);
        p[(nl < room ? nl : room) + tail] = '\0';
    }
    err->offset = orig;
}

static pier_status write_text(write_state *st, const char *text, size_t len,
                              int64_t base, size_t rows, pier_error *err)
{
    if (load_stopped != 0)
        return cli_error_set(err, PIER_E_INTERRUPTED, "stopped");
    int64_t wm = 0;
    pier_status rc = st->fn(&wm, st->ctx->engine, st->board, text, len,
                            err);
    if (rc != PIER_OK) {
        if (st->nspans > 0 && err->offset >= 0)
            map_offset(st, err);
        if (base < 0) {   /* (offsets in text the input became) */
            err->offset = -1;
            base = 0;
        }
        cli_relocate(err, base, st->committed, st->where);
        id_hint(st, rc, err);
        return rc;
    }
    st->watermark = wm;
    st->committed += rows;
    st->batches++;
    progress_tick(&st->progress, st->committed, st->batches);
    return PIER_OK;
}

/* ---- ids in JSON rows ---- */

static pier_status grow(write_state *st, size_t more, pier_error *err)
{
    if (st->text_len + more <= st->text_cap)
        return PIER_OK;
    size_t cap = st->text_cap != 0 ? st->text_cap : 65536;
    while (cap < st->text_len + more)
        cap *= 2;
    char *t = realloc(st->text, cap);
    if (t == NULL)
        return cli_error_set(err, PIER_E_OUT_OF_MEMORY, "out of memory");
    st->text = t;
    st->text_cap = cap;
    return PIER_OK;
}

static pier_status add(write_state *st, const char *s, size_t n,
                       pier_error *err)
{
    if (n == 0)
        return PIER_OK;
    pier_status rc = grow(st, n, err);
    if (rc == PIER_OK) {
        memcpy(st->text + st->text_len, s, n);
        st->text_len += n;
    }
    return rc;
}

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The end of the JSON string starting at s[i] == '"', or 0 if it does not
 * end before `end`. */
static size_t string_end(const char *s, size_t i, size_t end)
{
    for (i++; i < end; i++) {
        if (s[i] == '\\')
            i++;
        else if (s[i] == '"')
            return i + 1;
    }
    return 0;
}

/* The end of the JSON value starting at s[i] (strings and brackets
 * followed, scalars up to the next ',', '}' or ']'), or 0. */
static size_t value_end(const char *s, size_t i, size_t end)
{
    if (i >= end)
        return 0;
    if (s[i] == '"')
        return string_end(s, i, end);
    if (s[i] == '{' || s[i] == '[') {
        size_t depth = 0;
        for (; i < end; i++) {
            if (s[i] == '"') {
                i = string_end(s, i, end);
                if (i == 0)
                    return 0;
                i--;
            } else if (s[i] == '{' || s[i] == '[') {
                depth++;
            } else if ((s[i] == '}' || s[i] == ']') && --depth == 0) {
                return i + 1;
            }
        }
        return 0;
    }
    while (i < end && s[i] != ',' && s[i] != '}' && s[i] != ']' &&
           !blank(s[i]))
        i++;
    return i;
}

/* A top-level member of an object: where it starts (its key's quote),
 * where its value lies, and where the member ends (past its comma, if
 * one follows). */
typedef struct member {
    size_t start, value, value_end, end;
} member;

/*
 * Finds the members named `name` and "id" of the object s[0..len). A key
 * matches as written (escapes are not decoded). @return false if the
 * object is not well formed: it is then left as it is, for the library
 * to refuse with its own words.
 */
static bool find_members(const char *s, size_t len, const char *name,
                         member *named, member *id)
{
    static const member none = { SIZE_MAX, 0, 0, 0 };
    size_t nlen = strlen(name);
    *named = *id = none;
    size_t i = 1;
    for (;;) {
        while (i < len && blank(s[i]))
            i++;
        if (i < len && s[i] == '}')
            return true;
        if (i >= len || s[i] != '"')
            return false;
        member m;
        m.start = i;
        size_t kend = string_end(s, i, len);
        if (kend == 0)
            return false;
        const char *key = s + i + 1;
        size_t klen = kend - i - 2;
        i = kend;
        while (i < len && blank(s[i]))
            i++;
        if (i >= len || s[i] != ':')
            return false;
        i++;
        while (i < len && blank(s[i]))
            i++;
        m.value = i;
        m.value_end = value_end(s, i, len);
        if (m.value_end == 0 || m.value_end == i)
            return false;
        i = m.value_end;
        while (i < len && blank(s[i]))
            i++;
        if (i < len && s[i] == ',')
            i++;
        else if (i >= len || s[i] != '}')
            return false;
        m.end = i;
        if (klen == nlen && memcmp(key, name, nlen) == 0 &&
            named->start == SIZE_MAX)
            *named = m;
        if (klen == 2 && memcmp(key, "id", 2) == 0 && id->start == SIZE_MAX)
            *id = m;
    }
}

static bool is_integer(const char *s, size_t n)
{
    size_t i = s[0] == '-';
    if (i == n)
        return false;
    for (; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/* What a value that cannot be an id is. */
static const char *json_what(const char *v, size_t n)
{
    switch (v[0]) {
    case '{': return "an object";
    case '[': return "an array";
    case 't': case 'f': return "a boolean";
    default: return is_integer(v, n) ? "an integer" : "a real number";
    }
}

static pier_status generated(write_state *st, char out[PIER_UUID_TEXT_SIZE],
                             pier_error *err)
{
    return pier_uuid_generate(out, &st->gen, st->opts->id_generate, err);
}

/*
 * Appends object s[0..len), row `row` of the input, to st->text with its id
 * as the options say: --id COL moves COL's value to "id" (a string as it
 * is, an integer as its digits); --id-generate gives a row without an id
 * (or with a null or empty one) a new UUID.
 */
static pier_status rewrite_object(write_state *st, const char *s, size_t len,
                                  size_t row, pier_error *err)
{
    const char *col = st->opts->id_column != NULL ? st->opts->id_column
                                                  : "id";
    member named, id;
    if (!find_members(s, len, col, &named, &id))
        return add(st, s, len, err);
    bool own = strcmp(col, "id") != 0;
    if (own && id.start != SIZE_MAX)
        return cli_error_set(err, PIER_E_INVALID_ARGUMENT,
                             "row %zu has a field \"id\", but --id names "
                             "\"%s\" as the one that holds its id", row,
                             col);
    size_t vn = named.value_end - named.value;
    bool absent = named.start == SIZE_MAX ||
                  (vn == 4 && memcmp(s + named.value, "null", 4) == 0) ||
                  (vn == 2 && memcmp(s + named.value, "\"\"", 2) == 0);
    char uuid[PIER_UUID_TEXT_SIZE];
    const char *v = NULL;
    size_t vlen = 0;
    bool quote = false;
    if (absent) {
        if (st->opts->id_generate == 0)
            return cli_error_set(err, PIER_E_MISSING_ID,
                                 "row %zu has no \"%s\" (--id %s); give "
                                 "every row one, or generate ids with "
                                 "--id-generate uuid7", row, col, col);
        pier_status rc = generated(st, uuid, err);
        if (rc != PIER_OK)
            return rc;
        v = uuid;
        vlen = strlen(uuid);
        quote = true;
    } else {
        v = s + named.value;
        vlen = named.value_end - named.value;
        if (v[0] != '"') {
            if (st->opts->id_column == NULL)   /* the library's to refuse */
                return add(st, s, len, err);
            if (!is_integer(v, vlen))
                return cli_error_set(err, PIER_E_COLUMN_TYPE_CONFLICT,
                                     "row %zu: its \"%s\" (--id) is %s; an "
                                     "id is a string or an integer", row,
                                     col, json_what(v, vlen));
            quote = true;
        }
        if (!own && !quote)
            return add(st, s, len, err);   /* a string id: as it is */
    }
    /* {"id":V, then the members but the named one (and, when it is "id"
     * itself, with V in its place). */
    pier_status rc = add(st, "{\"id\":", 6, err);
    if (rc == PIER_OK && quote)
        rc = add(st, "\"", 1, err);
    if (rc == PIER_OK)
        rc = add(st, v, vlen, err);
    if (rc == PIER_OK && quote)
        rc = add(st, "\"", 1, err);
    size_t rest = 1;   /* after the '{' */
    if (named.start != SIZE_MAX) {
        if (rc == PIER_OK)
            rc = add(st, ",", 1, err);
        if (rc == PIER_OK)
            rc = add(st, s + 1, named.start - 1, err);
        rest = named.end;
    } else if (rc == PIER_OK) {
        /* (no comma before an empty object's '}') */
        size_t k = 1;
        while (k < len && blank(s[k]))
            k++;
        if (s[k] != '}')
            rc = add(st, ",", 1, err);
    }
    if (rc == PIER_OK)
        rc = add(st, s + rest, len - rest, err);
    /* A member removed last leaves "...,}": drop that comma. */
    if (rc == PIER_OK && named.start != SIZE_MAX) {
        size_t k = st->text_len - 1;   /* the '}' */
        while (k > 0 && blank(st->text[k - 1]))
            k--;
        if (k > 0 && st->text[k - 1] == ',')
            st->text[k - 1] = ' ';
    }
    return rc;
}

/* Rewrites the object at text[i] (rewrite_object), the next row of the
 * input, remembering where it was and where it went; *end is where it
 * ends in text. */
static pier_status rewrite_next(write_state *st, const char *text, size_t i,
                                size_t len, size_t *end, pier_error *err)
{
    size_t e = value_end(text, i, len);
    if (e == 0)
        e = len;
    *end = e;
    if (st->nspans == st->span_cap) {
        size_t cap = st->span_cap != 0 ? st->span_cap * 2 : 1024;
        span *sp = realloc(st->spans, cap * sizeof *sp);
        if (sp == NULL)
            return cli_error_set(err, PIER_E_OUT_OF_MEMORY, "out of memory");
        st->spans = sp;
        st->span_cap = cap;
    }
    size_t at = st->text_len;
    pier_status rc = rewrite_object(st, text + i, e - i,
                                    st->committed + st->nspans + 1, err);
    if (rc != PIER_OK)
        return rc;
    size_t n = st->text_len - at;
    st->spans[st->nspans++] = (span){
        i, at, n, n == e - i && memcmp(st->text + at, text + i, n) == 0 };
    return PIER_OK;
}

/* A batch of JSON lines from stream.c, its ids rewritten when the
 * options ask, then written. */
static pier_status json_batch(const char *text, size_t len, int64_t base,
                              size_t rows, void *payload, pier_error *err)
{
    write_state *st = payload;
    if (st->opts->id_column == NULL && st->opts->id_generate == 0)
        return write_text(st, text, len, base, rows, err);
    st->text_len = 0;
    st->nspans = 0;
    for (size_t i = 0; i < len;) {
        if (text[i] != '{') {
            i++;
            continue;
        }
        size_t end = 0;
        pier_status rc = rewrite_next(st, text, i, len, &end, err);
        if (rc == PIER_OK)
            rc = add(st, "\n", 1, err);
        if (rc != PIER_OK)
            return rc;
        i = end;
    }
    pier_status rc = write_text(st, st->text, st->text_len, base, rows, err);
    st->nspans = 0;
    return rc;
}

/* A batch of JSON lines made from CSV records (csvrows.c), written;
 * byte offsets in it mean nothing to the user. */
static pier_status csv_batch(const char *text, size_t len, int64_t base,
                             size_t rows, void *payload, pier_error *err)
{
    (void)base;
    return write_text(payload, text, len, -1, rows, err);
}

/* Loads a CSV or TSV input, typed by the board's columns as they are. */
static pier_status load_csv(write_state *st, FILE *in, pier_error *err)
{
    pier_board_info *info = NULL;
    pier_status rc = pier_board_describe(&info, st->ctx->engine, st->board,
                                         err);
    if (rc == PIER_E_BOARD_NOT_FOUND) {
        info = NULL;
        cli_error_init(err);
    } else if (rc != PIER_OK) {
        return rc;
    }
    cli_csv_source src = { in, st->where,
                           st->opts->format == CLI_LOAD_TSV ? '\t' : ',' };
    rc = cli_csv_split(&src, info, st->opts, CLI_STDIN_BATCH_ROWS, csv_batch,
                       st, err);
    pier_board_info_free(info);
    return rc;
}

/* ---- the command's entry ---- */

/* Streams `in` (named `name` in messages) into the board, in the format
 * `opts` gives. */
static int write_stream(cli_ctx *ctx, const char *board, FILE *in,
                        const char *name, cli_json_write_fn fn,
                        const cli_load_opts *opts)
{
    write_state st;
    memset(&st, 0, sizeof st);
    st.ctx = ctx;
    st.board = board;
    st.fn = fn;
    st.opts = opts;
    st.where = name;
    st.progress.on = isatty(STDERR_FILENO) == 1;
    st.progress.start_us = st.progress.last_us = now_us();
    pier_error err;
    cli_error_init(&err);
    bool csv = opts->format != CLI_LOAD_JSON;
    /* (no SA_RESTART: a read of stdin waiting for input ends at once) */
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = stop_load;
    sigemptyset(&sa.sa_mask);
    load_stopped = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    cli_stream_stop = &load_stopped;
    pier_status rc = csv ? load_csv(&st, in, &err)
                         : cli_stream_split(in, CLI_STDIN_BATCH_ROWS,
                                            json_batch, &st, &err);
    cli_stream_stop = NULL;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    free(st.text);
    free(st.spans);
    progress_end(&st.progress, st.committed);
    if (load_stopped != 0) {
        /* (a read cut short by the signal, or the next batch not begun) */
        rc = cli_error_set(&err, PIER_E_INTERRUPTED, "%s",
                           load_stopped == SIGINT ? "interrupted by SIGINT"
                                                  : "stopped by SIGTERM");
    }
    if (rc != PIER_OK) {
        char msg[sizeof err.message + 512];
        snprintf(msg, sizeof msg,
                 "%s (batch %zu of %.300s not written; %zu rows committed "
                 "before it)", err.message, st.batches + 1, st.where,
                 st.committed);
        const char *tag = err.tag != NULL ? err.tag : pier_status_tag(rc);
        return cli_fail_msg(ctx, tag, msg);
    }
    if (st.batches == 0) {   /* an empty stream: nothing was written */
        if (pier_head_from_catalog(&st.watermark, ctx->engine, &err) !=
            PIER_OK)
            return cli_fail(ctx, &err);
    }
    return cli_print_watermark(ctx, st.watermark);
}

int cli_write_stream(cli_ctx *ctx, const char *board, FILE *in,
                     const char *name, cli_json_write_fn fn,
                     const cli_load_opts *opts)
{
    static const cli_load_opts json = CLI_LOAD_OPTS_INIT;
    return write_stream(ctx, board, in, name, fn, opts != NULL ? opts
                                                               : &json);
}

int cli_write_rows(cli_ctx *ctx, const char *board, const char *arg,
                   cli_json_write_fn fn, const cli_load_opts *opts)
{
    static const cli_load_opts none = CLI_LOAD_OPTS_INIT;
    if (opts == NULL)
        opts = &none;
    if (opts->format != CLI_LOAD_JSON && strcmp(opts->source, "-") != 0) {
        FILE *in = fopen(opts->source, "rb");
        if (in == NULL) {
            pier_error err;
            cli_error_set(&err, PIER_E_READ_FAILED, "cannot read '%.300s': "
                          "%s", opts->source, strerror(errno));
            return cli_fail(ctx, &err);
        }
        int rc = write_stream(ctx, board, in, opts->source, fn, opts);
        fclose(in);
        return rc;
    }
    if (opts->format != CLI_LOAD_JSON || strcmp(arg, "-") == 0)
        return write_stream(ctx, board, stdin, "stdin", fn, opts);
    write_state st;
    memset(&st, 0, sizeof st);
    st.ctx = ctx;
    st.opts = opts;
    pier_error err;
    cli_error_init(&err);
    const char *text = arg;
    size_t len = strlen(arg);
    if (opts->id_column != NULL || opts->id_generate != 0) {
        /* One object, or an array of them: each rewritten. */
        size_t i = 0;
        while (i < len && blank(arg[i]))
            i++;
        bool array = i < len && arg[i] == '[';
        pier_status rc = add(&st, array ? "[" : "", array ? 1 : 0, &err);
        for (i += array; rc == PIER_OK && i < len;) {
            if (arg[i] != '{') {
                if (!(array && arg[i] == ']'))
                    rc = add(&st, arg + i, 1, &err);
                i++;
                continue;
            }
            rc = rewrite_next(&st, arg, i, len, &i, &err);
        }
        if (rc == PIER_OK && array)
            rc = add(&st, "]", 1, &err);
        if (rc != PIER_OK) {
            free(st.text);
            free(st.spans);
            return cli_fail(ctx, &err);
        }
        text = st.text;
        len = st.text_len;
    }
    int64_t wm = 0;
    int rc = CLI_EXIT_OK;
    if (fn(&wm, ctx->engine, board, text, len, &err) != PIER_OK) {
        if (st.nspans > 0 && err.offset >= 0)
            map_offset(&st, &err);
        id_hint(&st, err.status, &err);
        rc = cli_fail(ctx, &err);
    } else {
        rc = cli_print_watermark(ctx, wm);
    }
    free(st.text);
    free(st.spans);
    return rc;
}
