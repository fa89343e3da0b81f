# A number written in SQL that SQLite would read inexactly (an integer
# beyond 64 bits, more than 15 significant digits) is read as its text:
# UINT64, INT128 and DECIMAL columns take it exactly, and compare it by
# value. A number a double holds exactly stays a number.
$ pier sql "CREATE TABLE t (n UINT64, h INT128, d DECIMAL(20,8), r DOUBLE)"
$ pier sql "INSERT INTO t VALUES (18446744073709551615, -170141183460469231731687303715884105728, 123456789.12345678, 0.30000000000000004), (5, 5, 0.5, 0.5)"
2 rows changed
$ pier sql "SELECT * FROM t ORDER BY n"
n                     h                                         d                   r
5                     5                                         0.50000000          0.5
18446744073709551615  -170141183460469231731687303715884105728  123456789.12345678  0.30000000000000004
(2 rows)
$ pier sql "SELECT count(*) AS n FROM t WHERE n > 18446744073709551614 AND h < -170141183460469231731687303715884105727"
n
1
(1 row)
$ pier sql "SELECT decimal(0.30000000000000004) AS d, decimal_add(0.1, 0.2) AS s, typeof(1.5) AS t, typeof(9223372036854775807) AS i"
d                    s    t     i
0.30000000000000004  0.3  real  integer
(1 row)
$ pier sql "INSERT INTO t(n) VALUES (18446744073709551616)"
! pier: error: ColumnTypeConflict: column 'n' of table 't' is UINT64, got '18446744073709551616': out of range for UINT64
[exit 1]

# REAL and DECIMAL values summed together cannot be exact: refused,
# saying how to ask for either.
$ pier sql "SELECT sum(x) AS s FROM (SELECT d AS x FROM t UNION ALL SELECT r FROM t)"
! pier: error: QueryFailed: sum: REAL and DECIMAL values together cannot be totalled exactly: write sum(CAST(x AS REAL)) for a float, or sum(decimal(x)) for an exact decimal (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT sum(CAST(x AS REAL)) AS f, sum(decimal(x)) AS d FROM (SELECT d AS x FROM t WHERE n = 5 UNION ALL SELECT r FROM t WHERE n = 5)"
f    d
1.0  1
(1 row)

# Arithmetic on such a number is exact, on any lake (this one has exact
# columns; a new one below has none): SQLite would have computed it in
# floating point (18446744073709551614 - 1 was 1.8446744073709552e+19).
# Integers beside it compute exactly; a REAL beside it is refused.
$ pier --data plain sql "SELECT 18446744073709551614 - 1 AS x, -18446744073709551615 + 1 AS neg, 99999999999999999999 * 2 AS z, 123456789.123456789 * 2 AS d, 7 / 2 AS int_div"
x                     neg                    z                      d                    int_div
18446744073709551613  -18446744073709551614  199999999999999999998  246913578.246913578  3
(1 row)
$ pier --data plain sql "SELECT 18446744073709551615 * 1.5 AS r"
! pier: error: QueryFailed: '*' of an exact value (DECIMAL, UINT64, INT128) and a REAL: write CAST(x AS DECIMAL) (or the number as a string, '1.5') to compute exactly, or CAST(... AS REAL) for a floating-point result (at byte 0 of the script)
[exit 1]
$ pier sql "UPDATE t SET n = 18446744073709551610 + 5 WHERE n = 5"
1 row changed
$ pier sql "UPDATE t SET n = 18446744073709551615 + 1 WHERE h = 5"
! pier: error: ColumnTypeConflict: column 'n' of table 't' is UINT64, got '18446744073709551616': out of range for UINT64
[exit 1]
$ pier sql "SELECT n FROM t WHERE n = 18446744073709551614 + 1 ORDER BY n"
n
18446744073709551615
18446744073709551615
(2 rows)

# A board query too, on a board without exact columns.
$ pier --data plain insert b '{"id":"a","x":1}'
2
$ pier --data plain query b "SELECT x + 18446744073709551615 AS big FROM {{board}}"
big
18446744073709551616
(1 row)
