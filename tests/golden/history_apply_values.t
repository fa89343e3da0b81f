# docs/history.md, applying: the lake's value checks and read-only columns
# refuse a change as any write does, with their own tags, naming the
# column; --on-conflict skip leaves such a change out, as it does a CHECK
# failure.
$ pier --data a sql "CREATE TABLE t (id INT64 PRIMARY KEY, title TEXT, r TEXT); INSERT INTO t VALUES (1, 'x', 'a')"
1 row changed

$ pier --data b sql "CREATE TABLE t (id INT64 PRIMARY KEY, title VARCHAR(2), r TEXT READONLY, CONSTRAINT not_c CHECK (r <> 'c')); INSERT INTO t VALUES (1, 'x', 'a')"
1 row changed

$ pier --data a changeset record "INSERT INTO t VALUES (3, 'Copy', 'a')" > i.bin

$ pier --data a changeset record "UPDATE t SET r = 'z' WHERE id = 1" > u.bin

$ pier --data a changeset record "INSERT INTO t VALUES (4, 'ok', 'b'), (10, 'lo', 'c')" > k.bin

$ pier --data b changeset apply i.bin
! pier: error: ColumnTypeConflict: changeset conflict: insert of a row of t: column 'title' of table 't' is VARCHAR(2), got 'Copy': longer than the column's length
[exit 1]

$ pier --data b changeset apply i.bin --on-conflict replace
! pier: error: ColumnTypeConflict: changeset conflict: insert of a row of t: column 'title' of table 't' is VARCHAR(2), got 'Copy': longer than the column's length
[exit 1]

$ pier --data b changeset apply i.bin --on-conflict skip
0 applied, 1 skipped, 0 replaced

$ pier --data b changeset apply u.bin
! pier: error: ReadonlyColumn: changeset conflict: update of a row of t: column 'r' of table 't' is READONLY: no UPDATE may assign it
[exit 1]

$ pier --data b changeset apply u.bin --on-conflict skip
0 applied, 1 skipped, 0 replaced

$ pier --data b changeset apply k.bin
! pier: error: ConstraintCheck: changeset conflict: insert of a row of t: CHECK constraint failed: not_c
[exit 1]

$ pier --data b sql "SELECT * FROM t ORDER BY id"
id  title  r
1   x      a
(1 row)

$ pier --data b changeset apply k.bin --on-conflict skip
1 applied, 1 skipped, 0 replaced

$ pier --data b sql "SELECT * FROM t ORDER BY id"
id  title  r
1   x      a
4   ok     b
(2 rows)
