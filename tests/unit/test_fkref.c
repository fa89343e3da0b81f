/*
 * test_fkref.c: a column's foreign key read from its table's SQL
 * (src/sql/fkref.c): column and table constraints, names given or made,
 * quoted names, ON DELETE, and columns without one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "sql/sql.h"

static void test_column_constraint(void **state)
{
    (void)state;
    pier__sql_fkref fk;
    assert_true(pier__sql_fk_of("children", "parent_id",
                                "NOT NULL REFERENCES parents(id) ON DELETE "
                                "CASCADE", "", &fk));
    assert_string_equal(fk.name, "children_parent_id_fkey");
    assert_string_equal(fk.parent, "parents");
    assert_string_equal(fk.parent_column, "id");
    assert_false(fk.restrict_delete);
    assert_true(pier__sql_fk_of("c", "p", "CONSTRAINT \"my \"\"key\" "
                                "REFERENCES \"Par ent\" ON UPDATE CASCADE",
                                "", &fk));
    assert_string_equal(fk.name, "my \"key");
    assert_string_equal(fk.parent, "Par ent");
    assert_string_equal(fk.parent_column, "");
    assert_true(fk.restrict_delete);
    /* a name for another constraint is not the key's */
    assert_true(pier__sql_fk_of("c", "p", "CONSTRAINT nn NOT NULL "
                                "REFERENCES q (k) ON DELETE NO ACTION", "",
                                &fk));
    assert_string_equal(fk.name, "c_p_fkey");
    assert_true(fk.restrict_delete);
    assert_true(pier__sql_fk_of("c", "p", "REFERENCES q (k) ON DELETE SET "
                                "NULL", "", &fk));
    assert_false(fk.restrict_delete);
    assert_false(pier__sql_fk_of("c", "p", "NOT NULL DEFAULT 'references'",
                                 "", &fk));
    assert_false(pier__sql_fk_of("c", "p", "", "", &fk));
}

static void test_table_constraint(void **state)
{
    (void)state;
    pier__sql_fkref fk;
    const char *table = "PRIMARY KEY (a, b), CONSTRAINT owner FOREIGN KEY "
                        "(\"Who\") REFERENCES people (id) ON DELETE "
                        "RESTRICT, FOREIGN KEY (x, y) REFERENCES q (a, b)";
    assert_true(pier__sql_fk_of("t", "who", "", table, &fk));
    assert_string_equal(fk.name, "owner");
    assert_string_equal(fk.parent, "people");
    assert_string_equal(fk.parent_column, "id");
    assert_true(fk.restrict_delete);
    /* a key over several columns is not a column's */
    assert_false(pier__sql_fk_of("t", "x", "", table, &fk));
    assert_false(pier__sql_fk_of("t", "a", "", table, &fk));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_column_constraint),
        cmocka_unit_test(test_table_constraint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
