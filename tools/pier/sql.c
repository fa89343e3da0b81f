/*
 * sql.c: the SQL dialect's commands: `sql` (pier_exec: a script run as the
 * lake's owner, its last statement's rows printed as `query` prints them),
 * `tables` (the declared tables) and the tables' side of `schema`
 * (a table's columns, and `schema dump`: the whole lake as a script).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The longest script read from a file or stdin: SQLite's own default
 * limit on the length of a statement. */
#define CLI_MAX_SCRIPT_BYTES 1000000

typedef struct sql_args {
    pier_params *params;
    const char *file;         /* -f FILE */
    bool format_set;
    cli_format format;
} sql_args;

static const cli_optspec sql_opts[] = {
    { "--param", true }, { "--params", true }, { "-f", true },
    { "--file", true }, { "--table", false }, { "--json", false },
    { "--jsonl", false }, { "--csv", false }, CLI_LIMIT_OPTSPECS,
    { NULL, false },
};

static int sql_opt(cli_ctx *ctx, const cli_command *cmd, const char *name,
                   const char *value, void *payload)
{
    sql_args *a = payload;
    pier_error err;
    cli_error_init(&err);
    if (strcmp(name, "--param") == 0) {
        pier_status rc = cli_param_set(a->params, value, &err);
        if (rc == PIER_E_INVALID_ARGUMENT)
            return cli_usage(cmd, "%s: option '--param': %s", cmd->name,
                             err.message);
        return rc == PIER_OK ? 0 : cli_fail(ctx, &err);
    }
    if (strcmp(name, "--params") == 0)
        return cli_params_option(ctx, cmd, a->params, value);
    if (strcmp(name, "-f") == 0 || strcmp(name, "--file") == 0) {
        a->file = value;
        return 0;
    }
    if (cli_is_limit_option(name))
        return cli_limit_option(ctx, cmd, name, value);
    cli_format f = CLI_FORMAT_TABLE;
    cli_parse_format(name + 2, &f);
    if (a->format_set && f != a->format)
        return cli_usage(cmd, "%s: choose one output format, not both "
                         "'--%s' and '%s'", cmd->name,
                         cli_format_name(a->format), name);
    a->format_set = true;
    a->format = f;
    return 0;
}

/* Reads a whole script from `path` ("-": stdin). */
static int read_script(cli_ctx *ctx, const char *path, char **out)
{
    size_t len = 0;
    int rc = cli_read_path(ctx, path, "a script", CLI_MAX_SCRIPT_BYTES, out,
                           &len);
    if (rc != CLI_CONTINUE)
        return rc;
    if (strlen(*out) != len)
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_INVALID_ARGUMENT),
                            "the script holds a NUL byte");
    return CLI_CONTINUE;
}

int cli_run_sql(cli_ctx *ctx, const char *sql, pier_params *params,
                cli_format format)
{
    cli_print_options o = { format, false };
    return cli_run_sql_with(ctx, sql, params, &o);
}

