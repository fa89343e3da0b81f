/*
 * backup.c: pier backup and pier restore, a whole lake copied with
 * SQLite's online backup API (src/backup/backup.c; docs/backup.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/*
 * SIGINT or SIGTERM while a copy is written (backup, export to a file):
 * the copy stops, what was written of it is removed, and the command
 * fails with Interrupted (docs/backup.md). The handler notes the signal
 * and has the engine's statements stop (pier_interrupt stops a backup
 * between two steps); an export sees the note at its next write. A
 * second signal ends the program as usual.
 */
static volatile sig_atomic_t copy_stopped;

static void stop_copy(int sig)
{
    copy_stopped = sig;
    cli_interrupt_request();
}

typedef struct copy_signals {
    struct sigaction old_int, old_term;
} copy_signals;

static void copy_signals_take(copy_signals *s, pier_engine *engine)
{
    copy_stopped = 0;
    cli_interrupt_arm(engine, false);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = stop_copy;
    sa.sa_flags = (int)SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &s->old_int);
    sigaction(SIGTERM, &sa, &s->old_term);
}

static void copy_signals_give(copy_signals *s)
{
    sigaction(SIGINT, &s->old_int, NULL);
    sigaction(SIGTERM, &s->old_term, NULL);
    cli_interrupt_disarm();
}

/* The failure of a copy that a signal stopped. */
static int copy_interrupted(cli_ctx *ctx, const char *what)
{
    char msg[512];
    snprintf(msg, sizeof msg, "%s %s: nothing was written", what,
             copy_stopped == SIGINT ? "interrupted by SIGINT"
                                    : "stopped by SIGTERM");
    return cli_fail_msg(ctx, pier_status_tag(PIER_E_INTERRUPTED), msg);
}

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
    copy_signals sig;
    copy_signals_take(&sig, ctx->engine);
    pier_status st = pier_backup(ctx->engine, dest,
                                 force ? PIER_BACKUP_FORCE : 0, &err);
    copy_signals_give(&sig);
    /* (a signal after the copy was complete leaves it in place) */
    if (st == PIER_E_INTERRUPTED && copy_stopped != 0)
        return copy_interrupted(ctx, "backup");
    if (st != PIER_OK)
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
    "a lake, WriteFailed if another process has the lake in DEST open or\n"
    "the copy cannot be written (nothing is left of it),\n"
    "TopologyUnsupported on a PostgreSQL lake (use pg_dump), Interrupted\n"
    "if SIGINT or SIGTERM stopped it (nothing is left of the copy).\n",
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

/* ---- export and import: the lake as JSON lines ---- */

/* Where an export goes: stdout through stdio, or a FILE's temporary
 * copy through `fd`, gathered in `buf` and written with cli_write_all so
 * that a signal stops even a write into a pipe no one reads. */
typedef struct export_out {
    FILE *f;                   /* stdout, or NULL */
    int fd;                    /* the temporary copy, or -1 */
    size_t most;               /* bytes a write: PIPE_BUF into a pipe */
    char *buf;                 /* EXPORT_BUF_BYTES */
    size_t len;
    int errno_;                /* why a write failed, or 0 */
} export_out;

#define EXPORT_BUF_BYTES (64 * 1024)

static bool flush_out(export_out *o)
{
    if (o->len > 0 &&
        !cli_write_all(o->fd, o->buf, o->len, o->most, &copy_stopped)) {
        o->errno_ = errno != 0 ? errno : EIO;
        return false;
    }
    o->len = 0;
    return true;
}

static bool write_out(const char *bytes, size_t len, void *payload)
{
    export_out *o = payload;
    if (copy_stopped != 0)
        return false;
    if (o->f != NULL) {
        if (fwrite(bytes, 1, len, o->f) == len)
            return true;
        o->errno_ = errno != 0 ? errno : EIO;
        return false;
    }
    if (o->len + len > EXPORT_BUF_BYTES && !flush_out(o))
        return false;
    if (len >= EXPORT_BUF_BYTES) {     /* (a long line goes straight) */
        if (cli_write_all(o->fd, bytes, len, o->most, &copy_stopped))
            return true;
        o->errno_ = errno != 0 ? errno : EIO;
        return false;
    }
    memcpy(o->buf + o->len, bytes, len);
    o->len += len;
    return true;
}

