# pier query's own behaviour: how it fails (BoardNotFound creating
# nothing, InvalidBoardId, QueryFailed with SQLite's message and where),
# the SQL from stdin, --with, --min-watermark, the global --json, and the
# usage errors.
$ pier insert t '[{"id":"a","n":1},{"id":"b","n":2}]'
2
$ pier query nope 'SELECT * FROM {{board}}'
! pier: error: BoardNotFound: no board 'nope'
[exit 1]
$ pier boards
t
$ pier query 'bad id!' 'SELECT 1'
! pier: error: InvalidBoardId: invalid board id 'bad id!': a board id matches [a-z][a-z0-9_]{0,62} (a lowercase letter, then up to 62 lowercase letters, digits or underscores)
[exit 1]
$ pier query t 'SELEC id FROM {{board}}'
! pier: error: QueryFailed: the query does not compile: near "SELEC": syntax error (at byte 0 of the query)
[exit 1]
$ pier --json query t 'SELECT id FROM {{board}} WHERE'
! {"error":"QueryFailed","message":"the query does not compile: incomplete input"}
[exit 1]
$ pier query t 'SELECT * FROM nope'
! pier: error: QueryFailed: the query does not compile: no such table: nope
[exit 1]
$ pier query t 'SELECT nope FROM {{board}}'
! pier: error: QueryFailed: the query does not compile: no such column: nope (at byte 7 of the query)
[exit 1]
$ pier query t ''
! pier: error: QueryFailed: the query holds no statement
[exit 1]
$ pier query t -- '-- only a comment'
! pier: error: QueryFailed: the query holds no statement
[exit 1]

# The SQL from stdin.
$ echo 'SELECT count(*) AS n FROM {{board}}' | pier query t - --csv
n
2

# --with names the boards a query may join.
$ pier insert u '[{"id":"a","label":"first"}]'
4
$ pier query t 'SELECT t.id, u.label FROM {{board}} t JOIN {{board:u}} u USING (id)' --with u
id  label
a   first
(1 row)
$ pier query t 'SELECT count(*) AS n FROM {{board:u}}, {{board:t}}' --with u --with t --jsonl
{"n":2}
$ pier query t 'SELECT * FROM {{board:nope}}' --with nope
! pier: error: BoardNotFound: no board 'nope'
[exit 1]

# --min-watermark: the embedded lake is always at its head, so any
# watermark handed out is fresh enough; one never handed out is refused.
$ pier query t 'SELECT count(*) AS n FROM {{board}}' --min-watermark 4 --jsonl
{"n":2}
$ pier query t 'SELECT count(*) AS n FROM {{board}}' --min-watermark 99
! pier: error: InvalidArgument: watermark 99 was never handed out (the head is 4)
[exit 1]
$ pier query t 'SELECT 1' --min-watermark -1
! pier: usage: query: option '--min-watermark' takes a watermark (0 or more), not '-1'
! Try 'pier query --help'.
[exit 2]

# The global --json makes JSON the default; an option chooses another.
$ pier --json query t 'SELECT id FROM {{board}} ORDER BY id'
[
{"id":"a"},
{"id":"b"}
]
$ pier --json query t 'SELECT id FROM {{board}} ORDER BY id' --csv
id
a
b
$ pier --json query t 'SELECT id FROM {{board}} ORDER BY id' --table
id
a
b
(2 rows)

# A result that cannot be written fails with WriteFailed (exit 1), in
# every format; a closed pipe stops the query quietly, also exit 1.
$ pier query t 'SELECT id FROM {{board}}' --csv > /dev/full
! pier: error: WriteFailed: cannot write to stdout: No space left on device
[exit 1]
$ pier query t 'SELECT id FROM {{board}}' > /dev/full
! pier: error: WriteFailed: cannot write to stdout: No space left on device
[exit 1]
$ pier query t 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000) SELECT i FROM n' --jsonl > /dev/full
! pier: error: WriteFailed: cannot write to stdout: No space left on device
[exit 1]
$ pier query t 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000) SELECT i FROM n' | head -2; echo "pier exited ${PIPESTATUS[0]}"
i
1
pier exited 1
$ echo 'SELECT id FROM {{board}}' | pier shell t > /dev/full
! pier: error: WriteFailed: cannot write to stdout: No space left on device
[exit 1]

