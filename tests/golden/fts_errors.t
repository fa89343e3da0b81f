# pier fts refuses bad input with a clear error and writes nothing: an
# unknown board, an unknown column, a column that is not text, the id,
# a column named twice, an index that is there already or is not there,
# and usage errors. The lake is byte-for-byte what it was.
$ pier insert notes '{"id":"a","title":"Lake","n":1,"doc":{"k":1}}'
2
$ pier insert other '{"id":"a","title":"Other"}'
4
$ pier fts enable other title
enabled
$ cksum pier-data/lake.sqlite > before; pier head
4
$ pier fts enable nope title
! pier: error: BoardNotFound: no board 'nope'
[exit 1]
$ pier fts enable notes nope
! pier: error: UnknownColumn: board 'notes' has no column 'nope'
[exit 1]
$ pier --json fts enable notes nope
! {"error":"UnknownColumn","message":"board 'notes' has no column 'nope'"}
[exit 1]
$ pier fts enable notes n
! pier: error: ColumnTypeConflict: cannot index column 'n' of board 'notes': it is bigint, not text
[exit 1]
$ pier fts enable notes doc
! pier: error: ColumnTypeConflict: cannot index column 'doc' of board 'notes': it is json, not text
[exit 1]
$ pier fts enable notes updated_at
! pier: error: ColumnTypeConflict: cannot index column 'updated_at' of board 'notes': it is timestamp, not text
[exit 1]
$ pier fts enable notes id
! pier: error: InvalidArgument: cannot index column 'id' of board 'notes': the id is always in the index, unindexed, to join on
[exit 1]
$ pier fts enable notes title TITLE
! pier: error: DuplicateColumn: column 'title' is named twice for the index of board 'notes'
[exit 1]
$ pier fts enable other title
! pier: error: InvalidArgument: board 'other' already has a full-text index (pier fts disable it first to index other columns)
[exit 1]
$ pier fts disable notes
! pier: error: InvalidArgument: board 'notes' has no full-text index
[exit 1]
$ pier fts disable nope
! pier: error: BoardNotFound: no board 'nope'
[exit 1]
$ pier fts status nope
! pier: error: BoardNotFound: no board 'nope'
[exit 1]
$ pier fts enable 'Bad-Id' title
! pier: error: InvalidBoardId: invalid board id 'Bad-Id': a board id matches [a-z][a-z0-9_]{0,62} (a lowercase letter, then up to 62 lowercase letters, digits or underscores)
[exit 1]
$ cksum pier-data/lake.sqlite | cmp - before && echo unchanged; pier head; pier fts status notes; pier fts status other
unchanged
4
[]
["title"]

# usage errors
$ pier fts
! pier: usage: fts: missing argument enable|disable|status
! Try 'pier fts --help'.
[exit 2]
$ pier fts enable notes
! pier: usage: fts enable: missing argument COLUMN
! Try 'pier fts --help'.
[exit 2]
$ pier fts frob notes
! pier: usage: fts: unknown subcommand 'frob': enable, disable or status
! Try 'pier fts --help'.
[exit 2]
$ pier fts disable notes title
! pier: usage: fts disable: unexpected argument 'title'
! Try 'pier fts --help'.
[exit 2]
$ pier fts status
! pier: usage: fts: missing argument BOARD
! Try 'pier fts --help'.
[exit 2]

# a lake that is not there is not made
$ pier --data nolake fts enable notes title
! pier: error: LakeUnavailable: no lake at 'nolake': 'nolake/lake.sqlite' does not exist (a read makes no lake)
[exit 1]
$ pier --data nolake fts status notes
! pier: error: LakeUnavailable: no lake at 'nolake': 'nolake/lake.sqlite' does not exist (a read makes no lake)
[exit 1]
$ ls -d nolake 2>/dev/null || echo no lake
no lake
