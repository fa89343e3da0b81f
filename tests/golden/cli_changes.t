# `changes BOARD [--after N] [--limit K]` prints one page of a board's
# change feed as one line of JSON, in both output modes; `watch BOARD`
# follows the feed, one record per line, until SIGINT or SIGTERM, and
# exits 0. Every record carries the watermark it was written at, its kind
# and a payload that rebuilds the board; committed_at is the write's time.
$ pier insert b '[{"id":"a","n":1},{"id":"b","n":2}]'
2
$ pier insert other '{"id":"x"}'
4
$ pier update b a '{"n":10}'
5
$ PIER_NOW=2026-01-02T00:00:00Z pier upsert b '{"id":"b","t":"whole"}'
7
$ pier delete b a zz
8
$ pier changes b
{"resync":false,"records":[{"watermark":1,"board":"b","kind":"schema","payload":{"op":"create_board","strict":false,"columns":[{"id":1,"name":"id","type":"text","origin":"base"},{"id":2,"name":"updated_at","type":"timestamp","origin":"base"},{"id":3,"name":"state","type":"text","origin":"base"},{"id":4,"name":"n","type":"bigint","origin":"inferred"}]},"committed_at":"2026-01-01T00:00:00.000000Z"},{"watermark":2,"board":"b","kind":"insert","payload":{"rows":[{"id":"a","n":1},{"id":"b","n":2}]},"committed_at":"2026-01-01T00:00:00.000000Z"},{"watermark":5,"board":"b","kind":"update","payload":{"id":"a","patch":{"n":10}},"committed_at":"2026-01-01T00:00:00.000000Z"},{"watermark":6,"board":"b","kind":"schema","payload":{"op":"add_column","column":{"id":8,"name":"t","type":"text","origin":"inferred"}},"committed_at":"2026-01-02T00:00:00.000000Z"},{"watermark":7,"board":"b","kind":"upsert","payload":{"rows":[{"id":"b","t":"whole"}]},"committed_at":"2026-01-02T00:00:00.000000Z"},{"watermark":8,"board":"b","kind":"delete","payload":{"ids":["a","zz"]},"committed_at":"2026-01-01T00:00:00.000000Z"}],"next":8}
$ pier --json changes b
{"resync":false,"records":[{"watermark":1,"board":"b","kind":"schema","payload":{"op":"create_board","strict":false,"columns":[{"id":1,"name":"id","type":"text","origin":"base"},{"id":2,"name":"updated_at","type":"timestamp","origin":"base"},{"id":3,"name":"state","type":"text","origin":"base"},{"id":4,"name":"n","type":"bigint","origin":"inferred"}]},"committed_at":"2026-01-01T00:00:00.000000Z"},{"watermark":2,"board":"b","kind":"insert","payload":{"rows":[{"id":"a","n":1},{"id":"b","n":2}]},"committed_at":"2026-01-01T00:00:00.000000Z"},{"watermark":5,"board":"b","kind":"update","payload":{"id":"a","patch":{"n":10}},"committed_at":"2026-01-01T00:00:00.000000Z"},{"watermark":6,"board":"b","kind":"schema","payload":{"op":"add_column","column":{"id":8,"name":"t","type":"text","origin":"inferred"}},"committed_at":"2026-01-02T00:00:00.000000Z"},{"watermark":7,"board":"b","kind":"upsert","payload":{"rows":[{"id":"b","t":"whole"}]},"committed_at":"2026-01-02T00:00:00.000000Z"},{"watermark":8,"board":"b","kind":"delete","payload":{"ids":["a","zz"]},"committed_at":"2026-01-01T00:00:00.000000Z"}],"next":8}
$ pier changes other
{"resync":false,"records":[{"watermark":3,"board":"other","kind":"schema","payload":{"op":"create_board","strict":false,"columns":[{"id":5,"name":"id","type":"text","origin":"base"},{"id":6,"name":"updated_at","type":"timestamp","origin":"base"},{"id":7,"name":"state","type":"text","origin":"base"}]},"committed_at":"2026-01-01T00:00:00.000000Z"},{"watermark":4,"board":"other","kind":"insert","payload":{"rows":[{"id":"x"}]},"committed_at":"2026-01-01T00:00:00.000000Z"}],"next":4}

