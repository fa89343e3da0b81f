/*
 * changeset.c: `pier changeset record|apply|show`, change history from the
 * command line (docs/history.md): record the changeset of a SQL script,
 * apply a changeset or its inverse, show one as JSON lines.
 *
 * A changeset travels as raw bytes (a file, stdin, stdout), or with --hex
 * as the hexadecimal text `pier sql` prints for a CHANGESET or BLOB
 * column (white space ignored), so that one stored by a commit trigger
 * can be piped back in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* A changeset is read whole; SQLite reads at most 2 GiB of one, and the
 * engine's value limit (64 MiB by default) bounds what a column holds. */
#define CHANGESET_MAX_BYTES ((size_t)1 << 30)

typedef struct cs_args {
    bool hex;
    bool invert;
    pier_on_conflict on_conflict;
} cs_args;

static int cs_opt(cli_ctx *ctx, const cli_command *cmd, const char *name,
                  const char *value, void *payload)
{
    (void)ctx;
    cs_args *a = payload;
    if (strcmp(name, "--hex") == 0) {
        a->hex = true;
    } else if (strcmp(name, "--invert") == 0) {
        a->invert = true;
    } else if (strcmp(value, "abort") == 0) {
        a->on_conflict = PIER_ON_CONFLICT_ABORT;
    } else if (strcmp(value, "skip") == 0) {
        a->on_conflict = PIER_ON_CONFLICT_SKIP;
    } else if (strcmp(value, "replace") == 0) {
        a->on_conflict = PIER_ON_CONFLICT_REPLACE;
    } else {
        return cli_usage(cmd, "%s: --on-conflict is abort, skip or replace, "
                         "not '%.40s'", cmd->name, value);
    }
    return 0;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Hex text to bytes, in place. False for a byte that is not a digit or
 * white space, or an odd number of digits. */
static bool unhex(char *s, size_t *len)
{
    size_t out = 0;
    int high = -1;
    for (size_t i = 0; i < *len; i++) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
            continue;
        int d = hex_digit(c);
        if (d < 0)
            return false;
        if (high < 0) {
            high = d;
        } else {
            s[out++] = (char)(high << 4 | d);
            high = -1;
        }
    }
    *len = out;
    return high < 0;
}

/* Reads the changeset at `path` ("-": stdin), as hex with a->hex. */
static int read_changeset(cli_ctx *ctx, const char *path, const cs_args *a,
                          char **out, size_t *len)
{
    int rc = cli_read_path(ctx, path, "a changeset", CHANGESET_MAX_BYTES,
                           out, len);
    if (rc != CLI_CONTINUE)
        return rc;
    if (a->hex && !unhex(*out, len)) {
        free(*out);
        *out = NULL;
        pier_error err;
        cli_error_init(&err);
        cli_error_set(&err, PIER_E_INVALID_ARGUMENT, "'%.300s' is not "
                      "hexadecimal text (pairs of digits 0-9, A-F)",
                      strcmp(path, "-") == 0 ? "stdin" : path);
        return cli_fail(ctx, &err);
    }
    return CLI_CONTINUE;
}

/* apply's and show's arguments: FILE|- read as a changeset (*bytes, for
 * free()), then the lake opened. @return CLI_CONTINUE, or the exit code
 * (nothing held). */
static int changeset_input(cli_ctx *ctx, const cli_command *cmd, int argc,
                           char **argv, const cli_optspec *opts, cs_args *a,
                           char **bytes, size_t *len)
{
    static const char *const names[] = { "FILE|-" };
    char *pos[1] = { NULL };
    int rc = cli_args(ctx, cmd, argc, argv, opts, cs_opt, a, names, 1, 1,
                      pos);
    if (rc != CLI_CONTINUE)
        return rc;
    if ((rc = read_changeset(ctx, pos[0], a, bytes, len)) != CLI_CONTINUE)
        return rc;
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK) {
        free(*bytes);
        *bytes = NULL;
        return rc;
    }
    return CLI_CONTINUE;
}

static int run_apply(cli_ctx *ctx, const cli_command *cmd, int argc,
                     char **argv)
{
    static const cli_optspec opts[] = {
        { "--invert", false }, { "--on-conflict", true }, { "--hex", false },
        { NULL, false },
    };
    cs_args a = { .on_conflict = PIER_ON_CONFLICT_ABORT };
    char *bytes = NULL;
    size_t len = 0;
    int rc = changeset_input(ctx, cmd, argc, argv, opts, &a, &bytes, &len);
    if (rc != CLI_CONTINUE)
        return rc;
    pier_apply_options o = PIER_APPLY_OPTIONS_INIT;
    o.invert = a.invert;
    o.on_conflict = a.on_conflict;
    pier_apply_result r;
    pier_error err;
    cli_error_init(&err);
    pier_status st = pier_changeset_apply(&r, ctx->engine, bytes, len, &o,
                                          &err);
    free(bytes);
    if (st != PIER_OK)
        return cli_fail(ctx, &err);
    if (ctx->json)
        printf("{\"applied\":%lld,\"skipped\":%lld,\"replaced\":%lld}\n",
               (long long)r.applied, (long long)r.skipped,
               (long long)r.replaced);
    else
        printf("%lld applied, %lld skipped, %lld replaced\n",
               (long long)r.applied, (long long)r.skipped,
               (long long)r.replaced);
    return CLI_EXIT_OK;
}

