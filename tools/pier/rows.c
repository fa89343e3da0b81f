/*
 * rows.c: the commands about rows: insert, get, count and dump, and the
 * writing of JSON rows that insert shares with upsert (write.c).
 *
 * `insert BOARD -` (and `upsert BOARD -`) streams stdin through stream.c
 * in batches of CLI_STDIN_BATCH_ROWS rows, one atomic write each. A failed
 * batch leaves the batches before it committed; the error then says how
 * many rows that was, and its byte offsets count from the start of stdin.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const board_id_names[] = { "BOARD", "ID" };
static const char *const insert_names[] = { "BOARD", "JSON|-" };

/* Parses the arguments, then opens the engine. @return CLI_CONTINUE, or
 * an exit code. */
static int prepare(cli_ctx *ctx, const cli_command *cmd, int argc,
                   char **argv, const char *const *names, int n, char **pos)
{
    int rc = cli_args(ctx, cmd, argc, argv, NULL, NULL, NULL, names, n, n,
                      pos);
    if (rc != CLI_CONTINUE)
        return rc;
    rc = cli_open(ctx);
    return rc == CLI_EXIT_OK ? CLI_CONTINUE : rc;
}

/* ---- insert ---- */

typedef struct write_state {
    pier_engine *engine;
    const char *board;
    const char *name;      /* the input, in messages: "stdin", a file */
    cli_json_write_fn fn;   /* pier_insert_json, pier_upsert_json */
    int64_t watermark;     /* of the last committed batch */
    size_t committed;      /* rows in the committed batches */
    size_t batches;        /* committed batches */
} write_state;

/* Whether m starts with `word` followed by a digit. */
static bool word_then_digit(const char *m, const char *word)
{
    size_t n = strlen(word);
    return strncmp(m, word, n) == 0 && m[n] >= '0' && m[n] <= '9';
}

/* Whether the number at m is `value`. */
static bool number_is(const char *m, int64_t value)
{
    char *end = NULL;
    errno = 0;
    long long n = strtoll(m, &end, 10);
    return errno == 0 && end != m && n == (long long)value;
}

/* A message being rebuilt; text past its size is cut. */
typedef struct msg_buf {
    char text[sizeof ((pier_error *)0)->message];
    size_t len;
} msg_buf;

static void put(msg_buf *b, const char *s, size_t n)
{
    size_t room = sizeof b->text - 1 - b->len;
    if (n > room)
        n = room;
    memcpy(b->text + b->len, s, n);
    b->len += n;
    b->text[b->len] = '\0';
}

/* Copies the number at *m plus `add`; *m moves past it. */
static void put_shifted(msg_buf *b, const char **m, int64_t add)
{
    char *end = NULL;
    long long n = strtoll(*m, &end, 10);
    *m = end;
    char num[32];
    int w = snprintf(num, sizeof num, "%lld", n + (long long)add);
    if (w > 0)
        put(b, num, (size_t)w);
}

void cli_relocate(pier_error *err, int64_t base, size_t rows_before,
                  const char *where)
{
    static const char at_byte[] = " at byte ";
    msg_buf b = { "", 0 };
    const char *msg = err->message, *m = msg;
    bool in_value = false;   /* inside a "quoted" value, escapes and all */
    while (*m != '\0') {
        if (in_value || *m == '"') {
            if (in_value && *m == '\\' && m[1] != '\0') {
                put(&b, m, 2);
                m += 2;
                continue;
            }
            if (*m == '"')
                in_value = !in_value;
            put(&b, m, 1);
            m++;
            continue;
        }
        bool row_place = m == msg || m[-1] == '(';
        if (err->offset >= 0 && word_then_digit(m, at_byte) &&
            number_is(m + sizeof at_byte - 1, err->offset)) {
            put(&b, at_byte, sizeof at_byte - 1);
            m += sizeof at_byte - 1;
            put_shifted(&b, &m, base);
            put(&b, " of ", 4);
            put(&b, where, strlen(where));
        } else if (row_place && (word_then_digit(m, "row ") ||
                                 word_then_digit(m, "rows "))) {
            bool plural = m[3] == 's';
            size_t wl = plural ? 5 : 4;
            put(&b, m, wl);
            m += wl;
            put_shifted(&b, &m, (int64_t)rows_before);
            if (plural && word_then_digit(m, " and ")) {
                put(&b, m, 5);
                m += 5;
                put_shifted(&b, &m, (int64_t)rows_before);
            }
        } else {
            put(&b, m, 1);
            m++;
        }
    }
    memcpy(err->message, b.text, sizeof b.text);
    if (err->offset >= 0)
        err->offset += base;
}

