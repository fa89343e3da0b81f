# `tx --boards B,... FILE|-` runs a JSON array of operations (insert,
# upsert, update, delete) as one transaction: all of it is written, with
# one watermark, or nothing is. The boards it may write are named up
# front. The rows and patches reach the library as the very text of the
# document, so a value beyond 64 bits stays exact.
$ pier insert acct '[{"id":"a","bal":10},{"id":"b","bal":20}]'
2
$ echo '[{"op":"update","board":"acct","id":"a","patch":{"bal":5}},{"op":"update","board":"acct","id":"b","patch":{"bal":25}},{"op":"insert","board":"log","rows":[{"id":"t1","amount":5,"big":170141183460469231731687303715884105727}]},{"op":"upsert","board":"acct","rows":[{"id":"c","bal":0}]},{"op":"delete","board":"acct","ids":["c","zz"]}]' | pier tx --boards acct,log -
8
$ pier dump acct
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"bal":5}
{"id":"b","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"bal":25}
$ pier dump log
{"id":"t1","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"amount":5,"big":170141183460469231731687303715884105727}
$ pier schema log
board log
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
amount      bigint     inferred
big         hugeint    inferred
$ pier changes log
{"resync":false,"records":[{"watermark":5,"board":"log","kind":"schema","payload":{"op":"create_board","strict":false,"columns":[{"id":5,"name":"id","type":"text","origin":"base"},{"id":6,"name":"updated_at","type":"timestamp","origin":"base"},{"id":7,"name":"state","type":"text","origin":"base"},{"id":8,"name":"amount","type":"bigint","origin":"inferred"},{"id":9,"name":"big","type":"hugeint","origin":"inferred"}]},"committed_at":"2026-01-01T00:00:00.000000Z"},{"watermark":6,"board":"log","kind":"insert","payload":{"rows":[{"id":"t1","amount":5,"big":170141183460469231731687303715884105727}]},"committed_at":"2026-01-01T00:00:00.000000Z"}],"next":6}

# The operations may come from a file, spread over lines, with --json;
# --boards may be repeated.
$ printf '[\n  {"op": "upsert", "board": "log", "rows": [{"id": "t2", "amount": 7, "rate": 1.5e3}]},\n  {"op": "delete", "board": "acct", "ids": ["b"]}\n]\n' > ops.json
$ pier --json tx --boards log --boards acct ops.json
{"watermark":11}
$ pier dump log
{"id":"t1","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"amount":5,"big":170141183460469231731687303715884105727,"rate":null}
{"id":"t2","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"amount":7,"big":null,"rate":1500.0}
$ pier count acct
1

# An empty list writes nothing and prints the head; so does input with no
# operations at all, as insert takes empty input for no rows.
$ echo '[]' | pier tx --boards acct -
11
$ printf '' | pier tx --boards acct -
11
$ printf ' \n\n' | pier --json tx --boards acct -
{"watermark":11}
$ printf '' | pier insert acct -
11
$ pier head
11

# A write to a board the transaction did not name fails with
# EntityNotAllowed, naming the operation (counted from 1); the operations
# before it are rolled back.
$ echo '[{"op":"insert","board":"acct","rows":[{"id":"x"}]},{"op":"insert","board":"other","rows":[{"id":"y"}]}]' | pier tx --boards acct -
! pier: error: EntityNotAllowed: board 'other' was not named when the transaction began (operation 2)
[exit 1]
$ pier --json tx --boards acct - <<< '[{"op":"delete","board":"log","ids":["t1"]}]'
! {"error":"EntityNotAllowed","message":"board 'log' was not named when the transaction began (operation 1)"}
[exit 1]
$ pier count acct
1
$ pier count log
2
$ pier has-board other
false

# A failing operation poisons the transaction: nothing of it is written,
# not the rows of the operations before it, nor the board one of them
# created, nor the column another inferred. The head does not move.
$ pier head
11
$ echo '[{"op":"insert","board":"acct","rows":[{"id":"x","note":"n"}]},{"op":"insert","board":"nb","rows":[{"id":"y"}]},{"op":"update","board":"acct","id":"nobody","patch":{"bal":1}}]' | pier tx --boards acct,nb -
! pier: error: RowNotFound: board 'acct' has no row with id 'nobody' (operation 3)
[exit 1]
$ pier head
11
$ pier count acct
1
$ pier schema acct
board acct
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
bal         bigint     inferred
$ pier has-board nb
false
$ pier boards
acct
log
$ pier changes acct --after 11
{"resync":false,"records":[],"next":11}

# The insert and upsert errors, through a transaction, name the operation;
# byte offsets count from the start of the input, and row numbers within
# the operation's rows.
$ echo '[{"op":"upsert","board":"acct","rows":[{"id":"a","bal":1}]},{"op":"insert","board":"acct","rows":[{"id":"q"},{"id":"r","bal":"lots"}]}]' | pier tx --boards acct -
! pier: error: ColumnTypeConflict: column 'bal' of board 'acct' is bigint, got text "lots" (row 2) (operation 2)
[exit 1]
$ echo '[{"op":"upsert","board":"acct","rows":[{"id":"a","_v":1}]}]' | pier tx --boards acct -
! pier: error: ReservedColumnName: column name '_v' is reserved: names starting with '_' belong to the engine (operation 1)
[exit 1]
$ echo '[{"op":"update","board":"acct","id":"a","patch":{"bal":{"x":1}}}]' | pier tx --boards acct -
! pier: error: ColumnTypeConflict: column 'bal' of board 'acct' is bigint, got json {"x":1} (operation 1)
[exit 1]
$ echo '[{"op":"insert","board":"acct","rows":[{"id":"a"}]}]' | pier tx --boards acct -
! pier: error: DuplicateId: board 'acct' already has a row with id 'a' (operation 1)
[exit 1]
$ echo '[{"op":"insert","board":"acct","rows":[1]}]' | pier tx --boards acct -
! pier: error: InvalidJson: expected an object or ']' at byte 39 of stdin (operation 1)
[exit 1]
$ printf '[{"op":"insert","board":"acct","rows":[{"id":"z"},"x"]}]' > bad.json
$ pier tx --boards acct bad.json
! pier: error: InvalidJson: expected an object at byte 50 of 'bad.json' (operation 1)
[exit 1]
$ pier create-board strict --column n=bigint --strict
12
$ echo '[{"op":"upsert","board":"strict","rows":[{"id":"a","n":1,"m":2}]}]' | pier tx --boards strict -
! pier: error: UnknownColumn: column 'm' was never declared on board 'strict', which is strict (operation 1)
[exit 1]
$ pier --auto-create=never tx --boards acct,newb - <<< '[{"op":"insert","board":"newb","rows":[{"id":"a"}]}]'
! pier: error: BoardNotFound: no board 'newb', and this engine creates boards only explicitly (auto-create is never) (operation 1)
[exit 1]
$ pier tx --boards acct,Bad - <<< '[]'
! pier: error: InvalidBoardId: invalid board id 'Bad': a board id matches [a-z][a-z0-9_]{0,62} (a lowercase letter, then up to 62 lowercase letters, digits or underscores)
[exit 1]
$ pier head
12
$ pier dump acct
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"bal":5}

# A malformed document is InvalidJson and writes nothing: not JSON, not
# an array, an operation that is not an object, an unknown op, a missing,
# unknown or repeated member, a member of the wrong type, a \u0000 where
# a C string goes, a number beyond the range of a double.
$ echo '[{"op":"insert",' | pier tx --boards acct -
! pier: error: InvalidJson: expected a member name at byte 17 of stdin (operation 1)
[exit 1]
$ echo '{"op":"insert","board":"acct","rows":[]}' | pier tx --boards acct -
! pier: error: InvalidJson: the operations must be a JSON array, got an object at byte 0 of stdin
[exit 1]
$ echo '[{"op":"insert","board":"acct","rows":[{"id":"n1"}]},42]' | pier tx --boards acct -
! pier: error: InvalidJson: an operation must be an object, got a number at byte 53 of stdin (operation 2)
[exit 1]
$ echo '[{"op":"merge","board":"acct"}]' | pier tx --boards acct -
! pier: error: InvalidJson: unknown op "merge": expected insert, upsert, update or delete at byte 7 of stdin (operation 1)
[exit 1]
$ echo '[{"board":"acct","rows":[]}]' | pier tx --boards acct -
! pier: error: InvalidJson: missing member 'op' at byte 26 of stdin (operation 1)
[exit 1]
$ echo '[{"op":"insert","rows":[]}]' | pier tx --boards acct -
! pier: error: InvalidJson: missing member 'board' at byte 25 of stdin (operation 1)
[exit 1]
$ echo '[{"op":"update","board":"acct","id":"a"}]' | pier tx --boards acct -
! pier: error: InvalidJson: missing member 'patch' at byte 39 of stdin (operation 1)
[exit 1]
$ echo '[{"op":"insert","board":"acct","rows":[],"ids":[]}]' | pier tx --boards acct -
! pier: error: InvalidJson: unknown member 'ids' in an insert operation at byte 41 of stdin (operation 1)
[exit 1]
$ echo '[{"op":"insert","board":"acct","rows":[{"id":"n2"}],"rows":[]}]' | pier tx --boards acct -
! pier: error: InvalidJson: member 'rows' appears twice at byte 52 of stdin (operation 1)
[exit 1]
$ echo '[{"op":"insert","board":"acct","rows":{"id":"n3"}}]' | pier tx --boards acct -
! pier: error: InvalidJson: member 'rows' must be an array, got an object at byte 38 of stdin (operation 1)
[exit 1]
$ echo '[{"op":"update","board":"acct","id":7,"patch":{}}]' | pier tx --boards acct -
! pier: error: InvalidJson: member 'id' must be a string, got a number at byte 36 of stdin (operation 1)
[exit 1]
$ echo '[{"op":"delete","board":"acct","ids":["a",null]}]' | pier tx --boards acct -
! pier: error: InvalidJson: member 'ids' must hold strings, got null (element 2) at byte 42 of stdin (operation 1)
[exit 1]
$ echo '[{"op":"delete","board":"acct\u0000x","ids":["a"]}]' | pier --json tx --boards acct -
! {"error":"InvalidJson","message":"member 'board' may not hold \\u0000 at byte 24 of stdin (operation 1)"}
[exit 1]
$ echo '[{"op":"insert","board":"acct","rows":[{"id":"n4","f":1e999}]}]' | pier tx --boards acct -
! pier: error: InvalidJson: number out of range at byte 54 of stdin (operation 1)
[exit 1]
$ pier head
12
$ pier count acct
1

# The input: a file that is not there, or a directory.
$ pier tx --boards acct missing.json
! pier: error: ReadFailed: cannot open 'missing.json': No such file or directory
[exit 1]
$ pier tx --boards acct .
! pier: error: ReadFailed: cannot read '.': Is a directory
[exit 1]

# --help, and usage errors (exit 2): --boards is required and holds
# comma-separated board ids.
$ pier tx --help
Usage: pier [OPTIONS] tx --boards BOARD[,BOARD]... FILE|-

Reads a JSON array of operations from FILE (or stdin, with '-') and
runs them, in order, as one atomic write with one watermark:
  {"op":"insert","board":B,"rows":[{...},...]}
  {"op":"upsert","board":B,"rows":[{...},...]}
  {"op":"update","board":B,"id":ID,"patch":{...}}
  {"op":"delete","board":B,"ids":[ID,...]}
Each works as the command of its name, and every row written shares
one updated_at. --boards names every board the operations may write,
up front; writing another fails with EntityNotAllowed. A board an
operation creates exists only once the transaction commits. An empty
array, or input with no operations at all, writes nothing and prints
the current head.

If an operation fails, nothing of the transaction is written: the
error ends with "(operation N)", counted from 1, and its byte
offsets count from the start of the input. A malformed document (not
an array, an unknown op, a missing, unknown or repeated member, a
member of the wrong type) is InvalidJson, and nothing is written. A
number beyond the range of a double (about 1.8e308), or so small it
would read as 0 (1e-400), is refused, as is a row naming updated_at;
every other value reaches the board exactly as written. The input may
take up to 64 MiB.

Options:
  --boards BOARD[,BOARD]...
                      The boards the operations may write (required;
                      repeatable)

Output: the watermark; with --json, {"watermark":N}.

OPTIONS are the global options of 'pier --help'.
$ pier tx -
! pier: usage: tx: missing option --boards
! Try 'pier tx --help'.
[exit 2]
$ pier tx --boards acct
! pier: usage: tx: missing argument FILE|-
! Try 'pier tx --help'.
[exit 2]
$ pier tx --boards 'acct,,log' -
! pier: usage: tx: bad --boards 'acct,,log': expected BOARD[,BOARD]...
! Try 'pier tx --help'.
[exit 2]
$ pier tx --boards= -
! pier: usage: tx: bad --boards '': expected BOARD[,BOARD]...
! Try 'pier tx --help'.
[exit 2]
$ pier tx --boards acct a.json b.json
! pier: usage: tx: unexpected argument 'b.json'
! Try 'pier tx --help'.
[exit 2]
$ pier tx --bogus --boards acct -
! pier: usage: tx: unknown option '--bogus'
! Try 'pier tx --help'.
[exit 2]
