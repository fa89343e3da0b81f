# `update BOARD ID JSON|-` patches one row as one atomic write: the members
# of the patch set their columns (null clears one), the columns it does not
# name keep their values, and updated_at becomes the write's time. It
# prints the watermark, or {"watermark":N} with --json.
$ pier insert b '[{"id":"a","n":1,"t":"x"},{"id":"b","n":2,"t":"y"}]'
2
$ pier update b a '{"n":5,"t":null}'
3
$ pier get b a
id          a
updated_at  2026-01-01T00:00:00.000000Z
state       null
n           5
t           null
$ PIER_NOW=2026-02-01T12:30:00Z pier --json update b a '{"t":"later"}'
{"watermark":4}
$ pier dump b
{"id":"a","updated_at":"2026-02-01T12:30:00.000000Z","state":null,"n":5,"t":"later"}
{"id":"b","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":2,"t":"y"}

# With '-' the patch is read from stdin. A new column is inferred as on
# insert; "id" may appear with the row's own id.
$ echo '{"id":"b","flag":true}' | pier update b b -
6
$ pier get b b
id          b
updated_at  2026-01-01T00:00:00.000000Z
state       null
n           2
t           y
flag        true
$ pier schema b
board b
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
n           bigint     inferred
t           text       inferred
flag        boolean    inferred

# An id starting with '-' goes after "--".
$ pier insert b '{"id":"-x"}'
7
$ pier update b -- -x '{"n":9}'
8
$ pier --json get b -- -x
{"id":"-x","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":9,"t":null,"flag":null}

# Every failure writes nothing: the head stays where it was, and the rows
# read as before.
$ pier head
8
$ pier update b zz '{"n":1}'
! pier: error: RowNotFound: board 'b' has no row with id 'zz'
[exit 1]
$ pier --json update b zz '{"n":1}'
! {"error":"RowNotFound","message":"board 'b' has no row with id 'zz'"}
[exit 1]
$ pier update nope a '{"n":1}'
! pier: error: BoardNotFound: no board 'nope'
[exit 1]
$ pier update b a '{"n":"many"}'
! pier: error: ColumnTypeConflict: column 'n' of board 'b' is bigint, got text "many"
[exit 1]
$ pier update b a '{"n":7,"_v":1}'
! pier: error: ReservedColumnName: column name '_v' is reserved: names starting with '_' belong to the engine
[exit 1]
$ pier update b a '{"id":"other"}'
! pier: error: InvalidArgument: a patch cannot change a row's id (from 'a' to 'other')
[exit 1]
$ pier update b a '[{"n":1}]'
! pier: error: InvalidJson: a patch is one JSON object at byte 0
[exit 1]
$ pier update b a '{"n":'
! pier: error: InvalidJson: expected a value at byte 5
[exit 1]
$ head -c 1048577 /dev/zero | tr '\0' ' ' | pier update b a -
! pier: error: LimitExceeded: stdin is larger than 1048576 bytes, the most a patch may take
[exit 1]
$ pier head
8
$ pier get b a
id          a
updated_at  2026-02-01T12:30:00.000000Z
state       null
n           5
t           later
flag        null

# A strict board refuses a column it does not declare, through update as
# through insert; a value of the wrong type is refused too.
$ pier create-board s --column n=bigint --strict
9
$ pier insert s '{"id":"a","n":1}'
10
$ pier update s a '{"n":2,"m":1}'
! pier: error: UnknownColumn: column 'm' was never declared on board 's', which is strict
[exit 1]
$ pier update s a '{"n":1.5}'
! pier: error: ColumnTypeConflict: column 'n' of board 's' is bigint, got double 1.5
[exit 1]
$ pier schema s
board s (strict)
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
n           bigint     declared
$ pier get s a
id          a
updated_at  2026-01-01T00:00:00.000000Z
state       null
n           1

# --help, and usage errors (exit 2).
$ pier update --help
Usage: pier [OPTIONS] update BOARD ID JSON|-

Patches the row of BOARD whose id is ID with the members of the JSON
object JSON (with '-', read from stdin): each member sets its column,
null clears it, and the columns it does not name keep their values.
A new column is inferred, or refused, exactly as on insert; "id" may
appear only with the row's own id. The patch is one atomic write. An
ID starting with '-' goes after "--".

Output: the watermark; with --json, {"watermark":N}. Fails with
RowNotFound if there is no such row, BoardNotFound if there is no
such board (nothing is written).

OPTIONS are the global options of 'pier --help'.
$ pier update b a
! pier: usage: update: missing argument JSON|-
! Try 'pier update --help'.
[exit 2]
$ pier update b a '{}' extra
! pier: usage: update: unexpected argument 'extra'
! Try 'pier update --help'.
[exit 2]
$ pier update --bogus b a '{}'
! pier: usage: update: unknown option '--bogus'
! Try 'pier update --help'.
[exit 2]
