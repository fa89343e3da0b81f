# Every step `pier migrate` applies, each shown with what it did. A table
# with rows to begin with, and a board.
$ printf '%s\n' 'CREATE TABLE items (id INT64 PRIMARY KEY, name VARCHAR(20) NOT NULL, qty INT32 NOT NULL DEFAULT 1, note TEXT);' 'CREATE BOARD ev (kind text, n integer);' > v1.sql
$ pier migrate v1.sql
metadata     create_table         items: 4 columns
metadata     create_board         ev: 2 columns
2
$ pier sql "INSERT INTO items VALUES (5, 'bolt', 3, NULL), (9, 'nut', 4, 'x')"
2 rows changed
$ pier insert ev '{"id":"e1","kind":"a","n":1}'
3

# Renames (by stable id), widenings, a default changed, NOT NULL relaxed,
# READONLY, AUTOINCREMENT adopted past the largest key, an index, a
# board's column widened and one added.
$ printf '%s\n' 'CREATE TABLE goods RENAMED FROM items (id INT64 PRIMARY KEY AUTOINCREMENT, title VARCHAR(40) NOT NULL RENAMED FROM name READONLY, qty INT64 NOT NULL DEFAULT 10, note TEXT);' 'CREATE UNIQUE INDEX goods_title ON goods (title);' 'CREATE BOARD ev (kind text, n bigint, at timestamp);' > v2.sql
$ pier plan v2.sql
metadata     rename_table         goods: renamed from items
metadata     rename_column        goods: title renamed from name
proved       adopt_autoincrement  goods: id
metadata     widen_column         goods: title VARCHAR(20) to VARCHAR(40)
metadata     set_readonly         goods: title
metadata     widen_column         goods: qty INT32 to INT64
metadata     set_default          goods: qty DEFAULT 10
metadata     widen_column         ev: n integer to bigint
metadata     add_column           ev: at timestamp
build        create_index         goods_title: unique, on goods (title)
-- fingerprint b96510eddc7135cb
$ pier migrate v2.sql
metadata     rename_table         goods: renamed from items
metadata     rename_column        goods: title renamed from name
proved       adopt_autoincrement  goods: id
metadata     widen_column         goods: title VARCHAR(20) to VARCHAR(40)
metadata     set_readonly         goods: title
metadata     widen_column         goods: qty INT32 to INT64
metadata     set_default          goods: qty DEFAULT 10
metadata     widen_column         ev: n integer to bigint
metadata     add_column           ev: at timestamp
build        create_index         goods_title: unique, on goods (title)
13
$ pier sql "INSERT INTO goods(title) VALUES ('washer') RETURNING *"
id  title   qty  note
10  washer  10   null
(1 row)
$ pier sql "UPDATE goods SET title = 'x' WHERE id = 5"
! pier: error: ReadonlyColumn: column 'title' of table 'goods' is READONLY: no UPDATE may assign it
[exit 1]
$ pier sql "INSERT INTO goods(title) VALUES ('bolt')"
! pier: error: ConstraintUnique: UNIQUE constraint failed: goods.title
[exit 1]
$ pier schema ev
board ev
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
kind        text       declared
n           bigint     declared
at          timestamp  declared
$ pier migrate v2.sql
-- no steps: the lake is what the declaration states
13

# The other way: defaults dropped, READONLY and AUTOINCREMENT dropped,
# NOT NULL set after its proof, the index replaced, then dropped.
$ pier sql "UPDATE goods SET note = '' WHERE note IS NULL"
2 rows changed
$ printf '%s\n' 'CREATE TABLE goods (id INT64 PRIMARY KEY, title VARCHAR(40) NOT NULL, qty INT64 NOT NULL, note TEXT NOT NULL);' 'CREATE UNIQUE INDEX goods_title ON goods (title, qty);' 'CREATE BOARD ev (kind text, n bigint, at timestamp);' > v3.sql
$ pier migrate v3.sql
metadata     drop_autoincrement   goods: id
metadata     drop_readonly        goods: title
metadata     drop_default         goods: qty
proved       set_not_null         goods: note
build        replace_index        goods_title: unique, on goods (title, qty)
18
$ pier sql "INSERT INTO goods(id, title) VALUES (20, 't')"
! pier: error: ConstraintNotNull: NOT NULL constraint failed: goods.qty
[exit 1]
$ pier sql "UPDATE goods SET title = 'renamed' WHERE id = 5"
1 row changed
$ printf '%s\n' 'CREATE TABLE goods (id INT64 PRIMARY KEY, title VARCHAR(40) NOT NULL, qty INT64 NOT NULL, note TEXT NOT NULL);' 'CREATE BOARD ev (kind text, n bigint, at timestamp);' | pier migrate -
metadata     drop_index           goods_title
19
# A board a migration made is dropped when a declaration that owns the
# lake no longer names it, and only with --allow-destructive.
$ echo 'CREATE TABLE goods (id INT64 PRIMARY KEY, title VARCHAR(40) NOT NULL, qty INT64 NOT NULL, note TEXT NOT NULL)' | pier migrate --schema-owns-database -
! pier: error: DestructiveChange: the migration would destroy data, and destruction is not allowed: board 'ev' (1 rows)
[exit 1]
$ echo 'CREATE TABLE goods (id INT64 PRIMARY KEY, title VARCHAR(40) NOT NULL, qty INT64 NOT NULL, note TEXT NOT NULL)' | pier migrate --schema-owns-database --allow-destructive -
destructive  drop_board           ev: 1 rows
20
$ pier boards

# Each step left a schema record in the feed of what it touched.
$ pier changes goods | tr '{' '\n' | grep -o '"op":"[a-z_]*"'
"op":"rename_table"
"op":"rename_column"
"op":"adopt_autoincrement"
"op":"widen_column"
"op":"set_readonly"
"op":"widen_column"
"op":"set_default"
"op":"create_index"
"op":"drop_autoincrement"
"op":"drop_readonly"
"op":"drop_default"
"op":"set_not_null"
"op":"replace_index"
"op":"drop_index"

# A unique index on rows is proved first: duplicates are refused with
# their values, and nothing is built.
$ pier sql "INSERT INTO goods VALUES (30, 'dup', 1, ''), (31, 'dup', 1, '')"
2 rows changed
$ echo 'CREATE TABLE goods (id INT64 PRIMARY KEY, title VARCHAR(40) NOT NULL, qty INT64 NOT NULL, note TEXT NOT NULL); CREATE UNIQUE INDEX goods_title ON goods (title)' | pier migrate -
! pier: error: ProofFailed: unique index 'goods_title' cannot be made on table 'goods': 2 rows share their values with another (('dup'))
[exit 1]
$ echo 'CREATE TABLE goods (id INT64 PRIMARY KEY, title VARCHAR(40) NOT NULL, qty INT64 NOT NULL, note TEXT NOT NULL); CREATE UNIQUE INDEX goods_title ON goods (title) WHERE id < 30' | pier migrate -
build        create_index         goods_title: unique, on goods (title) WHERE id < 30
21
