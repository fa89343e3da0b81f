# The help texts are part of the CLI's surface: `pier --help`, `pier help`
# and every `pier COMMAND --help` print to stdout and exit 0, and
# `pier --version` prints the library's version, then the versions of the
# SQLite and libpq it runs on (their digits vary from one machine to the
# next: they are masked here; tests/e2e/test_install.sh checks them against
# pkg-config). Help never opens the lake,
# so nothing is created in the working directory.
$ pier --help
Usage: pier [OPTIONS] COMMAND [ARGS]

Pier keeps many user-defined tables ("boards") in one data directory.
A board is created by its first write; its column types are inferred
once and then enforced, or declared up front with create-board.

Commands:
  create-board  Create a board, with declared columns if any
  insert        Insert rows given as JSON, or streamed from stdin or CSV
  update        Patch some columns of one row
  upsert        Write whole rows: replace each id's row, or insert it
  delete        Delete rows by id
  tx            Run a list of writes as one transaction
  boards        List every board
  has-board     Tell whether a board exists
  schema        Show a board's or table's columns, dump the schema, make code
  get           Show one row
  count         Print the number of rows on a board
  dump          Print every row as JSON lines (or CSV, TSV), in id order
  query         Run a read-only SQL query on one board
  fts           Full-text search on a board: enable, disable, status
  shell         Query boards interactively
  sql           Run SQL statements on the lake's declared tables
  tables        List the declared tables
  plan          Show the steps that would migrate the lake to a declaration
  migrate       Migrate the lake to a declaration
  migrations    Create, apply, roll back or list versioned SQL files
  introspect    Report the catalog as migrations see it
  changeset     Record, apply or show a changeset (change history)
  changes       Print one page of a board's change feed
  watch         Follow a board's change feed until interrupted
  add-column    Declare a column on an existing board
  widen         Widen a column's type up the lattice
  truncate      Empty a board, keeping its columns
  compact       Reclaim a board's superseded row versions
  drop          Remove a board and all its rows
  head          Print the lake's newest watermark
  stats         Show the lake's figures, or a board's
  maintain      Drop old change records and tidy the lake files
  flush         Write buffered changes to the lake
  sync          Bring this node's replica of a board up to the lake's head
  evict         Delete this node's replica of a board
  backup        Copy the whole lake into a new directory
  restore       Replace the lake with a copy of another (a backup)
  export        Write the whole lake as JSON lines
  import        Load a 'pier export' into a new lake
  help          Show this help, or a command's

Options (before the command or after it):
  --data DIR          The data directory, created if missing by a
                      command that may write; a read makes no lake
                      (default: $PIER_DATA, else ./pier-data)
  --lake URL          A PostgreSQL lake instead (docs/clustered.md): a
                      libpq connection string, postgres://... or
                      'host=... dbname=...' (default: $PIER_LAKE)
  --cache-dir DIR     Where this node keeps its replicas of a
                      PostgreSQL lake's boards (one node per directory;
                      default: ~/.cache/pier/<lake>)
  --head-refresh DURATION
                      How stale a read of another node's write may be
                      on a PostgreSQL lake (default 1s)
  --json              Print results and errors as JSON
  --readonly          Open the lake for reading only: reads work, a
                      write fails (WriteFailed) and nothing is written;
                      the lake must exist (docs/backup.md)
  --auto-create=on-write|never
                      Whether a write to an unknown board creates it
                      (default: on-write); reads never create one
  --columns=infer|declared
                      Whether writes may add columns (infer, the
                      default), or every board behaves as strict
  --durability=full|normal
                      full (default): a write survives power loss;
                      normal: it survives a crash of the process
  --time-limit DURATION
                      The longest a query or SQL script may run
                      (500ms, 30s, 5m; default 30s; none: no limit)
  --max-value SIZE    The longest text or blob a statement may make
                      or read (4096, 64K, 16M; default 64M)
  --max-memory SIZE   The memory a statement may take (default 256M)
  --help              Show this help
  --version           Print the version, and SQLite's and libpq's

Environment:
  PIER_DATA  The data directory when --data is not given
  PIER_LAKE  A PostgreSQL lake's connection string when neither --lake
             nor --data is given
  PIER_HISTORY
             pier shell's history file (default: ~/.pier_history;
             empty: none)
  PIER_NOW   Fixes the engine's clock (the updated_at of writes) to an
             RFC 3339 instant, e.g. 2026-01-01T00:00:00Z, for
             reproducible output; a malformed value is a usage error

Exit status: 0 success, 1 the operation failed (the error's tag says
why), 2 usage error.
Run 'pier COMMAND --help' for a command's arguments and output.
$ diff <(pier help) <(pier --help) && echo same
same
$ pier -h | head -1
Usage: pier [OPTIONS] COMMAND [ARGS]
$ pier --version | sed -E '2,$s/ [0-9]+(\.[0-9]+)+$/ N.N/'
pier 0.1.0
sqlite N.N
libpq N.N
$ diff <(pier help insert) <(pier insert --help) && echo same
same
$ pier create-board --help
Usage: pier [OPTIONS] create-board BOARD [--column NAME=TYPE]... [--strict]

