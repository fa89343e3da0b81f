/*
 * test_csv.c: the pier command's strict RFC 4180 reader (tools/pier/csv.c):
 * the records and fields it hands on, with their lines and quoting; every
 * malformed input it refuses, with the line; and that the pieces the input
 * comes in never change the result.
 *
 * Each record is written out as "LINE:" then its fields, a quoted one as
 * q<text> and an unquoted one as u<text>, separated by '|', records by
 * ';' so that expected results fit one line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

typedef struct seen {
    char text[4096];
    size_t len;
    int stop_after;   /* stop at this record (from 1); 0: never */
    int records;
} seen;

static void out(seen *s, const char *t, size_t n)
{
    assert_true(s->len + n < sizeof s->text);
    memcpy(s->text + s->len, t, n);
    s->len += n;
    s->text[s->len] = '\0';
}

static int on_record(const cli_csv_record *rec, void *payload)
{
    seen *s = payload;
    char head[32];
    snprintf(head, sizeof head, "%" PRId64 ":", rec->line);
    out(s, head, strlen(head));
    for (size_t i = 0; i < rec->nfields; i++) {
        if (i > 0)
            out(s, "|", 1);
        out(s, rec->fields[i].quoted ? "q" : "u", 1);
        out(s, rec->fields[i].text, rec->fields[i].len);
        assert_int_equal(rec->fields[i].text[rec->fields[i].len], '\0');
    }
    out(s, ";", 1);
    s->records++;
    return s->stop_after != 0 && s->records == s->stop_after;
}

/* Reads `in` (n bytes) in pieces of `piece` bytes (0: whole). */
static cli_csv_status read_csv(const char *in, size_t n, char sep,
                               size_t piece, size_t max, seen *s,
                               int64_t *err_line, const char **why)
{
    memset(s->text, 0, sizeof s->text);
    s->len = 0;
    s->records = 0;
    cli_csv *r = cli_csv_new(sep, max, on_record, s);
    assert_non_null(r);
    cli_csv_status rc = CLI_CSV_OK;
    size_t step = piece != 0 ? piece : (n != 0 ? n : 1);
    for (size_t i = 0; rc == CLI_CSV_OK && i < n; i += step)
        rc = cli_csv_feed(r, in + i, i + step <= n ? step : n - i);
    if (rc == CLI_CSV_OK)
        rc = cli_csv_finish(r);
    *err_line = cli_csv_error_line(r);
    *why = cli_csv_error(r);
    cli_csv_free(r);
    return rc;
}

/* Reads `in` whole, then byte by byte and in pieces of 2 and 3: all must
 * agree; returns the whole reading's result. */
static cli_csv_status parse(const char *in, char sep, char *result,
                            int64_t *err_line, const char **why)
{
    seen whole = { .stop_after = 0 };
    size_t n = strlen(in);
    cli_csv_status rc = read_csv(in, n, sep, 0, 1 << 20, &whole, err_line,
                                 why);
    static const size_t pieces[] = { 1, 2, 3 };
    for (size_t k = 0; k < 3; k++) {
        seen part = { .stop_after = 0 };
        int64_t line = 0;
        const char *w = NULL;
        assert_int_equal(read_csv(in, n, sep, pieces[k], 1 << 20, &part,
                                  &line, &w), rc);
        assert_string_equal(part.text, whole.text);
        assert_int_equal(line, *err_line);
    }
    strcpy(result, whole.text);
    return rc;
}

static void expect(const char *in, char sep, const char *want)
{
    char got[4096];
    int64_t line = 0;
    const char *why = NULL;
    cli_csv_status rc = parse(in, sep, got, &line, &why);
    if (rc != CLI_CSV_OK)
        fail_msg("'%s': %s at line %" PRId64, in, why, line);
    assert_string_equal(got, want);
}

static void expect_error(const char *in, int64_t line, const char *why_part,
                         const char *records_before)
{
    char got[4096];
    int64_t at = 0;
    const char *why = NULL;
    assert_int_equal(parse(in, ',', got, &at, &why), CLI_CSV_SYNTAX);
    assert_int_equal(at, line);
    assert_non_null(strstr(why, why_part));
    assert_string_equal(got, records_before);
}

static void test_plain_records(void **state)
{
    (void)state;
    expect("a,b,c\n1,2,3\n", ',', "1:ua|ub|uc;2:u1|u2|u3;");
    /* no line end after the last record; CRLF line ends */
    expect("a,b\r\n1,2", ',', "1:ua|ub;2:u1|u2;");
    expect("a\r\n", ',', "1:ua;");
    /* empty fields, at either end too */
    expect(",x,\n", ',', "1:u|ux|u;");
    expect("a,\n", ',', "1:ua|u;");
    /* spaces are data */
    expect(" a , b \n", ',', "1:u a |u b ;");
    expect("", ',', "");
}

