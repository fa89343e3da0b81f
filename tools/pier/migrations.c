/*
 * migrations.c: `pier migrations new|up|down|status`: versioned migration
 * files, the other style beside `plan`/`migrate` (migrate.c): a directory
 * of VERSION_NAME.sql files, each with an up and a down section of SQL
 * (pier_migration_file_create, pier_migration_files_up, _down, _status).
 *
 * `new` opens no lake: it only writes a file, named by PIER_NOW when it
 * is set (so that transcripts are reproducible), else by the clock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define DEFAULT_MIGRATIONS_DIR "db/migrations"

typedef struct migrations_args {
    const char *dir;
    bool check;
    const char *limit;         /* the first limit option given, or NULL */
} migrations_args;

static const cli_optspec migrations_opts[] = {
    { "--dir", true }, { "--check", false }, CLI_LIMIT_OPTSPECS,
    { NULL, false },
};

static int migrations_opt(cli_ctx *ctx, const cli_command *cmd,
                          const char *name, const char *value, void *payload)
{
    migrations_args *a = payload;
    if (strcmp(name, "--dir") == 0) {
        if (value[0] == '\0')
            return cli_usage(cmd, "%s: option '--dir' needs a directory",
                             cmd->name);
        a->dir = value;
        return 0;
    }
    if (strcmp(name, "--check") == 0) {
        a->check = true;
        return 0;
    }
    if (a->limit == NULL)
        a->limit = name;
    return cli_limit_option(ctx, cmd, name, value);
}

static const char *state_name(pier_migration_file_state s)
{
    switch (s) {
    case PIER_MIGRATION_FILE_PENDING: return "pending";
    case PIER_MIGRATION_FILE_APPLIED: return "applied";
    case PIER_MIGRATION_FILE_MODIFIED: return "modified";
    case PIER_MIGRATION_FILE_MISSING: return "missing";
    }
    return "unknown";
}

static void json_str(const char *s)
{
    cli_json_string(stdout, s, strlen(s));
}

/* A string field that is "" when absent: null then. */
static void json_str_or_null(const char *s)
{
    if (s[0] == '\0')
        fputs("null", stdout);
    else
        json_str(s);
}

static void file_json(const pier_migration_file *f)
{
    fputs("{\"version\":", stdout);
    json_str(f->version);
    fputs(",\"name\":", stdout);
    json_str(f->name);
    fputs(",\"file\":", stdout);
    json_str(f->file);
    printf(",\"state\":\"%s\",\"checksum\":", state_name(f->state));
    json_str_or_null(f->checksum);
    fputs(",\"applied_checksum\":", stdout);
    json_str_or_null(f->applied_checksum);
    fputs(",\"applied_at\":", stdout);
    if (f->applied_at != 0) {
        char at[CLI_INSTANT_SIZE];
        cli_format_instant(f->applied_at, at);
        printf("\"%s\"", at);
    } else {
        fputs("null", stdout);
    }
    printf(",\"reversible\":%s}", f->reversible ? "true" : "false");
}

static void files_json(const pier_migration_files *l)
{
    fputc('[', stdout);
    for (size_t i = 0; l != NULL && i < l->nfiles; i++) {
        if (i > 0)
            fputc(',', stdout);
        file_json(&l->files[i]);
    }
    fputc(']', stdout);
}

/* ---- new ---- */

