/*
 * test_vfile.c: versioned migration files: the pure reading of a file's
 * name and text (src/versioned/parse.c: names, sections, markers,
 * checksums, versions to and from time), then the C API on a lake
 * (pier_migration_file_create, pier_migration_files_up, _down, _status):
 * each version with its record in one transaction, a failing version
 * leaving nothing, irreversible versions refused, modified and missing
 * files reported, and a format 4 lake upgraded to keep the record. The
 * golden transcript migration_files.t covers the same ground through the
 * CLI.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pier.h"
#include "support/engine_fixture.h"
#include "support/lakedir.h"
#include "versioned/vfile.h"

/* ---- names ---- */

static void test_names(void **state)
{
    (void)state;
    char version[PIER__VFILE_VERSION_DIGITS + 1];
    const char *name = NULL, *why = NULL;
    size_t n = 0;
    assert_int_equal(pier__vfile_name("20261201193000_create_tasks.sql",
                                      version, &name, &n, &why),
                     PIER__VFILE_MIGRATION);
    assert_string_equal(version, "20261201193000");
    assert_int_equal(n, 12);
    assert_memory_equal(name, "create_tasks", 12);
    assert_int_equal(pier__vfile_name("00010101000000_a1.sql", version,
                                      &name, &n, &why),
                     PIER__VFILE_MIGRATION);
    assert_string_equal(version, "00010101000000");
    /* Not ours: other extensions, hidden files, too short to be .sql. */
    static const char *const ignored[] = {
        "README.md", ".gitkeep", ".20261201193000_x.sql", "sql",
        "20261201193000_x.sql~", "20261201193000_x.sql.bak", "",
    };
    for (size_t i = 0; i < sizeof ignored / sizeof *ignored; i++)
        assert_int_equal(pier__vfile_name(ignored[i], version, &name, &n,
                                          &why), PIER__VFILE_IGNORED);
    /* .sql, but not VERSION_NAME.sql: refused, saying why. */
    static const char *const bad[] = {
        "2026120119300_x.sql",      /* 13 digits */
        "202612011930001_x.sql",    /* 15 digits */
        "20261201193000.sql",       /* no name */
        "20261201193000_.sql",      /* an empty name */
        "20261201193000-x.sql",     /* not '_' */
        "20261201193000_Create.sql",/* upper case */
        "20261201193000_a-b.sql",   /* '-' */
        "20261201193000_a b.sql",   /* a space */
        "20261201193000_x.SQL",     /* the extension's case */
        "20261399999999_x.sql",     /* month 13 */
        "20260230000000_x.sql",     /* 30 February */
        "20261201240000_x.sql",     /* hour 24 */
        "00000000000001_x.sql",     /* year 0, month 0 */
        "create_tasks.sql",
        ".sql",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        why = NULL;
        pier__vfile_kind k = pier__vfile_name(bad[i], version, &name, &n,
                                              &why);
        if (strcmp(bad[i], ".sql") == 0) {
            assert_int_equal(k, PIER__VFILE_IGNORED);   /* hidden */
            continue;
        }
        assert_int_equal(k, PIER__VFILE_BAD);
        assert_non_null(why);
    }
    /* A NAME of 100 bytes is the longest. */
    char longest[160];
    memset(longest, 'a', sizeof longest);
    memcpy(longest, "20261201193000_", 15);
    memcpy(longest + 115, ".sql", 5);
    assert_int_equal(pier__vfile_name(longest, version, &name, &n, &why),
                     PIER__VFILE_MIGRATION);
    assert_int_equal(n, 100);
    memcpy(longest + 115, "a.sql", 6);
    assert_int_equal(pier__vfile_name(longest, version, &name, &n, &why),
                     PIER__VFILE_BAD);
}

