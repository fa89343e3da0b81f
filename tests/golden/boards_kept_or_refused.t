# A write stores each value as written or refuses the whole write; it never
# changes one without an error (docs/types.md, "Values are kept or refused,
# never changed"). updated_at is the engine's, whatever value a row gives.
$ echo '{"id":"a","n":1}' | pier insert b -
2
$ echo '{"id":"c","updated_at":"garbage"}' | pier insert b -
! pier: error: ReservedColumnName: column 'updated_at' is the engine's: every write sets it to its own time; leave it out of the row (pier export and import keep timestamps) (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ echo '{"id":"c","updated_at":5}' | pier insert b -
! pier: error: ReservedColumnName: column 'updated_at' is the engine's: every write sets it to its own time; leave it out of the row (pier export and import keep timestamps) (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ echo '{"id":"c","updated_at":"2026-01-01T00:00:00Z"}' | pier insert b -
! pier: error: ReservedColumnName: column 'updated_at' is the engine's: every write sets it to its own time; leave it out of the row (pier export and import keep timestamps) (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ echo '[{"id":"c"},{"id":"d","updated_at":null}]' | pier --json insert b -
! {"error":"ReservedColumnName","message":"column 'updated_at' is the engine's: every write sets it to its own time; leave it out of the row (pier export and import keep timestamps) (row 2) (batch 1 of stdin not written; 0 rows committed before it)"}
[exit 1]
$ pier update b a '{"updated_at":5}'
! pier: error: ReservedColumnName: column 'updated_at' is the engine's: every write sets it to its own time; leave it out of the row (pier export and import keep timestamps)
[exit 1]
$ pier upsert b '{"id":"a","updated_at":"2020-01-01T00:00:00Z"}'
! pier: error: ReservedColumnName: column 'updated_at' is the engine's: every write sets it to its own time; leave it out of the row (pier export and import keep timestamps)
[exit 1]
$ echo '[{"op":"insert","board":"b","rows":[{"id":"z","updated_at":1}]}]' | pier tx --boards b -
! pier: error: ReservedColumnName: column 'updated_at' is the engine's: every write sets it to its own time; leave it out of the row (pier export and import keep timestamps) (operation 1)
[exit 1]
$ pier create-board fresh --column updated_at=text
! pier: error: ReservedColumnName: 'updated_at' is a base column of every board and cannot be redeclared
[exit 1]
# Nothing of those was written: one row, one change after the creation.
$ pier dump b
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":1}
$ pier count b
1
$ pier head
2

# A number that would read as 0 is refused as one that would read as
# infinity is; zero written with an exponent is still zero, and a
# subnormal double is kept as that double.
$ echo '{"id":"t","r":1e-400}' | pier insert b -
! pier: error: InvalidJson: number out of range: too small for a double, it would read as 0 at byte 14 of stdin (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ echo '{"id":"t","r":-2.5e-330}' | pier insert b -
! pier: error: InvalidJson: number out of range: too small for a double, it would read as 0 at byte 14 of stdin (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ echo '{"id":"t","r":1e400}' | pier insert b -
! pier: error: InvalidJson: number out of range at byte 14 of stdin (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ echo '{"id":"t","r":0e-400}' | pier insert b -
4
$ echo '{"id":"u","r":4e-320}' | pier insert b -
5
$ pier get b t
id          t
updated_at  2026-01-01T00:00:00.000000Z
state       null
n           null
r           0.0
$ pier get b u
id          u
updated_at  2026-01-01T00:00:00.000000Z
state       null
n           null
r           3.99995546873073e-320

# An integer beyond 128 bits fits no number column: a double would round it.
# A new column refuses it as an existing one does; a text column keeps its
# digits exactly.
$ echo '{"id":"w","big":123456789012345678901234567890123456789012345}' | pier insert b -
! pier: error: ColumnTypeConflict: column 'big' of board 'b' cannot take integer 123456789012345678901234567890123456789012345: it is beyond 128 bits, which no number column holds exactly; write it as a string (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ echo '{"id":"w","n":-340282366920938463463374607431768211457}' | pier insert b -
! pier: error: ColumnTypeConflict: column 'n' of board 'b' is bigint, got integer -340282366920938463463374607431768211457: an integer beyond 128 bits, which no number column holds exactly; write it as a string (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ echo '{"id":"w","r":340282366920938463463374607431768211456}' | pier insert b -
! pier: error: ColumnTypeConflict: column 'r' of board 'b' is double, got integer 340282366920938463463374607431768211456: an integer beyond 128 bits, which no number column holds exactly; write it as a string (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ pier create-board texts --column digits=text
6
$ echo '{"id":"w","digits":123456789012345678901234567890123456789012345}' | pier insert texts -
7
$ pier get texts w
id          w
updated_at  2026-01-01T00:00:00.000000Z
state       null
digits      123456789012345678901234567890123456789012345
# 128 bits still fit a hugeint column.
$ echo '{"id":"h","hh":170141183460469231731687303715884105727}' | pier insert b -
9
$ pier get b h
id          h
updated_at  2026-01-01T00:00:00.000000Z
state       null
n           null
r           null
hh          170141183460469231731687303715884105727
$ pier count b
4
