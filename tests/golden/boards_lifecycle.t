# create-board, has-board, boards (sorted), schema, truncate (keeps the
# columns), drop (removes the board and every row). Each change returns a
# watermark, always larger than the one before.
$ pier create-board acme_archive
1
$ pier create-board acme_archive
! pier: error: BoardExists: board 'acme_archive' already exists
[exit 1]
$ pier has-board acme_archive
true
$ pier insert zeta '{"id":"z1","n":1}'
3
$ pier insert alpha '[{"id":"a1","n":1},{"id":"a2","n":2}]'
5
$ pier boards
acme_archive
alpha
zeta
$ pier --json boards
["acme_archive","alpha","zeta"]
$ pier truncate alpha
6
$ pier count alpha
0
$ pier schema alpha
board alpha
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
n           bigint     inferred
$ pier insert alpha '{"id":"a1","n":3}'
7
$ pier drop alpha
8
$ pier has-board alpha
false
$ pier drop alpha
! pier: error: BoardNotFound: no board 'alpha'
[exit 1]
$ pier truncate alpha
! pier: error: BoardNotFound: no board 'alpha'
[exit 1]
$ pier boards
acme_archive
zeta

# A dropped board's id can be used again; it starts with fresh columns.
$ pier insert alpha '{"id":"a1","n":"now text"}'
10
$ pier schema alpha
board alpha
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
n           text       inferred
