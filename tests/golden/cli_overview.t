# The overview of a lake: `boards --counts` and `tables --counts` list
# each board or declared table with its rows, and `stats BOARD` one
# board's figures (rows, bytes of the lake file its table and index take,
# whole 4 KiB pages; columns, base ones included; the change records the
# feed keeps for it). Reads: without a lake they fail with LakeUnavailable
# and make none; an unknown or malformed board fails and prints nothing on
# stdout; `stats` alone is the lake's figures as before.
$ pier boards --counts
! pier: error: LakeUnavailable: no lake at './pier-data': './pier-data/lake.sqlite' does not exist (a read makes no lake)
[exit 1]
$ ls
$ pier stats b
! pier: error: LakeUnavailable: no lake at './pier-data': './pier-data/lake.sqlite' does not exist (a read makes no lake)
[exit 1]
$ ls
$ pier insert orders '[{"id":"a","n":1},{"id":"b","n":2},{"id":"c","n":3}]'
2
$ pier insert people '{"id":"x","name":"Ann"}'
4
$ pier create-board empty
5
$ pier boards --counts
empty   0
orders  3
people  1
$ pier --json boards --counts
[{"board":"empty","rows":0},{"board":"orders","rows":3},{"board":"people","rows":1}]
$ pier boards
empty
orders
people
$ pier stats orders
board           orders
rows            3
bytes           8192
columns         4
change records  2
$ pier stats orders --json
{"board":"orders","rows":3,"bytes":8192,"columns":4,"change_records":2}
$ pier stats empty
board           empty
rows            0
bytes           8192
columns         3
change records  1
$ pier stats nope
! pier: error: BoardNotFound: no board 'nope'
[exit 1]
$ pier --json stats nope
! {"error":"BoardNotFound","message":"no board 'nope'"}
[exit 1]
$ pier stats Orders
! pier: error: InvalidBoardId: invalid board id 'Orders': a board id matches [a-z][a-z0-9_]{0,62} (a lowercase letter, then up to 62 lowercase letters, digits or underscores)
[exit 1]
$ pier stats orders people
! pier: usage: stats: unexpected argument 'people'
! Try 'pier stats --help'.
[exit 2]
$ pier boards --counts extra
! pier: usage: boards: unexpected argument 'extra'
! Try 'pier boards --help'.
[exit 2]
$ pier boards --counts=yes
! pier: usage: boards: option '--counts' takes no value
! Try 'pier boards --help'.
[exit 2]
$ pier tables --counts
$ pier sql 'CREATE TABLE t (n INT64); CREATE TABLE "Odd ""name""" (s TEXT)'
$ pier sql 'INSERT INTO t VALUES (1), (2)'
2 rows changed
$ pier tables --counts
Odd "name"  0
t           2
$ pier tables --counts --json
[{"table":"Odd \"name\"","rows":0},{"table":"t","rows":2}]
$ pier tables --counts extra
! pier: usage: tables: unexpected argument 'extra'
! Try 'pier tables --help'.
[exit 2]
$ pier stats | head -3
boards            3
rows              4
change records    5