Creates BOARD. Each --column declares a column and its type up front,
so that the first value written never decides it. --strict makes the
board refuse any column not declared (add-column can declare more).
Board ids match [a-z][a-z0-9_]{0,62}. A column name holding '=' is
split at its last '='.

Types: boolean, tinyint, smallint, integer, bigint, hugeint, float,
double, text, timestamp, json; declared only, the SQL dialect's
uint8 .. uint64, decimal(p,s), decimal, varchar(n), enum('a',...),
uuid, date, time, datetime, interval, and arrays T[], T[][]
(quote them for the shell: --column price='decimal(12,2)').

Options:
  --column NAME=TYPE  Declare a column (repeatable)
  --strict            Refuse writes naming undeclared columns

Output: the watermark the board was created at; with --json,
{"watermark":N}. Fails with BoardExists if it is already there.

OPTIONS are the global options of 'pier --help'.
$ pier insert --help
Usage: pier [OPTIONS] insert BOARD [JSON|-] [--csv FILE] [--tsv FILE] [--id COL] [--id-generate uuid7|uuid4]

Inserts rows into BOARD (created by the write unless
--auto-create=never). JSON is one object or an array of objects, each
with an "id"; all its rows are one atomic write.

With '-', stdin holds a JSON array of objects, or objects separated
by white space (JSON lines). It is streamed: every 1000 rows are one
atomic write (fewer if their text passes 64 MiB). If a batch fails,
the batches before it stay committed: the error says how many rows
that was, and its byte offsets count from the start of stdin.

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
$ pier boards --help
Usage: pier [OPTIONS] boards [--counts]

Lists every board of the lake, sorted.

Options:
  --counts            Each board with its number of rows

Output: one id per line; with --json, a JSON array of ids. With
--counts, an aligned table, a board and its rows per line; with
--json, [{"board":B,"rows":N},...]. A board dropped while they
are counted is left out.

OPTIONS are the global options of 'pier --help'.
$ pier has-board --help
Usage: pier [OPTIONS] has-board BOARD

Tells whether BOARD exists. Never creates it; the exit status is 0
either way.

Output: true or false (the same with --json).

OPTIONS are the global options of 'pier --help'.
$ pier schema --help
Usage: pier [OPTIONS] schema NAME | dump | export | codegen c|jsonschema FILE|- [--prefix P]

Shows the columns of board or table NAME; `pier schema dump` prints
the whole lake's schema instead: each board as CREATE BOARD, then every
declared table, index and view as SQL that `pier sql` runs to
recreate them. `pier schema export` prints the lake as a declaration
for `pier migrate` (defaults, backfills, constraints, boards with their
inferred columns, managed flags as comments), which plans to no steps
against the lake it came from: adopt what pier sql or inference made
by exporting it (docs/migrations.md).

`pier schema codegen c FILE` reads a declaration (as `pier plan` does;
'-' for stdin) and prints a C header over pier.h: for each table,
view and board, structs of the rows' shapes (select: a row as Pier
reads it; insert: a new row; update: what an update sets) with typed
read, insert and update helpers, every name starting with P
(--prefix; default db). `pier schema codegen jsonschema FILE` prints
the same shapes as one JSON Schema (draft 2020-12) document. No lake
is opened. Fails with InvalidSchema (the line and column) for a
declaration that cannot mean anything.

A board's columns come in board order, base columns first, with their
types and where each came from: base (id, updated_at, state),
declared (create-board, add-column) or inferred (the first write
that named it).

Output: a line "board BOARD", followed by " (strict)" for a strict
board, then an aligned table with the header "column  type  origin".
With --json: {"board":"BOARD","strict":false,"columns":
[{"name":"id","type":"text"},...]} on one line.

A table's: a line "table NAME", then "column  type  readonly" with
each column's type in the dialect (DECIMAL(12,2)). With --json:
{"table":..,"columns":[{"id":..,"name":..,"type":..,
"readonly":false}],"sql":"CREATE TABLE ..."}.

OPTIONS are the global options of 'pier --help'.
$ pier get --help
Usage: pier [OPTIONS] get BOARD ID

Shows the row of BOARD whose id is ID. An ID starting with '-' goes
after "--".

Output: an aligned two-column table, one line per column in board
order: the column's name, then its value (null for a null value;
control characters shown as \n, \t, \r or \xHH). With --json, the
row as one JSON object. Fails with RowNotFound if there is no such
row.

OPTIONS are the global options of 'pier --help'.
$ pier count --help
Usage: pier [OPTIONS] count BOARD

Prints the number of rows on BOARD.

Output: the number alone; with --json, {"count":N}.

OPTIONS are the global options of 'pier --help'.
$ pier dump --help
Usage: pier [OPTIONS] dump BOARD [--csv] [--tsv]

Prints every row of BOARD, in id order (byte order of the ids), as
one JSON object per line, columns in board order. The same with
--json.

