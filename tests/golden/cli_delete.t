# `delete BOARD ID...` deletes rows by id, all given ids in one atomic
# write; an id the board does not have is not an error. `compact BOARD`
# prints how many superseded row versions it reclaimed: the embedded lake
# keeps none, so 0.
$ pier insert b '[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"}]'
2
$ pier delete b a
3
$ pier --json delete b b zz c
{"watermark":4}
$ pier dump b
{"id":"d","updated_at":"2026-01-01T00:00:00.000000Z","state":null}
$ pier delete b missing
5
$ pier count b
1

# An id starting with '-' goes after "--".
$ pier insert b '{"id":"-x"}'
6
$ pier delete b -- -x d
7
$ pier count b
0

# The feed lists every id of a delete, those that were not there too.
$ pier changes b --after 2
{"resync":false,"records":[{"watermark":3,"board":"b","kind":"delete","payload":{"ids":["a"]},"committed_at":"2026-01-01T00:00:00.000000Z"},{"watermark":4,"board":"b","kind":"delete","payload":{"ids":["b","zz","c"]},"committed_at":"2026-01-01T00:00:00.000000Z"},{"watermark":5,"board":"b","kind":"delete","payload":{"ids":["missing"]},"committed_at":"2026-01-01T00:00:00.000000Z"},{"watermark":6,"board":"b","kind":"insert","payload":{"rows":[{"id":"-x"}]},"committed_at":"2026-01-01T00:00:00.000000Z"},{"watermark":7,"board":"b","kind":"delete","payload":{"ids":["-x","d"]},"committed_at":"2026-01-01T00:00:00.000000Z"}],"next":7}

# delete never creates a board.
$ pier delete nope a
! pier: error: BoardNotFound: no board 'nope'
[exit 1]
$ pier --json delete nope a
! {"error":"BoardNotFound","message":"no board 'nope'"}
[exit 1]
$ pier has-board nope
false

# compact reclaims nothing on the embedded lake; it needs the board.
$ pier compact b
0
$ pier --json compact b
{"reclaimed":0}
$ pier compact nope
! pier: error: BoardNotFound: no board 'nope'
[exit 1]

# --help, and usage errors (exit 2).
$ pier delete --help
Usage: pier [OPTIONS] delete BOARD ID...

Deletes the rows of BOARD with the given ids, all as one atomic
write. An id the board does not have is not an error. An ID starting
with '-' goes after "--".

Output: the watermark; with --json, {"watermark":N}. Fails with
BoardNotFound if there is no such board.

OPTIONS are the global options of 'pier --help'.
$ pier compact --help
Usage: pier [OPTIONS] compact BOARD

Reclaims the superseded row versions the storage keeps for BOARD.
The embedded lake replaces a row in place and keeps none, so the
answer is 0.

Output: the number of versions reclaimed; with --json,
{"reclaimed":N}. Fails with BoardNotFound if there is no such
board.

OPTIONS are the global options of 'pier --help'.
$ pier delete b
! pier: usage: delete: missing argument ID
! Try 'pier delete --help'.
[exit 2]
$ pier delete
! pier: usage: delete: missing argument BOARD
! Try 'pier delete --help'.
[exit 2]
$ pier compact
! pier: usage: compact: missing argument BOARD
! Try 'pier compact --help'.
[exit 2]
$ pier compact b c
! pier: usage: compact: unexpected argument 'c'
! Try 'pier compact --help'.
[exit 2]
