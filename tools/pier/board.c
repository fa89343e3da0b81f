/*
 * board.c: the commands about boards themselves: create-board, boards,
 * has-board, schema, add-column, widen, truncate and drop.
 *
 * Each parses its arguments, opens the engine, makes one library call and
 * prints its result; it owns what that call hands out and frees it before
 * returning, on every path.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const board_name[] = { "BOARD" };

/* Runs a command taking exactly BOARD. @return CLI_CONTINUE with *board
 * set, or an exit code. */
static int board_args(cli_ctx *ctx, const cli_command *cmd, int argc,
                      char **argv, char **board)
{
    int rc = cli_args(ctx, cmd, argc, argv, NULL, NULL, NULL, board_name, 1,
                      1, board);
    if (rc != CLI_CONTINUE)
        return rc;
    rc = cli_open(ctx);
    return rc == CLI_EXIT_OK ? CLI_CONTINUE : rc;
}

/* ---- create-board ---- */

typedef struct create_args {
    pier_column_def *columns;   /* one per --column, names in argv */
    size_t ncolumns;
    bool strict;
} create_args;

static const cli_optspec create_opts[] = {
    { "--column", true }, { "--strict", false }, { NULL, false },
};

static int create_opt(cli_ctx *ctx, const cli_command *cmd, const char *name,
                      const char *value, void *payload)
{
    (void)ctx;
    create_args *a = payload;
    if (strcmp(name, "--strict") == 0) {
        a->strict = true;
        return 0;
    }
    /* A column name may hold '=', a type never does: split at the last. */
    const char *eq = strrchr(value, '=');
    if (eq == NULL || eq == value || eq[1] == '\0')
        return cli_usage(cmd, "%s: bad --column '%s': expected NAME=TYPE",
                         cmd->name, value);
    /* argv strings are the program's to modify (C17 5.1.2.2.1). */
    char *split = (char *)eq;
    *split = '\0';
    a->columns[a->ncolumns].name = value;
    a->columns[a->ncolumns].type = split + 1;
    a->ncolumns++;
    return 0;
}

static int run_create_board(cli_ctx *ctx, const cli_command *cmd, int argc,
                            char **argv)
{
    create_args a = { NULL, 0, false };
    char *board = NULL;
    /* At most one column per argument: enough room whatever the line. */
    a.columns = calloc((size_t)argc, sizeof *a.columns);
    if (a.columns == NULL)
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                            "out of memory");
    int rc = cli_args(ctx, cmd, argc, argv, create_opts, create_opt, &a,
                      board_name, 1, 1, &board);
    if (rc != CLI_CONTINUE)
        goto done;
    rc = cli_open(ctx);
    if (rc != CLI_EXIT_OK)
        goto done;
    pier_board_options opts = PIER_BOARD_OPTIONS_INIT;
    opts.columns = a.columns;
    opts.ncolumns = a.ncolumns;
    opts.strict = a.strict;
    pier_error err;
    cli_error_init(&err);
    int64_t wm = 0;
    if (pier_board_create(&wm, ctx->engine, board, &opts, &err) == PIER_OK)
        rc = cli_print_watermark(ctx, wm);
    else
        rc = cli_fail(ctx, &err);
done:
    free(a.columns);
    return rc;
}

const cli_command cli_cmd_create_board = {
    "create-board", "Create a board, with declared columns if any",
    "BOARD [--column NAME=TYPE]... [--strict]",
    "Creates BOARD. Each --column declares a column and its type up front,\n"
    "so that the first value written never decides it. --strict makes the\n"
    "board refuse any column not declared (add-column can declare more).\n"
    "Board ids match [a-z][a-z0-9_]{0,62}. A column name holding '=' is\n"
    "split at its last '='.\n"
    "\n"
    "Types: boolean, tinyint, smallint, integer, bigint, hugeint, float,\n"
    "double, text, timestamp, json; declared only, the SQL dialect's\n"
    "uint8 .. uint64, decimal(p,s), decimal, varchar(n), enum('a',...),\n"
    "uuid, date, time, datetime, interval, and arrays T[], T[][]\n"
    "(quote them for the shell: --column price='decimal(12,2)').\n"
    "\n"
    "Options:\n"
    "  --column NAME=TYPE  Declare a column (repeatable)\n"
    "  --strict            Refuse writes naming undeclared columns\n"
    "\n"
    "Output: the watermark the board was created at; with --json,\n"
    "{\"watermark\":N}. Fails with BoardExists if it is already there.\n",
    run_create_board,
};

