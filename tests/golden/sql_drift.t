# DDL made behind Pier's back (sqlite3 on the lake file) is noticed: the
# next script, table list or description, dump or check fails with
# SchemaDrift naming each object,
# and nothing runs. Boards keep working. Undoing the change clears it.
# A writer without Pier (no _pier_fit) cannot write a table that has a
# checked column at all, rather than write it unchecked.
$ pier sql "CREATE TABLE t (a INT8, b TEXT); CREATE INDEX t_b ON t(b)"
$ sqlite3 pier-data/lake.sqlite "CREATE TABLE sneaky (x); DROP INDEX t_b; ALTER TABLE t ADD COLUMN c TEXT"
$ pier sql "SELECT 1"
! pier: error: SchemaDrift: the lake's schema was changed without Pier: table 'sneaky' was created without Pier; table 't' was changed without Pier; index 't_b' was dropped without Pier
[exit 1]
$ pier tables
! pier: error: SchemaDrift: the lake's schema was changed without Pier: table 'sneaky' was created without Pier; table 't' was changed without Pier; index 't_b' was dropped without Pier
[exit 1]
$ pier schema t
! pier: error: SchemaDrift: the lake's schema was changed without Pier: table 'sneaky' was created without Pier; table 't' was changed without Pier; index 't_b' was dropped without Pier
[exit 1]
$ pier schema dump
! pier: error: SchemaDrift: the lake's schema was changed without Pier: table 'sneaky' was created without Pier; table 't' was changed without Pier; index 't_b' was dropped without Pier
[exit 1]
$ pier insert b '{"id":"x"}'
2
$ sqlite3 pier-data/lake.sqlite "DROP TABLE sneaky; ALTER TABLE t DROP COLUMN c; CREATE INDEX t_b ON t(b)"
$ pier sql "SELECT 1 AS one"
one
1
(1 row)
$ sqlite3 pier-data/lake.sqlite "INSERT INTO t(a) VALUES (1000)"
! Error: in prepare, unknown function: _pier_fit()
!   INSERT INTO t(a) VALUES (1000)
!                          error here ---^
[exit 1]
$ sqlite3 pier-data/lake.sqlite "INSERT INTO t(b) VALUES ('fine')"
! Error: in prepare, unknown function: _pier_fit()
!   INSERT INTO t(b) VALUES ('fine')
!                          error here ---^
[exit 1]
$ pier sql "SELECT a, b FROM t" --csv
a,b
