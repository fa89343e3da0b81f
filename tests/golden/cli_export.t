# pier export writes the whole lake as JSON lines and pier import loads it
# into a new lake (docs/backup.md): export, import, export again gives the
# same bytes, on a lake with boards inferred and declared, strict, widened,
# with an all-null column and deleted rows, declared tables of many types
# with keys, checks, foreign keys, an index, a view and a commit trigger.
$ pier insert b '[{"id":"a","n":1,"f":1.5,"s":"x\u0000y","ok":true,"tags":["t",1]},{"id":"b","n":2,"s":"é😀"},{"id":"gone","n":3}]'
2
$ PIER_NOW=2025-05-05T05:05:05.123456Z pier upsert b '{"id":"b","n":2,"s":"é😀"}'
3
$ pier delete b gone
4
$ pier widen b n double
5
$ pier add-column b never text
6
$ pier create-board s --column 'amount=decimal(12,2)' --column 'u=uuid' --column 'at=timestamp' --column "mood=enum('ok','bad')" --column 'xs=bigint[]' --column 'big=hugeint' --strict
7
$ pier insert s '{"id":"r1","amount":"12.34","u":"0190a0f1-0000-7000-8000-000000000000","at":"2026-03-01T10:00:00.000001Z","mood":"bad","xs":[1,-2],"big":170141183460469231731687303715884105727}'
8
$ pier sql "CREATE TABLE p (id INT64 PRIMARY KEY, code TEXT UNIQUE, n INT32 NOT NULL CHECK (n > 0), price DECIMAL(10,2), k UUID, at INSTANT, mood ENUM('ok','bad'), tags TEXT[], doc JSON, f DOUBLE, raw BLOB)" >/dev/null
$ pier sql "CREATE TABLE c (id INT64 PRIMARY KEY, p INT64 REFERENCES p(id)); CREATE TABLE k (a TEXT, b TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID; CREATE TABLE log (id INT64 PRIMARY KEY, n INT64)" >/dev/null
$ pier sql "INSERT INTO p VALUES (1, 'x', 1, 1.10, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '2026-03-01T10:00:00+02:00', 'ok', '[\"a\",null]', '{\"b\":[1,2],\"a\":null}', 0.1, x'00ff'), (2, NULL, 7, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL); INSERT INTO c VALUES (1, 1), (2, 2); INSERT INTO k VALUES ('a', 'b')"
1 row changed
$ pier sql "CREATE INDEX p_mood ON p(mood); CREATE VIEW cheap AS SELECT id, price FROM p WHERE price < 5; CREATE COMMIT TRIGGER count_c ON c AS INSERT INTO log(n) SELECT count(*) FROM c" >/dev/null
$ pier sql "INSERT INTO c VALUES (3, 1)"
1 row changed

# Export, import into a new lake, export again: the same bytes.
$ pier export e1.jsonl
$ pier --data n import e1.jsonl
$ pier --data n export e2.jsonl
$ cmp e1.jsonl e2.jsonl && echo identical
identical
$ pier --data n export - | cmp - e1.jsonl && echo identical
identical
$ head -1 e1.jsonl; tail -1 e1.jsonl
{"pier_export":1,"format":5}
{"end":77}

# The imported lake is the lake: rows with their updated_at and values,
# types, strictness, the feed and its head, declared tables and views,
# and it takes writes (the commit trigger still runs).
$ pier --data n dump b
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":1.0,"f":1.5,"s":"x\u0000y","ok":true,"tags":["t",1],"never":null}
{"id":"b","updated_at":"2025-05-05T05:05:05.123456Z","state":null,"n":2.0,"f":null,"s":"é😀","ok":null,"tags":null,"never":null}
$ pier --data n schema b
board b
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
n           double     inferred
f           double     inferred
s           text       inferred
ok          boolean    inferred
tags        json       inferred
never       text       declared
$ pier --data n --json schema s
{"board":"s","strict":true,"columns":[{"name":"id","type":"text"},{"name":"updated_at","type":"timestamp"},{"name":"state","type":"text"},{"name":"amount","type":"decimal(12,2)"},{"name":"u","type":"uuid"},{"name":"at","type":"timestamp"},{"name":"mood","type":"enum('ok','bad')"},{"name":"xs","type":"bigint[]"},{"name":"big","type":"hugeint"}]}
$ pier --data n dump s
{"id":"r1","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"amount":"12.34","u":"0190a0f1-0000-7000-8000-000000000000","at":"2026-03-01T10:00:00.000001Z","mood":"bad","xs":[1,-2],"big":170141183460469231731687303715884105727}
$ pier --data n head
8
$ pier --data n changes b --json | head -c 120; echo
{"resync":false,"records":[{"watermark":1,"board":"b","kind":"schema","payload":{"op":"create_board","strict":false,"col
$ pier --data n sql "SELECT * FROM p ORDER BY id" --jsonl
{"id":1,"code":"x","n":1,"price":"1.10","k":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11","at":"2026-03-01T08:00:00.000000Z","mood":"ok","tags":["a",null],"doc":{"b":[1,2],"a":null},"f":0.1,"raw":"00FF"}
{"id":2,"code":null,"n":7,"price":null,"k":null,"at":null,"mood":null,"tags":null,"doc":null,"f":null,"raw":null}
$ pier --data n sql "SELECT * FROM cheap"
id  price
1   1.10
(1 row)
$ pier --data n sql "SELECT * FROM log"
id  n
1   3
(1 row)
$ pier --data n sql "INSERT INTO c VALUES (4, 2)" && pier --data n sql "SELECT n FROM log ORDER BY id"
1 row changed
n
3
4
(2 rows)
$ pier --data n sql "INSERT INTO p(id, n) VALUES (3, 0)"
! pier: error: ConstraintCheck: CHECK (n > 0) failed for a row of p
[exit 1]
$ pier --data n insert s '{"id":"r2","other":1}'
! pier: error: UnknownColumn: column 'other' was never declared on board 's', which is strict
[exit 1]
$ pier --data n insert b '{"id":"c"}'
9
