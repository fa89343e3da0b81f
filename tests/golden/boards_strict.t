# Declared columns are typed before any row exists, so the first value never
# decides them; strict refuses any column not declared, with UnknownColumn.
# The strict bit lives in the lake: every process that opens it (each
# command here is one) sees the same refusal.
$ pier create-board billing --column amount=double --column currency=text --column paid=boolean --column due=timestamp --strict
1
$ pier schema billing
board billing (strict)
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
amount      double     declared
currency    text       declared
paid        boolean    declared
due         timestamp  declared
$ pier --json schema billing
{"board":"billing","strict":true,"columns":[{"name":"id","type":"text"},{"name":"updated_at","type":"timestamp"},{"name":"state","type":"text"},{"name":"amount","type":"double"},{"name":"currency","type":"text"},{"name":"paid","type":"boolean"},{"name":"due","type":"timestamp"}]}
$ pier insert billing '{"id":"b1","state":"active","amount":5,"memo":"late fee"}'
! pier: error: UnknownColumn: column 'memo' was never declared on board 'billing', which is strict
[exit 1]
$ pier count billing
0
$ pier schema billing
board billing (strict)
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
amount      double     declared
currency    text       declared
paid        boolean    declared
due         timestamp  declared
$ pier insert billing '{"id":"b1","state":"active","amount":5,"currency":"EUR","paid":false,"due":"2026-03-01T00:00:00Z"}'
2
$ pier get billing b1
id          b1
updated_at  2026-01-01T00:00:00.000000Z
state       active
amount      5.0
currency    EUR
paid        false
due         2026-03-01T00:00:00.000000Z

# add-column is how a strict board gains a column; a name it already has,
# in any case, is ColumnExists.
$ pier add-column billing memo text
3
$ pier insert billing '{"id":"b2","memo":"late fee"}'
4
$ pier add-column billing MEMO text
! pier: error: ColumnExists: board 'billing' already has a column 'memo' (text)
[exit 1]
$ pier add-column billing amount bigint
! pier: error: ColumnExists: board 'billing' already has a column 'amount' (double)
[exit 1]
$ pier add-column billing notes strnig
! pier: error: UnknownType: unknown type 'strnig' for column 'notes': use boolean, tinyint, smallint, integer, bigint, hugeint, float, double, text, timestamp, json, uint8, uint16, uint32, uint64, decimal or decimal(p,s), varchar(n), enum('a',...), uuid, date, time, datetime, interval, or an array T[] or T[][] of them (not of json)
[exit 1]

# Under inference add-column fixes a type before data decides it.
$ pier add-column open_board score double
! pier: error: BoardNotFound: no board 'open_board'
[exit 1]
$ pier create-board open_board
5
$ pier add-column open_board score double
6
$ pier insert open_board '{"id":"a","score":3}'
7
$ pier --json get open_board a
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"score":3.0}

# A board created without columns still works, inferring from there.
$ pier create-board plain
8
$ pier insert plain '{"id":"p","n":1}'
10
$ pier schema plain
board plain
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
n           bigint     inferred
