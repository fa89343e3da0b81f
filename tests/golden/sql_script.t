# A script is atomic: a failing statement leaves nothing of the script
# behind, DDL included. BEGIN / COMMIT / ROLLBACK inside it.
$ pier sql "CREATE TABLE t (a INT64 PRIMARY KEY, b TEXT)"
$ pier sql "INSERT INTO t VALUES (1, 'one'); CREATE TABLE u (x INT8); INSERT INTO u VALUES (300)"
! pier: error: ColumnTypeConflict: column 'x' of table 'u' is INT8, got 300: out of range for INT8
[exit 1]
$ pier tables
t
$ pier sql "SELECT count(*) AS n FROM t"
n
0
(1 row)
$ pier sql "INSERT INTO t VALUES (1, 'one'); BEGIN; INSERT INTO t VALUES (2, 'two'); ROLLBACK; INSERT INTO t VALUES (3, 'three'); SELECT a, b FROM t ORDER BY a"
a  b
1  one
3  three
(2 rows)
$ pier sql "BEGIN; INSERT INTO t VALUES (4, 'four'); COMMIT; SELECT count(*) AS n FROM t"
n
3
(1 row)
$ pier sql "BEGIN; CREATE TABLE v (x INT8); ROLLBACK; SELECT 1 AS one"
one
1
(1 row)
$ pier tables
t
$ pier sql "BEGIN; INSERT INTO t VALUES (5, 'five')"
! pier: error: QueryFailed: the script ends inside a transaction: BEGIN has no COMMIT or ROLLBACK (at byte 39 of the script)
[exit 1]
$ pier sql "COMMIT"
! pier: error: QueryFailed: COMMIT without BEGIN: no transaction is open (at byte 0 of the script)
[exit 1]
$ pier sql "BEGIN; BEGIN; COMMIT"
! pier: error: QueryFailed: BEGIN inside a transaction: a transaction cannot start within another (at byte 7 of the script)
[exit 1]
$ pier sql "ROLLBACK TO x"
! pier: error: EntityNotAllowed: ROLLBACK TO statements are not allowed: savepoints are not supported
[exit 1]
$ pier sql "SELECT count(*) AS n FROM t"
n
3
(1 row)
$ pier sql "; ;"
$ pier sql -- "-- nothing but a comment"
