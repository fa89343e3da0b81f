/*
 * migrate.c: declarative migrations: `plan` reads a declaration (CREATE
 * TABLE, VIEW, BOARD and INDEX statements) and prints the steps that would
 * make the lake what it states (pier_plan), changing nothing; `migrate`
 * applies them (pier_migrate).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* A declaration is a schema's text: as much as a script may be. */
#define MIGRATE_MAX_BYTES ((size_t)64 << 20)

typedef struct migrate_args {
    pier_migrate_options options;
} migrate_args;

static const cli_optspec migrate_opts[] = {
    { "--allow-destructive", false },
    { "--schema-owns-database", false },
    { "--expect", true },
    { NULL, false },
};

static int migrate_opt(cli_ctx *ctx, const cli_command *cmd,
                       const char *name, const char *value, void *payload)
{
    (void)ctx;
    migrate_args *a = payload;
    if (strcmp(name, "--allow-destructive") == 0) {
        a->options.allow_destructive = true;
    } else if (strcmp(name, "--schema-owns-database") == 0) {
        a->options.schema_owns_database = true;
    } else {
        if (strlen(value) != 16 ||
            strspn(value, "0123456789abcdef") != 16)
            return cli_usage(cmd, "%s: bad --expect '%.40s': a fingerprint "
                             "is 16 hexadecimal digits, as plan prints it",
                             cmd->name, value);
        a->options.expect = value;
    }
    return 0;
}

static const char *const migrate_names[] = { "FILE|-" };

