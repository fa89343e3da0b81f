/*
 * test_spelling.c: the SQL dialect's type names (src/types/spelling.h):
 * every name and its canonical spelling, parameters at their bounds, ENUM
 * labels with quotes, arrays, and every refused name with the name it
 * points to instead.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "types/spelling.h"

/* Parses `in` and checks its canonical spelling. */
static void spell_ok(const char *in, const char *canonical)
{
    pier__sqltype t;
    pier__sqltype_error e;
    pier__buf labels, out;
    pier__buf_init(&labels);
    pier__buf_init(&out);
    const char *why = pier__sqltype_parse(in, strlen(in), &t, &labels, &e);
    if (why != NULL)
        fail_msg("'%s' refused: %s", in, why);
    pier__sqltype_write(&out, &t, labels.p);
    char *text = pier__buf_detach(&out);
    if (strcmp(text, canonical) != 0)
        fail_msg("'%s' is written '%s', want '%s'", in, text, canonical);
    /* The canonical spelling reads back as itself. */
    pier__sqltype again;
    pier__buf labels2, out2;
    pier__buf_init(&labels2);
    pier__buf_init(&out2);
    assert_null(pier__sqltype_parse(text, strlen(text), &again, &labels2,
                                    NULL));
    pier__sqltype_write(&out2, &again, labels2.p);
    char *text2 = pier__buf_detach(&out2);
    assert_string_equal(text2, text);
    free(text2);
    free(text);
    pier__buf_free(&labels);
    pier__buf_free(&labels2);
}

/* Asserts that `in` is refused with a reason holding `why`. */
static void spell_bad(const char *in, const char *why)
{
    pier__sqltype t;
    pier__sqltype_error e;
    const char *got = pier__sqltype_parse(in, strlen(in), &t, NULL, &e);
    if (got == NULL)
        fail_msg("'%s' accepted", in);
    if (strstr(got, why) == NULL)
        fail_msg("'%s': '%s', want a reason with '%s'", in, got, why);
    assert_ptr_equal(got, e.message);
}

static void test_every_name(void **state)
{
    (void)state;
    static const char *const same[] = {
        "INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32",
        "UINT64", "INT128", "FLOAT32", "DOUBLE", "DECIMAL", "TEXT",
        "BOOLEAN", "BLOB", "UUID", "INSTANT", "DATE", "TIME", "DATETIME",
        "INTERVAL", "JSON", "ANY",
    };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        spell_ok(same[i], same[i]);
    spell_ok("INTEGER", "INT64");
    spell_ok("REAL", "DOUBLE");
    spell_ok("BOOL", "BOOLEAN");
    spell_ok("BYTEA", "BLOB");
    spell_ok("int64", "INT64");
    spell_ok("Instant", "INSTANT");
    spell_ok("  uuid\t", "UUID");
}

static void test_parameters(void **state)
{
    (void)state;
    spell_ok("DECIMAL(12,2)", "DECIMAL(12,2)");
    spell_ok("decimal ( 12 , 2 )", "DECIMAL(12,2)");
    spell_ok("DECIMAL(5)", "DECIMAL(5,0)");
    spell_ok("DECIMAL(38,38)", "DECIMAL(38,38)");
    spell_ok("DECIMAL(1,0)", "DECIMAL(1,0)");
    spell_ok("VARCHAR(200)", "VARCHAR(200)");
    spell_ok("varchar(1)", "VARCHAR(1)");
    spell_ok("VARCHAR(1000000000)", "VARCHAR(1000000000)");
    spell_bad("DECIMAL(0,0)", "precision p from 1 to 38");
    spell_bad("DECIMAL(39,2)", "precision p from 1 to 38");
    spell_bad("DECIMAL(12,13)", "scale s from 0 to p");
    spell_bad("DECIMAL(12,-1)", "scale s from 0 to p");
    spell_bad("DECIMAL(12,2", "missing its ')'");
    spell_bad("DECIMAL(x)", "precision");
    spell_bad("VARCHAR", "VARCHAR(n)");
    spell_bad("VARCHAR(0)", "from 1 to 1000000000");
    spell_bad("VARCHAR(1000000001)", "from 1 to 1000000000");
    spell_bad("VARCHAR(99999999999)", "from 1 to 1000000000");
    spell_bad("VARCHAR(10", "from 1 to 1000000000");
    spell_bad("TEXT(10)", "unexpected text after type TEXT");
}

