/*
 * soak_migrate.c: SIGKILL at random moments of a migration. A `pier
 * migrate` killed at any point leaves the lake at the catalog it had
 * before or at the one its declaration states, never between; the rows
 * are as they were; and running the migration again completes it.
 *
 * The lake: parents (1,000 rows) and items (200,000 rows: a foreign key, a
 * CHECK, INT64, DECIMAL(12,2), TEXT, ENUM and VARCHAR columns), made by
 * pier_migrate and filled once into a template. The declaration V2 takes
 * it through twelve steps in one migration: set_not_null (its proof reads
 * every row), rename_column, widen_enum, drop_not_null, two add_column
 * (one a DATE, whose value check SQLite verifies against every row), a
 * create_table, create_board and create_view, and three create_index
 * (one unique) that read every row; about 0.7 s under ASan.
 *
 * First the migration runs whole, three times, each on a copy of the
 * template: how long it takes (T, the longest), when it holds the write
 * lock, the schema it leaves (pier_schema_dump) and what its rows read.
 * Then each trial copies the template, starts `pier --data DIR migrate
 * V2` (PIER_BINARY) and sends it SIGKILL after a random delay of 0 to
 * 1.1 T, or, one trial in ten, of 0 to twice the time the migration took
 * to take the lock (seeded: PIER_SEED overrides). Just before the kill it
 * reads /proc/locks for the lock SQLite's WAL writer holds (byte 120 of
 * lake.sqlite-shm), which the migration holds from its BEGIN IMMEDIATE,
 * before it plans, to its COMMIT: so each kill is known to have landed
 * before the migration began (opening the lake), in it, or after its
 * commit (the lake then has the new catalog). Then, on the lake the kill
 * left:
 * - PRAGMA integrity_check (with the dialect's functions) says ok, and
 *   pier_schema_check finds the schema Pier made;
 * - pier_plan of V2 is either exactly the plan made on the template (JSON,
 *   fingerprint included: the old catalog) or has no step (the new one);
 *   anything else fails as a half-applied migration;
 * - the rows read as before (counts and sums over every column);
 * - `pier migrate V2` run again exits 0 (with no step if the kill came
 *   after the commit), and the lake then has no step to take, the
 *   reference schema, the same rows, and the backfills.
 *
 * SOAK_MIGRATE_TRIALS sets the number of kills (default 200; `make test`
 * runs 15, `make soak` SOAK_MIGRATE_TRIALS); SOAK_VERBOSE=1 prints where
 * each one landed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pier.h"
#include "support/crashkit.h"
#include "support/lakedir.h"

#define PARENTS 1000
#define ITEMS 200000
#define CALIBRATIONS 3
/* Kills land uniformly over this share of the longest whole migration
 * (in per mille): a tenth beyond it, so that some land after the end. */
#define SPAN_PERMILLE 1100
/* How often the calibration runs look for the write lock. */
#define POLL_US 1000

static const char V1[] =
    "CREATE TABLE parents (id INT64 PRIMARY KEY, name TEXT NOT NULL);\n"
    "CREATE TABLE items (\n"
    "  id     INT64 PRIMARY KEY,\n"
    "  parent INT64 REFERENCES parents(id),\n"
    "  qty    INT64,\n"
    "  amount DECIMAL(12,2) NOT NULL,\n"
    "  label  TEXT,\n"
    "  kind   ENUM('a', 'b') NOT NULL,\n"
    "  note   VARCHAR(40) NOT NULL,\n"
    "  CONSTRAINT positive_amount CHECK (amount >= 0)\n"
    ");\n";

static const char V2[] =
    "CREATE TABLE parents (id INT64 PRIMARY KEY, name TEXT NOT NULL);\n"
    "CREATE TABLE items (\n"
    "  id     INT64 PRIMARY KEY,\n"
    "  parent INT64 REFERENCES parents(id),\n"
    "  qty    INT64 NOT NULL,\n"
    "  amount DECIMAL(12,2) NOT NULL,\n"
    "  title  TEXT RENAMED FROM label,\n"
    "  kind   ENUM('a', 'b', 'c') NOT NULL,\n"
    "  note   VARCHAR(40),\n"
    "  score  INT64 NOT NULL BACKFILL 0,\n"
    "  due    DATE NOT NULL BACKFILL '2026-01-01',\n"
    "  CONSTRAINT positive_amount CHECK (amount >= 0)\n"
    ");\n"
    "CREATE INDEX items_parent ON items (parent);\n"
    "CREATE INDEX items_kind_amount ON items (kind, amount);\n"
    "CREATE UNIQUE INDEX items_title ON items (title);\n"
    "CREATE VIEW big_items (id INT64, amount DECIMAL(12,2), title TEXT) AS\n"
    "  SELECT id, amount, title FROM items WHERE amount > 500;\n"
    "CREATE TABLE audit (id INT64 PRIMARY KEY, item INT64 REFERENCES "
    "items(id),\n"
    "  at INSTANT NOT NULL);\n"
    "CREATE BOARD events (kind text, n bigint) STRICT;\n";

