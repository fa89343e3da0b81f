/*
 * query.c: the query command, one board-scoped SQL query (pier_query)
 * printed in the format asked for.
 *
 * Parameters are gathered in command-line order into one pier_params, so
 * that a later --param or --params replaces an earlier value of the same
 * name. A --param value is read as a JSON scalar when it is one (5, 2.5,
 * true, null, "quoted") and as text otherwise, so that `--param n=5`
 * compares with an integer column and `--param who=alice` needs no
 * quotes. The engine is opened only once the whole command line is valid.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The longest SQL text read from stdin: SQLite's own default limit on the
 * length of a statement. */
#define CLI_MAX_SQL_BYTES 1000000

typedef struct query_args {
    pier_params *params;
    const char **with;        /* --with names, argv's strings */
    size_t nwith;
    const char **tables;      /* --with-table names, argv's strings */
    size_t ntables;
    bool format_set;          /* --table, --json, --jsonl or --csv given */
    cli_format format;
    int64_t min_watermark;
    int64_t max_stale_ms;
} query_args;

static const cli_optspec query_opts[] = {
    { "--param", true }, { "--params", true }, { "--with", true },
    { "--with-table", true }, { "--min-watermark", true },
    { "--max-stale", true },
    { "--table", false }, { "--json", false },
    { "--jsonl", false }, { "--csv", false }, CLI_LIMIT_OPTSPECS,
    { NULL, false },
};

int cli_params_option(cli_ctx *ctx, const cli_command *cmd,
                      pier_params *params, const char *value)
{
    pier_error err;
    cli_error_init(&err);
    if (pier_params_set_json(params, value, strlen(value), &err) == PIER_OK)
        return 0;
    /* (a value the option cannot take, malformed JSON or another shape:
     * a usage error either way) */
    if (err.status == PIER_E_INVALID_ARGUMENT ||
        err.status == PIER_E_INVALID_JSON)
        return cli_usage(cmd, "%s: option '--params': %s", cmd->name,
                         err.message);
    return cli_fail(ctx, &err);
}

pier_status cli_param_set(pier_params *params, const char *assignment,
                          pier_error *err)
{
    const char *eq = strchr(assignment, '=');
    if (eq == NULL || eq == assignment)
        return cli_error_set(err, PIER_E_INVALID_ARGUMENT,
                             "a parameter is NAME=VALUE, not '%.300s'",
                             assignment);
    size_t name_len = (size_t)(eq - assignment);
    char *name = malloc(name_len + 1);
    if (name == NULL)
        return cli_error_set(err, PIER_E_OUT_OF_MEMORY, "out of memory");
    memcpy(name, assignment, name_len);
    name[name_len] = '\0';
    const char *v = eq + 1;
    /* A JSON scalar binds as its type; anything else as the text. */
    pier_status rc = v[0] != '{' && v[0] != '['
                         ? pier_params_set_json_value(params, name, v,
                                                      strlen(v), err)
                         : PIER_E_INVALID_JSON;
    if (rc == PIER_E_INVALID_JSON)
        rc = pier_params_set_text(params, name, v, err);
    free(name);
    return rc;
}

static int set_param(cli_ctx *ctx, const cli_command *cmd, query_args *a,
                     const char *value)
{
    pier_error err;
    cli_error_init(&err);
    pier_status rc = cli_param_set(a->params, value, &err);
    if (rc == PIER_E_INVALID_ARGUMENT)     /* NAME=VALUE, or the name */
        return cli_usage(cmd, "%s: option '--param': %s", cmd->name,
                         err.message);
    return rc == PIER_OK ? 0 : cli_fail(ctx, &err);
}

