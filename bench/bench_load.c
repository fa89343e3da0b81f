/*
 * bench_load.c: loading a file through the pier command, against the
 * sqlite3 shell's .import of the same rows.
 *
 * The rows (100,000; --quick: 10,000) are written once, before any clock
 * starts, as JSON lines and as CSV with a header: an id, a text, an
 * integer, a real and a boolean each. Each run then times three
 * processes, as a user would start them, each into a fresh directory:
 *   sqlite3  `sqlite3 DB` reading ".mode csv" and ".import rows.csv t"
 *            from stdin: a new table of TEXT columns, one transaction;
 *   json     `pier --data DIR insert b -` with rows.jsonl on stdin;
 *   csv      `pier --data DIR insert b --csv rows.csv`.
 * Pier's loads commit every 1,000 rows (CLI_STDIN_BATCH_ROWS) with the
 * lake's default durability, infer the board's columns and types, and
 * stamp each row; .import makes one untyped table in one transaction. The
 * order of the three rotates from run to run, so that drift on a shared
 * machine hits each alike. Figures are medians; the ratios are sqlite3's
 * time over Pier's (1.0: as fast; 0.5: Pier takes twice as long).
 *
 * The pier binary is the one beside this program (--pier PATH to choose
 * another); sqlite3 is found on PATH (--sqlite3 PATH). The exit status is
 * 0 unless something failed (1) or the command line is wrong (2).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#define PROG "bench_load"
#define MAX_RUNS 20
#define ROWS 100000

extern char **environ;

enum { M_SQLITE3, M_JSON, M_CSV, NMEASURES };
static const char *const names[NMEASURES] = { "sqlite3", "json", "csv" };

typedef struct bench_config {
    unsigned only;              /* (no --only: every measurement runs) */
    const char *pier;           /* --pier PATH */
    const char *sqlite3;        /* --sqlite3 PATH */
    char pier_buf[PATH_MAX];
    bench_args a;
} bench_config;

static void usage(FILE *out)
{
    fprintf(out,
        "Usage: " PROG " [--quick] [--json] [--runs N] [--dir DIR]\n"
        "                  [--pier PATH] [--sqlite3 PATH]\n"
        "\n"
        "Loads %d rows (--quick: a tenth) through `pier insert` as JSON\n"
        "lines and as CSV, and through the sqlite3 shell's .import of the\n"
        "same CSV, each a process into a fresh directory; prints the\n"
        "medians of --runs runs (3) and sqlite3's time over Pier's.\n",
        ROWS);
}

static int path_option(void *payload, int argc, char **argv, int i)
{
    bench_config *cfg = payload;
    bool pier = strcmp(argv[i], "--pier") == 0;
    if (!pier && strcmp(argv[i], "--sqlite3") != 0)
        return 0;
    if (i + 1 >= argc) {
        fprintf(stderr, PROG ": %s needs a path\n", argv[i]);
        return -1;
    }
    if (pier)
        cfg->pier = argv[i + 1];
    else
        cfg->sqlite3 = argv[i + 1];
    return 2;
}

/* DIR/NAME into out; a path too long for it ends the program. */
static void path_join(char *out, size_t cap, const char *dir,
                      const char *name)
{
    int n = snprintf(out, cap, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= cap) {
        fprintf(stderr, PROG ": path too long: %s/%s\n", dir, name);
        exit(1);
    }
}

/* Runs argv with stdin from `in` (NULL: /dev/null) and stdout and stderr
 * to `out_path`. @return the seconds it took, or -1 if it failed. */
static double run(char *const argv[], const char *in, const char *out_path)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, in ? in : "/dev/null",
                                     O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out_path,
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    double t0 = now_s();
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        fprintf(stderr, PROG ": cannot start %s: %s\n", argv[0],
                strerror(rc));
        return -1;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    double t = now_s() - t0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, PROG ": %s failed (see %s)\n", argv[0], out_path);
        return -1;
    }
    return t;
}

/* Writes the rows as JSON lines and as CSV. @return 0, or -1. */
static int write_inputs(const char *dir, long rows)
{
    char path[PATH_MAX];
    path_join(path, sizeof path, dir, "rows.jsonl");
    FILE *j = fopen(path, "w");
    path_join(path, sizeof path, dir, "rows.csv");
    FILE *c = fopen(path, "w");
    path_join(path, sizeof path, dir, "import.sql");
    FILE *s = fopen(path, "w");
    if (j == NULL || c == NULL || s == NULL) {
        fprintf(stderr, PROG ": cannot write the inputs in %s\n", dir);
        if (j) fclose(j);
        if (c) fclose(c);
        if (s) fclose(s);
        return -1;
    }
    fputs("id,name,n,score,active\r\n", c);
    for (long i = 1; i <= rows; i++) {
        double score = (double)(i % 1000) / 8.0;
        const char *active = i % 3 == 0 ? "true" : "false";
        fprintf(j, "{\"id\":\"r%07ld\",\"name\":\"user %ld\",\"n\":%ld,"
                "\"score\":%.3f,\"active\":%s}\n", i, i, i * 7, score,
                active);
        fprintf(c, "r%07ld,user %ld,%ld,%.3f,%s\r\n", i, i, i * 7, score,
                active);
    }
    fprintf(s, ".mode csv\n.import %s/rows.csv t\n", dir);
    int rc = ferror(j) || ferror(c) || ferror(s) ? -1 : 0;
    rc |= fclose(j) | fclose(c) | fclose(s);
    return rc == 0 ? 0 : -1;
}

