# `pier schema dump` prints the whole lake as a script of the dialect:
# boards as CREATE BOARD (origins and the strict bit kept), then tables (each type in its canonical spelling,
# READONLY, the constraints as written, renames applied), indexes and
# views in creation order. Running it on an empty lake recreates the
# schema exactly.
$ pier create-board notes --column body=text --strict
1
$ pier insert notes '{"id":"n1","body":"hi"}'
2
$ pier sql "CREATE TABLE tasks (id INT64 PRIMARY KEY READONLY, title varchar( 200 ) NOT NULL, status enum('todo', 'it''s done') DEFAULT 'todo', budget decimal(12, 2) CHECK (budget >= 0), due_at INSTANT, tags text [], doc JSON, u UUID UNIQUE) WITHOUT ROWID"
$ pier sql "CREATE TABLE parts (id INT64 PRIMARY KEY, task INT64 REFERENCES tasks(id) ON DELETE CASCADE, qty UINT16 NOT NULL DEFAULT 1, UNIQUE (task, qty)); CREATE INDEX parts_qty ON parts(qty DESC); CREATE VIEW open_tasks AS SELECT id, title FROM tasks WHERE status = 'todo'"
$ pier sql "ALTER TABLE parts ADD COLUMN note TEXT READONLY; ALTER TABLE parts RENAME COLUMN qty TO quantity; ALTER TABLE tasks RENAME COLUMN doc TO body"
$ pier schema dump
CREATE BOARD notes (
    "body" text
) STRICT;
CREATE TABLE "tasks" (
    "id" INT64 READONLY PRIMARY KEY,
    "title" VARCHAR(200) NOT NULL,
    "status" ENUM('todo','it''s done') DEFAULT 'todo',
    "budget" DECIMAL(12,2) CHECK (budget >= 0),
    "due_at" INSTANT,
    "tags" TEXT[],
    "body" JSON,
    "u" UUID UNIQUE
) WITHOUT ROWID;
CREATE TABLE "parts" (
    "id" INT64 PRIMARY KEY,
    "task" INT64 REFERENCES tasks(id) ON DELETE CASCADE,
    "quantity" UINT16 NOT NULL DEFAULT 1,
    "note" TEXT READONLY,
    UNIQUE (task, "quantity")
);
CREATE INDEX parts_qty ON parts("quantity" DESC);
CREATE VIEW open_tasks AS SELECT id, title FROM tasks WHERE status = 'todo';
$ pier insert loose '{"id":"l1","n":1,"doc":{"a":1}}'
4
$ pier schema dump > dump.sql && mkdir other && cd other && pier sql -f ../dump.sql && pier schema dump > ../again.sql && cd .. && diff dump.sql again.sql && echo same
same
$ cd other && pier schema loose
board loose
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
n           bigint     inferred
doc         json       inferred

# CREATE BOARD is the dialect's way to make a board; its refusals.
$ pier sql "CREATE BOARD b (x decimal(5,2), y text INFERRED) STRICT; CREATE BOARD IF NOT EXISTS b"
$ pier schema b
board b (strict)
column      type          origin
id          text          base
updated_at  timestamp     base
state       text          base
x           decimal(5,2)  declared
y           text          inferred
$ pier sql "CREATE BOARD b"
! pier: error: BoardExists: board 'b' already exists
[exit 1]
$ pier sql "CREATE BOARD Bad"
! pier: error: InvalidBoardId: invalid board id 'Bad': a board id matches [a-z][a-z0-9_]{0,62} (a lowercase letter, then up to 62 lowercase letters, digits or underscores)
[exit 1]
$ pier sql "CREATE BOARD c (x money)"
! pier: error: UnknownType: unknown type 'money' for column 'x': use boolean, tinyint, smallint, integer, bigint, hugeint, float, double, text, timestamp, json, uint8, uint16, uint32, uint64, decimal or decimal(p,s), varchar(n), enum('a',...), uuid, date, time, datetime, interval, or an array T[] or T[][] of them (not of json)
[exit 1]
$ pier sql "CREATE BOARD c (id text)"
! pier: error: ReservedColumnName: 'id' is a base column of every board and cannot be redeclared
[exit 1]
$ pier sql "CREATE BOARD c (x text, X text)"
! pier: error: DuplicateColumn: column 'X' is declared twice
[exit 1]
$ pier sql "CREATE BOARD c (_x text)"
! pier: error: ReservedColumnName: column name '_x' is reserved: names starting with '_' belong to the engine
[exit 1]
$ pier sql "CREATE BOARD c (x)"
! pier: error: UnknownType: unknown type '' for column 'x': use boolean, tinyint, smallint, integer, bigint, hugeint, float, double, text, timestamp, json, uint8, uint16, uint32, uint64, decimal or decimal(p,s), varchar(n), enum('a',...), uuid, date, time, datetime, interval, or an array T[] or T[][] of them (not of json)
[exit 1]
$ pier boards
b
loose
notes
$ pier --json schema tasks
{"table":"tasks","columns":[{"id":1,"name":"id","type":"INT64","readonly":true},{"id":2,"name":"title","type":"VARCHAR(200)","readonly":false},{"id":3,"name":"status","type":"ENUM('todo','it''s done')","readonly":false},{"id":4,"name":"budget","type":"DECIMAL(12,2)","readonly":false},{"id":5,"name":"due_at","type":"INSTANT","readonly":false},{"id":6,"name":"tags","type":"TEXT[]","readonly":false},{"id":7,"name":"body","type":"JSON","readonly":false},{"id":8,"name":"u","type":"UUID","readonly":false}],"sql":"CREATE TABLE \"tasks\" (\n    \"id\" INT64 READONLY PRIMARY KEY,\n    \"title\" VARCHAR(200) NOT NULL,\n    \"status\" ENUM('todo','it''s done') DEFAULT 'todo',\n    \"budget\" DECIMAL(12,2) CHECK (budget >= 0),\n    \"due_at\" INSTANT,\n    \"tags\" TEXT[],\n    \"body\" JSON,\n    \"u\" UUID UNIQUE\n) WITHOUT ROWID"}