#define V2_STEPS 12

/* What the rows read: every column of items but the renamed one, which
 * each catalog names its own way. */
#define SUMS(label)                                                       \
    "SELECT (SELECT count(*) FROM parents), count(*), sum(id), "          \
    "sum(parent), sum(qty), sum(amount), sum(length(" label ")), "        \
    "count(" label "), sum(kind = 'a'), sum(length(note)) FROM items"
static const char SUMS_OLD[] = SUMS("label");
static const char SUMS_NEW[] = SUMS("title");
static const char BACKFILLED[] =
    "SELECT count(*) FROM items WHERE score = 0 AND due = '2026-01-01'";

typedef struct soak {
    const char *pier;          /* the pier binary */
    char *dir;                 /* scratch: template/, trial/, the files */
    char *template_dir, *trial_dir, *decl, *out, *err;
    char *trial_lake, *trial_wal, *trial_shm;
    char *old_plan;            /* pier_plan of V2 on the template, JSON */
    char *old_sums, *new_sums; /* what the rows read, before and after */
    char *new_dump;            /* the schema after a whole migration */
    double longest_s;          /* the longest whole migration */
    double lock_from_s, lock_to_s; /* when the first held the lock */
    /* Where the kills landed: */
    int before;                /* before the migration's transaction */
    int mid;                   /* in it (the lake's old catalog after) */
    int mid_wal;               /* ... with pages of it in the log */
    int after;                 /* after its commit record was written
                                  (the new catalog) */
    int finished;              /* ... the process had even exited */
} soak;

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

static pier_engine *open_lake(const char *dir)
{
    pier_engine *e = NULL;
    pier_error err;
    if (pier_open(&e, dir, NULL, &err) != PIER_OK)
        fail_msg("the lake in %s does not open: %s: %s", dir, err.tag,
                 err.message);
    return e;
}

/* The first row of `sql`'s result, its values joined by '|'. */
static char *row_text(pier_engine *e, const char *sql)
{
    pier_cursor *c = NULL;
    pier_error err;
    const pier_row *r = NULL;
    if (pier_exec(&c, e, sql, NULL, &err) != PIER_OK)
        fail_msg("%s: %s: %s", sql, err.tag, err.message);
    assert_int_equal(pier_cursor_next(&r, c, &err), PIER_OK);
    assert_non_null(r);
    size_t cap = 1024, len = 0;
    char *out = malloc(cap);
    assert_non_null(out);
    out[0] = '\0';
    for (size_t i = 0; i < pier_cursor_column_count(c); i++) {
        const char *t = pier_row_value(r, i)->text;
        len += (size_t)snprintf(out + len, cap - len, "%s%s",
                                i > 0 ? "|" : "", t != NULL ? t : "NULL");
        assert_true(len < cap);
    }
    pier_cursor_close(c);
    return out;
}

/* The plan of V2 on the lake e, as JSON; *steps its number of steps. */
static char *plan_json(pier_engine *e, size_t *steps)
{
    pier_migration *m = NULL;
    pier_error err;
    if (pier_plan(&m, e, V2, strlen(V2), NULL, &err) != PIER_OK)
        fail_msg("pier_plan: %s: %s", err.tag, err.message);
    *steps = pier_migration_steps(m);
    char *j = pier_migration_to_json(m);
    assert_non_null(j);
    char *copy = strdup(j);
    assert_non_null(copy);
    pier_free(j);
    pier_migration_free(m);
    return copy;
}

static char *schema_dump(pier_engine *e)
{
    char *d = NULL;
    pier_error err;
    if (pier_schema_dump(&d, e, &err) != PIER_OK)
        fail_msg("pier_schema_dump: %s: %s", err.tag, err.message);
    char *copy = strdup(d);
    assert_non_null(copy);
    pier_free(d);
    return copy;
}