# Usage errors.
$ pier query t
! pier: usage: query: missing argument SQL
! Try 'pier query --help'.
[exit 2]
$ pier query t 'SELECT 1' extra
! pier: usage: query: unexpected argument 'extra'
! Try 'pier query --help'.
[exit 2]
$ pier query t 'SELECT 1' --json --csv
! pier: usage: query: choose one output format, not both '--json' and '--csv'
! Try 'pier query --help'.
[exit 2]
$ pier query t 'SELECT 1' --format
! pier: usage: query: unknown option '--format'
! Try 'pier query --help'.
[exit 2]
$ pier query --help
Usage: pier [OPTIONS] query BOARD SQL|- [--param NAME=VALUE]... [--params JSON] [--with OTHER]... [--with-table TABLE]... [--min-watermark N] [--max-stale DURATION] [--time-limit DURATION] [--max-value SIZE] [--max-memory SIZE] [--table|--json|--jsonl|--csv]

Runs SQL (with '-', read from stdin), one read-only statement (SELECT
or WITH ... SELECT, in SQLite's dialect), for BOARD, where {{board}}
stands for the board's rows with their column names. The statement
may read BOARD and nothing else: another board, the catalog, the
change log, sqlite_schema, a pragma, ATTACH, a write or a second
statement fails with EntityNotAllowed before anything runs. A board
named with --with may be joined as {{board:OTHER}}, a declared table
or view named with --with-table as {{table:TABLE}}, and a board's
full-text index (pier fts) read as {{fts}} or {{fts:OTHER}}, as in
  ... FROM {{board}} b JOIN {{fts}} f ON f.id = b.id
      WHERE {{fts}} MATCH :q ORDER BY bm25({{fts}})
(docs/query.md). Values are bound
to parameters, never spliced into the text; a parameter without a
value fails with PlaceholderUnbound. A query never creates a board.

Options:
  --param NAME=VALUE  Binds VALUE to :NAME, $NAME and @NAME (NAME a
                      number N: to ?N). VALUE is read as a JSON
                      scalar when it is one (5, 2.5, true, null,
                      "quoted text"), else as text; repeatable
  --params JSON       Binds an object's members by name, or an
                      array's elements as ?1, ?2...
  --with OTHER        Lets the query read board OTHER as
                      {{board:OTHER}} (and its index as
                      {{fts:OTHER}}); repeatable
  --with-table TABLE  Lets the query read the declared table or view
                      TABLE as {{table:TABLE}}; repeatable
  --min-watermark N   Runs on data at least as fresh as watermark N
  --max-stale DURATION
                      On a PostgreSQL lake that cannot be reached,
                      answers from this node's replica if it was at
                      the lake's head at most this long ago (default:
                      fails with SyncFailed)
  --time-limit DURATION
                      Stops the query once it has run this long
                      (500ms, 30s, 5m; default 30s; none: never)
  --max-value SIZE    Stops it at a text or blob longer than this
                      (4096, 64K, 16M; default 64M)
  --max-memory SIZE   Stops it once it takes this much memory
                      (default 256M)
  --table             An aligned table, nulls as null, then the
                      number of rows (the default)
  --json              One JSON array of objects, an object a line
                      (the default under the global --json)
  --jsonl             One JSON object per line
  --csv               CSV (RFC 4180) with a header line; a null is an
                      empty field, an empty text ""

Values print as their columns' types read: a timestamp as RFC 3339
UTC, a boolean as true/false, json as a JSON document; a computed
value as SQLite holds it (a blob as hexadecimal text). A later value
for a parameter replaces an earlier one. Every format streams: a
result of any size prints in constant memory (the table aligns its
columns over windows of 1000 rows).

A query that reaches a limit fails with LimitExceeded, naming the
limit. Ctrl-C stops the query (Interrupted) and the command ends;
a second Ctrl-C ends it at once.

OPTIONS are the global options of 'pier --help'.