# Pages: --limit K records at most; the page's "next" is the --after of
# the following one, and a page past the end is empty and keeps it.
$ pier changes b --limit 2
{"resync":false,"records":[{"watermark":1,"board":"b","kind":"schema","payload":{"op":"create_board","strict":false,"columns":[{"id":1,"name":"id","type":"text","origin":"base"},{"id":2,"name":"updated_at","type":"timestamp","origin":"base"},{"id":3,"name":"state","type":"text","origin":"base"},{"id":4,"name":"n","type":"bigint","origin":"inferred"}]},"committed_at":"2026-01-01T00:00:00.000000Z"},{"watermark":2,"board":"b","kind":"insert","payload":{"rows":[{"id":"a","n":1},{"id":"b","n":2}]},"committed_at":"2026-01-01T00:00:00.000000Z"}],"next":2}
$ pier changes b --after 2 --limit 2
{"resync":false,"records":[{"watermark":5,"board":"b","kind":"update","payload":{"id":"a","patch":{"n":10}},"committed_at":"2026-01-01T00:00:00.000000Z"},{"watermark":6,"board":"b","kind":"schema","payload":{"op":"add_column","column":{"id":8,"name":"t","type":"text","origin":"inferred"}},"committed_at":"2026-01-02T00:00:00.000000Z"}],"next":6}
$ pier changes b --after 5 --limit 2
{"resync":false,"records":[{"watermark":6,"board":"b","kind":"schema","payload":{"op":"add_column","column":{"id":8,"name":"t","type":"text","origin":"inferred"}},"committed_at":"2026-01-02T00:00:00.000000Z"},{"watermark":7,"board":"b","kind":"upsert","payload":{"rows":[{"id":"b","t":"whole"}]},"committed_at":"2026-01-02T00:00:00.000000Z"}],"next":7}
$ pier changes b --after 7 --limit 2
{"resync":false,"records":[{"watermark":8,"board":"b","kind":"delete","payload":{"ids":["a","zz"]},"committed_at":"2026-01-01T00:00:00.000000Z"}],"next":8}
$ pier changes b --after 1000
{"resync":false,"records":[],"next":1000}

# The feed of a board that does not exist is empty; a dropped board's
# feed ends with its drop; truncate and add-column are records too.
$ pier changes nope
{"resync":false,"records":[],"next":0}
$ pier truncate other
9
$ pier add-column other note text
10
$ pier drop other
11
$ pier changes other --after 3
{"resync":false,"records":[{"watermark":4,"board":"other","kind":"insert","payload":{"rows":[{"id":"x"}]},"committed_at":"2026-01-01T00:00:00.000000Z"},{"watermark":9,"board":"other","kind":"truncate","payload":{},"committed_at":"2026-01-01T00:00:00.000000Z"},{"watermark":10,"board":"other","kind":"schema","payload":{"op":"add_column","column":{"id":9,"name":"note","type":"text","origin":"declared"}},"committed_at":"2026-01-01T00:00:00.000000Z"},{"watermark":11,"board":"other","kind":"drop","payload":{"drop":true},"committed_at":"2026-01-01T00:00:00.000000Z"}],"next":11}

# A maintain that drops nothing (every record is younger than a week)
# keeps the feed as it was.
$ pier maintain
$ pier changes b --after 5
{"resync":false,"records":[{"watermark":6,"board":"b","kind":"schema","payload":{"op":"add_column","column":{"id":8,"name":"t","type":"text","origin":"inferred"}},"committed_at":"2026-01-02T00:00:00.000000Z"},{"watermark":7,"board":"b","kind":"upsert","payload":{"rows":[{"id":"b","t":"whole"}]},"committed_at":"2026-01-02T00:00:00.000000Z"},{"watermark":8,"board":"b","kind":"delete","payload":{"ids":["a","zz"]},"committed_at":"2026-01-01T00:00:00.000000Z"}],"next":8}

