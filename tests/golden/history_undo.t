# docs/history.md, undo and redo: a commit trigger stores each
# transaction's changes in a CHANGESET column; applying a stored
# changeset's inverse undoes it, applying it forward redoes it.
$ pier sql "CREATE TABLE tasks (id INT64 PRIMARY KEY, title TEXT NOT NULL, done BOOLEAN NOT NULL DEFAULT FALSE); CREATE TABLE history (id INT64 PRIMARY KEY, changes CHANGESET NOT NULL); CREATE COMMIT TRIGGER undo_log ON tasks AS INSERT INTO history(changes) VALUES (pier_changeset())"

$ pier sql "INSERT INTO tasks(id, title) VALUES (1, 'Ship'), (2, 'Test')"
2 rows changed

$ pier sql "UPDATE tasks SET done = TRUE WHERE id = 1"
1 row changed

$ pier sql "SELECT changes FROM history WHERE id = 2" --csv | tail -n +2 | pier changeset show --hex -
{"table":"tasks","op":"update","old":{"id":1,"done":false},"new":{"done":true}}

# Undo the last transaction.
$ pier sql "SELECT changes FROM history WHERE id = 2" --csv | tail -n +2 | pier changeset apply --hex --invert -
1 applied, 0 skipped, 0 replaced

$ pier sql "SELECT * FROM tasks"
id  title  done
1   Ship   false
2   Test   false
(2 rows)

# The undo was recorded too: the history is a log of what happened.
$ pier sql "SELECT changes FROM history WHERE id = 3" --csv | tail -n +2 | pier changeset show --hex -
{"table":"tasks","op":"update","old":{"id":1,"done":true},"new":{"done":false}}

# Undo the first transaction as well, then redo it.
$ pier sql "SELECT changes FROM history WHERE id = 1" --csv | tail -n +2 | pier changeset apply --hex --invert -
2 applied, 0 skipped, 0 replaced

$ pier sql "SELECT count(*) FROM tasks"
count(*)
0
(1 row)

$ pier sql "SELECT changes FROM history WHERE id = 1" --csv | tail -n +2 | pier changeset apply --hex -
2 applied, 0 skipped, 0 replaced

$ pier sql "SELECT * FROM tasks"
id  title  done
1   Ship   false
2   Test   false
(2 rows)
