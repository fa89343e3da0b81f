# A value is checked against its column on every write path: INSERT
# (VALUES, DEFAULT, several rows), UPDATE (SET, row values, expressions),
# upserts (DO UPDATE SET, excluded.*), INSERT ... SELECT (from another
# table, from a CTE), REPLACE, and RETURNING never shows a refused row.
# Each refusal leaves nothing of its statement (or script) behind.
$ pier sql "CREATE TABLE t (id INT64 PRIMARY KEY, n INT8, d DECIMAL(5,2) DEFAULT '1.00', e ENUM('a','b') DEFAULT 'a'); CREATE TABLE src (v ANY); INSERT INTO src VALUES (1), (2), (300); INSERT INTO t VALUES (1, 1, '1.00', 'a')"
1 row changed
$ pier sql "INSERT INTO t VALUES (2, 2, '2.00', 'b'), (3, 300, '3.00', 'a')"
! pier: error: ColumnTypeConflict: column 'n' of table 't' is INT8, got 300: out of range for INT8
[exit 1]
$ pier sql "INSERT INTO t(id, n) VALUES (2, 2) RETURNING id, d, e"
id  d     e
2   1.00  a
(1 row)
$ pier sql "CREATE TABLE bad (x ENUM('a') DEFAULT 'z'); INSERT INTO bad DEFAULT VALUES"
! pier: error: ColumnTypeConflict: column 'x' of table 'bad' is ENUM('a'): its DEFAULT 'z' is not one (not one of the labels), so every INSERT that omits it would fail
[exit 1]
$ pier sql "UPDATE t SET n = 1000"
! pier: error: ColumnTypeConflict: column 'n' of table 't' is INT8, got 1000: out of range for INT8
[exit 1]
$ pier sql "UPDATE t SET (n, d) = (5, '5.555')"
! pier: error: ColumnTypeConflict: column 'd' of table 't' is DECIMAL(5,2), got '5.555': more digits after the point than the column's scale allows (values are never rounded)
[exit 1]
$ pier sql "UPDATE t SET e = 'c' WHERE id = 2"
! pier: error: ColumnTypeConflict: column 'e' of table 't' is ENUM('a','b'), got 'c': not one of the labels
[exit 1]
$ pier sql "INSERT INTO t(id, n) VALUES (1, 9) ON CONFLICT(id) DO UPDATE SET d = '123456.00'"
! pier: error: ColumnTypeConflict: column 'd' of table 't' is DECIMAL(5,2), got '123456.00': more digits before the point than the column's precision allows
[exit 1]
$ pier sql "INSERT INTO t(id, n, e) VALUES (1, 9, 'q') ON CONFLICT(id) DO UPDATE SET e = excluded.e"
! pier: error: ColumnTypeConflict: column 'e' of table 't' is ENUM('a','b'), got 'q': not one of the labels
[exit 1]
$ pier sql "INSERT INTO t(id, n) SELECT 10 + rowid, v FROM src"
! pier: error: ColumnTypeConflict: column 'n' of table 't' is INT8, got 300: out of range for INT8
[exit 1]
$ pier sql "WITH k(i) AS (VALUES (20), (21)) INSERT INTO t(id, d) SELECT i, i * 1000 FROM k"
! pier: error: ColumnTypeConflict: column 'd' of table 't' is DECIMAL(5,2), got '20000': more digits before the point than the column's precision allows
[exit 1]
$ pier sql "REPLACE INTO t(id, n) VALUES (1, -200)"
! pier: error: ColumnTypeConflict: column 'n' of table 't' is INT8, got -200: out of range for INT8
[exit 1]
$ pier sql "SELECT * FROM t ORDER BY id"
id  n  d     e
1   1  1.00  a
2   2  1.00  a
(2 rows)
$ pier sql "INSERT INTO t(id, n) SELECT 10 + rowid, v FROM src WHERE v < 100 RETURNING id, n"
id  n
11  1
12  2
(2 rows)
$ pier sql "UPDATE t SET d = '9.5' WHERE id = 11 RETURNING d"
d
9.50
(1 row)
$ pier sql "INSERT INTO t(id, n) VALUES (11, 4) ON CONFLICT(id) DO UPDATE SET n = excluded.n RETURNING id, n, d"
id  n  d
11  4  9.50
(1 row)

# A generated column declares its type too, and its computed value is
# checked like any other.
$ pier sql "CREATE TABLE g (a INT64, b INT8 AS (a * 100) STORED, c TEXT AS ('#' || a)); INSERT INTO g(a) VALUES (1)"
1 row changed
$ pier sql "INSERT INTO g(a) VALUES (2)"
! pier: error: ColumnTypeConflict: column 'b' of table 'g' is INT8, got 200: out of range for INT8
[exit 1]
$ pier sql "SELECT a, b, c FROM g" --jsonl
{"a":1,"b":100,"c":"#1"}
