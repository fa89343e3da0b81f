/*
 * rows.c: the commands about rows: insert, get, count and dump (as JSON
 * lines, CSV or TSV), and the relocation of a batch's errors that the
 * streamed writes of load.c share.
 *
 * `insert` parses its options and hands the rows to load.c, which upsert
 * (write.c) shares: JSON from stdin and CSV are streamed in batches of
 * CLI_STDIN_BATCH_ROWS rows, one atomic write each.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const board_id_names[] = { "BOARD", "ID" };

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

/* ---- relocating a batch's errors ---- */

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

/* ---- insert ---- */

static const cli_optspec load_opts[] = { CLI_LOAD_OPTSPECS, { NULL, false } };

static int load_opt(cli_ctx *ctx, const cli_command *cmd, const char *name,
                    const char *value, void *payload)
{
    (void)ctx;
    return cli_load_option(cmd, name, value, payload);
}

int cli_run_load(cli_ctx *ctx, const cli_command *cmd, int argc, char **argv,
                 cli_json_write_fn fn)
{
    static const char *const names[] = { "BOARD", "JSON|-" };
    cli_load_opts opts = CLI_LOAD_OPTS_INIT;
    char *pos[2] = { NULL, NULL };
    int rc = cli_args(ctx, cmd, argc, argv, load_opts, load_opt, &opts,
                      names, 1, 2, pos);
    if (rc != CLI_CONTINUE)
        return rc;
    bool csv = opts.format != CLI_LOAD_JSON;
    if (csv && pos[1] != NULL)
        return cli_usage(cmd, "%s: rows come from --%s %s: no JSON argument "
                         "goes with it", cmd->name,
                         opts.format == CLI_LOAD_CSV ? "csv" : "tsv",
                         opts.source);
    if (!csv && pos[1] == NULL)
        return cli_usage(cmd, "%s: missing argument JSON|- (or --csv FILE|-, "
                         "--tsv FILE|-)", cmd->name);
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    return cli_write_rows(ctx, pos[0], pos[1], fn, &opts);
}

static int run_insert(cli_ctx *ctx, const cli_command *cmd, int argc,
                      char **argv)
{
    return cli_run_load(ctx, cmd, argc, argv, pier_insert_json);
}

const cli_command cli_cmd_insert = {
    "insert", "Insert rows given as JSON, or streamed from stdin or CSV",
    "BOARD [JSON|-] [--csv FILE] [--tsv FILE] [--id COL] "
    "[--id-generate uuid7|uuid4]",
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
    CLI_LOAD_HELP
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
    char sep;              /* ',' or '\t' for CSV and TSV; 0: JSON lines */
    bool out_of_memory;
} dump_state;

static const cli_optspec dump_opts[] = {
    { "--csv", false }, { "--tsv", false }, { NULL, false }
};

static int dump_opt(cli_ctx *ctx, const cli_command *cmd, const char *name,
                    const char *value, void *payload)
{
    (void)ctx;
    (void)value;
    dump_state *st = payload;
    if (st->sep != 0)
        return cli_usage(cmd, "%s: give one of --csv and --tsv, once",
                         cmd->name);
    st->sep = strcmp(name, "--csv") == 0 ? ',' : '\t';
    return 0;
}

/* Whether a value's text goes in quotes: RFC 4180's reasons (a separator,
 * a quote, a line break), white space at either end, which many readers
 * trim, and for a text value any spelling that would load back as
 * something else (empty, a number, a boolean). */
static bool needs_quotes(const char *s, size_t n, char sep, bool text)
{
    if (text && cli_csv_reads_as_json(s, n))
        return true;
    if (n > 0 && (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' ||
                  s[n - 1] == '\t'))
        return true;
    for (size_t i = 0; i < n; i++)
        if (s[i] == sep || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
            return true;
    return false;
}

static void put_field(const char *s, size_t n, char sep, bool text)
{
    if (!needs_quotes(s, n, sep, text)) {
        fwrite(s, 1, n, stdout);
        return;
    }
    fputc('"', stdout);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            fputc('"', stdout);
        fputc(s[i], stdout);
    }
    fputc('"', stdout);
}

