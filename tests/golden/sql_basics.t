# The SQL dialect's life cycle through `pier sql`: a declared table is
# created, written, read in every format, altered and dropped; `pier
# tables` and `pier schema TABLE` describe it.
$ pier sql "CREATE TABLE tasks (id INT64 PRIMARY KEY, title VARCHAR(200) NOT NULL, status ENUM('todo','doing','done') NOT NULL DEFAULT 'todo', budget DECIMAL(12,2), due_at INSTANT, tags TEXT[]); CREATE INDEX tasks_status ON tasks(status)"
$ pier sql "INSERT INTO tasks(id, title, budget, due_at, tags) VALUES (1, 'Ship', '12.5', '2026-03-01T10:00:00+02:00', '[\"a\",\"b\"]'), (2, 'Test', 7, NULL, NULL)"
2 rows changed
$ pier sql "SELECT * FROM tasks ORDER BY id"
id  title  status  budget  due_at                       tags
1   Ship   todo    12.50   2026-03-01T08:00:00.000000Z  ["a","b"]
2   Test   todo    7.00    null                         null
(2 rows)
$ pier sql "SELECT * FROM tasks ORDER BY id" --json
[
{"id":1,"title":"Ship","status":"todo","budget":"12.50","due_at":"2026-03-01T08:00:00.000000Z","tags":["a","b"]},
{"id":2,"title":"Test","status":"todo","budget":"7.00","due_at":null,"tags":null}
]
$ pier sql "SELECT * FROM tasks ORDER BY id" --jsonl
{"id":1,"title":"Ship","status":"todo","budget":"12.50","due_at":"2026-03-01T08:00:00.000000Z","tags":["a","b"]}
{"id":2,"title":"Test","status":"todo","budget":"7.00","due_at":null,"tags":null}
$ pier sql "SELECT * FROM tasks ORDER BY id" --csv
id,title,status,budget,due_at,tags
1,Ship,todo,12.50,2026-03-01T08:00:00.000000Z,"[""a"",""b""]"
2,Test,todo,7.00,,
$ pier --json sql "SELECT id, budget FROM tasks WHERE id = 1"
[
{"id":1,"budget":"12.50"}
]
$ pier tables
tasks
$ pier --json tables
["tasks"]
$ pier schema tasks
table tasks
column  type                         readonly
id      INT64                        no
title   VARCHAR(200)                 no
status  ENUM('todo','doing','done')  no
budget  DECIMAL(12,2)                no
due_at  INSTANT                      no
tags    TEXT[]                       no
$ pier --json schema tasks
{"table":"tasks","columns":[{"id":1,"name":"id","type":"INT64","readonly":false},{"id":2,"name":"title","type":"VARCHAR(200)","readonly":false},{"id":3,"name":"status","type":"ENUM('todo','doing','done')","readonly":false},{"id":4,"name":"budget","type":"DECIMAL(12,2)","readonly":false},{"id":5,"name":"due_at","type":"INSTANT","readonly":false},{"id":6,"name":"tags","type":"TEXT[]","readonly":false}],"sql":"CREATE TABLE \"tasks\" (\n    \"id\" INT64 PRIMARY KEY,\n    \"title\" VARCHAR(200) NOT NULL,\n    \"status\" ENUM('todo','doing','done') NOT NULL DEFAULT 'todo',\n    \"budget\" DECIMAL(12,2),\n    \"due_at\" INSTANT,\n    \"tags\" TEXT[]\n)"}

# RETURNING, upserts, UPDATE and DELETE report what they did.
$ pier sql "INSERT INTO tasks(id, title) VALUES (3, 'Docs') RETURNING id, status"
id  status
3   todo
(1 row)
$ pier sql "INSERT INTO tasks(id, title) VALUES (3, 'Docs v2') ON CONFLICT(id) DO UPDATE SET title = excluded.title RETURNING title"
title
Docs v2
(1 row)
$ pier sql "UPDATE tasks SET status = 'done' WHERE id > 1"
2 rows changed
$ pier sql "DELETE FROM tasks WHERE id = 2"
1 row changed
$ pier sql "SELECT id, title, status FROM tasks ORDER BY id"
id  title    status
1   Ship     todo
3   Docs v2  done
(2 rows)

# Parameters are bound, never spliced: named, numbered, from JSON.
$ pier sql "SELECT title FROM tasks WHERE id = :id" --param id=3
title
Docs v2
(1 row)
$ pier sql "SELECT title FROM tasks WHERE title = ?1 OR id = ?2" --params '["x'\'' OR 1=1 --", 1]'
title
Ship
(1 row)
$ pier sql "SELECT :missing"
! pier: error: PlaceholderUnbound: parameter ':missing' has no value
[exit 1]

# Views read typed columns through to their tables; ALTER TABLE's forms.
$ pier sql "CREATE VIEW spend AS SELECT id, budget FROM tasks WHERE budget IS NOT NULL"
$ pier sql "SELECT * FROM spend" --jsonl
{"id":1,"budget":"12.50"}
$ pier sql "ALTER TABLE tasks ADD COLUMN owner UUID"
$ pier sql "ALTER TABLE tasks RENAME COLUMN title TO name"
$ pier sql "ALTER TABLE tasks DROP COLUMN tags"
$ pier sql "ALTER TABLE tasks RENAME TO jobs"
$ pier schema jobs
table jobs
column  type                         readonly
id      INT64                        no
name    VARCHAR(200)                 no
status  ENUM('todo','doing','done')  no
budget  DECIMAL(12,2)                no
due_at  INSTANT                      no
owner   UUID                         no
$ pier sql "UPDATE jobs SET owner = 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11' WHERE id = 1; SELECT id, name, owner FROM jobs WHERE owner = 'a0eebc999c0b4ef8bb6d6bb9bd380a11'" --jsonl
{"id":1,"name":"Ship","owner":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"}
$ pier tables
jobs
$ pier sql "DROP VIEW spend; DROP INDEX tasks_status; DROP TABLE jobs"
$ pier tables
$ pier sql "DROP TABLE IF EXISTS jobs; CREATE TABLE IF NOT EXISTS t (a INT8); CREATE TABLE IF NOT EXISTS t (a INT8)"
$ pier schema t
table t
column  type  readonly
a       INT8  no

# A script from a file or stdin.
$ printf 'INSERT INTO t VALUES (1);\nINSERT INTO t VALUES (2);\nSELECT sum(a) AS total FROM t;\n' > script.sql && pier sql -f script.sql
total
3
(1 row)
$ echo 'SELECT count(*) AS n FROM t' | pier sql -
n
2
(1 row)
$ pier sql -f missing.sql
! pier: error: ReadFailed: cannot read 'missing.sql': No such file or directory
[exit 1]
$ pier sql
! pier: usage: sql: give the SQL or -f FILE (one of them)
! Try 'pier sql --help'.
[exit 2]
$ pier sql "SELECT 1" -f script.sql
! pier: usage: sql: give the SQL or -f FILE (one of them)
! Try 'pier sql --help'.
[exit 2]
