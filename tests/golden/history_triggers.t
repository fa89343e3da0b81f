# Commit triggers: made and dropped by the dialect, kept in the catalog,
# run just before a pier_exec transaction commits with pier_changeset()
# returning its changes to their tables. A trigger that fails fails the
# whole call.
$ pier sql "CREATE TABLE tasks (id INT64 PRIMARY KEY, title TEXT NOT NULL); CREATE TABLE log (id INT64 PRIMARY KEY, n INT64, cs CHANGESET); CREATE TABLE loose (a INT64)"

$ pier sql "CREATE COMMIT TRIGGER count_changes ON TASKS AS INSERT INTO log(n, cs) SELECT count(*), pier_changeset() FROM tasks"

$ pier sql "CREATE COMMIT TRIGGER count_changes ON tasks AS DELETE FROM log"
! pier: error: QueryFailed: commit trigger 'count_changes' already exists (at byte 22 of the script)
[exit 1]

$ pier sql "CREATE COMMIT TRIGGER IF NOT EXISTS count_changes ON tasks AS DELETE FROM log"

# A table without a primary key cannot be recorded; nor can a missing one.
$ pier sql "CREATE COMMIT TRIGGER t2 ON loose AS DELETE FROM log"
! pier: error: EntityNotAllowed: commit trigger 't2': table 'loose' has no PRIMARY KEY, so its changes cannot be recorded
[exit 1]

$ pier sql "CREATE COMMIT TRIGGER t2 ON tasks, nope AS DELETE FROM log"
! pier: error: TableNotFound: commit trigger 't2': no table 'nope'
[exit 1]

$ pier sql "CREATE COMMIT TRIGGER t2 ON _pier_boards AS DELETE FROM log"
! pier: error: EntityNotAllowed: commit trigger 't2': '_pier_boards' belongs to the engine, whose writes are not recorded
[exit 1]

# The statement is one INSERT, UPDATE or DELETE.
$ pier sql "CREATE COMMIT TRIGGER t2 ON ALL AS SELECT pier_changeset()"
! pier: error: EntityNotAllowed: commit trigger 't2': a commit trigger runs one INSERT, UPDATE or DELETE
[exit 1]

$ pier sql "CREATE COMMIT TRIGGER t2 ON ALL AS PRAGMA foreign_keys"
! pier: error: EntityNotAllowed: commit trigger 't2': PRAGMA statements are not allowed: the engine keeps its database's settings
[exit 1]

$ pier sql "CREATE COMMIT TRIGGER t2 ON ALL"
! pier: error: QueryFailed: expected AS and the statement the trigger runs, found the end of the statement (at byte 31 of the script)
[exit 1]

# The statement is prepared (not run) when the trigger is made: one that
# SQLite refuses refuses the trigger, and nothing is made (the dump names
# one trigger, and the script's table is not there).
$ pier sql "CREATE COMMIT TRIGGER bad ON tasks AS UPDATE log SET n = 1 WHERE"
! pier: error: QueryFailed: commit trigger 'bad': SQLite refused the statement: incomplete input (at byte 38 of the script)
[exit 1]

$ pier sql "CREATE COMMIT TRIGGER bad ON tasks AS INSERT INTO nosuch VALUES (1)"
! pier: error: QueryFailed: commit trigger 'bad': SQLite refused the statement: no such table: nosuch (at byte 38 of the script)
[exit 1]

$ pier sql "CREATE TABLE made (id INT64 PRIMARY KEY); CREATE COMMIT TRIGGER bad ON made AS INSERT INTO log(nosuch) VALUES (1)"
! pier: error: QueryFailed: commit trigger 'bad': SQLite refused the statement: table log has no column named nosuch (at byte 79 of the script)
[exit 1]

$ pier sql "SELECT count(*) FROM made"
! pier: error: QueryFailed: SQLite refused the statement: no such table: made (at byte 0 of the script)
[exit 1]

$ pier schema dump | grep -c "COMMIT TRIGGER"
1

$ pier sql "SELECT count(*) FROM log"
count(*)
0
(1 row)

# Writes to other tables do not run it; a rolled-back part leaves nothing.
$ pier sql "INSERT INTO loose VALUES (1); BEGIN; INSERT INTO tasks VALUES (9, 'gone'); ROLLBACK"

$ pier sql "INSERT INTO tasks VALUES (1, 'Ship'), (2, 'Test')"
2 rows changed

$ pier sql "SELECT id, n, length(cs) > 0 AS recorded FROM log"
id  n  recorded
1   2  1
(1 row)

# pier_changeset() is null outside a commit trigger.
$ pier sql "SELECT pier_changeset() IS NULL"
pier_changeset() IS NULL
1
(1 row)

# A trigger whose statement fails fails the call: nothing is kept.
$ pier sql "CREATE COMMIT TRIGGER broken ON tasks AS INSERT INTO log(id) VALUES (1)"

$ pier sql "UPDATE tasks SET title = 'Shipped' WHERE id = 1"
! pier: error: ConstraintPrimaryKey: commit trigger 'broken' failed: UNIQUE constraint failed: log.id
[exit 1]

$ pier sql "SELECT * FROM tasks"
id  title
1   Ship
2   Test
(2 rows)

$ pier schema dump
CREATE TABLE "tasks" (
    "id" INT64 PRIMARY KEY,
    "title" TEXT NOT NULL
);
CREATE TABLE "log" (
    "id" INT64 PRIMARY KEY,
    "n" INT64,
    "cs" CHANGESET
);
CREATE TABLE "loose" (
    "a" INT64
);
CREATE COMMIT TRIGGER "count_changes" ON "TASKS" AS INSERT INTO log(n, cs) SELECT count(*), pier_changeset() FROM tasks;
CREATE COMMIT TRIGGER "broken" ON "tasks" AS INSERT INTO log(id) VALUES (1);

$ pier sql "DROP COMMIT TRIGGER broken; DROP COMMIT TRIGGER IF EXISTS broken"

$ pier sql "DROP COMMIT TRIGGER broken"
! pier: error: QueryFailed: no commit trigger 'broken' (at byte 20 of the script)
[exit 1]

$ pier sql "UPDATE tasks SET title = 'Shipped' WHERE id = 1"
1 row changed

$ pier sql "SELECT id, n FROM log"
id  n
1   2
2   2
(2 rows)

# A trigger dropped by a script does not run at its commit.
$ pier sql "UPDATE tasks SET title = 'Again' WHERE id = 1; DROP COMMIT TRIGGER count_changes"

$ pier sql "SELECT id, n FROM log"
id  n
1   2
2   2
(2 rows)

# A table a trigger names keeps its name while the trigger exists.
$ pier sql "CREATE COMMIT TRIGGER keep ON tasks AS DELETE FROM log WHERE false"

$ pier sql "DROP TABLE tasks"
! pier: error: EntityNotAllowed: DROP TABLE: commit trigger 'keep' records table 'tasks'; drop the trigger first
[exit 1]

$ pier sql "ALTER TABLE tasks RENAME TO jobs"
! pier: error: EntityNotAllowed: ALTER TABLE RENAME TO: commit trigger 'keep' records table 'tasks'; drop the trigger first
[exit 1]

$ pier sql "ALTER TABLE tasks ADD COLUMN note TEXT; DROP COMMIT TRIGGER keep; DROP TABLE tasks"
