# docs/history.md, applying: foreign keys are checked once, at the end of
# the apply, as SQLite's apply checks them: a changeset touching a parent
# and its child applies in either direction; one that leaves an orphan is
# refused under every policy, with nothing written.
$ pier --data a sql "CREATE TABLE parents (id INT64 PRIMARY KEY, name TEXT); CREATE TABLE children (id INT64 PRIMARY KEY, parent_id INT64 REFERENCES parents(id))"

$ pier --data a schema dump > schema.sql && pier --data b sql -f schema.sql && pier --data c sql -f schema.sql

$ pier --data a changeset record "INSERT INTO parents VALUES (1, 'p'); INSERT INTO children VALUES (10, 1)" > c.bin

# Undo: the parent's delete comes first in the changeset.
$ pier --data a changeset apply c.bin --invert
2 applied, 0 skipped, 0 replaced

$ pier --data a sql "SELECT (SELECT count(*) FROM parents) AS p, (SELECT count(*) FROM children) AS c"
p  c
0  0
(1 row)

# Redo, and a copy whose child comes before its parent.
$ pier --data a changeset apply c.bin
2 applied, 0 skipped, 0 replaced

$ pier --data a changeset record "INSERT INTO children VALUES (11, NULL); INSERT INTO parents VALUES (2, 'q'); UPDATE children SET parent_id = 2 WHERE id = 11" > d.bin

$ pier --data b changeset apply d.bin
2 applied, 0 skipped, 0 replaced

$ pier --data b sql "SELECT * FROM children"
id  parent_id
11  2
(1 row)

# A real orphan: refused under every policy, nothing written.
$ pier --data a changeset record "INSERT INTO children VALUES (12, 1)" > o.bin

$ pier --data c changeset apply o.bin
! pier: error: ConstraintForeignKey: changeset conflict: the changes leave a row of children without its parents row
[exit 1]

$ pier --data c changeset apply o.bin --on-conflict skip
! pier: error: ConstraintForeignKey: changeset conflict: the changes leave a row of children without its parents row
[exit 1]

$ pier --data c changeset apply o.bin --on-conflict replace
! pier: error: ConstraintForeignKey: changeset conflict: the changes leave a row of children without its parents row
[exit 1]

$ pier --data c sql "SELECT count(*) FROM children"
count(*)
0
(1 row)

# Deleting a parent its children still name: refused, nothing written.
$ pier --data d sql -f schema.sql && pier --data d sql "INSERT INTO parents VALUES (1, 'p')" && pier --data d changeset record "DELETE FROM parents WHERE id = 1" > p.bin
1 row changed

$ pier --data b changeset apply c.bin
2 applied, 0 skipped, 0 replaced

$ pier --data b changeset apply p.bin --on-conflict skip
! pier: error: ConstraintForeignKey: changeset conflict: the changes leave a row of children without its parents row
[exit 1]

$ pier --data b sql "SELECT * FROM parents ORDER BY id"
id  name
1   p
2   q
(2 rows)
