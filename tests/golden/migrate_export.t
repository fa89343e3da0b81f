# `schema export` prints the lake as a declaration: tables made by pier sql
# and by migrations, defaults, backfills, constraints, indexes, views,
# boards with their inferred columns, and who made each. Planned against
# the lake it came from, it is no step: a team adopts what it has.
$ pier sql "CREATE TABLE parents (id INT64 PRIMARY KEY, label TEXT NOT NULL); CREATE TABLE children (id INT64 PRIMARY KEY, parent_id INT64 NOT NULL REFERENCES parents(id) ON DELETE CASCADE, qty DECIMAL(10,2) NOT NULL DEFAULT 1, CONSTRAINT positive_qty CHECK (qty > 0)); CREATE INDEX children_parent ON children (parent_id)"
$ printf '%s\n' 'CREATE TABLE notes (id INT64 PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL, created INSTANT NOT NULL DEFAULT now());' 'CREATE VIEW bodies (body TEXT) AS SELECT body FROM notes;' > notes.sql
$ pier migrate notes.sql
metadata     create_table         notes: 3 columns
metadata     create_view          bodies: 1 column
2
$ pier sql "INSERT INTO notes(body) VALUES ('a'), ('b')"
2 rows changed
$ printf '%s\n' 'CREATE TABLE notes (id INT64 PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL, created INSTANT NOT NULL DEFAULT now(),' "  tag TEXT NOT NULL DEFAULT 'x' BACKFILL 'old');" 'CREATE VIEW bodies (body TEXT) AS SELECT body FROM notes;' | pier migrate -
metadata     add_column           notes: tag TEXT NOT NULL BACKFILL 'old' DEFAULT 'x'
3
$ pier insert events '{"id":"e1","kind":"click","n":1.5}'
5
$ pier schema export
-- The lake as a declaration (pier schema export): pier migrate of this file
-- makes no step.

-- table "children": not managed (made outside migrations; no declaration drops it)
CREATE TABLE "children" (
    "id" INT64 PRIMARY KEY NOT NULL,
    "parent_id" INT64 NOT NULL REFERENCES "parents" ("id") ON DELETE CASCADE,
    "qty" DECIMAL(10,2) NOT NULL DEFAULT 1,
    CONSTRAINT "positive_qty" CHECK (qty > 0)
);

-- table "notes": managed (a migration made it; a declaration that owns the database drops it when it is no longer declared)
CREATE TABLE "notes" (
    "id" INT64 PRIMARY KEY AUTOINCREMENT NOT NULL,
    "body" TEXT NOT NULL,
    "created" INSTANT NOT NULL DEFAULT now(),
    "tag" TEXT NOT NULL DEFAULT 'x' BACKFILL 'old'
);

-- table "parents": not managed (made outside migrations; no declaration drops it)
CREATE TABLE "parents" (
    "id" INT64 PRIMARY KEY NOT NULL,
    "label" TEXT NOT NULL
);

-- index "children_parent": not managed (made outside migrations; no declaration drops it)
CREATE INDEX "children_parent" ON "children" (parent_id);

-- view "bodies": managed (a migration made it; a declaration that owns the database drops it when it is no longer declared)
CREATE VIEW "bodies" ("body" TEXT) AS SELECT body FROM notes;

-- board "events": not managed (made outside migrations; no declaration drops it)
CREATE BOARD events ("kind" text, "n" double);
$ pier schema export > all.sql
$ pier plan all.sql
-- no steps: the lake is what the declaration states
-- fingerprint 893523c89a66596c
$ pier migrate all.sql
-- no steps: the lake is what the declaration states
5
# Exported, the board and the pier sql tables stay unmanaged: a
# declaration that owns the lake still does not drop them.
$ echo 'CREATE TABLE notes (id INT64 PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL, created INSTANT NOT NULL DEFAULT now(), tag TEXT NOT NULL DEFAULT '"'x'"' BACKFILL '"'old'"')' | pier plan --allow-destructive --schema-owns-database -
destructive  drop_view            bodies
-- fingerprint 893523c89a66596c