/* Whether a value of `kind` is written as JSON writes it bare. */
static bool bare_kind(pier_kind kind)
{
    switch (kind) {
    case PIER_KIND_BOOLEAN: case PIER_KIND_TINYINT: case PIER_KIND_SMALLINT:
    case PIER_KIND_INTEGER: case PIER_KIND_BIGINT: case PIER_KIND_HUGEINT:
    case PIER_KIND_FLOAT: case PIER_KIND_DOUBLE: case PIER_KIND_UNSIGNED:
    case PIER_KIND_DECIMAL:
        return true;
    default:
        return false;
    }
}

/* Whether dump --csv leaves out column `name`: updated_at, which the
 * engine sets and a write may not name, so that the dump loads back. */
static bool dump_skips(const char *name)
{
    return strcmp(name, "updated_at") == 0;
}

static int dump_csv_row(const pier_row *row, dump_state *st)
{
    size_t n = pier_row_column_count(row);
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        if (dump_skips(pier_row_column_name(row, i)))
            continue;
        if (!first)
            fputc(st->sep, stdout);
        first = false;
        const pier_value *v = pier_row_value(row, i);
        if (v == NULL || v->kind == PIER_KIND_NULL || v->text == NULL)
            continue;   /* a null is an empty field */
        put_field(v->text, v->len, st->sep, !bare_kind(v->kind));
    }
    fputs(st->sep == ',' ? "\r\n" : "\n", stdout);
    return 0;
}

static int dump_row(const pier_row *row, void *payload)
{
    dump_state *st = payload;
    if (st->sep != 0) {
        dump_csv_row(row, st);
    } else {
        char *json = pier_row_to_json(row);
        if (json == NULL) {
            st->out_of_memory = true;
            return 1;
        }
        fputs(json, stdout);
        fputc('\n', stdout);
        pier_free(json);
    }
    if (ferror(stdout)) {   /* reported by main, once the engine is closed */
        st->ctx->stdout_errno = errno;
        return 1;
    }
    return 0;
}

/* The header line of dump --csv: the board's columns, in board order (as
 * each row lists them), but updated_at. */
static int dump_header(cli_ctx *ctx, const char *board, char sep)
{
    pier_board_info *info = NULL;
    pier_error err;
    cli_error_init(&err);
    if (pier_board_describe(&info, ctx->engine, board, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    bool first = true;
    for (size_t i = 0; i < info->ncolumns; i++) {
        const char *name = info->columns[i].name;
        if (dump_skips(name))
            continue;
        if (!first)
            fputc(sep, stdout);
        first = false;
        put_field(name, strlen(name), sep, false);
    }
    fputs(sep == ',' ? "\r\n" : "\n", stdout);
    pier_board_info_free(info);
    return CLI_EXIT_OK;
}

static int run_dump(cli_ctx *ctx, const cli_command *cmd, int argc,
                    char **argv)
{
    ctx->opts.must_exist = true;     /* (a read makes no lake) */
    dump_state st = { ctx, 0, false };
    char *board = NULL;
    int rc = cli_args(ctx, cmd, argc, argv, dump_opts, dump_opt, &st,
                      board_id_names, 1, 1, &board);
    if (rc != CLI_CONTINUE)
        return rc;
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    if (st.sep != 0 && (rc = dump_header(ctx, board, st.sep)) != 0)
        return rc;
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
    "dump", "Print every row as JSON lines (or CSV, TSV), in id order",
    "BOARD [--csv] [--tsv]",
    "Prints every row of BOARD, in id order (byte order of the ids), as\n"
    "one JSON object per line, columns in board order. The same with\n"
    "--json.\n"
    "\n"
    "--csv prints a header line of the board's column names but\n"
    "updated_at (which the engine sets), then one record per row in the\n"
    "same order (RFC 4180: CRLF line ends, a field holding a comma, a\n"
    "quote or a line break quoted, quotes doubled). A value is its text, a\n"
    "null an empty field; a text value that would read back as something\n"
    "else (empty, a number, true or false) is quoted, so that\n"
    "`insert --csv` loads the dump back as it was. --tsv is the same with\n"
    "tabs between the fields and LF line ends.\n",
    run_dump,
};
