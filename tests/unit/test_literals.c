/*
 * test_literals.c: numeric literals SQLite would read inexactly, written
 * as their text (src/sql/literals.c); the others left as they are.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "sql/sql.h"

static void rewritten(const char *sql, const char *want)
{
    pier__buf b;
    pier__buf_init(&b);
    bool any = pier__sql_exact_literals(&b, sql, strlen(sql));
    if (want == NULL) {
        if (any)
            fail_msg("'%s' became '%.*s'", sql, (int)b.len, b.p);
        assert_int_equal(b.len, 0);
    } else {
        if (!any)
            fail_msg("'%s' was left as it is", sql);
        if (b.len != strlen(want) || memcmp(b.p, want, b.len) != 0)
            fail_msg("'%s' became '%.*s', want '%s'", sql, (int)b.len, b.p,
                     want);
    }
    pier__buf_free(&b);
}

static void test_exact_ones_stay(void **state)
{
    (void)state;
    rewritten("SELECT 1, 1.5, 0.1, 9223372036854775807, 1e10, 0x10", NULL);
    rewritten("SELECT -9223372036854775808", NULL);
    rewritten("SELECT 123456789012345, 1.23456789012345", NULL);
    rewritten("SELECT 1.500000000000000000000, 000000000000000000001", NULL);
    rewritten("SELECT '18446744073709551615', \"18446744073709551615\"",
              NULL);
    rewritten("SELECT 1e400", NULL);   /* SQLite's: an infinity */
}

static void test_inexact_ones_become_text(void **state)
{
    (void)state;
    rewritten("INSERT INTO t VALUES (18446744073709551615)",
              "INSERT INTO t VALUES ('18446744073709551615')");
    rewritten("SELECT 9223372036854775808", "SELECT '9223372036854775808'");
    rewritten("SELECT 0.30000000000000004, 123456789.12345678",
              "SELECT '0.30000000000000004', '123456789.12345678'");
    rewritten("SELECT 1.2345678901234567e5",
              "SELECT '1.2345678901234567e5'");
    /* a sign is the literal's; a subtraction is not */
    rewritten("SELECT -170141183460469231731687303715884105728",
              "SELECT '-170141183460469231731687303715884105728'");
    rewritten("SELECT * FROM t WHERE n = -9223372036854775809 AND m IN "
              "(1, - 9223372036854775809)",
              "SELECT * FROM t WHERE n = '-9223372036854775809' AND m IN "
              "(1, '-9223372036854775809')");
    rewritten("SELECT a - 9223372036854775808 FROM t",
              "SELECT a - '9223372036854775808' FROM t");
    rewritten("SELECT -9223372036854775809", "SELECT '-9223372036854775809'");
}

/* The text such a literal becomes, as the store's check reads it back
 * from the program: the same numbers, a sign allowed, nothing else. */
static void test_inexact_number_text(void **state)
{
    (void)state;
    static const char *const inexact[] = {
        "18446744073709551615", "-18446744073709551615",
        "-9223372036854775809", "9223372036854775808",
        "123456789.12345678", "+99999999999999999999",
        "1.2345678901234567e5",
    };
    static const char *const not[] = {
        "9223372036854775807", "-9223372036854775808", "0.1",
        "123456789.123450000", "1e400", "", "-", "abc",
        "18446744073709551615x", "1844674407370955161.5.5a", ".5",
        "0x7fffffffffffffffff", "4111111111111111", "year",
    };
    for (size_t i = 0; i < sizeof inexact / sizeof *inexact; i++)
        assert_true(pier__sql_inexact_number(inexact[i],
                                             strlen(inexact[i])));
    for (size_t i = 0; i < sizeof not / sizeof *not; i++)
        assert_false(pier__sql_inexact_number(not[i], strlen(not[i])));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_ones_stay),
        cmocka_unit_test(test_inexact_ones_become_text),
        cmocka_unit_test(test_inexact_number_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
