/*
 * codegen.c: `pier schema codegen c|jsonschema FILE|-`: a declaration's
 * row shapes as a C header or a JSON Schema document on stdout
 * (pier_schema_codegen). It reads the declaration only: no lake is opened,
 * so no data directory is made.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* A declaration is read whole, as `pier plan` reads one. */
#define CODEGEN_MAX_BYTES ((size_t)64 << 20)

static int codegen_opt(cli_ctx *ctx, const cli_command *cmd,
                       const char *name, const char *value, void *payload)
{
    (void)ctx;
    (void)name;
    size_t n = strlen(value);
    bool ok = n > 0 && n <= 32 && !(value[0] >= '0' && value[0] <= '9') &&
              strspn(value, "abcdefghijklmnopqrstuvwxyz"
                            "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
    if (!ok)
        return cli_usage(cmd, "%s codegen: bad --prefix '%.40s': a C "
                         "identifier of 1 to 32 letters, digits and "
                         "underscores", cmd->name, value);
    *(const char **)payload = value;
    return 0;
}

static const cli_optspec codegen_opts[] = {
    { "--prefix", true },
    { NULL, false },
};

static const char *const codegen_names[] = { "c|jsonschema", "FILE|-" };

int cli_schema_codegen(cli_ctx *ctx, const cli_command *cmd, int argc,
                       char **argv)
{
    const char *prefix = NULL;
    char *pos[2] = { NULL, NULL };
    int rc = cli_args(ctx, cmd, argc, argv, codegen_opts, codegen_opt,
                      &prefix, codegen_names, 2, 2, pos);
    if (rc != CLI_CONTINUE)
        return rc;
    pier_codegen_target target;
    if (strcmp(pos[0], "c") == 0)
        target = PIER_CODEGEN_C;
    else if (strcmp(pos[0], "jsonschema") == 0)
        target = PIER_CODEGEN_JSON_SCHEMA;
    else
        return cli_usage(cmd, "%s codegen: unknown target '%.40s': c or "
                         "jsonschema", cmd->name, pos[0]);
    char *text = NULL;
    size_t len = 0;
    rc = cli_read_path(ctx, pos[1], "a declaration", CODEGEN_MAX_BYTES,
                       &text, &len);
    if (rc != CLI_CONTINUE)
        return rc;
    pier_codegen_options opts = PIER_CODEGEN_OPTIONS_INIT;
    opts.prefix = prefix;
    pier_error err;
    cli_error_init(&err);
    char *out = NULL;
    pier_status st = pier_schema_codegen(&out, text, len, target, &opts,
                                         &err);
    if (st != PIER_OK && err.offset >= 0 && (size_t)err.offset <= len)
        cli_locate(&err, text, pos[1]);
    free(text);
    if (st != PIER_OK)
        return cli_fail(ctx, &err);
    fputs(out, stdout);
    pier_free(out);
    return CLI_EXIT_OK;
}
