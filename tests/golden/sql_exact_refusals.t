# Bitwise operators and SQLite's numeric functions read a value as a
# 64-bit integer or a float: on a DECIMAL, UINT64 or INT128 value they are
# refused, naming what to write instead, and write nothing (docs/sql.md,
# technique 5); on plain integers they work as in SQLite.
$ pier sql "CREATE TABLE t (id INT64 PRIMARY KEY, u UINT64, h INT128, d DECIMAL(10,2), i INT64); INSERT INTO t VALUES (1,'18446744073709551614','100000000000000000000','7.50', 6)"
1 row changed
$ pier sql "SELECT u & 1 FROM t"
! pier: error: QueryFailed: '&' on t.u would read an exact value as a 64-bit integer (a UINT64 past 9223372036854775807 or an INT128 clamped, a DECIMAL cut): bitwise operators have no exact form; CAST it AS INT64 to ask for that reading (at byte 0 of the script)
[exit 1]
$ pier sql "UPDATE t SET u = u | 0"
! pier: error: QueryFailed: '|' on t.u would read an exact value as a 64-bit integer (a UINT64 past 9223372036854775807 or an INT128 clamped, a DECIMAL cut): bitwise operators have no exact form; CAST it AS INT64 to ask for that reading (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT ~u FROM t"
! pier: error: QueryFailed: '~' on t.u would read an exact value as a 64-bit integer (a UINT64 past 9223372036854775807 or an INT128 clamped, a DECIMAL cut): bitwise operators have no exact form; CAST it AS INT64 to ask for that reading (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT h >> 0 FROM t"
! pier: error: QueryFailed: '>>' on t.h would read an exact value as a 64-bit integer (a UINT64 past 9223372036854775807 or an INT128 clamped, a DECIMAL cut): bitwise operators have no exact form; CAST it AS INT64 to ask for that reading (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT h << 1 FROM t"
! pier: error: QueryFailed: '<<' on t.h would read an exact value as a 64-bit integer (a UINT64 past 9223372036854775807 or an INT128 clamped, a DECIMAL cut): bitwise operators have no exact form; CAST it AS INT64 to ask for that reading (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT d & 7 FROM t"
! pier: error: QueryFailed: '&' on t.d would read an exact value as a 64-bit integer (a UINT64 past 9223372036854775807 or an INT128 clamped, a DECIMAL cut): bitwise operators have no exact form; CAST it AS INT64 to ask for that reading (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT (d + 1) | 1 FROM t"
! pier: error: QueryFailed: '|' on t.d would read an exact value as a 64-bit integer (a UINT64 past 9223372036854775807 or an INT128 clamped, a DECIMAL cut): bitwise operators have no exact form; CAST it AS INT64 to ask for that reading (at byte 0 of the script)
[exit 1]
$ pier sql "UPDATE t SET i = i + 1, u = u & 1"
! pier: error: QueryFailed: '&' on t.u would read an exact value as a 64-bit integer (a UINT64 past 9223372036854775807 or an INT128 clamped, a DECIMAL cut): bitwise operators have no exact form; CAST it AS INT64 to ask for that reading (at byte 0 of the script)
[exit 1]
# Nothing was written.
$ pier sql "SELECT u, i FROM t" --jsonl
{"u":18446744073709551614,"i":6}
# Plain integers keep SQLite's operators, beside exact arithmetic too.
$ pier sql "SELECT i & 3, i | 8, ~i, i << 2, i >> 1, d + 1 FROM t"
i & 3  i | 8  ~i  i << 2  i >> 1  d + 1
2      14     -7  24      3       8.5
(1 row)
$ pier sql "SELECT CAST(u AS INT64) & 1 AS asked FROM t"
asked
1
(1 row)

# Numeric functions: every one of SQLite's math functions, printf and
# format, with the exact form where there is one.
$ pier sql "SELECT printf('%d', u) FROM t"
! pier: error: QueryFailed: printf() on t.u would compute with a floating-point or 64-bit approximation of an exact value: pass CAST(x AS TEXT) to a %s for its digits, decimal_round(x, scale) for fixed places, or CAST the value AS REAL to ask for the approximation (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT format('%.2f', d) FROM t"
! pier: error: QueryFailed: format() on t.d would compute with a floating-point or 64-bit approximation of an exact value: pass CAST(x AS TEXT) to a %s for its digits, decimal_round(x, scale) for fixed places, or CAST the value AS REAL to ask for the approximation (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT sin(d) FROM t"
! pier: error: QueryFailed: sin() on t.d would compute with a floating-point or 64-bit approximation of an exact value: it has no exact form: CAST the value AS REAL to ask for the approximation (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT cos(h) FROM t"
! pier: error: QueryFailed: cos() on t.h would compute with a floating-point or 64-bit approximation of an exact value: it has no exact form: CAST the value AS REAL to ask for the approximation (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT atan2(d, 1) FROM t"
! pier: error: QueryFailed: atan2() on t.d would compute with a floating-point or 64-bit approximation of an exact value: it has no exact form: CAST the value AS REAL to ask for the approximation (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT radians(d) FROM t"
! pier: error: QueryFailed: radians() on t.d would compute with a floating-point or 64-bit approximation of an exact value: it has no exact form: CAST the value AS REAL to ask for the approximation (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT degrees(d) FROM t"
! pier: error: QueryFailed: degrees() on t.d would compute with a floating-point or 64-bit approximation of an exact value: it has no exact form: CAST the value AS REAL to ask for the approximation (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT tanh(u) FROM t"
! pier: error: QueryFailed: tanh() on t.u would compute with a floating-point or 64-bit approximation of an exact value: it has no exact form: CAST the value AS REAL to ask for the approximation (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT ceil(d) FROM t"
! pier: error: QueryFailed: ceil() on t.d would compute with a floating-point or 64-bit approximation of an exact value: use decimal_round(x, 0, 'ceiling') (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT trunc(d) FROM t"
! pier: error: QueryFailed: trunc() on t.d would compute with a floating-point or 64-bit approximation of an exact value: use decimal_round(x, 0, 'down') (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT mod(d, 2) FROM t"
! pier: error: QueryFailed: mod() on t.d would compute with a floating-point or 64-bit approximation of an exact value: write x % y, which is exact (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT pow(d, 2) FROM t"
! pier: error: QueryFailed: pow() on t.d would compute with a floating-point or 64-bit approximation of an exact value: write the product x * x * ..., which is exact, or CAST the value AS REAL to ask for the approximation (at byte 0 of the script)
[exit 1]
$ pier sql "UPDATE t SET d = round(d)"
! pier: error: QueryFailed: round() on t.d would compute with a floating-point or 64-bit approximation of an exact value: use decimal_round(x, scale[, mode]) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT d FROM t" --jsonl
{"d":"7.50"}
# What the messages name instead is exact.
$ pier sql "SELECT CASE WHEN d < 0 THEN -d ELSE d END AS a, decimal_round(d, 0, 'ceiling') AS c, decimal_round(d, 0, 'down') AS t, d % 2 AS m, d * d AS p, printf('%s', CAST(u AS TEXT)) AS s FROM t" --jsonl
{"a":"7.50","c":"8","t":"7","m":"1.5","p":"56.25","s":"18446744073709551614"}
$ pier sql "SELECT sin(i), pi(), printf('%d', i), sin(CAST(d AS REAL)) AS approx FROM t" --jsonl
{"sin(i)":-0.27941549819892586,"pi()":3.141592653589793,"printf('%d', i)":"6","approx":0.9379999767747389}

# sum and avg over text: a text that is not a number among decimal texts
# is refused as what it is (SQLite would count it as 0).
$ pier sql "CREATE TABLE s (id INT64 PRIMARY KEY, t TEXT); INSERT INTO s VALUES (1, '1'), (2, 'abc'), (3, '0.5')"
3 rows changed
$ pier sql "SELECT sum(t) FROM s"
! pier: error: QueryFailed: sum: text that is not a number (which SQLite would count as 0) among decimal values cannot be totalled exactly: leave it out (WHERE), or write sum(CAST(x AS REAL)) for a float (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT avg(t) FROM s"
! pier: error: QueryFailed: avg: text that is not a number (which SQLite would count as 0) among decimal values cannot be totalled exactly: leave it out (WHERE), or write avg(CAST(x AS REAL)) for a float (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT sum(t) AS s, sum(CAST(t AS REAL)) AS r FROM s WHERE id <> 2" --jsonl
{"s":"1.5","r":1.5}