--csv prints a header line of the board's column names but
updated_at (which the engine sets), then one record per row in the
same order (RFC 4180: CRLF line ends, a field holding a comma, a
quote or a line break quoted, quotes doubled). A value is its text, a
null an empty field; a text value that would read back as something
else (empty, a number, true or false) is quoted, so that
`insert --csv` loads the dump back as it was. --tsv is the same with
tabs between the fields and LF line ends.

OPTIONS are the global options of 'pier --help'.
$ pier add-column --help
Usage: pier [OPTIONS] add-column BOARD COLUMN TYPE

Declares COLUMN with TYPE on BOARD: the way a strict board gains a
column, or a way to fix a column's type before any value decides it.
TYPE is one of create-board's types. A column name starting with '-'
goes after "--".

Output: the watermark; with --json, {"watermark":N}. Fails with
ColumnExists if BOARD already has COLUMN.

OPTIONS are the global options of 'pier --help'.
$ pier widen --help
Usage: pier [OPTIONS] widen BOARD COLUMN TYPE

Widens COLUMN of BOARD to TYPE, only ever upward:
  boolean < tinyint < smallint < integer < bigint < hugeint
          < float < double < text
(json and the SQL dialect's types, like decimal(12,2), may widen to
text; timestamp never widens). Within the numbers this changes the
catalog only; widening to text rewrites every row.
Widening to the column's own type changes nothing.

Output: the watermark; with --json, {"watermark":N}. Fails with
ColumnTypeConflict for a narrowing or off-lattice TYPE.

OPTIONS are the global options of 'pier --help'.
$ pier truncate --help
Usage: pier [OPTIONS] truncate BOARD

Removes every row of BOARD; its columns and strict bit stay.

Output: the watermark; with --json, {"watermark":N}.

OPTIONS are the global options of 'pier --help'.
$ pier drop --help
Usage: pier [OPTIONS] drop BOARD

Removes BOARD, its columns and every row.

Output: the watermark; with --json, {"watermark":N}. Fails with
BoardNotFound if there is no such board.

OPTIONS are the global options of 'pier --help'.
$ pier migrations --help
Usage: pier [OPTIONS] migrations new NAME | up | down | status [--dir DIR] [--check] [--time-limit DURATION] [--max-value SIZE] [--max-memory SIZE]

Versioned migration files: SQL files in a directory (db/migrations
unless --dir says otherwise) named VERSION_NAME.sql, VERSION being 14
digits (YYYYMMDDHHMMSS, UTC) that order them. Each has a line
'-- migrate:up', then the SQL to apply, and a line '-- migrate:down',
then the SQL that undoes it; a version whose down section is empty is
irreversible. The SQL runs as `pier sql` runs a script, as the lake's
owner (docs/migrations.md, "Versioned migration files"). Files not
ending in .sql are ignored; a .sql file that does not parse stops
up, down and status (InvalidSchema, naming it).

  new NAME  Writes a template named by the time now (PIER_NOW when
            set), or the second after the latest version, and NAME
            (letters lowered, spaces and '-' made '_'); the directory
            is created if missing. Prints the file's path.
  up        Applies every pending version in order, each with its
            record in one transaction. The first that fails is rolled
            back and ends the command; those before it stay applied.
  down      Rolls back the latest version applied, one only, with its
            down section (MigrationRefused if it is irreversible or
            its file is gone). With none applied, does nothing.
  status    Lists every version: applied, pending, modified (applied,
            but its file changed since) or missing (applied, but its
            file is gone).

Options:
  --dir DIR    The directory of the files (default: db/migrations)
  --check      status: fail (MigrationConflict) when a version is
               pending, modified or missing
  --time-limit DURATION, --max-value SIZE, --max-memory SIZE
               up and down: each version's limits, as for `sql`

Output: new: the path. up, down: a line "applied FILE" or
"reverted FILE" per version, then the watermark. status: a table
(version, name, state, applied_at) and the counts. With --json:
{"path":P}; {"applied":[...],"watermark":N};
{"reverted":[...],"watermark":N}; {"dir":D,"files":[...],
"applied":N,"pending":N,"modified":N,"missing":N}.

OPTIONS are the global options of 'pier --help'.
$ diff <(pier migrations up --help) <(pier help migrations) && echo same
same
$ pier help --help
Usage: pier [OPTIONS] help [COMMAND] [--man] [--completion bash|zsh]

Prints the list of commands, or with COMMAND that command's help.

Options:
  --man               Print the manual page pier(1), in roff, made
                      from these help texts (man -l - reads it)
  --completion SHELL  Print the completion script for bash or zsh,
                      made from the command table: commands, options,
                      subcommands, and the boards of the lake named
                      on the line (`make install` installs both)

OPTIONS are the global options of 'pier --help'.

# --help wins over other mistakes on the same line.
$ pier count --help a b c --bogus | head -1
Usage: pier [OPTIONS] count BOARD
$ pier create-board --column x --help | head -1
Usage: pier [OPTIONS] create-board BOARD [--column NAME=TYPE]... [--strict]
$ ls -A
