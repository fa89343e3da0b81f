# A failed operation prints one line `pier: error: <Tag>: <message>` on
# stderr and exits 1; with --json the same error is one line of JSON,
# {"error":"<Tag>","message":"..."}, on stderr, and stdout stays empty.
$ pier flush
$ pier count nope
! pier: error: BoardNotFound: no board 'nope'
[exit 1]
$ pier --json count nope
! {"error":"BoardNotFound","message":"no board 'nope'"}
[exit 1]
$ pier insert b '{"id":"a","n":1}'
2
$ pier insert b '{"id":"b","n":"many"}'
! pier: error: ColumnTypeConflict: column 'n' of board 'b' is bigint, got text "many"
[exit 1]
$ pier --json insert b '{"id":"b","n":"many"}'
! {"error":"ColumnTypeConflict","message":"column 'n' of board 'b' is bigint, got text \"many\""}
[exit 1]
$ pier get b zz
! pier: error: RowNotFound: board 'b' has no row with id 'zz'
[exit 1]
$ pier --json get b zz
! {"error":"RowNotFound","message":"board 'b' has no row with id 'zz'"}
[exit 1]
$ pier create-board b
! pier: error: BoardExists: board 'b' already exists
[exit 1]
$ pier --json create-board b
! {"error":"BoardExists","message":"board 'b' already exists"}
[exit 1]
$ pier create-board 'Bad-Id'
! pier: error: InvalidBoardId: invalid board id 'Bad-Id': a board id matches [a-z][a-z0-9_]{0,62} (a lowercase letter, then up to 62 lowercase letters, digits or underscores)
[exit 1]
$ pier --json insert b '{"id":"c",'
! {"error":"InvalidJson","message":"expected a member name at byte 10"}
[exit 1]

# A message holding quotes, backslashes and control characters is still
# one line of valid JSON.
$ pier --json insert b '{"id":"q\"\\", "n":"x\ty\u0001"}'
! {"error":"ColumnTypeConflict","message":"column 'n' of board 'b' is bigint, got text \"x\\ty\\u0001\""}
[exit 1]
$ pier --json insert b "$(printf '{"id":"q", "n":"\xff\xfe"}')"
! {"error":"InvalidJson","message":"invalid UTF-8 in string at byte 16"}
[exit 1]
$ pier --json create-board "$(printf 'a\tb\x01"\\\xff')"
! {"error":"InvalidBoardId","message":"invalid board id 'a\\x09b\\x01\"\\x5c\\xff': a board id matches [a-z][a-z0-9_]{0,62} (a lowercase letter, then up to 62 lowercase letters, digits or underscores)"}
[exit 1]

# --auto-create=never refuses a write to a board that does not exist.
$ pier --auto-create=never insert fresh '{"id":"a"}'
! pier: error: BoardNotFound: no board 'fresh', and this engine creates boards only explicitly (auto-create is never)
[exit 1]
$ pier has-board fresh
false