static int run_show(cli_ctx *ctx, const cli_command *cmd, int argc,
                    char **argv)
{
    static const cli_optspec opts[] = { { "--hex", false }, { NULL, false } };
    cs_args a = { .hex = false };
    char *bytes = NULL;
    size_t len = 0;
    int rc = changeset_input(ctx, cmd, argc, argv, opts, &a, &bytes, &len);
    if (rc != CLI_CONTINUE)
        return rc;
    char *text = NULL;
    pier_error err;
    cli_error_init(&err);
    pier_status st = pier_changeset_to_json(&text, ctx->engine, bytes, len,
                                            &err);
    free(bytes);
    if (st != PIER_OK)
        return cli_fail(ctx, &err);
    fputs(text, stdout);
    pier_free(text);
    return CLI_EXIT_OK;
}

static int run_record(cli_ctx *ctx, const cli_command *cmd, int argc,
                      char **argv)
{
    static const cli_optspec opts[] = { { "--hex", false }, { NULL, false } };
    static const char *const names[] = { "SQL" };
    cs_args a = { .hex = false };
    char *pos[1] = { NULL };
    int rc = cli_args(ctx, cmd, argc, argv, opts, cs_opt, &a, names, 1, 1,
                      pos);
    if (rc != CLI_CONTINUE)
        return rc;
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    void *bytes = NULL;
    size_t len = 0;
    pier_error err;
    cli_error_init(&err);
    cli_interrupt_arm(ctx->engine, true);
    pier_status st = pier_changeset(&bytes, &len, ctx->engine, pos[0], NULL,
                                    &err);
    cli_interrupt_disarm();
    if (st != PIER_OK)
        return cli_fail(ctx, &err);
    if (a.hex) {
        for (size_t i = 0; i < len; i++)
            printf("%02X", ((const unsigned char *)bytes)[i]);
        putchar('\n');
    } else if (len > 0) {
        fwrite(bytes, 1, len, stdout);
    }
    pier_free(bytes);
    return CLI_EXIT_OK;
}

static int run_changeset(cli_ctx *ctx, const cli_command *cmd, int argc,
                         char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "apply") == 0)
        return run_apply(ctx, cmd, argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "show") == 0)
        return run_show(ctx, cmd, argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "record") == 0)
        return run_record(ctx, cmd, argc - 1, argv + 1);
    static const char *const names[] = { "record|apply|show" };
    char *pos[1] = { NULL };
    int rc = cli_args(ctx, cmd, argc, argv, NULL, NULL, NULL, names, 1, 1,
                      pos);
    if (rc != CLI_CONTINUE)
        return rc;
    return cli_usage(cmd, "%s: unknown subcommand '%.40s': record, apply "
                     "or show", cmd->name, pos[0]);
}

const cli_command cli_cmd_changeset = {
    "changeset", "Record, apply or show a changeset (change history)",
    "record SQL [--hex] | apply FILE|- [--invert] "
    "[--on-conflict abort|skip|replace] [--hex] | show FILE|- [--hex]",
    "Change history of declared tables with a PRIMARY KEY (docs/history.md).\n"
    "A changeset holds, for each row a transaction changed, its table, its\n"
    "key and its values before and after (SQLite's changeset format).\n"
    "\n"
    "`pier changeset record SQL` runs SQL as `pier sql` does and writes the\n"
    "changeset of what it changed to stdout as raw bytes (nothing when it\n"
    "changed nothing); SQL that changes a table without a PRIMARY KEY is\n"
    "refused (EntityNotAllowed). `pier changeset apply FILE` applies the changeset in\n"
    "FILE ('-': stdin) in one transaction: every change or none.\n"
    "`pier changeset show FILE` prints one JSON object per change, with the\n"
    "lake's column names where it has the table.\n"
    "\n"
    "Options:\n"
    "  --invert            apply: apply the inverse (undo the changes)\n"
    "  --on-conflict abort|skip|replace\n"
    "                      apply: a row that is not as a change expects\n"
    "                      (its key taken, missing, other values) fails the\n"
    "                      whole apply with ChangesetConflict (abort, the\n"
    "                      default), leaves that change out (skip), or is\n"
    "                      replaced by the change's row (replace)\n"
    "  --hex               The changeset is hexadecimal text, as `pier sql`\n"
    "                      prints a CHANGESET column (record: writes it so)\n"
    "\n"
    "Output of apply: \"N applied, N skipped, N replaced\"; with --json\n"
    "{\"applied\":N,\"skipped\":N,\"replaced\":N}. Bytes that are not a\n"
    "changeset fail with InvalidArgument, a table the lake lacks (or with\n"
    "other columns) with TableNotFound.\n",
    run_changeset,
};