/* Opens the temporary copy `tmp` into `o`. @return 0 or an errno. */
static int open_out(export_out *o, const char *tmp)
{
    o->buf = malloc(EXPORT_BUF_BYTES);
    if (o->buf == NULL)
        return ENOMEM;
    o->fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (o->fd < 0)
        return errno;
    struct stat st;
    o->most = fstat(o->fd, &st) == 0 && S_ISREG(st.st_mode)
                  ? EXPORT_BUF_BYTES
                  : PIPE_BUF;
    return 0;
}

static int run_export(cli_ctx *ctx, const cli_command *cmd, int argc,
                      char **argv)
{
    static const char *const names[] = { "FILE" };
    ctx->opts.must_exist = true;     /* (a read makes no lake) */
    char *path = NULL;
    int rc = cli_args(ctx, cmd, argc, argv, NULL, NULL, NULL, names, 0, 1,
                      &path);
    if (rc != CLI_CONTINUE)
        return rc;
    if (path != NULL && path[0] == '\0')
        return cli_usage(cmd, "export: FILE cannot be empty");
    bool to_stdout = path == NULL || strcmp(path, "-") == 0;
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    /* A file is written beside its name and renamed once complete: a
     * failed export leaves no file that reads as an export. */
    char *tmp = NULL;
    export_out out = { stdout, -1, 0, NULL, 0, 0 };
    if (!to_stdout) {
        size_t n = strlen(path) + 16;
        tmp = malloc(n);
        if (tmp == NULL)
            return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                                "out of memory");
        snprintf(tmp, n, "%s.pier-tmp", path);
        out.f = NULL;
        int why = open_out(&out, tmp);
        if (why != 0) {
            char msg[512];
            snprintf(msg, sizeof msg, "cannot create '%s': %s", tmp,
                     strerror(why));
            if (out.fd >= 0) {
                close(out.fd);
                unlink(tmp);
            }
            free(out.buf);
            free(tmp);
            return cli_fail_msg(ctx, pier_status_tag(PIER_E_WRITE_FAILED),
                                msg);
        }
    }
    pier_error err;
    cli_error_init(&err);
    copy_signals sig;
    copy_stopped = 0;
    if (!to_stdout)
        copy_signals_take(&sig, ctx->engine);
    pier_status st = pier_export(ctx->engine, write_out, &out, &err);
    if (to_stdout) {
        if (out.errno_ != 0)
            ctx->stdout_errno = out.errno_;   /* reported by main */
        return st == PIER_OK || out.errno_ != 0 ? CLI_EXIT_OK
                                                : cli_fail(ctx, &err);
    }
    /* (the rest is written, and synced, while a signal still stops it) */
    if (st == PIER_OK && out.errno_ == 0 && copy_stopped == 0 &&
        flush_out(&out) && fsync(out.fd) != 0)
        out.errno_ = errno;
    copy_signals_give(&sig);
    int why = out.errno_;
    if (close(out.fd) != 0 && why == 0)
        why = errno;
    free(out.buf);
    /* (a signal after the last write still stops it: the file is not
     * renamed into place, as the command fails) */
    if (st == PIER_OK && why == 0 && copy_stopped == 0 &&
        rename(tmp, path) != 0)
        why = errno;
    if (st != PIER_OK || why != 0 || copy_stopped != 0) {
        unlink(tmp);
        free(tmp);
        if (copy_stopped != 0)
            return copy_interrupted(ctx, "export");
        if (why != 0) {
            char msg[512];
            snprintf(msg, sizeof msg, "cannot write '%s': %s", path,
                     strerror(why));
            return cli_fail_msg(ctx, pier_status_tag(PIER_E_WRITE_FAILED),
                                msg);
        }
        return cli_fail(ctx, &err);
    }
    free(tmp);
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_export = {
    "export", "Write the whole lake as JSON lines", "[FILE|-]",
    "Writes the whole lake, as of one read transaction, to FILE (or\n"
    "stdout: '-' or no FILE) as JSON lines: a header with the lake's\n"
    "format, the SQL of every table, index, view and trigger, then every\n"
    "table's rows (each board's rows with their ids, updated_at and every\n"
    "value; the catalog: types, strictness, column origins; the change\n"
    "feed; the declared tables), then an end record counting the rows.\n"
    "Values keep their stored type exactly. 'pier import' of it into a new\n"
    "lake makes a lake that exports to the same bytes (docs/backup.md).\n"
    "\n"
    "A FILE is written beside its name (FILE.pier-tmp) and renamed once\n"
    "complete; an existing FILE is replaced. Output: the export on stdout,\n"
    "or nothing. Fails with WriteFailed if FILE cannot be written (nothing\n"
    "is left of it), Interrupted if SIGINT or SIGTERM stopped a FILE's\n"
    "export (nothing is left of it), TopologyUnsupported on a PostgreSQL\n"
    "lake.\n",
    run_export,
};

