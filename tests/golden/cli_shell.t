# pier shell reading from a pipe: no prompts, the same commands as on a
# terminal (tests/unit/test_shell.c drives one), and exit status 1 when a
# line failed, so that a script can rely on it.
$ pier insert tasks '[{"id":"a","n":1,"done":true},{"id":"b","n":2,"done":false}]'
2
$ pier insert notes '[{"id":"a","text":"hi"}]'
4
$ printf '%s\n' 'SELECT id, n, done FROM {{board}} ORDER BY id' '.format csv' 'SELECT id FROM {{board}} WHERE n > :n' '.param n=1' '.param' 'SELECT id FROM {{board}} WHERE n > :n' '.format' '.param clear' '.param' | pier shell tasks
id  n  done
a   1  true
b   2  false
(2 rows)
n=1
id
b
csv
! pier: error: PlaceholderUnbound: query parameter ':n' has no value
[exit 1]
$ printf '%s\n' '.boards' '.schema' '.use notes' '.schema' '.with tasks' '.format jsonl' 'SELECT t.id, t.n, x.text FROM {{board}} x JOIN {{board:tasks}} t USING (id)' '.with' 'SELECT * FROM {{board:tasks}}' | pier shell
notes
tasks
board notes
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
text        text       inferred
{"id":"a","n":1,"text":"hi"}
queries join no other board
! pier: usage: .schema takes a board when none is in use
! pier: error: EntityNotAllowed: the query reads board 'tasks', which its options do not name (list it in `with` to read it as {{board:tasks}})
[exit 1]
$ printf '%s\n' '.help' | pier shell
A line is a query against the current board, where {{board}} stands
for its rows (pier query --help says what a query may do); after
.sql, lines are SQL statements on the declared tables, run when a
line ends with ';' (pier sql --help). Commands:
  .sql [on|off]        SQL statements (on) or board queries (off)
  .tables              List the declared tables
  .boards              List the boards
  .schema [BOARD]      Show a board's columns (default: the current)
  .use BOARD           Query BOARD from now on
  .with [BOARD...]     Let queries join these boards as
                       {{board:NAME}} (none: join none)
  .with-table [TABLE...]
                       ... and these declared tables or views as
                       {{table:NAME}}
  .param NAME=VALUE    Bind VALUE to :NAME, $NAME, @NAME (NAME a
                       number: ?NAME), read as in --param
  .param               List the parameters set;  .param clear: forget
  .format [FORMAT]     Print results as table, box, json, jsonl or csv
                       (.mode is the same)
  .headers on|off      Print the column names (table, box, csv)
  .import [OPTIONS] FILE BOARD
                       Insert FILE's rows (JSON lines, or a JSON
                       array) into BOARD, as 'pier insert BOARD -';
                       OPTIONS: --csv, --tsv, --id COL,
                       --id-generate uuid7|uuid4, as for insert
  .dump [NAME]         A board's or a table's rows as JSON lines;
                       alone, the lake's schema as a SQL script
  .read FILE           Run FILE's lines as shell input
  .output [FILE]       Write output to FILE (none: to stdout again)
  .once FILE           Write the next command's output to FILE
  .pager on|off        Page long results on a terminal ($PAGER)
  .timer on|off        Show how long each query took
  .help                This help
  .quit                Leave (also .exit, or Ctrl-D)
$ printf '%s\n' '  ' '.use tasks' '.timer maybe' '.format xml' '.use' '.nope' 'SELECT * FROM _pier_changes' '.use missing' 'SELECT count(*) AS n FROM {{board}}' | pier shell
n
2
(1 row)
! pier: usage: .timer takes on or off
! pier: usage: .format takes one of table, box, json, jsonl, csv
! pier: usage: .use takes one board: .use BOARD
! pier: usage: unknown command '.nope'; .help lists them
! pier: error: EntityNotAllowed: a query may not name '_pier_changes': names starting with '_pier_' are the engine's own (read boards as {{board}} and {{board:NAME}})
! pier: error: BoardNotFound: no board 'missing'
[exit 1]
$ printf '%s\n' 'SELECT count(*) AS n FROM {{board}}' '.quit' 'SELECT 1' | pier shell tasks
n
2
(1 row)
$ printf '%s\n' '.exit' | pier shell missing
! pier: error: BoardNotFound: no board 'missing'
[exit 1]
$ printf '%s\n' 'SELECT 1' | pier shell 'bad id'
! pier: error: InvalidBoardId: invalid board id 'bad id': a board id matches [a-z][a-z0-9_]{0,62} (a lowercase letter, then up to 62 lowercase letters, digits or underscores)
[exit 1]
$ pier shell a b
! pier: usage: shell: unexpected argument 'b'
! Try 'pier shell --help'.
[exit 2]
$ pier --json shell tasks < /dev/null