static void test_quoted_fields(void **state)
{
    (void)state;
    expect("\"a\",\"\"\n", ',', "1:qa|q;");
    expect("\"say \"\"hi\"\"\",x\n", ',', "1:qsay \"hi\"|ux;");
    expect("\"a,b\",\"c\nd\"\n2,3\n", ',', "1:qa,b|qc\nd;3:u2|u3;");
    expect("\"x\r\ny\"\r\nz\r\n", ',', "1:qx\r\ny;3:uz;");
    expect("\"\"\"\"\n", ',', "1:q\";");
    expect("\"end\"", ',', "1:qend;");
}

static void test_empty_lines_and_bom(void **state)
{
    (void)state;
    expect("\n\na\n\n\nb\n\n", ',', "3:ua;6:ub;");
    expect("\r\n\r\na\r\n", ',', "3:ua;");
    expect("\xef\xbb\xbf" "id,n\n", ',', "1:uid|un;");
    /* a BOM's prefix alone is data */
    expect("\xef\xbb", ',', "1:u\xef\xbb;");
    expect("\xef" "a\n", ',', "1:u\xef" "a;");
}

static void test_tabs(void **state)
{
    (void)state;
    expect("a\tb,c\n\"x\ty\"\t2\n", '\t', "1:ua|ub,c;2:qx\ty|u2;");
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("a,b\n1,x\"y\n", 2, "a quote inside an unquoted field",
                 "1:ua|ub;");
    expect_error("\"a\"b\n", 1, "text after the closing quote", "");
    expect_error("\"a\" \n", 1, "text after the closing quote", "");
    expect_error("a\n\"open\n\nstill", 4, "ends inside a quoted field",
                 "1:ua;");
    expect_error("a\rb\n", 1, "carriage return", "");
    expect_error("a,b\r", 1, "carriage return", "");
    expect_error("a\n\"q\"\rx", 2, "carriage return", "1:ua;");
}

/* A record longer than the limit is refused with its line; one just
 * within it is read. */
static void test_record_limit(void **state)
{
    (void)state;
    seen s = { .stop_after = 0 };
    int64_t line = 0;
    const char *why = NULL;
    assert_int_equal(read_csv("ab,cd\nabcde,f\n", 14, ',', 0, 4, &s, &line,
                              &why), CLI_CSV_TOO_LONG);
    assert_int_equal(line, 2);
    assert_string_equal(s.text, "1:uab|ucd;");
    assert_int_equal(read_csv("ab,cd\n\"ab\",\"cd\"\n", 16, ',', 0, 4, &s,
                              &line, &why), CLI_CSV_OK);
}

/* A callback that stops the reader stops it for good. */
static void test_stop(void **state)
{
    (void)state;
    seen s = { .stop_after = 1 };
    cli_csv *r = cli_csv_new(',', 100, on_record, &s);
    assert_non_null(r);
    assert_int_equal(cli_csv_feed(r, "a\nb\n", 4), CLI_CSV_STOPPED);
    assert_int_equal(cli_csv_feed(r, "c\n", 2), CLI_CSV_STOPPED);
    assert_int_equal(cli_csv_finish(r), CLI_CSV_STOPPED);
    assert_string_equal(s.text, "1:ua;");
    cli_csv_free(r);
    cli_csv_free(NULL);
}

static int check_wide(const cli_csv_record *rec, void *payload)
{
    int *calls = payload;
    (*calls)++;
    assert_int_equal(rec->nfields, 3000);
    assert_string_equal(rec->fields[0].text, "0");
    assert_string_equal(rec->fields[2999].text, "2999");
    return 0;
}

/* Many fields grow the buffers without loss, whatever the pieces. */
static void test_growth(void **state)
{
    (void)state;
    char *in = malloc(100000);
    assert_non_null(in);
    size_t n = 0;
    for (int i = 0; i < 3000; i++)
        n += (size_t)sprintf(in + n, "%s%d", i ? "," : "", i);
    in[n++] = '\n';
    int calls = 0;
    cli_csv *r = cli_csv_new(',', 1 << 20, check_wide, &calls);
    assert_non_null(r);
    for (size_t i = 0; i < n; i += 7)
        assert_int_equal(cli_csv_feed(r, in + i, i + 7 <= n ? 7 : n - i),
                         CLI_CSV_OK);
    assert_int_equal(cli_csv_finish(r), CLI_CSV_OK);
    assert_int_equal(calls, 1);
    cli_csv_free(r);
    free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_records),
        cmocka_unit_test(test_quoted_fields),
        cmocka_unit_test(test_empty_lines_and_bom),
        cmocka_unit_test(test_tabs),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_record_limit),
        cmocka_unit_test(test_stop),
        cmocka_unit_test(test_growth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