/* The export import reads, a part at a time. */
typedef struct import_in {
    FILE *f;
    int errno_;                /* why a read failed, or 0 */
} import_in;

static bool read_in(char *buf, size_t cap, size_t *got, void *payload)
{
    import_in *in = payload;
    *got = fread(buf, 1, cap, in->f);
    if (*got > 0 || !ferror(in->f))
        return true;
    in->errno_ = errno != 0 ? errno : EIO;
    return false;
}

static int run_import(cli_ctx *ctx, const cli_command *cmd, int argc,
                      char **argv)
{
    static const char *const names[] = { "FILE" };
    char *path = NULL;
    int rc = cli_args(ctx, cmd, argc, argv, NULL, NULL, NULL, names, 0, 1,
                      &path);
    if (rc != CLI_CONTINUE)
        return rc;
    if (path != NULL && path[0] == '\0')
        return cli_usage(cmd, "import: FILE cannot be empty");
    bool from_stdin = path == NULL || strcmp(path, "-") == 0;
    const char *name = from_stdin ? "stdin" : path;
    pier_error err;
    cli_error_init(&err);
    /* FILE is opened before the lake: one that cannot be read makes no
     * lake. */
    import_in in = { from_stdin ? stdin : fopen(path, "rb"), 0 };
    struct stat sb;
    if (in.f != NULL && fstat(fileno(in.f), &sb) == 0 &&
        S_ISDIR(sb.st_mode)) {
        fclose(in.f);
        in.f = NULL;
        errno = EISDIR;
    }
    if (in.f == NULL) {
        cli_error_set(&err, PIER_E_READ_FAILED, "cannot read '%.300s': %s",
                      name, strerror(errno));
        return cli_fail(ctx, &err);
    }
    if ((rc = cli_open(ctx)) == CLI_EXIT_OK) {
        pier_status st = pier_import_read(ctx->engine, read_in, &in, &err);
        if (st == PIER_E_READ_FAILED && in.errno_ != 0)
            cli_error_set(&err, PIER_E_READ_FAILED, "cannot read '%.300s': "
                          "%s: nothing was written", name,
                          strerror(in.errno_));
        rc = st == PIER_OK ? CLI_EXIT_OK : cli_fail(ctx, &err);
    }
    if (!from_stdin)
        fclose(in.f);
    return rc;
}

const cli_command cli_cmd_import = {
    "import", "Load a 'pier export' into a new lake", "[FILE|-]",
    "Loads an export made by 'pier export' from FILE (or stdin: '-' or no\n"
    "FILE) into the lake of --data, which must be new: no board, no change\n"
    "record, no declared table (a lake that does not exist yet is made).\n"
    "All or nothing: one transaction; foreign keys are checked at its end.\n"
    "The export is read a part at a time: memory holds one line of it.\n"
    "\n"
    "Output: nothing; the exit status says it worked. Fails with\n"
    "InvalidArgument for a lake that is not new or an export of a lake of\n"
    "another format; InvalidJson for text that is not an export (the\n"
    "message gives the line) or one cut short; a Constraint* tag for rows\n"
    "a declared table's constraint refuses (ConstraintForeignKey for a row\n"
    "naming no parent); ReadFailed if FILE cannot be read (no lake is made\n"
    "then); TopologyUnsupported on a PostgreSQL lake. Nothing is written\n"
    "then.\n",
    run_import,
};
