# The first write that mentions a column decides its type: true/false
# decides boolean, an integer bigint, an integer beyond 64 bits hugeint, any
# other number double, a string text, an object or array json.
$ pier insert kinds '{"id":"k1","flag":true,"n":42,"huge":170141183460469231731687303715884105727,"ratio":0.5,"whole":2.0,"name":"Ada","doc":{"b":[1,2],"a":null},"list":[3,"x"]}'
2
$ pier schema kinds
board kinds
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
flag        boolean    inferred
n           bigint     inferred
huge        hugeint    inferred
ratio       double     inferred
whole       double     inferred
name        text       inferred
doc         json       inferred
list        json       inferred
$ pier --json get kinds k1
{"id":"k1","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"flag":true,"n":42,"huge":170141183460469231731687303715884105727,"ratio":0.5,"whole":2.0,"name":"Ada","doc":{"a":null,"b":[1,2]},"list":[3,"x"]}

# Strings are never guessed into numbers or instants.
$ pier insert kinds '{"id":"k2","code":"007","when":"2026-01-01T00:00:00Z"}'
5
$ pier --json schema kinds
{"board":"kinds","strict":false,"columns":[{"name":"id","type":"text"},{"name":"updated_at","type":"timestamp"},{"name":"state","type":"text"},{"name":"flag","type":"boolean"},{"name":"n","type":"bigint"},{"name":"huge","type":"hugeint"},{"name":"ratio","type":"double"},{"name":"whole","type":"double"},{"name":"name","type":"text"},{"name":"doc","type":"json"},{"name":"list","type":"json"},{"name":"code","type":"text"},{"name":"when","type":"text"}]}

# A null decides nothing: a column given only nulls is not created, and the
# first value that is not null decides it later.
$ pier insert nulls '{"id":"a","maybe":null}'
7
$ pier schema nulls
board nulls
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
$ pier insert nulls '{"id":"b","maybe":7}'
9
$ pier schema nulls
board nulls
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
maybe       bigint     inferred

# One write decides from all of its values, their least upper bound:
# [1, 2.5] decides double and [1, "x"] decides text, not the first row's type.
$ pier insert lub '[{"id":"a","d":1,"t":1},{"id":"b","d":2.5,"t":"x"}]'
11
$ pier schema lub
board lub
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
d           double     inferred
t           text       inferred
$ pier dump lub
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"d":1.0,"t":"1"}
{"id":"b","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"d":2.5,"t":"x"}

# After that the type is checked, never re-decided: a value that does not
# fit is refused, and nothing of the write is stored.
$ pier insert lub '{"id":"c","d":"text now"}'
! pier: error: ColumnTypeConflict: column 'd' of board 'lub' is double, got text "text now"
[exit 1]
$ pier insert lub '{"id":"c","d":true}'
12
$ pier --json get lub c
{"id":"c","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"d":1.0,"t":null}