# watch prints what the feed holds after --after, then waits for more;
# it stops cleanly, exit 0, on SIGINT or SIGTERM. A board that does not
# exist has nothing to print yet. (timeout runs with --foreground, which
# sends the one signal: otherwise a SIGCONT follows it to the process
# group, and a SIGCONT during LeakSanitizer's exit-time stop-the-world
# hangs any ASan build.)
$ timeout --foreground --preserve-status -s INT 2 pier watch b --after 5
{"watermark":6,"board":"b","kind":"schema","payload":{"op":"add_column","column":{"id":8,"name":"t","type":"text","origin":"inferred"}},"committed_at":"2026-01-02T00:00:00.000000Z"}
{"watermark":7,"board":"b","kind":"upsert","payload":{"rows":[{"id":"b","t":"whole"}]},"committed_at":"2026-01-02T00:00:00.000000Z"}
{"watermark":8,"board":"b","kind":"delete","payload":{"ids":["a","zz"]},"committed_at":"2026-01-01T00:00:00.000000Z"}
$ timeout --foreground --preserve-status -s TERM 2 pier --json watch b --after 7
{"watermark":8,"board":"b","kind":"delete","payload":{"ids":["a","zz"]},"committed_at":"2026-01-01T00:00:00.000000Z"}
$ timeout --foreground --preserve-status -s INT 2 pier watch nope --poll-ms 10

# Writes of other processes reach a running watch (it looks every
# --poll-ms milliseconds).
$ (timeout --foreground --preserve-status -s INT 4 pier watch live --poll-ms 20 > watch.out; echo "watch exited $?" >> watch.out) & sleep 1; pier insert live '{"id":"a"}' > /dev/null; pier update live a '{"n":1}' > /dev/null; wait; cat watch.out
{"watermark":12,"board":"live","kind":"schema","payload":{"op":"create_board","strict":false,"columns":[{"id":10,"name":"id","type":"text","origin":"base"},{"id":11,"name":"updated_at","type":"timestamp","origin":"base"},{"id":12,"name":"state","type":"text","origin":"base"}]},"committed_at":"2026-01-01T00:00:00.000000Z"}
{"watermark":13,"board":"live","kind":"insert","payload":{"rows":[{"id":"a"}]},"committed_at":"2026-01-01T00:00:00.000000Z"}
{"watermark":14,"board":"live","kind":"schema","payload":{"op":"add_column","column":{"id":13,"name":"n","type":"bigint","origin":"inferred"}},"committed_at":"2026-01-01T00:00:00.000000Z"}
{"watermark":15,"board":"live","kind":"update","payload":{"id":"a","patch":{"n":1}},"committed_at":"2026-01-01T00:00:00.000000Z"}
watch exited 0

# A reader of stdout that goes away ends the watch with exit 0: one record
# of more than 1 MB fills the pipe, head takes 30 bytes and leaves.
$ seq 1 1000 | awk '{s=sprintf("%1000s",""); gsub(/ /,"x",s); printf "{\"id\":\"r%04d\",\"t\":\"%s\"}\n", $1, s}' | pier insert big -
17
$ pier watch big | head -c 30; echo; echo "watch exited ${PIPESTATUS[0]}"
{"watermark":16,"board":"big",
watch exited 0

# Records older than --older-than-hours are dropped, the newest always
# kept, and the retention floor moves to the highest watermark dropped
# (in a lake of its own here: the floor is the lake's). A page that would
# start below the floor says to resync from it instead; watch prints the
# resync as a line of its own and goes on after "from".
$ PIER_NOW=2025-12-01T00:00:00Z pier --data aged insert old '[{"id":"a"}]'
2
$ PIER_NOW=2025-12-01T00:00:00Z pier --data aged update old a '{"n":1}'
4
$ pier --data aged update old a '{"n":2}'
5
$ pier --data aged maintain --older-than-hours 24
$ pier --data aged changes old
{"resync":true,"from":4}
$ pier --data aged changes old --after 3
{"resync":true,"from":4}
$ pier --data aged changes old --after 4
{"resync":false,"records":[{"watermark":5,"board":"old","kind":"update","payload":{"id":"a","patch":{"n":2}},"committed_at":"2026-01-01T00:00:00.000000Z"}],"next":5}
$ timeout --foreground --preserve-status -s TERM 2 pier --data aged --json watch old
{"resync":true,"from":4}
{"watermark":5,"board":"old","kind":"update","payload":{"id":"a","patch":{"n":2}},"committed_at":"2026-01-01T00:00:00.000000Z"}

# --help, and usage errors (exit 2).
$ pier changes --help
Usage: pier [OPTIONS] changes BOARD [--after N] [--limit K]

Prints BOARD's change records with a watermark above N, oldest first,
at most K of them: one page of the feed. Pass the page's "next" as
--after to read the following one; an empty page's "next" is N.
When N is below the lake's retention floor (maintain dropped records
after it, of this board or another), the page says to resync
instead: re-read the board, then continue after "from".
A board that does not exist has no records (a dropped one keeps its
feed, ending with its drop), so this never fails for want of one.