/* ---- boards ---- */

const cli_optspec cli_counts_optspecs[] = {
    { "--counts", false }, { NULL, false },
};

int cli_counts_opt(cli_ctx *ctx, const cli_command *cmd, const char *name,
                   const char *value, void *payload)
{
    (void)ctx;
    (void)cmd;
    (void)name;
    (void)value;
    *(bool *)payload = true;
    return 0;
}

static int run_boards(cli_ctx *ctx, const cli_command *cmd, int argc,
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
    char **ids = NULL;
    pier_error err;
    cli_error_init(&err);
    if (pier_board_list(&ids, ctx->engine, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    if (counts) {
        rc = cli_print_counts(ctx, ids, "board", cli_board_rows, &err);
        pier_strings_free(ids);
        return rc;
    }
    if (ctx->json) {
        fputc('[', stdout);
        for (size_t i = 0; ids != NULL && ids[i] != NULL; i++) {
            if (i > 0)
                fputc(',', stdout);
            cli_json_string(stdout, ids[i], strlen(ids[i]));
        }
        fputs("]\n", stdout);
    } else {
        for (size_t i = 0; ids != NULL && ids[i] != NULL; i++)
            printf("%s\n", ids[i]);
    }
    pier_strings_free(ids);
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_boards = {
    "boards", "List every board", "[--counts]",
    "Lists every board of the lake, sorted.\n"
    "\n"
    "Options:\n"
    "  --counts            Each board with its number of rows\n"
    "\n"
    "Output: one id per line; with --json, a JSON array of ids. With\n"
    "--counts, an aligned table, a board and its rows per line; with\n"
    "--json, [{\"board\":B,\"rows\":N},...]. A board dropped while they\n"
    "are counted is left out.\n",
    run_boards,
};

/* ---- has-board ---- */

static int run_has_board(cli_ctx *ctx, const cli_command *cmd, int argc,
                         char **argv)
{
    ctx->opts.must_exist = true;     /* (a read makes no lake) */
    char *board = NULL;
    int rc = board_args(ctx, cmd, argc, argv, &board);
    if (rc != CLI_CONTINUE)
        return rc;
    bool has = false;
    pier_error err;
    cli_error_init(&err);
    if (pier_board_has(&has, ctx->engine, board, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    puts(has ? "true" : "false");
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_has_board = {
    "has-board", "Tell whether a board exists", "BOARD",
    "Tells whether BOARD exists. Never creates it; the exit status is 0\n"
    "either way.\n"
    "\n"
    "Output: true or false (the same with --json).\n",
    run_has_board,
};

/* ---- schema ---- */

static const char *origin_name(pier_column_origin origin)
{
    switch (origin) {
    case PIER_ORIGIN_BASE: return "base";
    case PIER_ORIGIN_DECLARED: return "declared";
    case PIER_ORIGIN_INFERRED: return "inferred";
    }
    return "unknown";
}

static void schema_json(const pier_board_info *info)
{
    fputs("{\"board\":", stdout);
    cli_json_string(stdout, info->board, strlen(info->board));
    printf(",\"strict\":%s,\"columns\":[", info->strict ? "true" : "false");
    for (size_t i = 0; i < info->ncolumns; i++) {
        const pier_column_info *c = &info->columns[i];
        fputs(i > 0 ? ",{\"name\":" : "{\"name\":", stdout);
        cli_json_string(stdout, c->name, strlen(c->name));
        fputs(",\"type\":", stdout);
        cli_json_string(stdout, c->type, strlen(c->type));
        fputc('}', stdout);
    }
    fputs("]}\n", stdout);
}

/* @return false if out of memory. */
static bool schema_table(const pier_board_info *info)
{
    cli_table *t = cli_table_new(3);
    bool ok = t != NULL && cli_table_add(t, "column", 6) &&
              cli_table_add(t, "type", 4) && cli_table_add(t, "origin", 6);
    for (size_t i = 0; ok && i < info->ncolumns; i++) {
        const pier_column_info *c = &info->columns[i];
        const char *origin = origin_name(c->origin);
        ok = cli_table_add(t, c->name, strlen(c->name)) &&
             cli_table_add(t, c->type, strlen(c->type)) &&
             cli_table_add(t, origin, strlen(origin));
    }
    if (ok) {
        printf("board %s%s\n", info->board, info->strict ? " (strict)" : "");
        cli_table_print(t, stdout);
    }
    cli_table_free(t);
    return ok;
}

static int run_schema(cli_ctx *ctx, const cli_command *cmd, int argc,
                      char **argv)
{
    ctx->opts.must_exist = true;     /* (a read makes no lake) */
    static const char *const names[] = { "NAME" };
    char *board = NULL;
    /* codegen.c; `pier schema codegen` alone still names a board */
    if (argc > 2 && strcmp(argv[1], "codegen") == 0)
        return cli_schema_codegen(ctx, cmd, argc - 1, argv + 1);
    int rc = cli_args(ctx, cmd, argc, argv, NULL, NULL, NULL, names, 1, 1,
                      &board);
    if (rc != CLI_CONTINUE)
        return rc;
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    if (strcmp(board, "dump") == 0)
        return cli_schema_dump(ctx);
    if (strcmp(board, "export") == 0)
        return cli_schema_export(ctx);
    pier_board_info *info = NULL;
    pier_error err;
    cli_error_init(&err);
    bool is_board = false;
    /* A board first; a name that is no board's may be a table's. A name
     * that could be a board's and is neither's stays BoardNotFound. */
    pier_status has = pier_board_has(&is_board, ctx->engine, board, &err);
    if (!is_board) {
        pier_error terr;
        cli_error_init(&terr);
        if (cli_schema_table(ctx, board, &terr) == CLI_EXIT_OK)
            return CLI_EXIT_OK;
        if (terr.status != PIER_E_TABLE_NOT_FOUND || has != PIER_OK)
            return cli_fail(ctx, &terr);
    }
    if (pier_board_describe(&info, ctx->engine, board, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    rc = CLI_EXIT_OK;
    if (ctx->json)
        schema_json(info);
    else if (!schema_table(info))
        rc = cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                          "out of memory");
    pier_board_info_free(info);
    return rc;
}

const cli_command cli_cmd_schema = {
    "schema", "Show a board's or table's columns, dump the schema, make code",
    "NAME | dump | export | codegen c|jsonschema FILE|- [--prefix P]",
    "Shows the columns of board or table NAME; `pier schema dump` prints\n"
    "the whole lake's schema instead: each board as CREATE BOARD, then every\n"
    "declared table, index and view as SQL that `pier sql` runs to\n"
    "recreate them. `pier schema export` prints the lake as a declaration\n"
    "for `pier migrate` (defaults, backfills, constraints, boards with their\n"
    "inferred columns, managed flags as comments), which plans to no steps\n"
    "against the lake it came from: adopt what pier sql or inference made\n"
    "by exporting it (docs/migrations.md).\n"
    "\n"
    "`pier schema codegen c FILE` reads a declaration (as `pier plan` does;\n"
    "'-' for stdin) and prints a C header over pier.h: for each table,\n"
    "view and board, structs of the rows' shapes (select: a row as Pier\n"
    "reads it; insert: a new row; update: what an update sets) with typed\n"
    "read, insert and update helpers, every name starting with P\n"
    "(--prefix; default db). `pier schema codegen jsonschema FILE` prints\n"
    "the same shapes as one JSON Schema (draft 2020-12) document. No lake\n"
    "is opened. Fails with InvalidSchema (the line and column) for a\n"
    "declaration that cannot mean anything.\n"
    "\n"
    "A board's columns come in board order, base columns first, with their\n"
    "types and where each came from: base (id, updated_at, state),\n"
    "declared (create-board, add-column) or inferred (the first write\n"
    "that named it).\n"
    "\n"
    "Output: a line \"board BOARD\", followed by \" (strict)\" for a strict\n"
    "board, then an aligned table with the header \"column  type  origin\".\n"
    "With --json: {\"board\":\"BOARD\",\"strict\":false,\"columns\":\n"
    "[{\"name\":\"id\",\"type\":\"text\"},...]} on one line.\n"
    "\n"
    "A table's: a line \"table NAME\", then \"column  type  readonly\" with\n"
    "each column's type in the dialect (DECIMAL(12,2)). With --json:\n"
    "{\"table\":..,\"columns\":[{\"id\":..,\"name\":..,\"type\":..,\n"
    "\"readonly\":false}],\"sql\":\"CREATE TABLE ...\"}.\n",
    run_schema,
};

/* ---- add-column, widen, truncate, drop ---- */

static const char *const column_names[] = { "BOARD", "COLUMN", "TYPE" };

typedef pier_status (*column_fn)(int64_t *watermark, pier_engine *engine,
                                 const char *board, const char *column,
                                 const char *type, pier_error *err);

static int column_command(cli_ctx *ctx, const cli_command *cmd, int argc,
                          char **argv, column_fn fn)
{
    char *pos[3] = { NULL, NULL, NULL };
    int rc = cli_args(ctx, cmd, argc, argv, NULL, NULL, NULL, column_names,
                      3, 3, pos);
    if (rc != CLI_CONTINUE)
        return rc;
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    int64_t wm = 0;
    pier_error err;
    cli_error_init(&err);
    if (fn(&wm, ctx->engine, pos[0], pos[1], pos[2], &err) != PIER_OK)
        return cli_fail(ctx, &err);
    return cli_print_watermark(ctx, wm);
}

static int run_add_column(cli_ctx *ctx, const cli_command *cmd, int argc,
                          char **argv)
{
    return column_command(ctx, cmd, argc, argv, pier_board_add_column);
}

static int run_widen(cli_ctx *ctx, const cli_command *cmd, int argc,
                     char **argv)
{
    return column_command(ctx, cmd, argc, argv, pier_board_widen_column);
}

typedef pier_status (*board_fn)(int64_t *watermark, pier_engine *engine,
                                const char *board, pier_error *err);

static int board_command(cli_ctx *ctx, const cli_command *cmd, int argc,
                         char **argv, board_fn fn)
{
    char *board = NULL;
    int rc = board_args(ctx, cmd, argc, argv, &board);
    if (rc != CLI_CONTINUE)
        return rc;
    int64_t wm = 0;
    pier_error err;
    cli_error_init(&err);
    if (fn(&wm, ctx->engine, board, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    return cli_print_watermark(ctx, wm);
}

static int run_truncate(cli_ctx *ctx, const cli_command *cmd, int argc,
                        char **argv)
{
    return board_command(ctx, cmd, argc, argv, pier_board_truncate);
}

static int run_drop(cli_ctx *ctx, const cli_command *cmd, int argc,
                    char **argv)
{
    return board_command(ctx, cmd, argc, argv, pier_board_drop);
}

const cli_command cli_cmd_add_column = {
    "add-column", "Declare a column on an existing board",
    "BOARD COLUMN TYPE",
    "Declares COLUMN with TYPE on BOARD: the way a strict board gains a\n"
    "column, or a way to fix a column's type before any value decides it.\n"
    "TYPE is one of create-board's types. A column name starting with '-'\n"
    "goes after \"--\".\n"
    "\n"
    "Output: the watermark; with --json, {\"watermark\":N}. Fails with\n"
    "ColumnExists if BOARD already has COLUMN.\n",
    run_add_column,
};

const cli_command cli_cmd_widen = {
    "widen", "Widen a column's type up the lattice", "BOARD COLUMN TYPE",
    "Widens COLUMN of BOARD to TYPE, only ever upward:\n"
    "  boolean < tinyint < smallint < integer < bigint < hugeint\n"
    "          < float < double < text\n"
    "(json and the SQL dialect's types, like decimal(12,2), may widen to\n"
    "text; timestamp never widens). Within the numbers this changes the\n"
    "catalog only; widening to text rewrites every row.\n"
    "Widening to the column's own type changes nothing.\n"
    "\n"
    "Output: the watermark; with --json, {\"watermark\":N}. Fails with\n"
    "ColumnTypeConflict for a narrowing or off-lattice TYPE.\n",
    run_widen,
};

const cli_command cli_cmd_truncate = {
    "truncate", "Empty a board, keeping its columns", "BOARD",
    "Removes every row of BOARD; its columns and strict bit stay.\n"
    "\n"
    "Output: the watermark; with --json, {\"watermark\":N}.\n",
    run_truncate,
};

const cli_command cli_cmd_drop = {
    "drop", "Remove a board and all its rows", "BOARD",
    "Removes BOARD, its columns and every row.\n"
    "\n"
    "Output: the watermark; with --json, {\"watermark\":N}. Fails with\n"
    "BoardNotFound if there is no such board.\n",
    run_drop,
};
