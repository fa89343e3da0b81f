# Drops follow what depends on what: a table a remaining table's foreign
# key references is no parent once the declaration owns the lake and no
# longer states it (InvalidSchema, as on an empty lake, nothing written);
# and an index or view that names a dropped column goes, or is replaced,
# before the column does.
$ printf '%s\n' 'CREATE TABLE children (id INT64 PRIMARY KEY, parent_id INT64 REFERENCES parents(id));' 'CREATE TABLE parents (id INT64 PRIMARY KEY);' > a.sql
$ printf '%s\n' 'CREATE TABLE children (id INT64 PRIMARY KEY, parent_id INT64 REFERENCES parents(id));' > b.sql
$ pier migrate a.sql
metadata     create_table         parents: 1 column
metadata     create_table         children: 2 columns
2
$ pier plan b.sql --schema-owns-database --allow-destructive
! pier: error: InvalidSchema: column 'parent_id' of table 'children' references table 'parents', which is neither declared nor kept in the lake: the declaration owns the lake and does not state it, so the migration would drop it (line 1, column 62 of 'b.sql')
[exit 1]
$ pier migrate b.sql --schema-owns-database --allow-destructive
! pier: error: InvalidSchema: column 'parent_id' of table 'children' references table 'parents', which is neither declared nor kept in the lake: the declaration owns the lake and does not state it, so the migration would drop it (line 1, column 62 of 'b.sql')
[exit 1]
$ pier sql "INSERT INTO parents VALUES (1); INSERT INTO children VALUES (1, 1)"
1 row changed
$ pier migrate b.sql --schema-owns-database --allow-destructive
! pier: error: InvalidSchema: column 'parent_id' of table 'children' references table 'parents', which is neither declared nor kept in the lake: the declaration owns the lake and does not state it, so the migration would drop it (line 1, column 62 of 'b.sql')
[exit 1]
$ pier sql "SELECT * FROM children"
id  parent_id
1   1
(1 row)
$ pier plan a.sql
-- no steps: the lake is what the declaration states
-- fingerprint 609655be39ab16f1

# A fresh lake reads the same declaration the same way.
$ pier --data fresh plan b.sql
! pier: error: InvalidSchema: column 'parent_id' of table 'children' references table 'parents', which is neither declared nor in the lake (line 1, column 62 of 'b.sql')
[exit 1]

# Tables that both go: the child first, rows and all.
$ printf '%s\n' 'CREATE TABLE other (id INT64 PRIMARY KEY);' > c.sql
$ pier migrate c.sql --schema-owns-database --allow-destructive
metadata     create_table         other: 1 column
destructive  drop_table           children: 1 rows
destructive  drop_table           parents: 1 rows
5
$ pier tables
other

# A column that an index and a view name, dropped with them.
$ printf '%s\n' 'CREATE TABLE c (id INT64 PRIMARY KEY, extra TEXT, k INT32);' 'CREATE INDEX c_extra ON c (extra);' 'CREATE VIEW v (id INT64, extra TEXT) AS SELECT id, extra FROM c;' 'CREATE VIEW w (id INT64, extra TEXT) AS SELECT id, extra FROM c;' > d.sql
$ printf '%s\n' 'CREATE TABLE c (id INT64 PRIMARY KEY, k INT32);' 'CREATE VIEW v (id INT64) AS SELECT id FROM c;' > e.sql
$ pier --data cols migrate d.sql
metadata     create_table         c: 3 columns
metadata     create_view          v: 2 columns
metadata     create_view          w: 2 columns
build        create_index         c_extra: on c (extra)
4
$ pier --data cols sql "INSERT INTO c VALUES (1, 'x', 2)"
1 row changed
$ pier --data cols plan e.sql --schema-owns-database --allow-destructive
metadata     replace_view         v: 1 column
metadata     drop_index           c_extra
destructive  drop_view            w
destructive  drop_column          c: extra (1 rows; rewrites every row)
-- fingerprint 5db27c31af1208c9
$ pier --data cols migrate e.sql --schema-owns-database --allow-destructive
metadata     replace_view         v: 1 column
metadata     drop_index           c_extra
destructive  drop_view            w
destructive  drop_column          c: extra (1 rows; rewrites every row)
8
$ pier --data cols sql "SELECT * FROM v"
id
1
(1 row)
$ pier --data cols plan e.sql --schema-owns-database --allow-destructive
-- no steps: the lake is what the declaration states
-- fingerprint 6bb3d0b6d2c30e64

# An index the declaration keeps cannot lose its column.
$ printf '%s\n' 'CREATE TABLE c (id INT64 PRIMARY KEY, k INT32);' 'CREATE INDEX c_k ON c (k);' > f.sql
$ printf '%s\n' 'CREATE TABLE c (id INT64 PRIMARY KEY);' 'CREATE INDEX c_k ON c (k);' > g.sql
$ pier --data cols migrate f.sql
build        create_index         c_k: on c (k)
9
$ pier --data cols migrate g.sql --allow-destructive
! pier: error: MigrationRefused: the migration is refused: column 'k' of table 'c' is dropped, but index 'c_k', which stays, names it
[exit 1]
$ pier --data cols sql "SELECT * FROM c"
id  k
1   2
(1 row)

# Nor can a view that stays: one the declaration does not state is left
# as it is.
$ printf '%s\n' 'CREATE TABLE c (id INT64 PRIMARY KEY, k INT32);' 'CREATE VIEW kv (id INT64, k INT32) AS SELECT id, k FROM c;' > h.sql
$ printf '%s\n' 'CREATE TABLE c (id INT64 PRIMARY KEY);' > i.sql
$ pier --data cols migrate h.sql
metadata     create_view          kv: 2 columns
metadata     drop_index           c_k
11
$ pier --data cols plan i.sql --allow-destructive
! pier: error: MigrationRefused: the migration is refused: column 'k' of table 'c' is dropped, but view 'kv', which stays, names it
[exit 1]
$ pier --data cols sql "SELECT * FROM kv"
id  k
1   2
(1 row)
