# `upsert BOARD JSON|-` writes complete rows: each replaces the stored row
# with its id (the columns it omits then read null) or is inserted; within
# one write a later row with an id wins. It creates the board like insert,
# and prints the watermark, or {"watermark":N} with --json.
$ pier insert b '{"id":"a","n":1,"t":"x"}'
2
$ pier upsert b '[{"id":"a","n":2},{"id":"c","t":"new"}]'
3
$ pier dump b
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":2,"t":null}
{"id":"c","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":null,"t":"new"}
$ PIER_NOW=2026-03-01T00:00:00Z pier --json upsert b '[{"id":"d","n":1},{"id":"d","n":2,"ok":false}]'
{"watermark":5}
$ pier dump b
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":2,"t":null,"ok":null}
{"id":"c","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":null,"t":"new","ok":null}
{"id":"d","updated_at":"2026-03-01T00:00:00.000000Z","state":null,"n":2,"t":null,"ok":false}
$ pier schema b
board b
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
n           bigint     inferred
t           text       inferred
ok          boolean    inferred
$ pier upsert fresh '{"id":"z"}'
7
$ pier dump fresh
{"id":"z","updated_at":"2026-01-01T00:00:00.000000Z","state":null}

# With '-', stdin is streamed exactly as for insert: 2500 rows are three
# atomic writes of 1000, 1000 and 500 rows. Upserting them again replaces
# every row.
$ seq 1 2500 | awk '{printf "{\"id\":\"r%05d\",\"n\":%d}\n", $1, $1}' | pier upsert big -
11
$ seq 1 2500 | awk 'BEGIN{printf "["} {printf "%s{\"id\":\"r%05d\",\"m\":\"v%d\"}", (NR>1?",":""), $1, $1} END{print "]"}' | pier --json upsert big -
{"watermark":15}
$ pier count big
2500
$ pier get big r01234
id          r01234
updated_at  2026-01-01T00:00:00.000000Z
state       null
n           null
m           v1234
$ printf '' | pier upsert big -
15
$ pier --json upsert big - < /dev/null
{"watermark":15}

# A bad row in the second batch of stdin: the first batch stays
# committed, the rest is not written, and the error counts rows and bytes
# from the start of stdin. The splitter's own errors (a comma between
# JSON lines, a row over 1 MiB) stop the stream the same way.
$ seq 1 2500 | awk '{if (NR==1500) printf "{\"id\":\"s%05d\",\"n\":\"oops\"}\n", $1; else printf "{\"id\":\"s%05d\",\"n\":%d}\n", $1, $1}' | pier upsert t -
! pier: error: ColumnTypeConflict: column 'n' of board 't' is bigint, got text "oops" (row 1500) (batch 2 of stdin not written; 1000 rows committed before it)
[exit 1]
$ pier count t
1000
$ echo '{"id":"a"} , {"id":"b"}' | pier upsert t -
! pier: error: InvalidJson: expected an object at byte 11 of stdin (JSON lines are objects separated by white space) (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ head -c 1048576 /dev/zero | tr '\0' x | awk '{printf "{\"id\":\"big\",\"t\":\"%s\"}\n", $0}' | pier upsert t -
! pier: error: LimitExceeded: the object at byte 0 of stdin is larger than 1048576 bytes, the most one row may take (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ pier count t
1000

# Every failure writes nothing: the head and the rows stay as they were.
$ pier head
17
$ pier upsert b '{"id":"a","n":"many"}'
! pier: error: ColumnTypeConflict: column 'n' of board 'b' is bigint, got text "many"
[exit 1]
$ pier upsert b '[{"id":"a","n":3},{"id":"e","_hidden":1}]'
! pier: error: ReservedColumnName: column name '_hidden' is reserved: names starting with '_' belong to the engine (row 2)
[exit 1]
$ pier upsert b '[{"id":"a","n":3},{"n":4}]'
! pier: error: MissingId: every row needs an id (a non-empty string) (row 2); name the field that holds it with --id COL, or generate ids with --id-generate uuid7
[exit 1]
$ pier --json upsert b '{"id":"a",'
! {"error":"InvalidJson","message":"expected a member name at byte 10"}
[exit 1]
$ pier create-board s --column n=bigint --strict
18
$ pier upsert s '[{"id":"a","n":1},{"id":"b","m":2}]'
! pier: error: UnknownColumn: column 'm' was never declared on board 's', which is strict (row 2)
[exit 1]
$ pier --auto-create=never upsert never '{"id":"a"}'
! pier: error: BoardNotFound: no board 'never', and this engine creates boards only explicitly (auto-create is never)
[exit 1]
$ pier head
18
$ pier dump b
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":2,"t":null,"ok":null}
{"id":"c","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":null,"t":"new","ok":null}
{"id":"d","updated_at":"2026-03-01T00:00:00.000000Z","state":null,"n":2,"t":null,"ok":false}
$ pier count s
0
$ pier has-board never
false

# --help, and usage errors (exit 2).
$ pier upsert --help
Usage: pier [OPTIONS] upsert BOARD [JSON|-] [--csv FILE] [--tsv FILE] [--id COL] [--id-generate uuid7|uuid4]

Writes complete rows to BOARD (created by the write unless
--auto-create=never): each replaces the stored row with its id (the
columns it omits then read null) or, if there is none, is inserted.
JSON is one object or an array of objects, each with an "id"; all
its rows are one atomic write, in which a later row with an id wins
over an earlier one. New columns are inferred as on insert.

With '-', stdin is streamed exactly as for insert: a JSON array of
objects or JSON lines, every 1000 rows one atomic write (fewer if
their text passes 64 MiB). If a batch fails, the batches before it
stay committed: the error says how many rows that was, and its byte
offsets count from the start of stdin.

--csv FILE|- and --tsv FILE|- read the rows from a CSV (RFC 4180) or
TSV file instead, or from stdin with '-': a header line names the
columns, each later line is a row, streamed in batches as above.
Where the board has the column, the value takes its type; elsewhere
an unquoted 42, 4.5, true or false is a number or a boolean, an
empty unquoted field is null, and anything else (anything quoted) is
text. Errors name the line of the file.

--id COL takes each row's id from the field COL (the column "id" by
default), which then is no column of its own; an integer there is
kept as its digits (7 becomes "7"). --id-generate uuid7 (or uuid4)
gives a row without an id (or with a null or empty one) a new UUID; a
row that has one keeps it.

On a terminal, a load from stdin or a file shows its progress (rows
committed, rows per second) on stderr.

Output: the watermark of the last write; with --json,
{"watermark":N}. An empty stdin writes nothing and prints the current
head.

OPTIONS are the global options of 'pier --help'.
$ pier upsert b
! pier: usage: upsert: missing argument JSON|- (or --csv FILE|-, --tsv FILE|-)
! Try 'pier upsert --help'.
[exit 2]
$ pier upsert b '{}' '{}'
! pier: usage: upsert: unexpected argument '{}'
! Try 'pier upsert --help'.
[exit 2]