static int run_new(cli_ctx *ctx, const char *dir, const char *name)
{
    int64_t now = 0;
    int rc = cli_now(ctx, &now);
    if (rc != CLI_EXIT_OK)
        return rc;
    char *path = NULL;
    pier_error err;
    cli_error_init(&err);
    if (pier_migration_file_create(&path, dir, name, now, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    if (ctx->json) {
        fputs("{\"path\":", stdout);
        json_str(path);
        fputs("}\n", stdout);
    } else {
        printf("%s\n", path);
    }
    pier_free(path);
    return CLI_EXIT_OK;
}

/* ---- up and down ---- */

typedef pier_status (*files_run_fn)(int64_t *watermark, pier_engine *engine,
                                    const char *dir,
                                    pier_migration_files **out,
                                    pier_error *err);

/* Runs up or down and prints what it did, also before a failure: the
 * versions applied before it stay applied. */
static int run_files(cli_ctx *ctx, const char *dir, bool up)
{
    /* down has nothing to roll back on a missing lake, and makes none */
    int rc = up ? cli_open(ctx) : cli_open_or_empty(ctx);
    if (rc != CLI_EXIT_OK)
        return rc;
    files_run_fn fn = up ? pier_migration_files_up
                         : pier_migration_files_down;
    const char *verb = up ? "applied" : "reverted";
    pier_migration_files *done = NULL;
    int64_t wm = 0;
    pier_error err;
    cli_error_init(&err);
    cli_interrupt_arm(ctx->engine, true);
    pier_status st = fn(&wm, ctx->engine, dir, &done, &err);
    cli_interrupt_disarm();
    if (ctx->json) {
        printf("{\"%s\":", verb);
        files_json(done);
        if (st == PIER_OK)
            printf(",\"watermark\":%lld", (long long)wm);
        fputs("}\n", stdout);
    } else {
        for (size_t i = 0; done != NULL && i < done->nfiles; i++)
            printf("%-8s  %s\n", verb, done->files[i].file);
        if (st == PIER_OK && done->nfiles == 0)
            printf(up ? "-- no pending version in '%s'\n"
                      : "-- no version applied: nothing to roll back%s\n",
                   up ? dir : "");
        if (st == PIER_OK)
            printf("%lld\n", (long long)wm);
    }
    pier_migration_files_free(done);
    return st == PIER_OK ? CLI_EXIT_OK : cli_fail(ctx, &err);
}

/* ---- status ---- */

/* @return false if out of memory. */
static bool status_table(const pier_migration_files *l)
{
    cli_table *t = cli_table_new(4);
    bool ok = t != NULL && cli_table_add(t, "version", 7) &&
              cli_table_add(t, "name", 4) && cli_table_add(t, "state", 5) &&
              cli_table_add(t, "applied_at", 10);
    for (size_t i = 0; ok && i < l->nfiles; i++) {
        const pier_migration_file *f = &l->files[i];
        const char *state = state_name(f->state);
        char at[CLI_INSTANT_SIZE] = "-";
        if (f->applied_at != 0)
            cli_format_instant(f->applied_at, at);
        ok = cli_table_add(t, f->version, strlen(f->version)) &&
             cli_table_add(t, f->name, strlen(f->name)) &&
             cli_table_add(t, state, strlen(state)) &&
             cli_table_add(t, at, strlen(at));
    }
    if (ok && l->nfiles > 0)
        cli_table_print(t, stdout);
    cli_table_free(t);
    return ok;
}

static int run_status(cli_ctx *ctx, const char *dir, bool check)
{
    int rc = cli_open_or_empty(ctx);     /* (status makes no lake) */
    if (rc != CLI_EXIT_OK)
        return rc;
    pier_migration_files *l = NULL;
    pier_error err;
    cli_error_init(&err);
    if (pier_migration_files_status(&l, ctx->engine, dir, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    size_t n[4] = { 0, 0, 0, 0 };
    for (size_t i = 0; i < l->nfiles; i++)
        n[l->files[i].state]++;
    size_t applied = n[PIER_MIGRATION_FILE_APPLIED],
           pending = n[PIER_MIGRATION_FILE_PENDING],
           modified = n[PIER_MIGRATION_FILE_MODIFIED],
           missing = n[PIER_MIGRATION_FILE_MISSING];
    if (ctx->json) {
        fputs("{\"dir\":", stdout);
        json_str(dir);
        fputs(",\"files\":", stdout);
        files_json(l);
        printf(",\"applied\":%zu,\"pending\":%zu,\"modified\":%zu,"
               "\"missing\":%zu}\n", applied, pending, modified, missing);
    } else if (status_table(l)) {
        printf("%zu version%s: %zu applied, %zu pending, %zu modified, "
               "%zu missing\n", l->nfiles, l->nfiles == 1 ? "" : "s",
               applied, pending, modified, missing);
    } else {
        pier_migration_files_free(l);
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                            "out of memory");
    }
    pier_migration_files_free(l);
    if (!check || pending + modified + missing == 0)
        return CLI_EXIT_OK;
    char msg[512];
    snprintf(msg, sizeof msg, "the lake and the files in '%.300s' "
             "disagree: %zu pending, %zu modified, %zu missing", dir,
             pending, modified, missing);
    return cli_fail_msg(ctx, pier_status_tag(PIER_E_MIGRATION_CONFLICT),
                        msg);
}

/* ---- the command ---- */

static const char *const migrations_names[] = { "new|up|down|status",
                                                "NAME" };

static int run_migrations(cli_ctx *ctx, const cli_command *cmd, int argc,
                          char **argv)
{
    migrations_args a = { DEFAULT_MIGRATIONS_DIR, false, NULL };
    char *pos[2] = { NULL, NULL };
    int rc = cli_args(ctx, cmd, argc, argv, migrations_opts, migrations_opt,
                      &a, migrations_names, 1, 2, pos);
    if (rc != CLI_CONTINUE)
        return rc;
    const char *sub = pos[0];
    bool is_new = strcmp(sub, "new") == 0;
    bool runs_sql = strcmp(sub, "up") == 0 || strcmp(sub, "down") == 0;
    if (!is_new && !runs_sql && strcmp(sub, "status") != 0)
        return cli_usage(cmd, "%s: unknown subcommand '%.40s': new, up, "
                         "down or status", cmd->name, sub);
    if (is_new && pos[1] == NULL)
        return cli_usage(cmd, "%s new: missing argument NAME", cmd->name);
    if (!is_new && pos[1] != NULL)
        return cli_usage(cmd, "%s %s: unexpected argument '%s'", cmd->name,
                         sub, pos[1]);
    if (a.check && strcmp(sub, "status") != 0)
        return cli_usage(cmd, "%s %s: option '--check' is for status",
                         cmd->name, sub);
    if (a.limit != NULL && !runs_sql)
        return cli_usage(cmd, "%s %s: option '%s' is for up and down",
                         cmd->name, sub, a.limit);
    if (is_new)
        return run_new(ctx, a.dir, pos[1]);
    if (runs_sql)
        return run_files(ctx, a.dir, strcmp(sub, "up") == 0);
    return run_status(ctx, a.dir, a.check);
}

const cli_command cli_cmd_migrations = {
    "migrations", "Create, apply, roll back or list versioned SQL files",
    "new NAME | up | down | status [--dir DIR] [--check] "
    "[--time-limit DURATION] [--max-value SIZE] [--max-memory SIZE]",
    "Versioned migration files: SQL files in a directory (db/migrations\n"
    "unless --dir says otherwise) named VERSION_NAME.sql, VERSION being 14\n"
    "digits (YYYYMMDDHHMMSS, UTC) that order them. Each has a line\n"
    "'-- migrate:up', then the SQL to apply, and a line '-- migrate:down',\n"
    "then the SQL that undoes it; a version whose down section is empty is\n"
    "irreversible. The SQL runs as `pier sql` runs a script, as the lake's\n"
    "owner (docs/migrations.md, \"Versioned migration files\"). Files not\n"
    "ending in .sql are ignored; a .sql file that does not parse stops\n"
    "up, down and status (InvalidSchema, naming it).\n"
    "\n"
    "  new NAME  Writes a template named by the time now (PIER_NOW when\n"
    "            set), or the second after the latest version, and NAME\n"
    "            (letters lowered, spaces and '-' made '_'); the directory\n"
    "            is created if missing. Prints the file's path.\n"
    "  up        Applies every pending version in order, each with its\n"
    "            record in one transaction. The first that fails is rolled\n"
    "            back and ends the command; those before it stay applied.\n"
    "  down      Rolls back the latest version applied, one only, with its\n"
    "            down section (MigrationRefused if it is irreversible or\n"
    "            its file is gone). With none applied, does nothing.\n"
    "  status    Lists every version: applied, pending, modified (applied,\n"
    "            but its file changed since) or missing (applied, but its\n"
    "            file is gone).\n"
    "\n"
    "Options:\n"
    "  --dir DIR    The directory of the files (default: db/migrations)\n"
    "  --check      status: fail (MigrationConflict) when a version is\n"
    "               pending, modified or missing\n"
    "  --time-limit DURATION, --max-value SIZE, --max-memory SIZE\n"
    "               up and down: each version's limits, as for `sql`\n"
    "\n"
    "Output: new: the path. up, down: a line \"applied FILE\" or\n"
    "\"reverted FILE\" per version, then the watermark. status: a table\n"
    "(version, name, state, applied_at) and the counts. With --json:\n"
    "{\"path\":P}; {\"applied\":[...],\"watermark\":N};\n"
    "{\"reverted\":[...],\"watermark\":N}; {\"dir\":D,\"files\":[...],\n"
    "\"applied\":N,\"pending\":N,\"modified\":N,\"missing\":N}.\n",
    run_migrations,
};