/* SIGINT or SIGTERM while stdin loads: the batch being written commits
 * (or not) whole, and no other begins. */
static volatile sig_atomic_t load_stopped;

static void stop_load(int sig)
{
    load_stopped = sig;
}

static pier_status write_batch(const char *text, size_t len, int64_t base,
                                size_t rows, void *payload, pier_error *err)
{
    write_state *st = payload;
    if (load_stopped != 0)
        return cli_error_set(err, PIER_E_INTERRUPTED, "stopped");
    int64_t wm = 0;
    pier_status rc = st->fn(&wm, st->engine, st->board, text, len, err);
    if (rc != PIER_OK) {
        cli_relocate(err, base, st->committed, st->name);
        return rc;
    }
    st->watermark = wm;
    st->committed += rows;
    st->batches++;
    return PIER_OK;
}

int cli_write_stream(cli_ctx *ctx, const char *board, FILE *in,
                     const char *name, cli_json_write_fn fn)
{
    write_state st = { ctx->engine, board, name, fn, 0, 0, 0 };
    pier_error err;
    cli_error_init(&err);
    /* (no SA_RESTART: a read of stdin waiting for input ends at once) */
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = stop_load;
    sigemptyset(&sa.sa_mask);
    load_stopped = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    cli_stream_stop = &load_stopped;
    pier_status rc = cli_stream_split(in, CLI_STDIN_BATCH_ROWS,
                                      write_batch, &st, &err);
    cli_stream_stop = NULL;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (load_stopped != 0) {
        /* (a read cut short by the signal, or the next batch not begun) */
        rc = cli_error_set(&err, PIER_E_INTERRUPTED, "%s",
                           load_stopped == SIGINT ? "interrupted by SIGINT"
                                                  : "stopped by SIGTERM");
    }
    if (rc != PIER_OK) {
        char msg[sizeof err.message + 128];
        snprintf(msg, sizeof msg,
                 "%s (batch %zu of %s not written; %zu rows committed "
                 "before it)", err.message, st.batches + 1, name,
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

int cli_write_rows(cli_ctx *ctx, const char *board, const char *arg,
                   cli_json_write_fn fn)
{
    if (strcmp(arg, "-") == 0)
        return cli_write_stream(ctx, board, stdin, "stdin", fn);
    int64_t wm = 0;
    pier_error err;
    cli_error_init(&err);
    if (fn(&wm, ctx->engine, board, arg, strlen(arg), &err) != PIER_OK)
        return cli_fail(ctx, &err);
    return cli_print_watermark(ctx, wm);
}

static int run_insert(cli_ctx *ctx, const cli_command *cmd, int argc,
                      char **argv)
{
    char *pos[2] = { NULL, NULL };
    int rc = prepare(ctx, cmd, argc, argv, insert_names, 2, pos);
    if (rc != CLI_CONTINUE)
        return rc;
    return cli_write_rows(ctx, pos[0], pos[1], pier_insert_json);
}

const cli_command cli_cmd_insert = {
    "insert", "Insert rows given as JSON, or streamed from stdin",
    "BOARD JSON|-",
    "Inserts rows into BOARD (created by the write unless\n"
    "--auto-create=never). JSON is one object or an array of objects, each\n"
    "with an \"id\"; all its rows are one atomic write.\n"
    "\n"
    "With '-', stdin holds a JSON array of objects, or objects separated\n"
    "by white space (JSON lines). It is streamed: every 1000 rows are one\n"
    "atomic write (fewer if their text passes 64 MiB). If a batch fails,\n"
    "the batches before it stay committed: the error says how many rows\n"
    "that was, and its byte offsets count from the start of stdin.\n"
    "\n"
    "Output: the watermark of the last write; with --json,\n"
    "{\"watermark\":N}. An empty stdin writes nothing and prints the current\n"
    "head.\n",
    run_insert,
};

/* ---- get ---- */

/* @return false if out of memory. */
static bool row_table(const pier_row *row)
{
    cli_table *t = cli_table_new(2);
    bool ok = t != NULL;
    size_t n = pier_row_column_count(row);
    for (size_t i = 0; ok && i < n; i++) {
        const char *name = pier_row_column_name(row, i);
        const pier_value *v = pier_row_value(row, i);
        ok = cli_table_add(t, name, strlen(name));
        if (!ok)
            break;
        if (v == NULL || v->kind == PIER_KIND_NULL || v->text == NULL)
            ok = cli_table_add(t, "null", 4);
        else
            ok = cli_table_add(t, v->text, v->len);
    }
    if (ok)
        cli_table_print(t, stdout);
    cli_table_free(t);
    return ok;
}

static int run_get(cli_ctx *ctx, const cli_command *cmd, int argc,
                   char **argv)
{
    ctx->opts.must_exist = true;     /* (a read makes no lake) */
    char *pos[2] = { NULL, NULL };
    int rc = prepare(ctx, cmd, argc, argv, board_id_names, 2, pos);
    if (rc != CLI_CONTINUE)
        return rc;
    pier_row *row = NULL;
    pier_error err;
    cli_error_init(&err);
    if (pier_row_get(&row, ctx->engine, pos[0], pos[1], &err) != PIER_OK)
        return cli_fail(ctx, &err);
    rc = CLI_EXIT_OK;
    if (ctx->json) {
        char *json = pier_row_to_json(row);
        if (json != NULL)
            printf("%s\n", json);
        else
            rc = cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                              "out of memory");
        pier_free(json);
    } else if (!row_table(row)) {
        rc = cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                          "out of memory");
    }
    pier_row_free(row);
    return rc;
}

const cli_command cli_cmd_get = {
    "get", "Show one row", "BOARD ID",
    "Shows the row of BOARD whose id is ID. An ID starting with '-' goes\n"
    "after \"--\".\n"
    "\n"
    "Output: an aligned two-column table, one line per column in board\n"
    "order: the column's name, then its value (null for a null value;\n"
    "control characters shown as \\n, \\t, \\r or \\xHH). With --json, the\n"
    "row as one JSON object. Fails with RowNotFound if there is no such\n"
    "row.\n",
    run_get,
};

/* ---- count ---- */

static int run_count(cli_ctx *ctx, const cli_command *cmd, int argc,
                     char **argv)
{
    ctx->opts.must_exist = true;     /* (a read makes no lake) */
    char *board = NULL;
    int rc = prepare(ctx, cmd, argc, argv, board_id_names, 1, &board);
    if (rc != CLI_CONTINUE)
        return rc;
    int64_t n = 0;
    pier_error err;
    cli_error_init(&err);
    if (pier_row_count(&n, ctx->engine, board, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    if (ctx->json)
        printf("{\"count\":%" PRId64 "}\n", n);
    else
        printf("%" PRId64 "\n", n);
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_count = {
    "count", "Print the number of rows on a board", "BOARD",
    "Prints the number of rows on BOARD.\n"
    "\n"
    "Output: the number alone; with --json, {\"count\":N}.\n",
    run_count,
};

/* ---- dump ---- */

typedef struct dump_state {
    cli_ctx *ctx;
    bool out_of_memory;
} dump_state;

static int dump_row(const pier_row *row, void *payload)
{
    dump_state *st = payload;
    char *json = pier_row_to_json(row);
    if (json == NULL) {
        st->out_of_memory = true;
        return 1;
    }
    fputs(json, stdout);
    fputc('\n', stdout);
    pier_free(json);
    if (ferror(stdout)) {   /* reported by main, once the engine is closed */
        st->ctx->stdout_errno = errno;
        return 1;
    }
    return 0;
}

static int run_dump(cli_ctx *ctx, const cli_command *cmd, int argc,
                    char **argv)
{
    ctx->opts.must_exist = true;     /* (a read makes no lake) */
    char *board = NULL;
    int rc = prepare(ctx, cmd, argc, argv, board_id_names, 1, &board);
    if (rc != CLI_CONTINUE)
        return rc;
    dump_state st = { ctx, false };
    pier_error err;
    cli_error_init(&err);
    if (pier_board_scan(ctx->engine, board, dump_row, &st, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    if (st.out_of_memory)
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                            "out of memory");
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_dump = {
    "dump", "Print every row as JSON lines, in id order", "BOARD",
    "Prints every row of BOARD, in id order (byte order of the ids), as\n"
    "one JSON object per line, columns in board order. The same with\n"
    "--json.\n",
    run_dump,
};
