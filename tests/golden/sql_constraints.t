# SQLite's constraints keep working on declared tables, each reported
# with its stable tag and SQLite's message, and nothing of the failing
# script is applied. Foreign keys are enforced.
$ pier sql "CREATE TABLE p (id INT64 PRIMARY KEY, code TEXT UNIQUE, n INT32 NOT NULL CHECK (n > 0)); CREATE TABLE c (id INT64 PRIMARY KEY, p INT64 REFERENCES p(id)); CREATE TABLE k (a TEXT, b TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID; INSERT INTO p VALUES (1, 'x', 1); INSERT INTO c VALUES (1, 1); INSERT INTO k VALUES ('a', 'b')"
1 row changed
$ pier sql "INSERT INTO p VALUES (2, 'y', 1); INSERT INTO p VALUES (3, 'x', 1)"
! pier: error: ConstraintUnique: UNIQUE constraint failed: p.code
[exit 1]
$ pier sql "INSERT INTO p VALUES (2, 'y', 1); INSERT INTO p VALUES (3, 'z', NULL)"
! pier: error: ConstraintNotNull: NOT NULL constraint failed: p.n
[exit 1]
$ pier sql "INSERT INTO p VALUES (2, 'y', 1); INSERT INTO p VALUES (3, 'z', 0)"
! pier: error: ConstraintCheck: CHECK (n > 0) failed for a row of p
[exit 1]
$ pier sql "INSERT INTO p VALUES (2, 'y', 1); INSERT INTO c VALUES (2, 99)"
! pier: error: ConstraintForeignKey: FOREIGN KEY c_p_fkey has no p row with 99
[exit 1]
$ pier sql "DELETE FROM p WHERE id = 1"
! pier: error: ConstraintForeignKey: FOREIGN KEY c_p_fkey: rows of c still reference the p row with 1
[exit 1]
$ pier sql "INSERT INTO p VALUES (2, 'y', 1); INSERT INTO k VALUES ('a', 'b')"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: k.a, k.b
[exit 1]
$ pier sql "INSERT INTO p VALUES (1, 'q', 1)"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: p.id
[exit 1]
$ pier --json sql "INSERT INTO p VALUES (3, 'x', 1)"
! {"error":"ConstraintUnique","message":"UNIQUE constraint failed: p.code"}
[exit 1]
$ pier sql "SELECT (SELECT count(*) FROM p) AS p, (SELECT count(*) FROM c) AS c, (SELECT count(*) FROM k) AS k"
p  c  k
1  1  1
(1 row)
