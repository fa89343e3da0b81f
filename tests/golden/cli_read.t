# The read commands in both output modes: get prints an aligned name/value
# table (null for null; control characters escaped so a value stays on one
# line) or, with --json, the row object; count prints the number or
# {"count":N}; dump prints JSON lines in id order in both modes; schema
# prints "board NAME" and an aligned column/type/origin table, or one JSON
# object with the columns' names and types.
$ pier create-board orders --column price=bigint --column note=text
1
$ pier insert orders '[{"id":"o2","price":12,"state":"open","tags":["a","b"]},{"id":"o1","note":"two\nlines\tand a tab","paid":true,"ratio":0.25}]'
5
$ pier get orders o1
id          o1
updated_at  2026-01-01T00:00:00.000000Z
state       null
price       null
note        two\nlines\tand a tab
tags        null
paid        true
ratio       0.25
$ pier get orders o2
id          o2
updated_at  2026-01-01T00:00:00.000000Z
state       open
price       12
note        null
tags        ["a","b"]
paid        null
ratio       null
$ pier --json get orders o1
{"id":"o1","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"price":null,"note":"two\nlines\tand a tab","tags":null,"paid":true,"ratio":0.25}
$ pier count orders
2
$ pier --json count orders
{"count":2}
$ pier dump orders
{"id":"o1","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"price":null,"note":"two\nlines\tand a tab","tags":null,"paid":true,"ratio":0.25}
{"id":"o2","updated_at":"2026-01-01T00:00:00.000000Z","state":"open","price":12,"note":null,"tags":["a","b"],"paid":null,"ratio":null}
$ pier --json dump orders
{"id":"o1","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"price":null,"note":"two\nlines\tand a tab","tags":null,"paid":true,"ratio":0.25}
{"id":"o2","updated_at":"2026-01-01T00:00:00.000000Z","state":"open","price":12,"note":null,"tags":["a","b"],"paid":null,"ratio":null}
$ pier schema orders
board orders
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
price       bigint     declared
note        text       declared
tags        json       inferred
paid        boolean    inferred
ratio       double     inferred
$ pier --json schema orders
{"board":"orders","strict":false,"columns":[{"name":"id","type":"text"},{"name":"updated_at","type":"timestamp"},{"name":"state","type":"text"},{"name":"price","type":"bigint"},{"name":"note","type":"text"},{"name":"tags","type":"json"},{"name":"paid","type":"boolean"},{"name":"ratio","type":"double"}]}

# A strict board says so; an empty board counts 0 and dumps nothing.
$ pier create-board ledger --column amount=double --strict
6
$ pier schema ledger
board ledger (strict)
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
amount      double     declared
$ pier --json schema ledger
{"board":"ledger","strict":true,"columns":[{"name":"id","type":"text"},{"name":"updated_at","type":"timestamp"},{"name":"state","type":"text"},{"name":"amount","type":"double"}]}
$ pier count ledger
0
$ pier dump ledger

# Reads never create a board.
$ pier get nope x
! pier: error: BoardNotFound: no board 'nope'
[exit 1]
$ pier dump nope
! pier: error: BoardNotFound: no board 'nope'
[exit 1]
$ pier schema nope
! pier: error: BoardNotFound: no board 'nope'
[exit 1]
$ pier --json schema nope
! {"error":"BoardNotFound","message":"no board 'nope'"}
[exit 1]
$ pier boards
ledger
orders

# An id starting with '-' goes after "--".
$ pier insert orders '{"id":"-x"}'
7
$ pier get orders -- -x
id          -x
updated_at  2026-01-01T00:00:00.000000Z
state       null
price       null
note        null
tags        null
paid        null
ratio       null