/* Replaces the trial's lake with a copy of the template's file (closed,
 * so the file is all of it). */
static void copy_template(soak *s)
{
    assert_int_equal(lakedir_remove_tree(s->trial_dir), 0);
    assert_int_equal(mkdir(s->trial_dir, 0755), 0);
    char *from = lakedir_join(s->template_dir, "lake.sqlite");
    size_t n = 0;
    char *bytes = lakedir_read_file(from, &n);
    assert_non_null(bytes);
    assert_int_equal(lakedir_write_file(s->trial_lake, bytes, n), 0);
    free(bytes);
    free(from);
}

/* Starts `pier --data TRIAL migrate V2`, its output in s->out, s->err. */
static pid_t spawn_migrate(const soak *s)
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int o = open(s->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(s->err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
            _exit(126);
        close(o);
        close(e);
        execl(s->pier, "pier", "--data", s->trial_dir, "migrate", s->decl,
              (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* Whether process `pid` holds SQLite's WAL write lock on the trial lake:
 * an exclusive POSIX lock on byte 120 of lake.sqlite-shm (the unix VFS's
 * UNIX_SHM_BASE + WAL_WRITE_LOCK), which a connection holds from BEGIN
 * IMMEDIATE to the end of its transaction, and at no other time. */
static bool holds_write_lock(const soak *s, pid_t pid)
{
    struct stat st;
    if (stat(s->trial_shm, &st) != 0)
        return false;
    FILE *f = fopen("/proc/locks", "r");
    assert_non_null(f);
    char line[256];
    bool held = false;
    while (!held && fgets(line, sizeof line, f) != NULL) {
        char kind[16], type[16], start[32], end[32];
        long lpid = 0;
        unsigned long long ino = 0;
        if (strstr(line, "->") != NULL)          /* a waiter */
            continue;
        held = sscanf(line, "%*d: %15s %*s %15s %ld %*x:%*x:%llu %31s %31s",
                      kind, type, &lpid, &ino, start, end) == 6 &&
               strcmp(kind, "POSIX") == 0 && strcmp(type, "WRITE") == 0 &&
               lpid == (long)pid && ino == (unsigned long long)st.st_ino &&
               strcmp(start, "120") == 0 && strcmp(end, "120") == 0;
    }
    fclose(f);
    return held;
}

static int64_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (int64_t)st.st_size : -1;
}

/* Waits for pid; fails unless it exited 0. */
static void reap_ok(const soak *s, pid_t pid, const char *what)
{
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char *err = lakedir_read_file(s->err, NULL);
        fail_msg("%s: pier migrate ended with status %d: %s", what, status,
                 err != NULL ? err : "");
    }
}

/* The lake after a whole migration: no step left, the reference schema,
 * the same rows, the backfills; integrity_check too when `deep`. */
static void check_migrated(const soak *s, const char *what, bool deep)
{
    if (deep) {
        char *ok = ck_integrity_check(s->trial_lake);
        if (ok == NULL || strcmp(ok, "ok\n") != 0)
            fail_msg("%s: integrity_check: %s", what, ok ? ok : "failed");
        free(ok);
    }
    pier_engine *e = open_lake(s->trial_dir);
    size_t steps = 0;
    char *plan = plan_json(e, &steps);
    if (steps != 0)
        fail_msg("%s: the migration left steps: %s", what, plan);
    char *dump = schema_dump(e);
    if (strcmp(dump, s->new_dump) != 0)
        fail_msg("%s: the schema is\n%s\nnot\n%s", what, dump, s->new_dump);
    char *sums = row_text(e, SUMS_NEW);
    if (strcmp(sums, s->new_sums) != 0)
        fail_msg("%s: the rows read %s, not %s", what, sums, s->new_sums);
    char *bf = row_text(e, BACKFILLED);
    if (atol(bf) != ITEMS)
        fail_msg("%s: %s rows read the backfills, not %d", what, bf, ITEMS);
    free(bf);
    free(sums);
    free(dump);
    free(plan);
    pier_close(&e);
}

/* ------------------------------------------------------------------ */
/* Setting up                                                           */

static void make_template(soak *s)
{
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.limits.time_ms = PIER_LIMIT_NONE;
    pier_engine *e = NULL;
    pier_error err;
    assert_int_equal(pier_open(&e, s->template_dir, &o, &err), PIER_OK);
    if (pier_migrate(NULL, e, V1, strlen(V1), NULL, NULL, &err) != PIER_OK)
        fail_msg("migrating to V1: %s: %s", err.tag, err.message);
    char sql[1024];
    snprintf(sql, sizeof sql,
             "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k "
             "WHERE i < %d) INSERT INTO parents SELECT i, 'parent ' || i "
             "FROM k; "
             "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k "
             "WHERE i < %d) INSERT INTO items SELECT i, 1 + i %% %d, i %% 50,"
             " printf('%%d.%%02d', i %% 1000, i %% 100), 'label ' || i, "
             "CASE i %% 2 WHEN 0 THEN 'a' ELSE 'b' END, 'note ' || (i %% 97)"
             " FROM k", PARENTS, ITEMS, PARENTS);
    if (pier_exec(NULL, e, sql, NULL, &err) != PIER_OK)
        fail_msg("filling: %s: %s", err.tag, err.message);
    size_t steps = 0;
    s->old_plan = plan_json(e, &steps);
    assert_int_equal(steps, V2_STEPS);
    s->old_sums = row_text(e, SUMS_OLD);
    pier_close(&e);               /* checkpoints: the file is the lake */
    char *wal = lakedir_join(s->template_dir, "lake.sqlite-wal");
    assert_false(lakedir_exists(wal));
    free(wal);
}

/* Runs the whole migration CALIBRATIONS times; the first one is watched
 * for the write lock, and leaves the reference schema and rows. */
static void calibrate(soak *s)
{
    for (int k = 0; k < CALIBRATIONS; k++) {
        copy_template(s);
        double t0 = ck_now_s();
        pid_t pid = spawn_migrate(s);
        if (k == 0) {
            int status = 0;
            while (waitpid(pid, &status, WNOHANG) == 0) {
                double t = ck_now_s() - t0;
                if (holds_write_lock(s, pid)) {
                    if (s->lock_from_s == 0)
                        s->lock_from_s = t;
                    s->lock_to_s = t;
                }
                ck_sleep_us(POLL_US);
            }
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                fail_msg("the whole migration ended with status %d",
                         status);
            if (s->lock_from_s == 0)
                fail_msg("the migration was never seen holding the write "
                         "lock (is /proc/locks readable?)");
        } else {
            reap_ok(s, pid, "a whole migration");
        }
        double took = ck_now_s() - t0;
        if (took > s->longest_s)
            s->longest_s = took;
        if (k == 0) {
            pier_engine *e = open_lake(s->trial_dir);
            s->new_dump = schema_dump(e);
            s->new_sums = row_text(e, SUMS_NEW);
            pier_close(&e);
        }
        check_migrated(s, "a whole migration", k == 0);
    }
}

/* ------------------------------------------------------------------ */
/* The trials                                                           */

static void trial(soak *s, int n, uint64_t *rng)
{
    char what[64];
    snprintf(what, sizeof what, "trial %d", n);
    copy_template(s);
    /* One kill in ten aims at the opening of the lake, before the
     * migration's transaction: it is a few per cent of the run. */
    double span_s = ck_rand(rng) % 10 == 0
                        ? 2 * s->lock_from_s
                        : s->longest_s * SPAN_PERMILLE / 1000;
    long delay_us = (long)(ck_rand(rng) % (uint64_t)(span_s * 1e6 + 1));
    pid_t pid = spawn_migrate(s);
    ck_sleep_us(delay_us);
    bool held = holds_write_lock(s, pid);
    kill(pid, SIGKILL);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    bool exited = WIFEXITED(status);
    if (exited && WEXITSTATUS(status) != 0) {
        char *err = lakedir_read_file(s->err, NULL);
        fail_msg("%s: pier migrate failed before the kill: %s", what,
                 err != NULL ? err : "");
    }
    if (!exited && (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL))
        fail_msg("%s: pier migrate ended with status %d", what, status);
    int64_t wal = file_size(s->trial_wal);

    /* The lake the kill left. */
    char *ok = ck_integrity_check(s->trial_lake);
    if (ok == NULL || strcmp(ok, "ok\n") != 0)
        fail_msg("%s: integrity_check after the kill: %s", what,
                 ok ? ok : "failed");
    free(ok);
    pier_engine *e = open_lake(s->trial_dir);
    pier_error err;
    if (pier_schema_check(e, &err) != PIER_OK)
        fail_msg("%s: %s: %s", what, err.tag, err.message);
    size_t steps = 0;
    char *plan = plan_json(e, &steps);
    bool migrated = steps == 0;
    if (!migrated && strcmp(plan, s->old_plan) != 0)
        fail_msg("%s: killed after %ld us, the lake is neither before nor "
                 "after the migration: its plan is\n%s\nnot\n%s", what,
                 delay_us, plan, s->old_plan);
    char *sums = row_text(e, migrated ? SUMS_NEW : SUMS_OLD);
    const char *want = migrated ? s->new_sums : s->old_sums;
    if (strcmp(sums, want) != 0)
        fail_msg("%s: the rows read %s, not %s", what, sums, want);
    free(sums);
    free(plan);
    pier_close(&e);

    if (migrated) {
        s->after++;
        s->finished += exited;
    } else if (held) {
        s->mid++;
        s->mid_wal += wal > 0;
    } else {
        s->before++;
    }
    if (getenv("SOAK_VERBOSE") != NULL)
        print_message("%s: kill at %ld us: lock %s, wal %lld, %s%s\n",
                      what, delay_us, held ? "held" : "free",
                      (long long)wal, migrated ? "new" : "old",
                      exited ? " (exited)" : "");
    if (exited && !migrated)
        fail_msg("%s: pier migrate exited 0 but the lake is not migrated",
                 what);

    /* Run again: it completes, or finds nothing left to do. */
    pid = spawn_migrate(s);
    reap_ok(s, pid, what);
    char *out = lakedir_read_file(s->out, NULL);
    assert_non_null(out);
    bool none = strstr(out, "-- no steps") != NULL;
    if (none != migrated)
        fail_msg("%s: the lake was %smigrated, and the second run said\n%s",
                 what, migrated ? "" : "not ", out);
    free(out);
    check_migrated(s, what, false);
}

static void migrate_kills(void **state)
{
    (void)state;
    soak s;
    memset(&s, 0, sizeof s);
    s.pier = getenv("PIER_BINARY");
    if (s.pier == NULL || *s.pier == '\0')
        fail_msg("PIER_BINARY must name the pier binary");
    uint64_t seed = ck_seed(20261201);
    uint64_t rng = seed * 2 + 1;
    long trials = ck_env_long("SOAK_MIGRATE_TRIALS", 200);
    double started = ck_now_s();

    s.dir = lakedir_make();
    assert_non_null(s.dir);
    s.template_dir = lakedir_join(s.dir, "template");
    s.trial_dir = lakedir_join(s.dir, "trial");
    s.decl = lakedir_join(s.dir, "v2.sql");
    s.out = lakedir_join(s.dir, "migrate.out");
    s.err = lakedir_join(s.dir, "migrate.err");
    s.trial_lake = lakedir_join(s.trial_dir, "lake.sqlite");
    s.trial_wal = lakedir_join(s.trial_dir, "lake.sqlite-wal");
    s.trial_shm = lakedir_join(s.trial_dir, "lake.sqlite-shm");
    assert_int_equal(lakedir_write_file(s.decl, V2, strlen(V2)), 0);

    make_template(&s);
    calibrate(&s);
    print_message("soak_migrate: a whole migration of %d steps over %d "
                  "rows takes up to %.0f ms; the first held the write lock "
                  "from %.0f to %.0f ms\n", V2_STEPS, ITEMS,
                  s.longest_s * 1e3, s.lock_from_s * 1e3,
                  s.lock_to_s * 1e3);
    for (long n = 0; n < trials; n++)
        trial(&s, (int)n, &rng);

    print_message("soak_migrate: %ld kills: %d before the migration began, "
                  "%d during it (%d with its pages in the log), %d after "
                  "its commit (%d after the process ended); every lake "
                  "was at the old catalog or the new, with its rows, and "
                  "the migration run again completed it; %.1f s\n", trials,
                  s.before, s.mid, s.mid_wal, s.after, s.finished,
                  ck_now_s() - started);
    assert_int_equal(s.before + s.mid + s.after, trials);

    lakedir_remove_tree(s.dir);
    free(s.dir);
    free(s.template_dir);
    free(s.trial_dir);
    free(s.decl);
    free(s.out);
    free(s.err);
    free(s.trial_lake);
    free(s.trial_wal);
    free(s.trial_shm);
    free(s.old_plan);
    free(s.old_sums);
    free(s.new_sums);
    free(s.new_dump);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(migrate_kills),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
