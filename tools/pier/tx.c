/*
 * tx.c: the tx command: a JSON array of operations (insert, upsert,
 * update, delete) run as one transaction.
 *
 * The document goes to the library whole (pier_tx_apply_json), which
 * reads it with the JSON row reader, so that every value (a hugeint beyond
 * 64 bits, a double's digits) arrives exactly as written and every offset
 * counts from the start of the input; the command adds where the input
 * came from. One pier_tx: begin with the boards of --boards, apply the
 * document, commit and print the watermark; the first failure names its
 * operation (counted from 1) and rolls everything back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The most bytes of operations read: a transaction carries at most one
 * write's worth of text (PIER_MAX_BATCH_BYTES), and the CLI holds it all. */
#define TX_MAX_BYTES ((size_t)PIER_MAX_BATCH_BYTES)

/* ---- arguments ---- */

typedef struct tx_args {
    const char **boards;   /* from every --boards, pointing into argv */
    size_t nboards, cap;
} tx_args;

static const cli_optspec tx_opts[] = {
    { "--boards", true }, { NULL, false },
};

static int tx_opt(cli_ctx *ctx, const cli_command *cmd, const char *name,
                  const char *value, void *payload)
{
    (void)name;
    tx_args *a = payload;
    size_t len = strlen(value), n = 1;
    if (len == 0 || value[0] == ',' || value[len - 1] == ',' ||
        strstr(value, ",,") != NULL)
        return cli_usage(cmd, "%s: bad --boards '%s': expected "
                         "BOARD[,BOARD]...", cmd->name, value);
    for (const char *p = value; *p != '\0'; p++)
        n += *p == ',';
    if (a->nboards + n > a->cap) {
        size_t cap = (a->nboards + n) * 2;
        const char **boards = realloc(a->boards, cap * sizeof *boards);
        if (boards == NULL)
            return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                                "out of memory");
        a->boards = boards;
        a->cap = cap;
    }
    /* argv strings are the program's to modify (C17 5.1.2.2.1). */
    char *p = (char *)value;
    for (;;) {
        a->boards[a->nboards++] = p;
        char *comma = strchr(p, ',');
        if (comma == NULL)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    return 0;
}

/* ---- running them ---- */

/* Whether `text` holds nothing but JSON's whitespace (and a BOM). */
static bool blank(const char *text, size_t len)
{
    size_t i = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    for (; i < len; i++)
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' &&
            text[i] != '\r')
            return false;
    return true;
}

static int run_tx_ops(cli_ctx *ctx, const tx_args *a, const char *text,
                      size_t len, const char *where)
{
    pier_tx *tx = NULL;
    pier_error err;
    cli_error_init(&err);
    if (pier_tx_begin(&tx, ctx->engine, a->boards, a->nboards, &err) !=
        PIER_OK)
        return cli_fail(ctx, &err);
    /* No operations at all, as from an empty file: the empty
     * transaction, as `insert` takes empty input for no rows. */
    if (!blank(text, len) &&
        pier_tx_apply_json(tx, text, len, &err) != PIER_OK) {
        pier_tx_rollback(tx);
        cli_relocate(&err, 0, 0, where);   /* "at byte N of stdin" */
        return cli_fail(ctx, &err);
    }
    int64_t wm = 0;
    if (pier_tx_commit(&wm, tx, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    /* An empty transaction commits nothing and has no watermark of its
     * own (the library answers 0): print the head, as an empty insert
     * does. */
    if (wm == 0 && pier_head_from_catalog(&wm, ctx->engine, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    return cli_print_watermark(ctx, wm);
}

static const char *const tx_names[] = { "FILE|-" };

static int run_tx(cli_ctx *ctx, const cli_command *cmd, int argc,
                  char **argv)
{
    tx_args a = { NULL, 0, 0 };
    pier_error err;
    cli_error_init(&err);
    char *text = NULL;
    size_t len = 0;
    char *file = NULL;
    int rc = cli_args(ctx, cmd, argc, argv, tx_opts, tx_opt, &a, tx_names,
                      1, 1, &file);
    if (rc != CLI_CONTINUE)
        goto done;
    if (a.nboards == 0) {
        rc = cli_usage(cmd, "%s: missing option --boards", cmd->name);
        goto done;
    }
    /* The name of the input in messages: stdin, or 'FILE'. */
    char where[160];
    bool from_stdin = strcmp(file, "-") == 0;
    if (from_stdin)
        snprintf(where, sizeof where, "stdin");
    else
        snprintf(where, sizeof where, "'%.150s'", file);
    FILE *in = from_stdin ? stdin : fopen(file, "rb");
    if (in == NULL) {
        char msg[sizeof err.message];
        snprintf(msg, sizeof msg, "cannot open %s: %s", where,
                 strerror(errno));
        rc = cli_fail_msg(ctx, pier_status_tag(PIER_E_READ_FAILED), msg);
        goto done;
    }
    pier_status st = cli_read_all(in, where, "a transaction's operations",
                                  TX_MAX_BYTES, &text, &len, &err);
    if (!from_stdin)
        fclose(in);
    if (st != PIER_OK) {
        rc = cli_fail(ctx, &err);
        goto done;
    }
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        goto done;
    rc = run_tx_ops(ctx, &a, text, len, where);
done:
    free(text);
    free(a.boards);
    return rc;
}

const cli_command cli_cmd_tx = {
    "tx", "Run a list of writes as one transaction",
    "--boards BOARD[,BOARD]... FILE|-",
    "Reads a JSON array of operations from FILE (or stdin, with '-') and\n"
    "runs them, in order, as one atomic write with one watermark:\n"
    "  {\"op\":\"insert\",\"board\":B,\"rows\":[{...},...]}\n"
    "  {\"op\":\"upsert\",\"board\":B,\"rows\":[{...},...]}\n"
    "  {\"op\":\"update\",\"board\":B,\"id\":ID,\"patch\":{...}}\n"
    "  {\"op\":\"delete\",\"board\":B,\"ids\":[ID,...]}\n"
    "Each works as the command of its name, and every row written shares\n"
    "one updated_at. --boards names every board the operations may write,\n"
    "up front; writing another fails with EntityNotAllowed. A board an\n"
    "operation creates exists only once the transaction commits. An empty\n"
    "array, or input with no operations at all, writes nothing and prints\n"
    "the current head.\n"
    "\n"
    "If an operation fails, nothing of the transaction is written: the\n"
    "error ends with \"(operation N)\", counted from 1, and its byte\n"
    "offsets count from the start of the input. A malformed document (not\n"
    "an array, an unknown op, a missing, unknown or repeated member, a\n"
    "member of the wrong type) is InvalidJson, and nothing is written. A\n"
    "number beyond the range of a double (about 1.8e308), or so small it\n"
    "would read as 0 (1e-400), is refused, as is a row naming updated_at;\n"
    "every other value reaches the board exactly as written. The input may\n"
    "take up to 64 MiB.\n"
    "\n"
    "Options:\n"
    "  --boards BOARD[,BOARD]...\n"
    "                      The boards the operations may write (required;\n"
    "                      repeatable)\n"
    "\n"
    "Output: the watermark; with --json, {\"watermark\":N}.\n",
    run_tx,
};