static int query_opt(cli_ctx *ctx, const cli_command *cmd, const char *name,
                     const char *value, void *payload)
{
    query_args *a = payload;
    cli_format f = CLI_FORMAT_TABLE;
    if (strcmp(name, "--param") == 0)
        return set_param(ctx, cmd, a, value);
    if (strcmp(name, "--params") == 0)
        return cli_params_option(ctx, cmd, a->params, value);
    if (strcmp(name, "--with") == 0) {
        a->with[a->nwith++] = value;
        return 0;
    }
    if (strcmp(name, "--with-table") == 0) {
        a->tables[a->ntables++] = value;
        return 0;
    }
    if (cli_is_limit_option(name))
        return cli_limit_option(ctx, cmd, name, value);
    if (strcmp(name, "--max-stale") == 0) {
        if (!cli_duration_ms(value, &a->max_stale_ms))
            return cli_usage(cmd, "%s: option '--max-stale' takes a "
                             "duration (500ms, 30s, 5m), not '%s'",
                             cmd->name, value);
        return 0;
    }
    if (strcmp(name, "--min-watermark") == 0) {
        if (!cli_parse_int(value, 0, INT64_MAX, &a->min_watermark))
            return cli_usage(cmd, "%s: option '--min-watermark' takes a "
                             "watermark (0 or more), not '%s'", cmd->name,
                             value);
        return 0;
    }
    cli_parse_format(name + 2, &f);          /* --table ... --csv */
    if (a->format_set && f != a->format)
        return cli_usage(cmd, "%s: choose one output format, not both "
                         "'--%s' and '%s'", cmd->name,
                         cli_format_name(a->format), name);
    a->format_set = true;
    a->format = f;
    return 0;
}

static int run_query(cli_ctx *ctx, const cli_command *cmd, int argc,
                     char **argv)
{
    ctx->opts.must_exist = true;     /* (a read makes no lake) */
    static const char *const names[] = { "BOARD", "SQL" };
    char *pos[2] = { NULL, NULL };
    query_args a = { 0 };
    a.params = pier_params_new();
    /* Every --with takes two arguments, so argc bounds their number. */
    a.with = calloc((size_t)argc, sizeof *a.with);
    a.tables = calloc((size_t)argc, sizeof *a.tables);
    if (a.params == NULL || a.with == NULL || a.tables == NULL) {
        pier_params_free(a.params);
        free(a.with);
        free(a.tables);
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                            "out of memory");
    }
    int rc = cli_args(ctx, cmd, argc, argv, query_opts, query_opt, &a, names,
                      2, 2, pos);
    if (rc != CLI_CONTINUE) {        /* --help, or a usage error */
        free(a.with);
        free(a.tables);
        pier_params_free(a.params);
        return rc;
    }
    char *text = NULL;
    const char *sql = pos[1];
    pier_error err;
    cli_error_init(&err);
    if (strcmp(sql, "-") == 0) {
        size_t len = 0;
        if (cli_read_all(stdin, "stdin", "a query", CLI_MAX_SQL_BYTES, &text,
                         &len, &err) != PIER_OK)
            rc = cli_fail(ctx, &err);
        else if (strlen(text) != len)
            rc = cli_fail_msg(ctx, pier_status_tag(PIER_E_INVALID_ARGUMENT),
                              "the query read from stdin holds a NUL byte");
        sql = text;
    }
    if (rc == CLI_CONTINUE)
        rc = cli_open(ctx);
    if (rc == CLI_EXIT_OK) {
        pier_query_options o = PIER_QUERY_OPTIONS_INIT;
        o.with = a.with;
        o.nwith = a.nwith;
        o.tables = a.tables;
        o.ntables = a.ntables;
        o.min_watermark = a.min_watermark;
        o.max_stale_ms = a.max_stale_ms;
        cli_format format = a.format_set ? a.format
                            : ctx->json  ? CLI_FORMAT_JSON
                                         : CLI_FORMAT_TABLE;
        pier_cursor *c = NULL;
        cli_interrupt_arm(ctx->engine, true);
        if (pier_query(&c, ctx->engine, pos[0], sql, a.params, &o, &err) !=
                PIER_OK ||
            cli_print_cursor(c, format, stdout, NULL, &err) != PIER_OK) {
            /* WriteFailed is stdout's only if stdout failed: the library
             * may fail a read with it too, and that must be printed. */
            if (err.status == PIER_E_WRITE_FAILED && ferror(stdout)) {
                ctx->stdout_errno = errno;      /* reported by main */
                rc = CLI_EXIT_FAILED;
            } else {
                rc = cli_fail(ctx, &err);
            }
        }
        cli_interrupt_disarm();
        pier_cursor_close(c);
    }
    free(text);
    free(a.with);
    free(a.tables);
    pier_params_free(a.params);
    return rc;
}

