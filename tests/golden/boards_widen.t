# The reference example: a value that does not fit is refused; the recovery
# is explicit: widen the column, then retry.
$ pier insert acme_roadmap '{"id":"task-1","state":"active","priority":3}'
2
$ pier insert acme_roadmap '{"id":"task-9","state":"active","priority":"N/A"}'
! pier: error: ColumnTypeConflict: column 'priority' of board 'acme_roadmap' is bigint, got text "N/A"
[exit 1]
$ pier widen acme_roadmap priority text
3
$ pier insert acme_roadmap '{"id":"task-9","state":"active","priority":"N/A"}'
4
$ pier dump acme_roadmap
{"id":"task-1","updated_at":"2026-01-01T00:00:00.000000Z","state":"active","priority":"3"}
{"id":"task-9","updated_at":"2026-01-01T00:00:00.000000Z","state":"active","priority":"N/A"}

# Narrowing is refused: nothing already written can stop fitting.
$ pier widen acme_roadmap priority tinyint
! pier: error: ColumnTypeConflict: cannot widen column 'priority' of board 'acme_roadmap' from text to tinyint: that would narrow it; columns only widen, along boolean < tinyint < smallint < integer < bigint < hugeint < float < double < text
[exit 1]

# Within the numeric chain widening changes the catalog only; values read
# back as the new type.
$ pier create-board nums --column n=tinyint --column flag=boolean --column f=float
5
$ pier insert nums '{"id":"a","n":5,"flag":true,"f":0.5}'
6
$ pier widen nums n smallint
7
$ pier widen nums n bigint
8
$ pier widen nums n double
9
$ pier widen nums flag hugeint
10
$ pier widen nums f double
11
$ pier --json get nums a
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":5.0,"flag":1,"f":0.5}
$ pier insert nums '{"id":"b","n":2.25,"flag":170141183460469231731687303715884105727}'
12
$ pier --json schema nums
{"board":"nums","strict":false,"columns":[{"name":"id","type":"text"},{"name":"updated_at","type":"timestamp"},{"name":"state","type":"text"},{"name":"n","type":"double"},{"name":"flag","type":"hugeint"},{"name":"f","type":"double"}]}

# To text every row is rewritten as its canonical text.
$ pier widen nums n text
13
$ pier widen nums flag text
14
$ pier dump nums
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":"5.0","flag":"1","f":0.5}
{"id":"b","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":"2.25","flag":"170141183460469231731687303715884105727","f":null}

# timestamp and json sit outside the lattice: neither source nor target,
# except json to text.
$ pier create-board docs --column at=timestamp --column body=json --column n=bigint
15
$ pier insert docs '{"id":"d","at":"2026-01-01T00:00:00Z","body":{"z":1,"a":2}}'
16
$ pier widen docs at text
! pier: error: ColumnTypeConflict: cannot widen column 'at' of board 'docs' from timestamp to text: timestamp sits outside the widening lattice
[exit 1]
$ pier widen docs n timestamp
! pier: error: ColumnTypeConflict: cannot widen column 'n' of board 'docs' from bigint to timestamp: widening cannot target timestamp, which sits outside the lattice
[exit 1]
$ pier widen docs body bigint
! pier: error: ColumnTypeConflict: cannot widen column 'body' of board 'docs' from json to bigint: json can only widen to text
[exit 1]
$ pier widen docs n json
! pier: error: ColumnTypeConflict: cannot widen column 'n' of board 'docs' from bigint to json: widening cannot target json
[exit 1]
$ pier widen docs body text
17
$ pier dump docs
{"id":"d","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"at":"2026-01-01T00:00:00.000000Z","body":"{\"a\":2,\"z\":1}","n":null}

# Widening to the column's own type changes nothing; base columns are fixed;
# an unknown column, type or board is refused.
$ pier widen docs n bigint
17
$ pier widen docs id text
! pier: error: ReservedColumnName: 'id' is a base column; its type is fixed
[exit 1]
$ pier widen docs updated_at text
! pier: error: ReservedColumnName: 'updated_at' is a base column; its type is fixed
[exit 1]
$ pier widen docs nope text
! pier: error: UnknownColumn: board 'docs' has no column 'nope'
[exit 1]
$ pier widen docs n number
! pier: error: UnknownType: unknown type 'number' for column 'n': use boolean, tinyint, smallint, integer, bigint, hugeint, float, double, text, timestamp, json, uint8, uint16, uint32, uint64, decimal or decimal(p,s), varchar(n), enum('a',...), uuid, date, time, datetime, interval, or an array T[] or T[][] of them (not of json)
[exit 1]
$ pier widen nowhere n text
! pier: error: BoardNotFound: no board 'nowhere'
[exit 1]
$ pier --json schema docs
{"board":"docs","strict":false,"columns":[{"name":"id","type":"text"},{"name":"updated_at","type":"timestamp"},{"name":"state","type":"text"},{"name":"at","type":"timestamp"},{"name":"body","type":"text"},{"name":"n","type":"bigint"}]}