# `introspect` reports every object with its ids, constraints, defaults,
# backfills, counters and managed flag.
$ pier introspect
table children (id 2): not managed
column     id  type           null  default  backfill  flags
id         3   INT64          no    -        -         -
parent_id  4   INT64          no    -        -         -
qty        5   DECIMAL(10,2)  no    1        -         -
  primary key (id)
  foreign key children_parent_id_fkey: parent_id references parents(id) on delete cascade
  check positive_qty (qty > 0)

table notes (id 3): managed
column   id  type     null  default  backfill  flags
id       6   INT64    no    -        -         autoincrement
body     7   TEXT     no    -        -         -
created  8   INSTANT  no    now()    -         -
tag      9   TEXT     no    'x'      'old'     added
  primary key (id)
  autoincrement id: counter 2

table parents (id 1): not managed
column  id  type   null  default  backfill  flags
id      1   INT64  no    -        -         -
label   2   TEXT   no    -        -         -
  primary key (id)

view bodies: managed
  body TEXT
  AS SELECT body FROM notes

index children_parent: not managed
  ON children (parent_id)

board events: not managed
  id 1 text base
  updated_at 2 timestamp base
  state 3 text base
  kind 4 text inferred
  n 5 double inferred
$ pier introspect --json
{"tables":[{"name":"children","id":2,"managed":false,"columns":[{"id":3,"name":"id","type":"INT64","nullable":false,"default":null,"backfill":null,"readonly":false,"autoincrement":false,"added":false},{"id":4,"name":"parent_id","type":"INT64","nullable":false,"default":null,"backfill":null,"readonly":false,"autoincrement":false,"added":false},{"id":5,"name":"qty","type":"DECIMAL(10,2)","nullable":false,"default":"1","backfill":null,"readonly":false,"autoincrement":false,"added":false}],"keys":[{"name":null,"primary":true,"columns":["id"]}],"foreign_keys":[{"name":"children_parent_id_fkey","column":"parent_id","table":"parents","parent_column":"id","on_delete":"cascade"}],"checks":[{"name":"positive_qty","expr":"qty > 0"}]},{"name":"notes","id":3,"managed":true,"columns":[{"id":6,"name":"id","type":"INT64","nullable":false,"default":null,"backfill":null,"readonly":false,"autoincrement":true,"added":false},{"id":7,"name":"body","type":"TEXT","nullable":false,"default":null,"backfill":null,"readonly":false,"autoincrement":false,"added":false},{"id":8,"name":"created","type":"INSTANT","nullable":false,"default":"now()","backfill":null,"readonly":false,"autoincrement":false,"added":false},{"id":9,"name":"tag","type":"TEXT","nullable":false,"default":"'x'","backfill":"'old'","readonly":false,"autoincrement":false,"added":true}],"keys":[{"name":null,"primary":true,"columns":["id"]}],"foreign_keys":[],"checks":[],"autoincrement":{"column":"id","counter":2}},{"name":"parents","id":1,"managed":false,"columns":[{"id":1,"name":"id","type":"INT64","nullable":false,"default":null,"backfill":null,"readonly":false,"autoincrement":false,"added":false},{"id":2,"name":"label","type":"TEXT","nullable":false,"default":null,"backfill":null,"readonly":false,"autoincrement":false,"added":false}],"keys":[{"name":null,"primary":true,"columns":["id"]}],"foreign_keys":[],"checks":[]}],"views":[{"name":"bodies","managed":true,"columns":[{"name":"body","type":"TEXT"}],"sql":"SELECT body FROM notes"}],"indexes":[{"name":"children_parent","table":"children","unique":false,"managed":false,"sql":"(parent_id)"}],"boards":[{"name":"events","managed":false,"strict":false,"columns":[{"id":1,"name":"id","type":"text","origin":"base"},{"id":2,"name":"updated_at","type":"timestamp","origin":"base"},{"id":3,"name":"state","type":"text","origin":"base"},{"id":4,"name":"kind","type":"text","origin":"inferred"},{"id":5,"name":"n","type":"double","origin":"inferred"}]}],"opaque":[]}