void cli_locate(pier_error *err, const char *text, const char *file)
{
    size_t line = 1, col = 1;
    for (int64_t i = 0; i < err->offset; i++) {
        if (text[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    size_t n = strlen(err->message);
    snprintf(err->message + n, sizeof err->message - n,
             " (line %zu, column %zu of %s%.200s%s)", line, col,
             strcmp(file, "-") == 0 ? "" : "'",
             strcmp(file, "-") == 0 ? "stdin" : file,
             strcmp(file, "-") == 0 ? "" : "'");
}

/* Reads the arguments and the declaration, and plans (or, with
 * `apply`, migrates: *watermark then has the head after). */
static int plan_of(cli_ctx *ctx, const cli_command *cmd, int argc,
                   char **argv, pier_migration **out, bool apply,
                   int64_t *watermark)
{
    migrate_args a = { { PIER_MIGRATE_OPTIONS_VERSION, false, false,
                         NULL } };
    char *file = NULL, *text = NULL;
    size_t len = 0;
    int rc = cli_args(ctx, cmd, argc, argv, migrate_opts, migrate_opt, &a,
                      migrate_names, 1, 1, &file);
    if (rc != CLI_CONTINUE)
        return rc;
    rc = cli_read_path(ctx, file, "a declaration", MIGRATE_MAX_BYTES, &text,
                       &len);
    if (rc != CLI_CONTINUE)
        return rc;
    /* A plan of a missing lake is the plan of an empty one, and makes no
     * lake; migrate makes it. */
    if ((rc = apply ? cli_open(ctx) : cli_open_or_empty(ctx)) !=
        CLI_EXIT_OK) {
        free(text);
        return rc;
    }
    pier_error err;
    cli_error_init(&err);
    pier_status st = apply ? pier_migrate(watermark, ctx->engine, text,
                                          len, &a.options, out, &err)
                           : pier_plan(out, ctx->engine, text, len,
                                       &a.options, &err);
    if (st != PIER_OK && err.offset >= 0 && (size_t)err.offset <= len)
        cli_locate(&err, text, file);
    free(text);
    return st == PIER_OK ? CLI_CONTINUE : cli_fail(ctx, &err);
}

static int run_plan(cli_ctx *ctx, const cli_command *cmd, int argc,
                    char **argv)
{
    pier_migration *m = NULL;
    int rc = plan_of(ctx, cmd, argc, argv, &m, false, NULL);
    if (rc != CLI_CONTINUE)
        return rc;
    char *out = ctx->json ? pier_migration_to_json(m)
                          : pier_migration_to_text(m);
    if (out == NULL) {
        pier_migration_free(m);
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                            "out of memory");
    }
    if (ctx->json)
        printf("%s\n", out);
    else
        printf("%s%s-- fingerprint %s\n", out,
               pier_migration_steps(m) == 0 ? "-- no steps: the lake is "
                                              "what the declaration states\n"
                                            : "",
               pier_migration_fingerprint(m));
    pier_free(out);
    pier_migration_free(m);
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_plan = {
    "plan", "Show the steps that would migrate the lake to a declaration",
    "FILE|- [--allow-destructive] [--schema-owns-database] "
    "[--expect FINGERPRINT]",
    "Reads a declaration from FILE (or stdin, with '-'): CREATE TABLE,\n"
    "CREATE VIEW, CREATE BOARD and CREATE INDEX statements, in any order\n"
    "(docs/migrations.md). Compares it with the lake and prints the steps\n"
    "that would make the lake what it states, one a line:\n"
    "  CLASS  STEP  OBJECT: DETAIL\n"
    "then the fingerprint of the lake's catalog. Nothing is changed: a\n"
    "missing lake is planned as an empty one, and not made.\n"
    "\n"
    "A class is metadata (the catalog only), proved (reads what its proof\n"
    "needs), build (reads the rows to build an index) or destructive.\n"
    "Fails as a migration would: InvalidSchema for a declaration that\n"
    "cannot mean anything, MigrationRefused naming every change a\n"
    "migration does not make, DestructiveChange naming what would be\n"
    "destroyed unless --allow-destructive, MigrationConflict when the\n"
    "catalog is not --expect's.\n"
    "\n"
    "Options:\n"
    "  --allow-destructive     Drops may destroy data\n"
    "  --schema-owns-database  The declaration speaks for the whole lake:\n"
    "                          tables, views and boards a migration made\n"
    "                          and it no longer names are dropped\n"
    "  --expect FINGERPRINT    Fail unless the catalog is still the one a\n"
    "                          plan printed\n"
    "\n"
    "Output: the steps; with --json {\"fingerprint\":...,\"steps\":[...],\n"
    "\"destructive\":[...]}.\n",
    run_plan,
};

static int run_migrate(cli_ctx *ctx, const cli_command *cmd, int argc,
                       char **argv)
{
    pier_migration *m = NULL;
    int64_t wm = 0;
    int rc = plan_of(ctx, cmd, argc, argv, &m, true, &wm);
    if (rc != CLI_CONTINUE)
        return rc;
    char *out = ctx->json ? pier_migration_to_json(m)
                          : pier_migration_to_text(m);
    if (out == NULL) {
        pier_migration_free(m);
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                            "out of memory");
    }
    if (ctx->json) {
        /* the plan's object, with the watermark */
        size_t n = strlen(out);
        printf("%.*s,\"watermark\":%lld}\n", (int)(n - 1), out,
               (long long)wm);
    } else {
        printf("%s%s%lld\n", out,
               pier_migration_steps(m) == 0 ? "-- no steps: the lake is "
                                              "what the declaration states\n"
                                            : "",
               (long long)wm);
    }
    pier_free(out);
    pier_migration_free(m);
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_migrate = {
    "migrate", "Migrate the lake to a declaration",
    "FILE|- [--allow-destructive] [--schema-owns-database] "
    "[--expect FINGERPRINT]",
    "Reads a declaration from FILE (or stdin, with '-'), plans the\n"
    "migration as `pier plan` does, under the write lock, and applies every\n"
    "step in one transaction: all of it, or nothing. Running it again does\n"
    "nothing (no steps). Fails as `pier plan` does, and with the error of\n"
    "a step the lake refuses, naming the step (docs/migrations.md,\n"
    "\"Applying\"). Each step appends a schema record to the change feed\n"
    "of what it touched.\n"
    "\n"
    "Options: as `pier plan`.\n"
    "\n"
    "Output: the steps applied, then the watermark; with --json the plan's\n"
    "object with \"watermark\".\n",
    run_migrate,
};
