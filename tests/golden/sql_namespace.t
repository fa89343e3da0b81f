# Boards, declared tables and views share one namespace (docs/sql.md,
# "Statements"): pier schema NAME and a declaration name each by its name
# alone. A board never takes a table's or a view's name, by any write, and
# a table or view never takes a board's, compared without regard to case.
$ pier sql "CREATE TABLE t (a INT64); CREATE VIEW v AS SELECT 1 AS one"
$ echo '{"id":"x"}' | pier insert t -
! pier: error: BoardExists: 't' is a declared table: boards, tables and views share one namespace; choose another board id (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ pier create-board v
! pier: error: BoardExists: 'v' is a declared view: boards, tables and views share one namespace; choose another board id
[exit 1]
$ pier upsert t '{"id":"x"}'
! pier: error: BoardExists: 't' is a declared table: boards, tables and views share one namespace; choose another board id
[exit 1]
$ echo '[{"op":"insert","board":"v","rows":[{"id":"x"}]}]' | pier tx --boards v -
! pier: error: BoardExists: 'v' is a declared view: boards, tables and views share one namespace; choose another board id (operation 1)
[exit 1]
$ pier sql "CREATE BOARD t"
! pier: error: BoardExists: 't' is a declared table: boards, tables and views share one namespace; choose another board id
[exit 1]
$ pier boards
$ pier create-board b
1
$ pier sql "CREATE TABLE B (a INT64)"
! pier: error: QueryFailed: 'b' is a board: boards, tables and views share one namespace; choose another name (at byte 13 of the script)
[exit 1]
$ pier sql "CREATE VIEW b AS SELECT 1 AS one"
! pier: error: QueryFailed: 'b' is a board: boards, tables and views share one namespace; choose another name (at byte 12 of the script)
[exit 1]
$ pier sql "ALTER TABLE t RENAME TO b"
! pier: error: QueryFailed: 'b' is a board: boards, tables and views share one namespace; choose another name (at byte 0 of the script)
[exit 1]
$ pier tables
t
$ pier schema b
board b
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
# The names stay free for what may take them.
$ pier sql "CREATE TABLE b2 (a INT64); ALTER TABLE b2 RENAME TO b3"
$ echo '{"id":"x"}' | pier insert t2 -
3
$ pier boards
b
t2
$ pier tables
b3
t
