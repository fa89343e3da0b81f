# docs/history.md, copying changes between lakes: the changeset recorded
# on one lake applies to another with the same tables, under a conflict
# policy.
$ pier --data a sql "CREATE TABLE tasks (id INT64 PRIMARY KEY, title TEXT NOT NULL, budget DECIMAL(12,2))"

$ pier --data a schema dump > schema.sql && pier --data b sql -f schema.sql

$ pier --data b sql "INSERT INTO tasks VALUES (2, 'Mine', NULL)"
1 row changed

$ pier --data a changeset record "INSERT INTO tasks VALUES (1, 'Copy', '12.5'), (2, 'Theirs', '1')" > c.bin

$ pier --data b changeset show c.bin
{"table":"tasks","op":"insert","new":{"id":1,"title":"Copy","budget":"12.50"}}
{"table":"tasks","op":"insert","new":{"id":2,"title":"Theirs","budget":"1.00"}}

$ pier --data b changeset apply c.bin
! pier: error: ChangesetConflict: changeset conflict: insert of a row of tasks: a row with its key is already there
[exit 1]

$ pier --data b changeset apply c.bin --on-conflict skip
1 applied, 1 skipped, 0 replaced

$ pier --data b sql "SELECT * FROM tasks"
id  title  budget
1   Copy   12.50
2   Mine   null
(2 rows)

$ pier --data b changeset apply c.bin --on-conflict replace
2 applied, 0 skipped, 2 replaced

$ pier --data b sql "SELECT * FROM tasks"
id  title   budget
1   Copy    12.50
2   Theirs  1.00
(2 rows)

# A lake without the table refuses it, rather than skip it in silence.
$ pier --data c changeset apply c.bin
! pier: error: TableNotFound: the changeset changes table 'tasks', which the lake does not have
[exit 1]

$ pier --data b changeset apply c.bin --on-conflict maybe
! pier: usage: changeset: --on-conflict is abort, skip or replace, not 'maybe'
! Try 'pier changeset --help'.
[exit 2]

$ printf 'nonsense' | pier --data b changeset apply -
! pier: error: InvalidArgument: the bytes are not a changeset (SQLite's changeset format)
[exit 1]

$ printf 'zz' | pier --data b changeset apply --hex -
! pier: error: InvalidArgument: 'stdin' is not hexadecimal text (pairs of digits 0-9, A-F)
[exit 1]

# An empty changeset applies nothing.
$ pier --data a changeset record "SELECT 1" > empty.bin && pier --data b changeset apply empty.bin
0 applied, 0 skipped, 0 replaced
