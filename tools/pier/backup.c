/*
 * backup.c: pier backup and pier restore, a whole lake copied with
 * SQLite's online backup API (src/backup/backup.c; docs/backup.md).
 */
#include <string.h>

#include "cli.h"

static int on_force(cli_ctx *ctx, const cli_command *cmd, const char *name,
                    const char *value, void *payload)
{
    (void)ctx, (void)cmd, (void)name, (void)value;
    *(bool *)payload = true;
    return 0;
}

static int run_backup(cli_ctx *ctx, const cli_command *cmd, int argc,
                      char **argv)
{
    static const cli_optspec opts[] = { { "--force", false }, { NULL,
                                                                 false } };
    static const char *const names[] = { "DEST" };
    ctx->opts.must_exist = true;     /* (a read makes no lake) */
    bool force = false;
    char *dest = NULL;
    int rc = cli_args(ctx, cmd, argc, argv, opts, on_force, &force, names, 1,
                      1, &dest);
    if (rc != CLI_CONTINUE)
        return rc;
    if (dest[0] == '\0')
        return cli_usage(cmd, "backup: DEST cannot be empty");
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    pier_error err;
    cli_error_init(&err);
    if (pier_backup(ctx->engine, dest, force ? PIER_BACKUP_FORCE : 0,
                    &err) != PIER_OK)
        return cli_fail(ctx, &err);
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_backup = {
    "backup", "Copy the whole lake into a new directory", "[--force] DEST",
    "Writes a copy of the lake, as it stood at one commit, into the new\n"
    "directory DEST: a complete data directory ('pier --data DEST ...'\n"
    "opens it). Other processes may keep writing meanwhile: the copy holds\n"
    "all of each transaction or none of it (SQLite's online backup API).\n"
    "The copy is made beside DEST and renamed into place, so DEST is either\n"
    "the whole copy or absent.\n"
    "\n"
    "  --force   Replace DEST if it holds a lake (and nothing else) or\n"
    "            nothing; without it, an existing DEST is refused\n"
    "\n"
    "Works with --readonly. Output: nothing; the exit status says it\n"
    "worked. Fails with InvalidArgument if DEST exists (or, with --force,\n"
    "holds other files), LakeUnavailable if it holds something that is not\n"
    "a lake, WriteFailed if the copy cannot be written (nothing is left of\n"
    "it), TopologyUnsupported on a PostgreSQL lake (use pg_dump).\n",
    run_backup,
};

static int run_restore(cli_ctx *ctx, const cli_command *cmd, int argc,
                       char **argv)
{
    static const char *const names[] = { "SRC" };
    char *src = NULL;
    int rc = cli_args(ctx, cmd, argc, argv, NULL, NULL, NULL, names, 1, 1,
                      &src);
    if (rc != CLI_CONTINUE)
        return rc;
    if (src[0] == '\0')
        return cli_usage(cmd, "restore: SRC cannot be empty");
    const char *dir = cli_data_dir(ctx);
    if (ctx->opts.lake != NULL)
        return cli_fail_msg(ctx,
                            pier_status_tag(PIER_E_TOPOLOGY_UNSUPPORTED),
                            "restore: not available on a PostgreSQL lake "
                            "(restore its database with pg_restore)");
    if (ctx->opts.readonly)
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_WRITE_FAILED),
                            "restore writes the lake, which --readonly "
                            "forbids: nothing was written");
    pier_error err;
    cli_error_init(&err);
    if (pier_restore(dir, src, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_restore = {
    "restore", "Replace the lake with a copy of another (a backup)", "SRC",
    "Replaces the lake of --data (made if missing) with the lake in the\n"
    "directory SRC (a 'pier backup', or any lake). Atomic: the new\n"
    "contents are written in one transaction of the old lake, so a failure\n"
    "or a crash half-way leaves the old lake whole. No other process may\n"
    "have the lake open (pier shell, pier watch, a program using\n"
    "libpier): the lake is locked exclusively first, and restore fails if\n"
    "it cannot be.\n"
    "\n"
    "Output: nothing; the exit status says it worked. Fails with\n"
    "LakeUnavailable if SRC holds no Pier lake, or --data's lake.sqlite is\n"
    "not one (it is left alone); WriteFailed if another process has the\n"
    "lake open, or under --readonly; InvalidArgument if SRC is the lake\n"
    "itself; TopologyUnsupported on a PostgreSQL lake (use pg_restore).\n",
    run_restore,
};
