/*
 * fts.c: `pier fts enable|disable|status`: a board's full-text index
 * (pier_fts_enable, pier_fts_disable, pier_fts_columns; docs/query.md,
 * "Full-text search").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const fts_names[] = { "enable|disable|status", "BOARD",
                                         "COLUMN" };

/* The most arguments the command takes: the subcommand, the board and a
 * board's columns (PIER_MAX_COLUMNS). */
#define FTS_MAX_ARGS (2 + PIER_MAX_COLUMNS)

static int run_fts(cli_ctx *ctx, const cli_command *cmd, int argc,
                   char **argv)
{
    char **pos = calloc(FTS_MAX_ARGS, sizeof *pos);
    if (pos == NULL)
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                            "out of memory");
    int rc = cli_args(ctx, cmd, argc, argv, NULL, NULL, NULL, fts_names, 2,
                      FTS_MAX_ARGS, pos);
    if (rc != CLI_CONTINUE)
        goto done;
    const char *sub = pos[0], *board = pos[1];
    size_t ncolumns = 0;
    while (ncolumns + 2 < FTS_MAX_ARGS && pos[ncolumns + 2] != NULL)
        ncolumns++;
    bool enable = strcmp(sub, "enable") == 0;
    if (!enable && strcmp(sub, "disable") != 0 &&
        strcmp(sub, "status") != 0) {
        rc = cli_usage(cmd, "%s: unknown subcommand '%.40s': enable, "
                       "disable or status", cmd->name, sub);
        goto done;
    }
    if (enable && ncolumns == 0) {
        rc = cli_usage(cmd, "%s enable: missing argument COLUMN",
                       cmd->name);
        goto done;
    }
    if (!enable && ncolumns > 0) {
        rc = cli_usage(cmd, "%s %s: unexpected argument '%s'", cmd->name,
                       sub, pos[2]);
        goto done;
    }
    /* Every subcommand needs a board, so a lake: a missing one is
     * LakeUnavailable, and none is made. */
    ctx->opts.must_exist = true;
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        goto done;
    pier_error err;
    cli_error_init(&err);
    if (strcmp(sub, "status") == 0) {
        char *columns = NULL;
        if (pier_fts_columns(&columns, ctx->engine, board, &err) !=
            PIER_OK) {
            rc = cli_fail(ctx, &err);
            goto done;
        }
        if (ctx->json)
            printf("{\"board\":\"%s\",\"columns\":%s}\n", board, columns);
        else
            printf("%s\n", columns);
        pier_free(columns);
        rc = CLI_EXIT_OK;
        goto done;
    }
    pier_status st = enable
        ? pier_fts_enable(ctx->engine, board, (const char *const *)pos + 2,
                          ncolumns, &err)
        : pier_fts_disable(ctx->engine, board, &err);
    if (st != PIER_OK) {
        rc = cli_fail(ctx, &err);
        goto done;
    }
    if (ctx->json)
        printf("{\"board\":\"%s\",\"fts\":%s}\n", board,
               enable ? "true" : "false");
    else
        printf("%s\n", enable ? "enabled" : "disabled");
    rc = CLI_EXIT_OK;
done:
    free(pos);
    return rc;
}

const cli_command cli_cmd_fts = {
    "fts", "Full-text search on a board: enable, disable, status",
    "enable BOARD COLUMN...|disable BOARD|status BOARD",
    "A board's full-text index (SQLite's FTS5) over some of its text\n"
    "columns, kept in step with the board by every write, in the same\n"
    "transaction (insert, update, upsert, delete, truncate, tx; dropping\n"
    "the board drops it). A query of the board reads it as {{fts}}:\n"
    "  pier query notes \"SELECT n.id, n.title FROM {{board}} n\n"
    "    JOIN {{fts}} f ON f.id = n.id WHERE {{fts}} MATCH :q\n"
    "    ORDER BY bm25({{fts}})\" --param q=lake\n"
    "(docs/query.md, \"Full-text search\"). The embedded lake only.\n"
    "\n"
    "  enable BOARD COLUMN...  Indexes these text columns of BOARD, rows\n"
    "                          already there included. Fails with\n"
    "                          BoardNotFound, UnknownColumn,\n"
    "                          ColumnTypeConflict (not text), or\n"
    "                          InvalidArgument when BOARD has an index\n"
    "                          already.\n"
    "  disable BOARD           Drops the index (InvalidArgument when\n"
    "                          there is none).\n"
    "  status BOARD            The indexed columns, as a JSON array ([]\n"
    "                          when BOARD has no index).\n"
    "\n"
    "Output: enabled, disabled, or the array; with --json,\n"
    "{\"board\":B,\"fts\":true|false} or {\"board\":B,\"columns\":[...]}.\n",
    run_fts,
};
