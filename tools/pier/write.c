/*
 * write.c: the writes beyond insert: update, upsert, delete and compact.
 *
 * Each parses its arguments, opens the engine, makes one library call (one
 * atomic write) and prints its result. `upsert BOARD -` streams stdin
 * through the code insert uses (rows.c), batch by batch; `update BOARD ID
 * -` reads its one patch whole.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Parses exactly `n` positional arguments, then opens the engine.
 * @return CLI_CONTINUE, or an exit code. */
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

/* ---- update ---- */

static const char *const update_names[] = { "BOARD", "ID", "JSON|-" };

static int run_update(cli_ctx *ctx, const cli_command *cmd, int argc,
                      char **argv)
{
    char *pos[3] = { NULL, NULL, NULL };
    int rc = cli_args(ctx, cmd, argc, argv, NULL, NULL, NULL, update_names,
                      3, 3, pos);
    if (rc != CLI_CONTINUE)
        return rc;
    pier_error err;
    cli_error_init(&err);
    char *text = NULL;   /* the patch read from stdin, if any */
    const char *patch = pos[2];
    size_t len = strlen(patch);
    if (strcmp(patch, "-") == 0) {
        if (cli_read_all(stdin, "stdin", "a patch", PIER_MAX_ROW_BYTES,
                         &text, &len, &err) != PIER_OK)
            return cli_fail(ctx, &err);
        patch = text;
    }
    rc = cli_open(ctx);
    if (rc == CLI_EXIT_OK) {
        int64_t wm = 0;
        if (pier_update_json(&wm, ctx->engine, pos[0], pos[1], patch, len,
                             &err) == PIER_OK)
            rc = cli_print_watermark(ctx, wm);
        else
            rc = cli_fail(ctx, &err);
    }
    free(text);
    return rc;
}

const cli_command cli_cmd_update = {
    "update", "Patch some columns of one row", "BOARD ID JSON|-",
    "Patches the row of BOARD whose id is ID with the members of the JSON\n"
    "object JSON (with '-', read from stdin): each member sets its column,\n"
    "null clears it, and the columns it does not name keep their values.\n"
    "A new column is inferred, or refused, exactly as on insert; \"id\" may\n"
    "appear only with the row's own id. The patch is one atomic write. An\n"
    "ID starting with '-' goes after \"--\".\n"
    "\n"
    "Output: the watermark; with --json, {\"watermark\":N}. Fails with\n"
    "RowNotFound if there is no such row, BoardNotFound if there is no\n"
    "such board (nothing is written).\n",
    run_update,
};

/* ---- upsert ---- */

static int run_upsert(cli_ctx *ctx, const cli_command *cmd, int argc,
                      char **argv)
{
    return cli_run_load(ctx, cmd, argc, argv, pier_upsert_json);
}

const cli_command cli_cmd_upsert = {
    "upsert", "Write whole rows: replace each id's row, or insert it",
    "BOARD [JSON|-] [--csv FILE] [--tsv FILE] [--id COL] "
    "[--id-generate uuid7|uuid4]",
    "Writes complete rows to BOARD (created by the write unless\n"
    "--auto-create=never): each replaces the stored row with its id (the\n"
    "columns it omits then read null) or, if there is none, is inserted.\n"
    "JSON is one object or an array of objects, each with an \"id\"; all\n"
    "its rows are one atomic write, in which a later row with an id wins\n"
    "over an earlier one. New columns are inferred as on insert.\n"
    "\n"
    "With '-', stdin is streamed exactly as for insert: a JSON array of\n"
    "objects or JSON lines, every 1000 rows one atomic write (fewer if\n"
    "their text passes 64 MiB). If a batch fails, the batches before it\n"
    "stay committed: the error says how many rows that was, and its byte\n"
    "offsets count from the start of stdin.\n"
    "\n"
    CLI_LOAD_HELP
    "\n"
    "Output: the watermark of the last write; with --json,\n"
    "{\"watermark\":N}. An empty stdin writes nothing and prints the current\n"
    "head.\n",
    run_upsert,
};

/* ---- delete ---- */

static const char *const delete_names[] = { "BOARD", "ID" };

static int run_delete(cli_ctx *ctx, const cli_command *cmd, int argc,
                      char **argv)
{
    /* At most one id per argument: enough room whatever the line. */
    char **pos = calloc((size_t)argc + 1, sizeof *pos);
    if (pos == NULL)
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                            "out of memory");
    int rc = cli_args(ctx, cmd, argc, argv, NULL, NULL, NULL, delete_names,
                      2, argc, pos);
    if (rc != CLI_CONTINUE)
        goto done;
    size_t nids = 0;
    while (pos[1 + nids] != NULL)
        nids++;
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        goto done;
    int64_t wm = 0;
    pier_error err;
    cli_error_init(&err);
    if (pier_delete_many(&wm, ctx->engine, pos[0],
                         (const char *const *)(pos + 1), nids,
                         &err) == PIER_OK)
        rc = cli_print_watermark(ctx, wm);
    else
        rc = cli_fail(ctx, &err);
done:
    free(pos);
    return rc;
}

const cli_command cli_cmd_delete = {
    "delete", "Delete rows by id", "BOARD ID...",
    "Deletes the rows of BOARD with the given ids, all as one atomic\n"
    "write. An id the board does not have is not an error. An ID starting\n"
    "with '-' goes after \"--\".\n"
    "\n"
    "Output: the watermark; with --json, {\"watermark\":N}. Fails with\n"
    "BoardNotFound if there is no such board.\n",
    run_delete,
};

/* ---- compact ---- */

static const char *const compact_names[] = { "BOARD" };

static int run_compact(cli_ctx *ctx, const cli_command *cmd, int argc,
                       char **argv)
{
    char *board = NULL;
    int rc = prepare(ctx, cmd, argc, argv, compact_names, 1, &board);
    if (rc != CLI_CONTINUE)
        return rc;
    int64_t reclaimed = 0;
    pier_error err;
    cli_error_init(&err);
    if (pier_compact(&reclaimed, ctx->engine, board, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    return cli_print_number(ctx, "reclaimed", reclaimed);
}

const cli_command cli_cmd_compact = {
    "compact", "Reclaim a board's superseded row versions", "BOARD",
    "Reclaims the superseded row versions the storage keeps for BOARD.\n"
    "The embedded lake replaces a row in place and keeps none, so the\n"
    "answer is 0.\n"
    "\n"
    "Output: the number of versions reclaimed; with --json,\n"
    "{\"reclaimed\":N}. Fails with BoardNotFound if there is no such\n"
    "board.\n",
    run_compact,
};
