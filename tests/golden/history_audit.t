# docs/history.md, an audit table: a commit trigger ON ALL adds one row per
# transaction that changed a declared table with a key, stamped with the
# transaction's time. Its own insert is not recorded.
$ pier sql "CREATE TABLE tasks (id INT64 PRIMARY KEY, title TEXT NOT NULL); CREATE TABLE notes (id UUID PRIMARY KEY, body TEXT); CREATE TABLE audit (id INT64 PRIMARY KEY, at INSTANT NOT NULL DEFAULT now(), changes CHANGESET NOT NULL); CREATE COMMIT TRIGGER audit ON ALL AS INSERT INTO audit(changes) SELECT pier_changeset()"

$ pier sql "INSERT INTO tasks VALUES (1, 'Ship'); INSERT INTO notes VALUES ('A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', 'hello')"
1 row changed

$ pier sql "DELETE FROM tasks WHERE id = 1"
1 row changed

# Boards are not recorded (they have their own change feed).
$ pier insert things '{"id":"x"}'
2

$ pier sql "SELECT id, at FROM audit"
id  at
1   2026-01-01T00:00:00.000000Z
2   2026-01-01T00:00:00.000000Z
(2 rows)

$ pier sql "SELECT changes FROM audit WHERE id = 1" --csv | tail -n +2 | pier changeset show --hex -
{"table":"tasks","op":"insert","new":{"id":1,"title":"Ship"}}
{"table":"notes","op":"insert","new":{"id":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11","body":"hello"}}

$ pier sql "SELECT changes FROM audit WHERE id = 2" --csv | tail -n +2 | pier --json changeset show --hex -
{"table":"tasks","op":"delete","old":{"id":1,"title":"Ship"}}
