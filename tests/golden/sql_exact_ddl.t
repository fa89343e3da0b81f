# A CHECK or a generated column is computed inside SQLite's own writes,
# where the rewrite of operators (docs/sql.md, technique 5) cannot reach:
# one that computes on a DECIMAL, UINT64 or INT128 value with SQLite's
# arithmetic (a float) is refused with the table, naming what to write,
# and nothing is made. The decimal functions are exact there, a STORED
# column of them included.
$ pier sql "CREATE TABLE g (id INT64 PRIMARY KEY, d DECIMAL(38,20), d3 DECIMAL(38,20) GENERATED ALWAYS AS (d + '0.00000000000000000001') STORED)"
! pier: error: QueryFailed: the generated column (d + '0.00000000000000000001') of table 'g' would compute on an exact value with SQLite's floating-point arithmetic, which the rewrite of operators cannot reach there ('+' on g.d would compute with a floating-point approximation of an exact value: use decimal_add, decimal_sub, decimal_mul or decimal_div (or CAST it AS REAL to ask for the approximation)): write decimal_add, decimal_sub, decimal_mul or decimal_div(a, b, scale), which are exact (at byte 0 of the script)
[exit 1]
$ pier sql "CREATE TABLE g (id INT64 PRIMARY KEY, d DECIMAL(38,20), CHECK (d - '0.1' <= 0))"
! pier: error: QueryFailed: CHECK (d - '0.1' <= 0) of table 'g' would compute on an exact value with SQLite's floating-point arithmetic, which the rewrite of operators cannot reach there ('-' on g.d would compute with a floating-point approximation of an exact value: use decimal_add, decimal_sub, decimal_mul or decimal_div (or CAST it AS REAL to ask for the approximation)): write the comparison on the column itself (d <= '0.1'), which goes by value (at byte 0 of the script)
[exit 1]
$ pier sql "CREATE TABLE g (id INT64 PRIMARY KEY, d DECIMAL(38,20) CHECK (d * 2 < 1))"
! pier: error: QueryFailed: CHECK (d * 2 < 1) of table 'g' would compute on an exact value with SQLite's floating-point arithmetic, which the rewrite of operators cannot reach there ('*' on g.d would compute with a floating-point approximation of an exact value: use decimal_add, decimal_sub, decimal_mul or decimal_div (or CAST it AS REAL to ask for the approximation)): write the comparison on the column itself (d <= '0.1'), which goes by value (at byte 0 of the script)
[exit 1]
$ pier sql "CREATE TABLE g (id INT64 PRIMARY KEY, u UINT64, v UINT64 AS (u | 1))"
! pier: error: QueryFailed: the generated column (u | 1) of table 'g' would compute on an exact value with SQLite's floating-point arithmetic, which the rewrite of operators cannot reach there ('|' on g.u would read an exact value as a 64-bit integer (a UINT64 past 9223372036854775807 or an INT128 clamped, a DECIMAL cut): bitwise operators have no exact form; CAST it AS INT64 to ask for that reading): write decimal_add, decimal_sub, decimal_mul or decimal_div(a, b, scale), which are exact (at byte 0 of the script)
[exit 1]
$ pier sql "CREATE TABLE g (id INT64 PRIMARY KEY, h INT128, v REAL AS (sqrt(h)))"
! pier: error: QueryFailed: the generated column (sqrt(h)) of table 'g' would compute on an exact value with SQLite's floating-point arithmetic, which the rewrite of operators cannot reach there (sqrt() on g.h would compute with a floating-point or 64-bit approximation of an exact value: it has no exact form: CAST the value AS REAL to ask for the approximation): write decimal_add, decimal_sub, decimal_mul or decimal_div(a, b, scale), which are exact (at byte 0 of the script)
[exit 1]
$ pier tables
$ pier sql "CREATE TABLE g (id INT64 PRIMARY KEY, d DECIMAL(38,20) CHECK (d <= '0.1'), d3 DECIMAL(38,20) GENERATED ALWAYS AS (decimal_add(d, '0.00000000000000000001')) STORED, d4 DECIMAL(38,20) AS (decimal_sub(d, '0.00000000000000000001')), n INT64 CHECK (n * 2 < 100), m INT64 AS (n + 1))"
$ pier sql "ALTER TABLE g ADD COLUMN z DECIMAL(5,2) CHECK (z + 1 > 0)"
! pier: error: QueryFailed: CHECK (z + 1 > 0) of table 'g' would compute on an exact value with SQLite's floating-point arithmetic, which the rewrite of operators cannot reach there ('+' on g.z would compute with a floating-point approximation of an exact value: use decimal_add, decimal_sub, decimal_mul or decimal_div (or CAST it AS REAL to ask for the approximation)): write the comparison on the column itself (d <= '0.1'), which goes by value (at byte 0 of the script)
[exit 1]
$ pier sql "INSERT INTO g (id, d, n) VALUES (1, '0.1', 3), (2, '0.05', 4)"
2 rows changed
$ pier sql "INSERT INTO g (id, d, n) VALUES (3, '0.10000000000000000001', 3)"
! pier: error: ConstraintCheck: CHECK (d <= '0.1') failed for a row of g
[exit 1]
$ pier sql "SELECT id, d, d3, d4, m FROM g WHERE id = 1" --jsonl
{"id":1,"d":"0.10000000000000000000","d3":"0.10000000000000000001","d4":"0.09999999999999999999","m":4}
$ pier sql "SELECT id, d3 FROM g WHERE d3 > '0.1' ORDER BY d3 DESC" --jsonl
{"id":1,"d3":"0.10000000000000000001"}
