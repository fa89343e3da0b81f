# docs/history.md, what is recorded: a table without a PRIMARY KEY is not.
# `pier changeset record` (pier_changeset) refuses a script that changes
# one rather than write a changeset that leaves those changes out; nothing
# of the script is kept. A commit trigger ON ALL passes over such tables.
$ pier sql "CREATE TABLE k (id INT64 PRIMARY KEY); CREATE TABLE loose (a INT64); CREATE TABLE log (id INT64 PRIMARY KEY, cs CHANGESET)"

$ pier changeset record "INSERT INTO k VALUES (1); INSERT INTO loose VALUES (1)" > c.bin
! pier: error: EntityNotAllowed: table 'loose' has no PRIMARY KEY, so its changes cannot be recorded: nothing was written
[exit 1]

$ wc -c < c.bin
0

$ pier sql "SELECT (SELECT count(*) FROM k) AS k, (SELECT count(*) FROM loose) AS l"
k  l
0  0
(1 row)

$ pier changeset record "INSERT INTO k VALUES (2)" > c.bin && pier changeset show c.bin
{"table":"k","op":"insert","new":{"id":2}}

$ pier sql "CREATE COMMIT TRIGGER everything ON ALL AS INSERT INTO log(cs) VALUES (pier_changeset())"

$ pier sql "INSERT INTO loose VALUES (3); INSERT INTO k VALUES (3)"
1 row changed

$ pier sql "SELECT cs FROM log" --csv | tail -n +2 | pier changeset show --hex -
{"table":"k","op":"insert","new":{"id":3}}