const cli_command cli_cmd_query = {
    "query", "Run a read-only SQL query on one board",
    "BOARD SQL|- [--param NAME=VALUE]... [--params JSON] [--with OTHER]... "
    "[--with-table TABLE]... [--min-watermark N] [--max-stale DURATION] "
    "[--time-limit DURATION] "
    "[--max-value SIZE] [--max-memory SIZE] [--table|--json|--jsonl|--csv]",
    "Runs SQL (with '-', read from stdin), one read-only statement (SELECT\n"
    "or WITH ... SELECT, in SQLite's dialect), for BOARD, where {{board}}\n"
    "stands for the board's rows with their column names. The statement\n"
    "may read BOARD and nothing else: another board, the catalog, the\n"
    "change log, sqlite_schema, a pragma, ATTACH, a write or a second\n"
    "statement fails with EntityNotAllowed before anything runs. A board\n"
    "named with --with may be joined as {{board:OTHER}}, a declared table\n"
    "or view named with --with-table as {{table:TABLE}}, and a board's\n"
    "full-text index (pier fts) read as {{fts}} or {{fts:OTHER}}, as in\n"
    "  ... FROM {{board}} b JOIN {{fts}} f ON f.id = b.id\n"
    "      WHERE {{fts}} MATCH :q ORDER BY bm25({{fts}})\n"
    "(docs/query.md). Values are bound\n"
    "to parameters, never spliced into the text; a parameter without a\n"
    "value fails with PlaceholderUnbound. A query never creates a board.\n"
    "\n"
    "Options:\n"
    "  --param NAME=VALUE  Binds VALUE to :NAME, $NAME and @NAME (NAME a\n"
    "                      number N: to ?N). VALUE is read as a JSON\n"
    "                      scalar when it is one (5, 2.5, true, null,\n"
    "                      \"quoted text\"), else as text; repeatable\n"
    "  --params JSON       Binds an object's members by name, or an\n"
    "                      array's elements as ?1, ?2...\n"
    "  --with OTHER        Lets the query read board OTHER as\n"
    "                      {{board:OTHER}} (and its index as\n"
    "                      {{fts:OTHER}}); repeatable\n"
    "  --with-table TABLE  Lets the query read the declared table or view\n"
    "                      TABLE as {{table:TABLE}}; repeatable\n"
    "  --min-watermark N   Runs on data at least as fresh as watermark N\n"
    "  --max-stale DURATION\n"
    "                      On a PostgreSQL lake that cannot be reached,\n"
    "                      answers from this node's replica if it was at\n"
    "                      the lake's head at most this long ago (default:\n"
    "                      fails with SyncFailed)\n"
    "  --time-limit DURATION\n"
    "                      Stops the query once it has run this long\n"
    "                      (500ms, 30s, 5m; default 30s; none: never)\n"
    "  --max-value SIZE    Stops it at a text or blob longer than this\n"
    "                      (4096, 64K, 16M; default 64M)\n"
    "  --max-memory SIZE   Stops it once it takes this much memory\n"
    "                      (default 256M)\n"
    "  --table             An aligned table, nulls as null, then the\n"
    "                      number of rows (the default)\n"
    "  --json              One JSON array of objects, an object a line\n"
    "                      (the default under the global --json)\n"
    "  --jsonl             One JSON object per line\n"
    "  --csv               CSV (RFC 4180) with a header line; a null is an\n"
    "                      empty field, an empty text \"\"\n"
    "\n"
    "Values print as their columns' types read: a timestamp as RFC 3339\n"
    "UTC, a boolean as true/false, json as a JSON document; a computed\n"
    "value as SQLite holds it (a blob as hexadecimal text). A later value\n"
    "for a parameter replaces an earlier one. Every format streams: a\n"
    "result of any size prints in constant memory (the table aligns its\n"
    "columns over windows of 1000 rows).\n"
    "\n"
    "A query that reaches a limit fails with LimitExceeded, naming the\n"
    "limit. Ctrl-C stops the query (Interrupted) and the command ends;\n"
    "a second Ctrl-C ends it at once.\n",
    run_query,
};
