# Every board has id (text, the key), updated_at (set by the engine) and
# state (text, may be null). updated_at is the UTC time the engine accepted
# the write, the same for every row of one call (PIER_NOW fixes the clock
# here); a row that gives one is refused, whatever its value.
$ pier insert b '[{"id":"a","updated_at":"1999-01-01T00:00:00Z"},{"id":"b","updated_at":42,"state":"done"}]'
! pier: error: ReservedColumnName: column 'updated_at' is the engine's: every write sets it to its own time; leave it out of the row (pier export and import keep timestamps) (row 1)
[exit 1]
$ pier insert b '[{"id":"a"},{"id":"b","state":"done"}]'
2
$ PIER_NOW=2026-05-06T07:08:09.123456+02:00 pier insert b '{"id":"c"}'
3
$ pier dump b
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null}
{"id":"b","updated_at":"2026-01-01T00:00:00.000000Z","state":"done"}
{"id":"c","updated_at":"2026-05-06T05:08:09.123456Z","state":null}
$ pier schema b
board b
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base

# id is required: missing, null or empty is MissingId; not a string is
# ColumnTypeConflict; one holding U+0000 is InvalidArgument, on every path
# (no command could name its row); one already stored, or given twice in
# one write, is DuplicateId. None of these writes leaves anything.
$ pier insert b '{"state":"x"}'
! pier: error: MissingId: every row needs an id (a non-empty string); name the field that holds it with --id COL, or generate ids with --id-generate uuid7
[exit 1]
$ pier insert b '{"id":null}'
! pier: error: MissingId: every row needs an id (a non-empty string); name the field that holds it with --id COL, or generate ids with --id-generate uuid7
[exit 1]
$ pier insert b '{"id":""}'
! pier: error: MissingId: every row needs an id (a non-empty string); name the field that holds it with --id COL, or generate ids with --id-generate uuid7
[exit 1]
$ pier insert b '{"id":7}'
! pier: error: ColumnTypeConflict: column 'id' of board 'b' is text, got bigint 7; an id is a string; --id id takes an integer id as its digits
[exit 1]
$ pier insert b '{"id":"a\u0000b"}'
! pier: error: InvalidArgument: an id may not hold U+0000: nothing could name the row afterwards
[exit 1]
$ pier upsert b '[{"id":"fine"},{"id":"x\u0000"}]'
! pier: error: InvalidArgument: an id may not hold U+0000: nothing could name the row afterwards (row 2)
[exit 1]
$ printf '%s\n' '{"id":"y\u0000"}' | pier insert b -
! pier: error: InvalidArgument: an id may not hold U+0000: nothing could name the row afterwards (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ printf '%s' '[{"op":"insert","board":"b","rows":[{"id":"z\u0000"}]}]' | pier tx --boards b -
! pier: error: InvalidArgument: an id may not hold U+0000: nothing could name the row afterwards (operation 1)
[exit 1]
$ pier insert b '{"id":["a"]}'
! pier: error: ColumnTypeConflict: column 'id' of board 'b' is text, got json ["a"]; an id is a string
[exit 1]
$ pier insert b '{"id":"a"}'
! pier: error: DuplicateId: board 'b' already has a row with id 'a'
[exit 1]
$ pier insert b '[{"id":"x1"},{"id":"x2"},{"id":"x1"}]'
! pier: error: DuplicateId: id 'x1' is given twice in this write (rows 1 and 3)
[exit 1]
$ pier insert b '{"ID":"A"}'
4
$ pier count b
4

# state is text or null.
$ pier insert b '{"id":"s","state":3}'
! pier: error: ColumnTypeConflict: column 'state' of board 'b' is text, got bigint 3; state is a string or null
[exit 1]
$ pier insert b '{"id":"s","STATE":null}'
5
$ pier --json get b s
{"id":"s","updated_at":"2026-01-01T00:00:00.000000Z","state":null}
