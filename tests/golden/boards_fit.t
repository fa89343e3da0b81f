# A value fits a column when its type is at or below the column's on the
# lattice and, for integers, within range; anything fits text, rendered as
# its canonical text.
$ pier create-board fit --column b=boolean --column t=tinyint --column s=smallint --column i=integer --column h=hugeint --column f=float --column d=double --column x=text
1
$ pier insert fit '{"id":"ok","b":true,"t":-128,"s":32767,"i":-2147483648,"h":-170141183460469231731687303715884105728,"f":0.5,"d":7,"x":2.5}'
2
$ pier --json get fit ok
{"id":"ok","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"b":true,"t":-128,"s":32767,"i":-2147483648,"h":-170141183460469231731687303715884105728,"f":0.5,"d":7.0,"x":"2.5"}
$ pier insert fit '{"id":"lower","t":true,"d":true,"x":{"k":[1,true]}}'
3
$ pier --json get fit lower
{"id":"lower","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"b":null,"t":1,"s":null,"i":null,"h":null,"f":null,"d":1.0,"x":"{\"k\":[1,true]}"}
$ pier insert fit '{"id":"text","x":true}'
4
$ pier --json get fit text
{"id":"text","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"b":null,"t":null,"s":null,"i":null,"h":null,"f":null,"d":null,"x":"true"}

# Out of range, or above the column's type: refused, nothing written.
$ pier insert fit '{"id":"r1","t":128}'
! pier: error: ColumnTypeConflict: column 't' of board 'fit' is tinyint, got bigint 128, out of its range
[exit 1]
$ pier insert fit '{"id":"r2","s":-32769}'
! pier: error: ColumnTypeConflict: column 's' of board 'fit' is smallint, got bigint -32769, out of its range
[exit 1]
$ pier insert fit '{"id":"r3","i":2147483648}'
! pier: error: ColumnTypeConflict: column 'i' of board 'fit' is integer, got bigint 2147483648, out of its range
[exit 1]
$ pier insert fit '{"id":"r4","h":170141183460469231731687303715884105728}'
! pier: error: ColumnTypeConflict: column 'h' of board 'fit' is hugeint, got integer 170141183460469231731687303715884105728: an integer beyond 128 bits, which no number column holds exactly; write it as a string
[exit 1]
$ pier insert fit '{"id":"r5","b":1}'
! pier: error: ColumnTypeConflict: column 'b' of board 'fit' is boolean, got bigint 1
[exit 1]
$ pier insert fit '{"id":"r6","i":1.5}'
! pier: error: ColumnTypeConflict: column 'i' of board 'fit' is integer, got double 1.5
[exit 1]
$ pier insert fit '{"id":"r7","f":1e39}'
! pier: error: ColumnTypeConflict: column 'f' of board 'fit' is float, got double 1e39
[exit 1]
$ pier insert fit '{"id":"r8","d":"1.5"}'
! pier: error: ColumnTypeConflict: column 'd' of board 'fit' is double, got text "1.5"
[exit 1]
$ pier count fit
3

# A timestamp column takes RFC 3339 instants, stored in UTC with
# microseconds (a finer fraction is rounded to the nearest one); nothing
# else fits it.
$ pier create-board events --column at=timestamp
5
$ pier insert events '[{"id":"e1","at":"2026-03-01T10:00:00+02:00"},{"id":"e2","at":"1969-12-31T23:59:59.9999999Z"}]'
6
$ pier dump events
{"id":"e1","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"at":"2026-03-01T08:00:00.000000Z"}
{"id":"e2","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"at":"1970-01-01T00:00:00.000000Z"}
$ pier insert events '{"id":"e3","at":"2026-02-30T00:00:00Z"}'
! pier: error: ColumnTypeConflict: column 'at' of board 'events' is timestamp, got text "2026-02-30T00:00:00Z"
[exit 1]
$ pier insert events '{"id":"e3","at":"2026-03-01 10:00"}'
! pier: error: ColumnTypeConflict: column 'at' of board 'events' is timestamp, got text "2026-03-01 10:00"
[exit 1]
$ pier insert events '{"id":"e3","at":1767225600}'
! pier: error: ColumnTypeConflict: column 'at' of board 'events' is timestamp, got bigint 1767225600
[exit 1]
$ pier count events
2
