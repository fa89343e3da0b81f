# A view the declaration keeps is compared with the lake as the
# migration leaves it: a rename reaches the view's body (SQLite carries
# it), so a body under the new names is no step and one under the old
# names is a replace_view that fails as on an empty lake; a view still
# declared INT32 over a column widened to INT64 is ViewMismatch, as on an
# empty lake, and nothing is written.
$ printf '%s\n' 'CREATE TABLE memos (id INT64 PRIMARY KEY, text TEXT, n INT32);' 'CREATE VIEW mv (id INT64, text TEXT) AS SELECT id, text FROM memos;' 'CREATE VIEW nv (id INT64, n INT32) AS SELECT id, n FROM memos;' > a.sql
$ printf '%s\n' 'CREATE TABLE memos (id INT64 PRIMARY KEY, body TEXT RENAMED FROM text, n INT32);' 'CREATE VIEW mv (id INT64, text TEXT) AS SELECT id, body FROM memos;' 'CREATE VIEW nv (id INT64, n INT32) AS SELECT id, n FROM memos;' > new_names.sql
$ printf '%s\n' 'CREATE TABLE memos (id INT64 PRIMARY KEY, body TEXT RENAMED FROM text, n INT32);' 'CREATE VIEW mv (id INT64, text TEXT) AS SELECT id, text FROM memos;' 'CREATE VIEW nv (id INT64, n INT32) AS SELECT id, n FROM memos;' > old_names.sql
$ printf '%s\n' 'CREATE TABLE memos (id INT64 PRIMARY KEY, body TEXT RENAMED FROM text, n INT64);' 'CREATE VIEW mv (id INT64, text TEXT) AS SELECT id, body FROM memos;' 'CREATE VIEW nv (id INT64, n INT32) AS SELECT id, n FROM memos;' > widened.sql
$ pier migrate a.sql
metadata     create_table         memos: 3 columns
metadata     create_view          mv: 2 columns
metadata     create_view          nv: 2 columns
3
$ pier sql "INSERT INTO memos VALUES (1, 'hi', 7)"
1 row changed
$ pier plan old_names.sql
metadata     rename_column        memos: body renamed from text
metadata     replace_view         mv: 2 columns
-- fingerprint c9c9f609dbb5ddbe
$ pier migrate old_names.sql
! pier: error: QueryFailed: step replace_view of 'mv': SQLite refused the statement: no such column: text
[exit 1]
$ pier --data empty migrate old_names.sql
! pier: error: QueryFailed: step create_view of 'mv': SQLite refused the statement: no such column: text
[exit 1]
$ pier plan widened.sql
metadata     rename_column        memos: body renamed from text
metadata     widen_column         memos: n INT32 to INT64
-- fingerprint c9c9f609dbb5ddbe
$ pier migrate widened.sql
! pier: error: ViewMismatch: column 'n' of view 'nv' is declared INT32, and its body reads it from memos.n, which is INT64
[exit 1]
$ pier --data empty migrate widened.sql
! pier: error: ViewMismatch: column 'n' of view 'nv' is declared INT32, and its body reads it from memos.n, which is INT64
[exit 1]
$ pier plan a.sql
-- no steps: the lake is what the declaration states
-- fingerprint c9c9f609dbb5ddbe
$ pier plan new_names.sql
metadata     rename_column        memos: body renamed from text
-- fingerprint c9c9f609dbb5ddbe
$ pier migrate new_names.sql
metadata     rename_column        memos: body renamed from text
4
$ pier plan new_names.sql
-- no steps: the lake is what the declaration states
-- fingerprint 3a8c6d209dd33a66
$ pier sql "SELECT * FROM mv"
id  text
1   hi
(1 row)