/* One measurement in a fresh directory under `dir`. @return seconds. */
static double measure(const bench_config *cfg, const char *dir, int which)
{
    char sub[PATH_MAX], in[PATH_MAX], out[PATH_MAX], db[PATH_MAX + 16];
    if (bench_tmpdir_make(PROG, dir, names[which], sub, sizeof sub) != 0)
        return -1;
    path_join(out, sizeof out, dir, "out.txt");
    double t = -1;
    if (which == M_SQLITE3) {
        path_join(db, sizeof db, sub, "db.sqlite");
        path_join(in, sizeof in, dir, "import.sql");
        char *argv[] = { (char *)cfg->sqlite3, db, NULL };
        t = run(argv, in, out);
    } else if (which == M_JSON) {
        path_join(in, sizeof in, dir, "rows.jsonl");
        char *argv[] = { (char *)cfg->pier, "--data", sub, "insert", "b",
                         "-", NULL };
        t = run(argv, in, out);
    } else {
        path_join(in, sizeof in, dir, "rows.csv");
        char *argv[] = { (char *)cfg->pier, "--data", sub, "insert", "b",
                         "--csv", in, NULL };
        t = run(argv, NULL, out);
    }
    if (bench_tmpdir_remove(PROG, sub) != 0)
        return -1;
    return t;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    static bench_config cfg;
    cfg.sqlite3 = "sqlite3";
    cfg.a = (bench_args){ .prog = PROG, .usage = usage,
                          .max_runs = MAX_RUNS, .takes_json = true,
                          .cfg = &cfg, .extra = path_option };
    int rc = bench_parse_args(&cfg.a, argc, argv);
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    if (cfg.pier == NULL) {   /* the pier beside this program */
        ssize_t n = readlink("/proc/self/exe", cfg.pier_buf,
                             sizeof cfg.pier_buf - 8);
        if (n <= 0) {
            fprintf(stderr, PROG ": cannot find myself: use --pier\n");
            return 2;
        }
        cfg.pier_buf[n] = '\0';
        char *slash = strrchr(cfg.pier_buf, '/');
        strcpy(slash != NULL ? slash + 1 : cfg.pier_buf, "pier");
        cfg.pier = cfg.pier_buf;
    }
    long rows = cfg.a.quick ? ROWS / 10 : ROWS;
    int runs = cfg.a.runs > 0 ? cfg.a.runs : 3;
    const char *parent = cfg.a.parent;
    char dir[PATH_MAX];
    if (bench_tmpdir_make(PROG, parent, "inputs", dir, sizeof dir) != 0)
        return 1;
    static double t[NMEASURES][MAX_RUNS];
    rc = write_inputs(dir, rows);
    for (int r = 0; rc == 0 && r < runs; r++) {
        for (int k = 0; rc == 0 && k < NMEASURES; k++) {
            int which = (k + r) % NMEASURES;
            t[which][r] = measure(&cfg, dir, which);
            if (t[which][r] < 0)
                rc = -1;
        }
    }
    char out[PATH_MAX];
    path_join(out, sizeof out, dir, "out.txt");
    unlink(out);
    char path[PATH_MAX];
    static const char *const inputs[] = { "rows.jsonl", "rows.csv",
                                          "import.sql" };
    for (int i = 0; i < 3; i++) {
        path_join(path, sizeof path, dir, inputs[i]);
        unlink(path);
    }
    if (bench_tmpdir_remove(PROG, dir) != 0 || rc != 0)
        return 1;
    double m[NMEASURES];
    for (int k = 0; k < NMEASURES; k++)
        m[k] = median(t[k], runs);
    struct utsname un;
    if (uname(&un) != 0)
        strcpy(un.machine, "unknown");
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    char date[64];
    utc_date(date, sizeof date);
    if (cfg.a.json) {
        printf("{\"bench\":\"load\",\"date\":\"%s\",\"machine\":\"%s\","
               "\"cores\":%ld,\"rows\":%ld,\"runs\":%d,"
               "\"sqlite3_import_s\":%.4f,\"pier_json_s\":%.4f,"
               "\"pier_csv_s\":%.4f,\"ratio_json\":%.3f,"
               "\"ratio_csv\":%.3f}\n", date, un.machine, cores, rows, runs,
               m[M_SQLITE3], m[M_JSON], m[M_CSV], m[M_SQLITE3] / m[M_JSON],
               m[M_SQLITE3] / m[M_CSV]);
        return 0;
    }
    printf(PROG ": %ld rows, median of %d runs (%s, %s, %ld cores)\n",
           rows, runs, date, un.machine, cores);
    printf("  %-34s %9s %12s %14s\n", "", "seconds", "rows/s",
           "sqlite3/pier");
    printf("  %-34s %9.3f %12.0f %14s\n", "sqlite3 .import (CSV)",
           m[M_SQLITE3], (double)rows / m[M_SQLITE3], "");
    printf("  %-34s %9.3f %12.0f %14.2f\n", "pier insert - (JSON lines)",
           m[M_JSON], (double)rows / m[M_JSON], m[M_SQLITE3] / m[M_JSON]);
    printf("  %-34s %9.3f %12.0f %14.2f\n", "pier insert --csv (CSV)",
           m[M_CSV], (double)rows / m[M_CSV], m[M_SQLITE3] / m[M_CSV]);
    return 0;
}
