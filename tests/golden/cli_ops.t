# The operations commands. `head` prints the lake's newest watermark (0 on
# a new lake); `stats` prints the lake's figures as an aligned table, or
# one JSON object; `maintain` and `flush` print nothing on success, in
# both modes. The size of the lake file depends on SQLite's page layout,
# so it is shown as N here.
$ pier flush
$ pier head
0
$ pier --json head
{"head":0}
$ pier stats | sed -E 's/^(lake bytes +)[0-9]+$/\1N/'
boards            0
rows              0
change records    0
head              0
floor             0
lake bytes        N
wal bytes         0
writes            0
queries           0
last maintenance  never
$ pier --json stats | sed -E 's/"lake_bytes":[0-9]+/"lake_bytes":N/'
{"boards":0,"rows":0,"change_records":0,"head":0,"floor":0,"lake_bytes":N,"wal_bytes":0,"writes":0,"queries":0,"last_maintenance":null}
$ pier insert b '[{"id":"a"},{"id":"b"}]'
2
$ pier insert c '{"id":"x","n":1}'
4
$ pier head
4
$ pier --json head
{"head":4}

# maintain with nothing old enough drops no record: the floor stays 0.
# It records when it ran.
$ pier maintain
$ pier --json maintain --older-than-hours 1
$ pier stats | sed -E 's/^(lake bytes +)[0-9]+$/\1N/'
boards            2
rows              3
change records    4
head              4
floor             0
lake bytes        N
wal bytes         0
writes            0
queries           0
last maintenance  2026-01-01T00:00:00.000000Z
$ pier --json stats | sed -E 's/"lake_bytes":[0-9]+/"lake_bytes":N/'
{"boards":2,"rows":3,"change_records":4,"head":4,"floor":0,"lake_bytes":N,"wal_bytes":0,"writes":0,"queries":0,"last_maintenance":"2026-01-01T00:00:00.000000Z"}

# Records older than --older-than-hours go (the newest is always kept)
# and the floor moves to the highest watermark dropped.
$ PIER_NOW=2026-01-03T00:00:00Z pier insert c '{"id":"y","n":2}'
5
$ PIER_NOW=2026-01-03T00:00:00Z pier maintain --older-than-hours 24
$ PIER_NOW=2026-01-03T00:00:00Z pier stats | sed -E 's/^(lake bytes +)[0-9]+$/\1N/'
boards            2
rows              4
change records    1
head              5
floor             4
lake bytes        N
wal bytes         0
writes            0
queries           0
last maintenance  2026-01-03T00:00:00.000000Z
$ pier changes c
{"resync":true,"from":4}

# flush checks the board it is given; the embedded lake buffers nothing.
$ pier flush
$ pier flush b
$ pier --json flush b
$ pier flush nope
! pier: error: BoardNotFound: no board 'nope'
[exit 1]
$ pier --json flush nope
! {"error":"BoardNotFound","message":"no board 'nope'"}
[exit 1]

# The lake stays unchanged by these: reads still see every row.
$ pier count b
2
$ pier count c
2

# --help, and usage errors (exit 2).
$ pier head --help
Usage: pier [OPTIONS] head

Prints the newest watermark of the lake: the position of the last
change committed, 0 if nothing was ever written.

Output: the number alone; with --json, {"head":N}.

OPTIONS are the global options of 'pier --help'.
$ pier stats --help
Usage: pier [OPTIONS] stats [BOARD]

Shows the lake's figures: its boards, their rows, the change records
kept, the head and the retention floor of the feed, the size of the
lake file and of its write-ahead log, the writes and reads served by
the engine this command opened (a fresh one, so 0), and when
maintain last ran.

With BOARD, that board's instead, read together: its rows, the bytes
of the lake file its rows and indexes take (whole pages, as SQLite's
dbstat counts them; unknown if the libsqlite3 lacks dbstat), its
columns (id, updated_at and state included) and the change records
the feed keeps for it. BoardNotFound if there is no such board;
TopologyUnsupported on a PostgreSQL lake, whose node holds replicas.

Output: an aligned two-column table, one line per figure: boards,
rows, change records, head, floor, lake bytes, wal bytes, writes,
queries, last maintenance (RFC 3339, or never). With --json, one
object: {"boards":N,"rows":N,"change_records":N,"head":N,
"floor":N,"lake_bytes":N,"wal_bytes":N,"writes":N,"queries":N,
"last_maintenance":"RFC 3339" or null}. With BOARD: board, rows,
bytes, columns, change records; with --json {"board":B,"rows":N,
"bytes":N or null,"columns":N,"change_records":N}.

OPTIONS are the global options of 'pier --help'.
$ pier maintain --help
Usage: pier [OPTIONS] maintain [--older-than-hours N]

Drops the change records committed more than N hours ago (the newest
record is always kept) and moves the feed's retention floor to the
highest watermark dropped: a consumer reading from below it is told
to resync. Then checkpoints the write-ahead log and returns free
pages to the file system.

Options:
  --older-than-hours N
                      Drop records older than N hours (default: 168,
                      a week; 0 drops all but the newest)

Output: nothing, in both modes; the exit status says it worked.

OPTIONS are the global options of 'pier --help'.
$ pier flush --help
Usage: pier [OPTIONS] flush [BOARD]

Writes the changes buffered for BOARD, or for every board, to the
lake. The embedded lake buffers nothing, so this only checks that
BOARD exists.

Output: nothing, in both modes; the exit status says it worked.
Fails with BoardNotFound if there is no such board.

OPTIONS are the global options of 'pier --help'.
$ pier head now
! pier: usage: head: unexpected argument 'now'
! Try 'pier head --help'.
[exit 2]
$ pier stats --all
! pier: usage: stats: unknown option '--all'
! Try 'pier stats --help'.
[exit 2]
$ pier maintain --older-than-hours
! pier: usage: maintain: option '--older-than-hours' needs a value
! Try 'pier maintain --help'.
[exit 2]
$ pier maintain --older-than-hours=-1
! pier: usage: maintain: option '--older-than-hours' takes a number of hours from 0 to 2147483647, not '-1'
! Try 'pier maintain --help'.
[exit 2]
$ pier maintain --older-than-hours 1.5
! pier: usage: maintain: option '--older-than-hours' takes a number of hours from 0 to 2147483647, not '1.5'
! Try 'pier maintain --help'.
[exit 2]
$ pier maintain --older-than-hours 2147483648
! pier: usage: maintain: option '--older-than-hours' takes a number of hours from 0 to 2147483647, not '2147483648'
! Try 'pier maintain --help'.
[exit 2]
$ pier maintain b
! pier: usage: maintain: unexpected argument 'b'
! Try 'pier maintain --help'.
[exit 2]
$ pier flush b c
! pier: usage: flush: unexpected argument 'c'
! Try 'pier flush --help'.
[exit 2]