static void test_enums(void **state)
{
    (void)state;
    spell_ok("ENUM('todo','doing','done')", "ENUM('todo','doing','done')");
    spell_ok("enum ( 'a' , 'b' )", "ENUM('a','b')");
    spell_ok("ENUM('it''s')", "ENUM('it''s')");
    spell_ok("ENUM('żółw','a b')", "ENUM('żółw','a b')");
    spell_ok("ENUM('x')[]", "ENUM('x')[]");
    pier__sqltype t;
    pier__buf labels;
    pier__buf_init(&labels);
    assert_null(pier__sqltype_parse("ENUM('a','it''s','c')", 21, &t,
                                    &labels, NULL));
    assert_int_equal(t.nlabels, 3);
    assert_int_equal(labels.len, 2 + 5 + 2);
    assert_memory_equal(labels.p, "a\0it's\0c\0", 9);
    pier__buf_free(&labels);
    spell_bad("ENUM", "ENUM('a','b')");
    spell_bad("ENUM()", "ENUM('a','b')");
    spell_bad("ENUM(a,b)", "ENUM('a','b')");
    spell_bad("ENUM('a',)", "ENUM('a','b')");
    spell_bad("ENUM('a'", "ENUM('a','b')");
    spell_bad("ENUM('a", "closing quote");
    assert_null(pier__sqltype_parse("ENUM('', 'a')", 13, &t, &labels,
                                    NULL));      /* the empty label too */
    assert_int_equal(t.nlabels, 2);
    pier__buf_free(&labels);
    pier__buf_init(&labels);
    spell_bad("ENUM('','')", "label '' is listed twice");
    spell_bad("ENUM('a','b','a')", "label 'a' is listed twice");
    spell_bad("ENUM('\xff')", "UTF-8");
}

static void test_arrays(void **state)
{
    (void)state;
    spell_ok("TEXT[]", "TEXT[]");
    spell_ok("int64 [ ] [ ]", "INT64[][]");
    spell_ok("DECIMAL(12,2)[]", "DECIMAL(12,2)[]");
    spell_ok("UUID[]", "UUID[]");
    spell_bad("TEXT[][][]", "at most two dimensions");
    spell_bad("TEXT[", "ends in []");
    spell_bad("TEXT[3]", "ends in []");
    spell_bad("ANY[]", "ANY has no arrays");
    spell_bad("JSON[]", "JSON has no arrays");
}

static void test_refused_names(void **state)
{
    (void)state;
    spell_bad("INT", "type INT is not supported: use INT32 or INT64");
    spell_bad("int", "type int is not supported: use INT32 or INT64");
    spell_bad("BIGINT", "use INT64");
    spell_bad("SMALLINT", "use INT16");
    spell_bad("TINYINT", "use INT8");
    spell_bad("FLOAT", "use REAL or DOUBLE");
    spell_bad("DOUBLE PRECISION", "use DOUBLE");
    spell_bad("double  precision", "use DOUBLE");
    spell_bad("CHARACTER VARYING(10)", "use VARCHAR(n) or TEXT");
    spell_bad("CHAR(3)", "use VARCHAR(n) or TEXT");
    spell_bad("NUMERIC(10,2)", "use DECIMAL or DECIMAL(p,s)");
    spell_bad("TIMESTAMP", "INSTANT (a point in time) or DATETIME");
    spell_bad("JSONB", "use JSON");
    spell_bad("SERIAL", "INT64 PRIMARY KEY");
    spell_bad("", "needs a type");
    spell_bad("   ", "needs a type");
    spell_bad("WIBBLE", "unknown type 'WIBBLE'");
    spell_bad("INT64 INT64", "unexpected text after type INT64");
    spell_bad("(", "needs a type");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_name),
        cmocka_unit_test(test_parameters),
        cmocka_unit_test(test_enums),
        cmocka_unit_test(test_arrays),
        cmocka_unit_test(test_refused_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