int cli_run_sql_with(cli_ctx *ctx, const char *sql, pier_params *params,
                     const cli_print_options *o)
{
    pier_error err;
    cli_error_init(&err);
    pier_cursor *c = NULL;
    int rc = CLI_EXIT_OK;
    if (pier_exec(&c, ctx->engine, sql, params, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    if (pier_cursor_column_count(c) == 0) {
        /* No rows to show: say what the script changed, for people. */
        if ((o->format == CLI_FORMAT_TABLE || o->format == CLI_FORMAT_BOX) &&
            !ctx->json &&
            pier_cursor_changes(c) > 0)
            printf("%lld row%s changed\n", (long long)pier_cursor_changes(c),
                   pier_cursor_changes(c) == 1 ? "" : "s");
    } else if (cli_print_rows(c, o, stdout, NULL, &err) != PIER_OK) {
        if (err.status == PIER_E_WRITE_FAILED) {
            ctx->stdout_errno = errno;          /* reported by main */
            rc = CLI_EXIT_FAILED;
        } else {
            rc = cli_fail(ctx, &err);
        }
    }
    pier_cursor_close(c);
    return rc;
}

static int run_sql(cli_ctx *ctx, const cli_command *cmd, int argc,
                   char **argv)
{
    static const char *const names[] = { "SQL" };
    char *pos[1] = { NULL };
    sql_args a = { 0 };
    a.params = pier_params_new();
    if (a.params == NULL)
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                            "out of memory");
    int rc = cli_args(ctx, cmd, argc, argv, sql_opts, sql_opt, &a, names, 0,
                      1, pos);
    if (rc != CLI_CONTINUE) {        /* --help, or a usage error */
        pier_params_free(a.params);
        return rc;
    }
    char *text = NULL;
    if (rc == CLI_CONTINUE && (pos[0] == NULL) == (a.file == NULL))
        rc = cli_usage(cmd, "%s: give the SQL or -f FILE (one of them)",
                       cmd->name);
    const char *sql = pos[0];
    if (rc == CLI_CONTINUE && (a.file != NULL || strcmp(sql, "-") == 0)) {
        rc = read_script(ctx, a.file != NULL ? a.file : "-", &text);
        sql = text;
    }
    if (rc == CLI_CONTINUE)
        rc = cli_open(ctx);
    if (rc == CLI_EXIT_OK) {
        cli_interrupt_arm(ctx->engine, true);
        rc = cli_run_sql(ctx, sql, a.params,
                         a.format_set ? a.format
                         : ctx->json  ? CLI_FORMAT_JSON
                                      : CLI_FORMAT_TABLE);
        cli_interrupt_disarm();
    }
    free(text);
    pier_params_free(a.params);
    return rc;
}

const cli_command cli_cmd_sql = {
    "sql", "Run SQL statements on the lake's declared tables",
    "SQL|-|-f FILE [--param NAME=VALUE]... [--params JSON] "
    "[--time-limit DURATION] [--max-value SIZE] [--max-memory SIZE] "
    "[--table|--json|--jsonl|--csv]",
    "Runs a script of SQL statements (with '-', read from stdin; with -f,\n"
    "from FILE) as the lake's owner, in Pier's dialect: CREATE TABLE with\n"
    "logical types (every column declares one; tables are STRICT),\n"
    "READONLY columns, ALTER TABLE ... ADD COLUMN / RENAME COLUMN /\n"
    "RENAME TO / DROP COLUMN, CREATE and DROP INDEX and VIEW, DROP TABLE,\n"
    "INSERT (ON CONFLICT, RETURNING), UPDATE, DELETE, SELECT, BEGIN /\n"
    "COMMIT / ROLLBACK, and CREATE BOARD id [(column type [INFERRED],\n"
    "...)] [STRICT]. The script is atomic: if a statement fails, nothing\n"
    "of it is applied. Boards' rows (read them with `pier query`) and the\n"
    "engine's own objects are out of its reach. A value that does not fit its column fails with\n"
    "ColumnTypeConflict; docs/sql.md lists the types and the errors.\n"
    "\n"
    "Options:\n"
    "  -f, --file FILE     Reads the script from FILE\n"
    "  --param NAME=VALUE  Binds VALUE to :NAME, $NAME and @NAME (NAME a\n"
    "                      number N: to ?N), as `query` does; repeatable\n"
    "  --params JSON       Binds an object's members by name, or an\n"
    "                      array's elements as ?1, ?2...\n"
    "  --time-limit DURATION\n"
    "                      Stops the script once it has run this long\n"
    "                      (500ms, 30s, 5m; default 30s; none: never)\n"
    "  --max-value SIZE    Stops it at a text or blob longer than this\n"
    "                      (4096, 64K, 16M; default 64M)\n"
    "  --max-memory SIZE   Stops it once it (with its result) takes this\n"
    "                      much memory (default 256M)\n"
    "  --table             An aligned table (the default)\n"
    "  --json              One JSON array of objects\n"
    "  --jsonl             One JSON object per line\n"
    "  --csv               CSV (RFC 4180) with a header line\n"
    "\n"
    "The rows of the script's last statement print in the format asked\n"
    "for, each value as its column's type reads (DECIMAL(12,2) as 12.50,\n"
    "an INSTANT in UTC, a UUID in lowercase); a statement without rows\n"
    "prints how many rows it changed (\"2 rows changed\"), or nothing.\n"
    "A script that reaches a limit fails with LimitExceeded and changes\n"
    "nothing; so does one stopped by Ctrl-C (Interrupted).\n",
    run_sql,
};

/* ---- tables ---- */

/* The rows of declared table `name`, by SQL: no call of the library
 * counts a table's rows (pier_row_count counts a board's). */
static pier_status table_rows(int64_t *out, pier_engine *engine,
                              const char *name, pier_error *err)
{
    /* The name as a quoted identifier: its '"' doubled. */
    size_t n = strlen(name), quotes = 0;
    for (size_t i = 0; i < n; i++)
        quotes += name[i] == '"';
    static const char head[] = "SELECT count(*) FROM \"";
    char *sql = malloc(sizeof head + n + quotes + 1);
    if (sql == NULL)
        return cli_error_set(err, PIER_E_OUT_OF_MEMORY, "out of memory");
    char *p = sql + sizeof head - 1;
    memcpy(sql, head, sizeof head - 1);
    for (size_t i = 0; i < n; i++) {
        if (name[i] == '"')
            *p++ = '"';
        *p++ = name[i];
    }
    *p++ = '"';
    *p = '\0';
    pier_cursor *c = NULL;
    const pier_row *row = NULL;
    pier_status rc = pier_exec(&c, engine, sql, NULL, err);
    free(sql);
    if (rc == PIER_OK)
        rc = pier_cursor_next(&row, c, err);
    if (rc == PIER_OK) {
        const pier_value *v = row != NULL ? pier_row_value(row, 0) : NULL;
        if (v == NULL || v->text == NULL ||
            !cli_parse_int(v->text, 0, INT64_MAX, out))
            rc = cli_error_set(err, PIER_E_READ_FAILED, "cannot count the "
                               "rows of table '%s'", name);
    }
    pier_cursor_close(c);
    return rc;
}

static int run_tables(cli_ctx *ctx, const cli_command *cmd, int argc,
                      char **argv)
{
    ctx->opts.must_exist = true;     /* (a read makes no lake) */
    bool counts = false;
    int rc = cli_args(ctx, cmd, argc, argv, cli_counts_optspecs,
                      cli_counts_opt, &counts, NULL, 0, 0, NULL);
    if (rc != CLI_CONTINUE)
        return rc;
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    char **names = NULL;
    pier_error err;
    cli_error_init(&err);
    if (pier_table_list(&names, ctx->engine, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    if (counts) {
        rc = cli_print_counts(ctx, names, "table", table_rows, &err);
        pier_strings_free(names);
        return rc;
    }
    if (ctx->json) {
        fputc('[', stdout);
        for (size_t i = 0; names[i] != NULL; i++) {
            if (i > 0)
                fputc(',', stdout);
            cli_json_string(stdout, names[i], strlen(names[i]));
        }
        fputs("]\n", stdout);
    } else {
        for (size_t i = 0; names[i] != NULL; i++)
            puts(names[i]);
    }
    pier_strings_free(names);
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_tables = {
    "tables", "List the declared tables", "[--counts]",
    "Lists the lake's declared tables (made with `pier sql`), one per\n"
    "line, sorted by name. With --json: a JSON array of names.\n"
    "\n"
    "Options:\n"
    "  --counts            Each table with its number of rows: an aligned\n"
    "                      table, a name and its rows per line; with\n"
    "                      --json, [{\"table\":T,\"rows\":N},...]\n",
    run_tables,
};

/* ---- schema: tables and the dump ---- */

int cli_schema_dump(cli_ctx *ctx)
{
    char *dump = NULL;
    pier_error err;
    cli_error_init(&err);
    if (pier_schema_dump(&dump, ctx->engine, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    fputs(dump, stdout);
    pier_free(dump);
    return CLI_EXIT_OK;
}

static void table_json(const pier_table_info *info)
{
    fputs("{\"table\":", stdout);
    cli_json_string(stdout, info->table, strlen(info->table));
    fputs(",\"columns\":[", stdout);
    for (size_t i = 0; i < info->ncolumns; i++) {
        const pier_table_column *c = &info->columns[i];
        printf("%s{\"id\":%lld,\"name\":", i > 0 ? "," : "",
               (long long)c->id);
        cli_json_string(stdout, c->name, strlen(c->name));
        fputs(",\"type\":", stdout);
        cli_json_string(stdout, c->type, strlen(c->type));
        printf(",\"readonly\":%s}", c->readonly ? "true" : "false");
    }
    fputs("],\"sql\":", stdout);
    cli_json_string(stdout, info->sql, strlen(info->sql));
    fputs("}\n", stdout);
}

/* @return false if out of memory. */
static bool table_text(const pier_table_info *info)
{
    cli_table *t = cli_table_new(3);
    bool ok = t != NULL && cli_table_add(t, "column", 6) &&
              cli_table_add(t, "type", 4) && cli_table_add(t, "readonly", 8);
    for (size_t i = 0; ok && i < info->ncolumns; i++) {
        const pier_table_column *c = &info->columns[i];
        const char *ro = c->readonly ? "yes" : "no";
        ok = cli_table_add(t, c->name, strlen(c->name)) &&
             cli_table_add(t, c->type, strlen(c->type)) &&
             cli_table_add(t, ro, strlen(ro));
    }
    if (ok) {
        printf("table %s\n", info->table);
        cli_table_print(t, stdout);
    }
    cli_table_free(t);
    return ok;
}

int cli_schema_table(cli_ctx *ctx, const char *name, pier_error *err)
{
    pier_table_info *info = NULL;
    if (pier_table_describe(&info, ctx->engine, name, err) != PIER_OK)
        return CLI_EXIT_FAILED;
    int rc = CLI_EXIT_OK;
    if (ctx->json)
        table_json(info);
    else if (!table_text(info))
        rc = cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                          "out of memory");
    pier_table_info_free(info);
    return rc;
}