static void test_name_clean(void **state)
{
    (void)state;
    char out[PIER__VFILE_NAME_MAX + 1];
    static const struct {
        const char *in, *out;
    } ok[] = {
        { "create_tasks", "create_tasks" },
        { "Create Tasks", "create_tasks" },
        { "add-index-2", "add_index_2" },
        { "  __Hello  World--2 __ ", "hello_world_2" },
        { "X", "x" },
        { "007", "007" },
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        assert_null(pier__vfile_name_clean(ok[i].in, out, sizeof out));
        assert_string_equal(out, ok[i].out);
    }
    static const char *const refused[] = {
        "", "   ", "_-_", "a/b", "a.b", "tâche", "a\tb", "x!", "'x'",
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
        assert_non_null(pier__vfile_name_clean(refused[i], out, sizeof out));
    char big[102];
    memset(big, 'a', 101);
    big[101] = '\0';
    assert_non_null(pier__vfile_name_clean(big, out, sizeof out));
    big[100] = '\0';
    assert_null(pier__vfile_name_clean(big, out, sizeof out));
    assert_int_equal(strlen(out), 100);
}

/* ---- sections ---- */

/* Splits `text`, which must parse. */
static pier__vsections split(const char *text)
{
    pier__vsections s;
    size_t at = 0;
    const char *why = pier__vfile_sections(text, strlen(text), &s, &at);
    if (why != NULL)
        fail_msg("%s: %s", text, why);
    return s;
}

static void assert_section(const char *text, size_t at, size_t len,
                           const char *want)
{
    assert_int_equal(len, strlen(want));
    assert_memory_equal(text + at, want, len);
}

static void test_sections(void **state)
{
    (void)state;
    const char *t = "-- migrate:up\nCREATE TABLE t (a INT64);\n"
                    "-- migrate:down\nDROP TABLE t;\n";
    pier__vsections s = split(t);
    assert_section(t, s.up, s.up_len, "CREATE TABLE t (a INT64);\n");
    assert_section(t, s.down, s.down_len, "DROP TABLE t;\n");
    assert_int_equal(s.up_line, 0);
    assert_true(s.has_down);
    assert_true(s.applies);
    assert_true(s.reversible);

    /* Comments before the up marker, blanks in markers, CRLF, a BOM. */
    t = "\xef\xbb\xbf-- a header\n/* and a block */\n\n"
        "--   migrate:up  \r\nSELECT 1;\r\n--migrate:down\t\r\n";
    s = split(t);
    assert_section(t, s.up, s.up_len, "SELECT 1;\r\n");
    assert_int_equal(s.down_len, 0);
    assert_true(s.has_down);
    assert_false(s.reversible);

    /* A BOM right before the up marker, on its line. */
    t = "\xef\xbb\xbf-- migrate:up\nSELECT 1;\n-- migrate:down\nSELECT 2;\n";
    s = split(t);
    assert_section(t, s.up, s.up_len, "SELECT 1;\n");
    assert_section(t, s.down, s.down_len, "SELECT 2;\n");
    assert_true(s.reversible);

    /* No down marker: irreversible; the up section runs to the end,
     * without a final newline too. */
    t = "-- migrate:up\nSELECT 1";
    s = split(t);
    assert_section(t, s.up, s.up_len, "SELECT 1");
    assert_false(s.has_down);
    assert_false(s.reversible);
    assert_int_equal(s.down, strlen(t));

    /* A down section of comments and semicolons holds no SQL; nor does
     * an up section of them, which parses (a template) but applies
     * nothing. */
    t = "-- migrate:up\n-- todo\n;\n-- migrate:down\n/* x */ ; -- y\n";
    s = split(t);
    assert_false(s.applies);
    assert_false(s.reversible);

    /* "-- migrate:up" in a string is not at the start of its line. */
    t = "-- migrate:up\nSELECT '-- migrate:down';\n";
    s = split(t);
    assert_false(s.has_down);
    assert_true(s.applies);
}

static void test_section_faults(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        size_t at;             /* (size_t)-1: nowhere */
        const char *says;
    } bad[] = {
        { "", (size_t)-1, "no '-- migrate:up' line" },
        { "SELECT 1;\n", (size_t)-1, "no '-- migrate:up' line" },
        { "-- migrate:UP\nSELECT 1;\n", 0, "unknown marker" },
        { "-- migrate: up\nSELECT 1;\n", 0, "unknown marker" },
        { "-- migrate:up transaction:false\nSELECT 1;\n", 0,
          "unknown marker" },
        { "-- migrate:up\nSELECT 1;\n-- migrate:dwon\n", 24,
          "unknown marker" },
        { "-- migrate:up\nSELECT 1;\n-- migrate:up\n", 24,
          "a second '-- migrate:up'" },
        { "-- migrate:up\nx;\n-- migrate:down\n-- migrate:down\n", 33,
          "a second '-- migrate:down'" },
        { "-- migrate:down\nx;\n-- migrate:up\ny;\n", 0,
          "comes before" },
        { "-- migrate:down\nx;\n", 0, "comes before" },
        { "CREATE TABLE t (a INT64);\n-- migrate:up\nSELECT 1;\n", 0,
          "SQL before" },
        { "-- c\n  ;x\n-- migrate:up\nSELECT 1;\n", 8, "SQL before" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        pier__vsections s;
        size_t at = 0;
        const char *why = pier__vfile_sections(bad[i].text,
                                               strlen(bad[i].text), &s, &at);
        if (why == NULL || strstr(why, bad[i].says) == NULL)
            fail_msg("%s: %s", bad[i].text, why != NULL ? why : "parsed");
        assert_int_equal(at, bad[i].at);
    }
    /* A NUL byte, where it is. */
    const char nul[] = "-- migrate:up\nSELECT 1;\0\n";
    pier__vsections s;
    size_t at = 0;
    assert_non_null(pier__vfile_sections(nul, sizeof nul - 1, &s, &at));
    assert_int_equal(at, 23);
}

static void test_has_sql(void **state)
{
    (void)state;
    assert_false(pier__vfile_has_sql("", 0));
    assert_false(pier__vfile_has_sql(" \n\t;;", 5));
    assert_false(pier__vfile_has_sql("-- x\n/* y */", 12));
    assert_false(pier__vfile_has_sql("/* open", 7));
    assert_true(pier__vfile_has_sql("x", 1));
    assert_true(pier__vfile_has_sql("; 'unterminated", 15));
}

/* ---- checksums and versions ---- */

static void test_checksum(void **state)
{
    (void)state;
    char a[17], b[17];
    pier__vfile_checksum("", 0, a);
    assert_string_equal(a, "cbf29ce484222325");   /* FNV-1a's basis */
    pier__vfile_checksum("a", 1, a);
    assert_string_equal(a, "af63dc4c8601ec8c");   /* FNV-1a 64 of "a" */
    pier__vfile_checksum("SELECT 1;\n", 10, a);
    pier__vfile_checksum("SELECT 1; \n", 11, b);
    assert_string_not_equal(a, b);
    assert_int_equal(strlen(a), 16);
}

static void test_versions(void **state)
{
    (void)state;
    char v[PIER__VFILE_VERSION_DIGITS + 1];
    assert_true(pier__vfile_version_of(0, v));
    assert_string_equal(v, "19700101000000");
    assert_true(pier__vfile_version_of(FIXTURE_NOW / 1000000, v));
    assert_string_equal(v, "20260301100000");
    assert_true(pier__vfile_version_of(-1, v));
    assert_string_equal(v, "19691231235959");
    int64_t s = 0;
    assert_true(pier__vfile_version_time("20260301100000", &s));
    assert_int_equal(s, FIXTURE_NOW / 1000000);
    assert_true(pier__vfile_version_time("20240229235959", &s));
    assert_true(pier__vfile_version_of(s + 1, v));
    assert_string_equal(v, "20240301000000");
    /* Digits that are no date and time. */
    static const char *const no[] = {
        "20230229000000", "20261301000000", "20261200000000",
        "20261231240000", "20261231236000", "20261231235960",
        "00000000000001", "2026123123595", "202612312359590",
        "2026123123595x",
    };
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        assert_false(pier__vfile_version_time(no[i], &s));
}

/* ---- the C API on a lake ---- */

typedef struct files_fixture {
    engine_fixture *ef;
    char *dir;                 /* the migration files' directory */
} files_fixture;

static int setup(void **state)
{
    files_fixture *f = calloc(1, sizeof *f);
    f->ef = fixture_open();
    f->dir = lakedir_join(f->ef->dir, "migrations");
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    files_fixture *f = *state;
    int rc = fixture_close(f->ef);   /* removes the directory, files too */
    free(f->dir);
    free(f);
    return rc;
}

static void put(files_fixture *f, const char *file, const char *text)
{
    char *p = lakedir_join(f->dir, file);
    assert_int_equal(lakedir_write_file(p, text, strlen(text)), 0);
    free(p);
}

static int64_t count(pier_engine *e, const char *sql)
{
    pier_cursor *c = NULL;
    pier_error err;
    if (pier_exec(&c, e, sql, NULL, &err) != PIER_OK)
        fail_msg("%s: %s: %s", sql, err.tag, err.message);
    const pier_row *row = NULL;
    assert_int_equal(pier_cursor_next(&row, c, &err), PIER_OK);
    int64_t n = pier_row_value(row, 0)->as.integer;
    pier_cursor_close(c);
    return n;
}

static bool has_table(pier_engine *e, const char *name)
{
    char **names = NULL;
    pier_error err;
    assert_int_equal(pier_table_list(&names, e, &err), PIER_OK);
    bool found = false;
    for (size_t i = 0; names[i] != NULL; i++)
        found = found || strcmp(names[i], name) == 0;
    pier_strings_free(names);
    return found;
}

static void test_create(void **state)
{
    files_fixture *f = *state;
    pier_error err;
    char *p = NULL;
    /* The directory is made; the second call in the same second takes
     * the next one; a clock behind the latest version still sorts last. */
    assert_int_equal(pier_migration_file_create(&p, f->dir, "Create Tasks",
                                                FIXTURE_NOW, &err), PIER_OK);
    assert_non_null(strstr(p, "/migrations/20260301100000_create_tasks.sql"));
    size_t n = 0;
    char *text = lakedir_read_file(p, &n);
    assert_non_null(text);
    pier__vsections s = split(text);
    assert_false(s.applies);
    assert_true(s.has_down);
    free(text);
    pier_free(p);
    assert_int_equal(pier_migration_file_create(&p, f->dir, "b", FIXTURE_NOW,
                                                &err), PIER_OK);
    assert_non_null(strstr(p, "/20260301100001_b.sql"));
    pier_free(p);
    assert_int_equal(pier_migration_file_create(&p, f->dir, "c",
                                                FIXTURE_NOW - 3600000000,
                                                &err), PIER_OK);
    assert_non_null(strstr(p, "/20260301100002_c.sql"));
    pier_free(p);
    /* Refusals change nothing. */
    p = (char *)1;
    assert_int_equal(pier_migration_file_create(&p, f->dir, "a/b",
                                                FIXTURE_NOW, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_null(p);
    assert_non_null(strstr(err.message, "'a/b'"));
    assert_int_equal(pier_migration_file_create(&p, f->dir, " ",
                                                FIXTURE_NOW, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_migration_file_create(NULL, f->dir, "x",
                                                FIXTURE_NOW, &err),
                     PIER_E_INVALID_ARGUMENT);
    put(f, "2026_bad.sql", "-- migrate:up\nSELECT 1;\n");
    assert_int_equal(pier_migration_file_create(&p, f->dir, "d",
                                                FIXTURE_NOW, &err),
                     PIER_E_INVALID_SCHEMA);
    assert_non_null(strstr(err.message, "2026_bad.sql"));
}

/* A process killed while `pier migrations new` writes the template
 * (here by the file size limit, as SIGXFSZ does at its first byte)
 * leaves no file of that version: the directory still reads, and the
 * next call takes the version. Before, it left an empty file that every
 * up, down and status refused until someone removed it. */
static void test_create_killed(void **state)
{
    files_fixture *f = *state;
    pier_error err;
    char *p = NULL;
    assert_int_equal(pier_migration_file_create(&p, f->dir, "first",
                                                FIXTURE_NOW, &err), PIER_OK);
    pier_free(p);
    put(f, "20260301100000_first.sql", "-- migrate:up\nCREATE TABLE t "
        "(a INT64);\n");
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit none = { 0, 0 };
        setrlimit(RLIMIT_CORE, &none);
        setrlimit(RLIMIT_FSIZE, &none);
        signal(SIGXFSZ, SIG_DFL);
        char *q = NULL;
        pier_migration_file_create(&q, f->dir, "second", FIXTURE_NOW, &err);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGXFSZ);
    pier_migration_files *l = NULL;
    if (pier_migration_files_status(&l, f->ef->e, f->dir, &err) != PIER_OK)
        fail_msg("status: %s: %s", err.tag, err.message);
    assert_int_equal(l->nfiles, 1);
    pier_migration_files_free(l);
    assert_int_equal(pier_migration_files_up(NULL, f->ef->e, f->dir, NULL,
                                             &err), PIER_OK);
    assert_int_equal(pier_migration_file_create(&p, f->dir, "second",
                                                FIXTURE_NOW, &err), PIER_OK);
    assert_non_null(strstr(p, "/20260301100001_second.sql"));
    pier_free(p);
}

static void test_up_down_status(void **state)
{
    files_fixture *f = *state;
    pier_engine *e = f->ef->e;
    pier_error err;
    pier_migration_files *l = NULL;
    assert_int_equal(pier_migration_files_status(&l, e, f->dir, &err),
                     PIER_E_READ_FAILED);          /* no directory yet */
    assert_null(l);
    char *p = NULL;
    assert_int_equal(pier_migration_file_create(&p, f->dir, "x", FIXTURE_NOW,
                                                &err), PIER_OK);
    pier_free(p);
    put(f, "20260301100000_x.sql",
        "-- migrate:up\nCREATE TABLE t (a INT64);\nINSERT INTO t VALUES "
        "(1);\n-- migrate:down\nDROP TABLE t;\n");
    put(f, "20260301100001_y.sql",
        "-- migrate:up\nCREATE BOARD ev (kind text);\n"
        "-- migrate:down\n");
    put(f, "notes.txt", "not a migration");
    int64_t wm = -1;
    assert_int_equal(pier_migration_files_up(&wm, e, f->dir, &l, &err),
                     PIER_OK);
    assert_int_equal(l->nfiles, 2);
    assert_string_equal(l->files[0].file, "20260301100000_x.sql");
    assert_string_equal(l->files[1].name, "y");
    assert_int_equal(l->files[1].state, PIER_MIGRATION_FILE_APPLIED);
    assert_int_equal(l->files[1].applied_at, FIXTURE_NOW);
    assert_true(wm > 0);                     /* the board's schema record */
    pier_migration_files_free(l);
    assert_int_equal(count(e, "SELECT count(*) FROM t"), 1);

    /* A second run applies nothing. */
    int64_t again = -1;
    assert_int_equal(pier_migration_files_up(&again, e, f->dir, &l, &err),
                     PIER_OK);
    assert_int_equal(l->nfiles, 0);
    assert_int_equal(again, wm);
    pier_migration_files_free(l);

    /* The latest is irreversible: refused, nothing changes. */
    assert_int_equal(pier_migration_files_down(NULL, e, f->dir, &l, &err),
                     PIER_E_MIGRATION_REFUSED);
    assert_non_null(strstr(err.message, "irreversible"));
    assert_int_equal(l->nfiles, 0);
    pier_migration_files_free(l);
    bool has = false;
    assert_int_equal(pier_board_has(&has, e, "ev", &err), PIER_OK);
    assert_true(has);

    /* Made reversible, it rolls back; then the one before it. */
    put(f, "20260301100001_y.sql",
        "-- migrate:up\nCREATE BOARD ev (kind text);\n"
        "-- migrate:down\n-- a comment first\nDROP TABLE nope;\n");
    assert_int_equal(pier_migration_files_status(&l, e, f->dir, &err),
                     PIER_OK);
    assert_int_equal(l->nfiles, 2);
    assert_int_equal(l->files[0].state, PIER_MIGRATION_FILE_APPLIED);
    assert_int_equal(l->files[1].state, PIER_MIGRATION_FILE_MODIFIED);
    assert_string_not_equal(l->files[1].checksum,
                            l->files[1].applied_checksum);
    assert_true(l->files[1].reversible);
    pier_migration_files_free(l);
    /* A failing down section changes nothing, and says where. */
    assert_int_equal(pier_migration_files_down(NULL, e, f->dir, &l, &err),
                     PIER_E_TABLE_NOT_FOUND);
    assert_non_null(strstr(err.message, "no table 'nope' (line 5, column "
                                        "12 of '"));
    assert_non_null(strstr(err.message, "20260301100001_y.sql')"));
    assert_int_equal(err.offset, 89);
    assert_int_equal(l->nfiles, 0);
    pier_migration_files_free(l);
    put(f, "20260301100001_y.sql",
        "-- migrate:up\nCREATE BOARD ev (kind text);\n"
        "-- migrate:down\nDELETE FROM t;\n");
    assert_int_equal(pier_migration_files_down(NULL, e, f->dir, &l, &err),
                     PIER_OK);
    assert_int_equal(l->nfiles, 1);
    assert_string_equal(l->files[0].version, "20260301100001");
    assert_int_equal(l->files[0].state, PIER_MIGRATION_FILE_PENDING);
    pier_migration_files_free(l);
    assert_int_equal(count(e, "SELECT count(*) FROM t"), 0);
    assert_int_equal(pier_migration_files_status(&l, e, f->dir, &err),
                     PIER_OK);
    assert_int_equal(l->files[1].state, PIER_MIGRATION_FILE_PENDING);
    assert_int_equal(l->files[1].applied_at, 0);
    pier_migration_files_free(l);

    assert_int_equal(pier_migration_files_down(NULL, e, f->dir, &l, &err),
                     PIER_OK);
    assert_int_equal(l->nfiles, 1);
    pier_migration_files_free(l);
    assert_false(has_table(e, "t"));
    assert_int_equal(pier_migration_files_up(NULL, e, f->dir, NULL, &err),
                     PIER_E_BOARD_EXISTS);        /* the board stayed */
    assert_true(has_table(e, "t"));               /* x applied again */

    /* A missing file: reported, and down refuses it. */
    char *gone = lakedir_join(f->dir, "20260301100000_x.sql");
    assert_int_equal(remove(gone), 0);
    free(gone);
    assert_int_equal(pier_migration_files_status(&l, e, f->dir, &err),
                     PIER_OK);
    assert_int_equal(l->nfiles, 2);
    assert_int_equal(l->files[0].state, PIER_MIGRATION_FILE_MISSING);
    assert_string_equal(l->files[0].file, "20260301100000_x.sql");
    assert_string_equal(l->files[0].checksum, "");
    assert_false(l->files[0].reversible);
    pier_migration_files_free(l);
    assert_int_equal(pier_migration_files_down(NULL, e, f->dir, NULL, &err),
                     PIER_E_MIGRATION_REFUSED);
    assert_non_null(strstr(err.message, "not in"));

    /* Nothing applied: down is a no-op. */
    put(f, "20260301100000_x.sql",
        "-- migrate:up\nCREATE TABLE t (a INT64);\n-- migrate:down\n"
        "SELECT 1;\n");
    assert_int_equal(pier_migration_files_down(NULL, e, f->dir, NULL, &err),
                     PIER_OK);
    assert_int_equal(pier_migration_files_down(&wm, e, f->dir, &l, &err),
                     PIER_OK);
    assert_int_equal(l->nfiles, 0);
    pier_migration_files_free(l);
}

/* A failing version rolls back whole; those before it stay. */
static void test_failure_part_way(void **state)
{
    files_fixture *f = *state;
    pier_engine *e = f->ef->e;
    pier_error err;
    pier_migration_files *l = NULL;
    char *p = NULL;
    assert_int_equal(pier_migration_file_create(&p, f->dir, "a", FIXTURE_NOW,
                                                &err), PIER_OK);
    pier_free(p);
    put(f, "20260301100000_a.sql",
        "-- migrate:up\nCREATE TABLE a (x INT64);\n");
    put(f, "20260301100001_b.sql",
        "-- migrate:up\nCREATE TABLE b (x INT64);\n"
        "INSERT INTO a VALUES (1);\n"
        "INSERT INTO b VALUES ('no');\n");
    put(f, "20260301100002_c.sql",
        "-- migrate:up\nCREATE TABLE c (x INT64);\n");
    assert_int_equal(pier_migration_files_up(NULL, e, f->dir, &l, &err),
                     PIER_E_COLUMN_TYPE_CONFLICT);
    assert_non_null(strstr(err.message, "20260301100001_b.sql"));
    assert_int_equal(l->nfiles, 1);
    assert_string_equal(l->files[0].name, "a");
    pier_migration_files_free(l);
    assert_true(has_table(e, "a"));
    assert_false(has_table(e, "b"));
    assert_false(has_table(e, "c"));
    assert_int_equal(count(e, "SELECT count(*) FROM a"), 0);
    assert_int_equal(pier_migration_files_status(&l, e, f->dir, &err),
                     PIER_OK);
    assert_int_equal(l->files[0].state, PIER_MIGRATION_FILE_APPLIED);
    assert_int_equal(l->files[1].state, PIER_MIGRATION_FILE_PENDING);
    assert_int_equal(l->files[2].state, PIER_MIGRATION_FILE_PENDING);
    pier_migration_files_free(l);

    /* An empty up section stops everything before anything runs. */
    put(f, "20260301100001_b.sql", "-- migrate:up\n-- nothing yet\n");
    assert_int_equal(pier_migration_files_up(NULL, e, f->dir, &l, &err),
                     PIER_E_INVALID_SCHEMA);
    assert_non_null(strstr(err.message, "holds no SQL"));
    assert_int_equal(l->nfiles, 0);
    pier_migration_files_free(l);
    assert_false(has_table(e, "c"));

    /* A script that ends inside BEGIN is refused, as pier_exec refuses
     * one; COMMIT inside a version is fine. */
    put(f, "20260301100001_b.sql",
        "-- migrate:up\nBEGIN;\nCREATE TABLE b (x INT64);\nCOMMIT;\n");
    put(f, "20260301100002_c.sql",
        "-- migrate:up\nBEGIN;\nCREATE TABLE c (x INT64);\n");
    assert_int_equal(pier_migration_files_up(NULL, e, f->dir, &l, &err),
                     PIER_E_QUERY_FAILED);
    assert_non_null(strstr(err.message, "inside a transaction"));
    assert_non_null(strstr(err.message, "(line 4, column 1 of '"));
    assert_int_equal(l->nfiles, 1);
    pier_migration_files_free(l);
    assert_true(has_table(e, "b"));
    assert_false(has_table(e, "c"));

    /* The record is out of SQL's reach. */
    pier_cursor *c = NULL;
    assert_int_equal(pier_exec(&c, e, "SELECT * FROM _pier_migration_files",
                               NULL, &err), PIER_E_ENTITY_NOT_ALLOWED);
    assert_false(has_table(e, "_pier_migration_files"));
}

/* A version's SQL is read as pier_exec reads it, rewriting included:
 * EXTRACT(field FROM x), which SQLite lacks, runs in a file as it does
 * in `pier sql`, up and down. */
static void test_dialect_as_exec(void **state)
{
    files_fixture *f = *state;
    pier_engine *e = f->ef->e;
    pier_error err;
    char *p = NULL;
    assert_int_equal(pier_migration_file_create(&p, f->dir, "years",
                                                FIXTURE_NOW, &err), PIER_OK);
    pier_free(p);
    put(f, "20260301100000_years.sql",
        "-- migrate:up\n"
        "CREATE TABLE d (id INT64 PRIMARY KEY, at DATE);\n"
        "INSERT INTO d VALUES (1, '2026-03-04'), (2, '1999-12-31');\n"
        "CREATE TABLE y (id INT64 PRIMARY KEY, yr INT64);\n"
        "INSERT INTO y SELECT id, EXTRACT(year FROM at) FROM d;\n"
        "-- migrate:down\n"
        "DELETE FROM y WHERE yr = (SELECT EXTRACT(YEAR FROM at) FROM d "
        "WHERE id = 2);\n"
        "DROP TABLE y;\nDROP TABLE d;\n");
    if (pier_migration_files_up(NULL, e, f->dir, NULL, &err) != PIER_OK)
        fail_msg("up: %s: %s", err.tag, err.message);
    assert_int_equal(count(e, "SELECT sum(yr) FROM y"), 2026 + 1999);
    if (pier_migration_files_down(NULL, e, f->dir, NULL, &err) != PIER_OK)
        fail_msg("down: %s: %s", err.tag, err.message);
    assert_false(has_table(e, "y"));
    assert_false(has_table(e, "d"));
}

/* A lake of format 4 gains the record when opened (format 5). */
static void test_format_4_upgrade(void **state)
{
    files_fixture *f = *state;
    pier_error err;
    fixture_insert(f->ef->e, "b", "{\"id\":\"x\"}");
    pier_close(&f->ef->e);
    assert_int_equal(lakedir_sql_exec(f->ef->lake,
                                      "DROP TABLE _pier_migration_files; "
                                      "PRAGMA user_version = 4", false), 0);
    f->ef->e = fixture_engine(f->ef);
    assert_int_equal(lakedir_sql_int(f->ef->lake, "PRAGMA user_version", -1),
                     5);
    char *p = NULL;
    assert_int_equal(pier_migration_file_create(&p, f->dir, "x", FIXTURE_NOW,
                                                &err), PIER_OK);
    pier_free(p);
    put(f, "20260301100000_x.sql", "-- migrate:up\nCREATE TABLE t (a INT64);");
    assert_int_equal(pier_migration_files_up(NULL, f->ef->e, f->dir, NULL,
                                             &err), PIER_OK);
    assert_true(has_table(f->ef->e, "t"));
    int64_t n = 0;
    assert_int_equal(pier_row_count(&n, f->ef->e, "b", &err), PIER_OK);
    assert_int_equal(n, 1);
    assert_int_equal(pier_schema_check(f->ef->e, &err), PIER_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_name_clean),
        cmocka_unit_test(test_sections),
        cmocka_unit_test(test_section_faults),
        cmocka_unit_test(test_has_sql),
        cmocka_unit_test(test_checksum),
        cmocka_unit_test(test_versions),
        cmocka_unit_test_setup_teardown(test_create, setup, teardown),
        cmocka_unit_test_setup_teardown(test_create_killed, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_up_down_status, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_failure_part_way, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_dialect_as_exec, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_format_4_upgrade, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