Options:
  --after N           Start after watermark N (default: 0, the start)
  --limit K           At most K records, 1 to 10000 (default: 1000)

Output, in both modes, one line of JSON:
{"resync":false,"records":[RECORD,...],"next":N} or
{"resync":true,"from":N}, where a RECORD is {"watermark":N,
"board":B,"kind":K,"payload":{...},"committed_at":"RFC 3339"}.

OPTIONS are the global options of 'pier --help'.
$ pier watch --help
Usage: pier [OPTIONS] watch BOARD [--after N] [--poll-ms MS]

Prints BOARD's change records with a watermark above N as they are
committed: first those already kept, then each new one, until SIGINT
or SIGTERM. Writes of other processes are seen within MS
milliseconds. When its position is below the lake's retention floor
(see changes), it prints a resync line and goes on after "from".
BOARD need not exist yet: its first records appear when it does.

Options:
  --after N           Start after watermark N (default: 0, the whole
                      feed kept; 'pier head' gives the current one)
  --poll-ms MS        How often to look for other processes' writes
                      (default: 100)

Output, in both modes: one line of JSON per record, {"watermark":N,
"board":B,"kind":K,"payload":{...},"committed_at":"RFC 3339"},
or {"resync":true,"from":N}; stdout is flushed after each page.
Exits 0 on SIGINT or SIGTERM, and as soon as the reader of stdout goes
away (`pier watch b | head -1`), without waiting for another record.

OPTIONS are the global options of 'pier --help'.
$ pier changes
! pier: usage: changes: missing argument BOARD
! Try 'pier changes --help'.
[exit 2]
$ pier changes b --after -1
! pier: usage: changes: option '--after' takes a watermark (0 or more), not '-1'
! Try 'pier changes --help'.
[exit 2]
$ pier changes b --after x
! pier: usage: changes: option '--after' takes a watermark (0 or more), not 'x'
! Try 'pier changes --help'.
[exit 2]
$ pier changes b --limit 0
! pier: usage: changes: option '--limit' takes a number of records from 1 to 10000, not '0'
! Try 'pier changes --help'.
[exit 2]
$ pier changes b --limit 10001
! pier: usage: changes: option '--limit' takes a number of records from 1 to 10000, not '10001'
! Try 'pier changes --help'.
[exit 2]
$ pier changes b --poll-ms 5
! pier: usage: changes: unknown option '--poll-ms'
! Try 'pier changes --help'.
[exit 2]
$ pier watch
! pier: usage: watch: missing argument BOARD
! Try 'pier watch --help'.
[exit 2]
$ pier watch b --poll-ms 0
! pier: usage: watch: option '--poll-ms' takes milliseconds from 1 to 2147483647, not '0'
! Try 'pier watch --help'.
[exit 2]
$ pier watch b --limit 5
! pier: usage: watch: unknown option '--limit'
! Try 'pier watch --help'.
[exit 2]
$ pier watch b c
! pier: usage: watch: unexpected argument 'c'
! Try 'pier watch --help'.
[exit 2]
