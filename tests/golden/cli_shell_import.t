# The shell's .import FILE BOARD loads JSON lines or a JSON array of rows
# through the code of `pier insert BOARD -` (batches of 1000 rows, a board
# created as insert creates it). Every error leaves the lake as it was, and
# the shell goes on to the next line.
$ printf '%s\n' '{"id":"a","n":1}' '{"id":"b","n":2}' > rows.jsonl
$ printf '[{"id":"c","n":3},\n {"id":"d","n":4}]\n' > rows.json
$ printf '%s\n' '{"id":"e","n":5}' '{"id":"f","n":"six"}' > bad.jsonl
$ printf '%s\n' '.import rows.jsonl tasks' '.import rows.json tasks' '.use tasks' 'SELECT id, n FROM {{board}} ORDER BY id' | pier shell
2
3
id  n
a   1
b   2
c   3
d   4
(4 rows)

# Errors: missing file, bad arguments, an option .import does not have, an
# invalid board id, a row of the wrong type (its batch is not written).
$ printf '%s\n' '.import missing.jsonl tasks' '.import rows.jsonl' '.import' '.import rows.jsonl tasks extra' '.import --csv rows.jsonl tasks' '.import rows.jsonl Bad' '.import bad.jsonl tasks' '.use tasks' 'SELECT count(*) AS n FROM {{board}}' '.boards' | pier shell
n
4
(1 row)
tasks
! pier: error: ReadFailed: cannot read 'missing.jsonl': No such file or directory
! pier: usage: .import takes a file and a board: .import FILE BOARD
! pier: usage: .import takes a file and a board: .import FILE BOARD
! pier: usage: .import takes a file and a board: .import FILE BOARD
! pier: error: InvalidArgument: line 1 of rows.jsonl: a quote inside an unquoted field (quote the whole field and double the quotes in it) (batch 1 of rows.jsonl not written; 0 rows committed before it)
! pier: error: InvalidBoardId: invalid board id 'Bad': a board id matches [a-z][a-z0-9_]{0,62} (a lowercase letter, then up to 62 lowercase letters, digits or underscores) (batch 1 of rows.jsonl not written; 0 rows committed before it)
! pier: error: ColumnTypeConflict: column 'n' of board 'tasks' is bigint, got text "six" (row 2) (batch 1 of bad.jsonl not written; 0 rows committed before it)
[exit 1]

# An unknown board, when writes may not create boards.
$ printf '%s\n' '.import rows.jsonl nope' '.boards' | pier --auto-create=never shell
tasks
! pier: error: BoardNotFound: no board 'nope', and this engine creates boards only explicitly (auto-create is never) (batch 1 of rows.jsonl not written; 0 rows committed before it)
[exit 1]

# CSV and TSV, with insert's options for ids: a header row, values inferred
# as insert --csv infers them; an id taken from a column, or generated.
$ printf 'name,n\nx,1\ny,2\n' > a.csv && printf 'id\tn\nt1\t7\n' > a.tsv
$ printf '%s\n' '.import --csv --id name a.csv people' '.import --tsv a.tsv people' '.import --csv --id-generate uuid7 a.csv gen' '.use people' '.mode csv' 'SELECT id, n FROM {{board}} ORDER BY id' | pier shell
5
6
8
id,n
t1,7
x,1
y,2
$ pier count gen
2
# Their mistakes: a missing column name, an unknown generator, an option
# .import does not take; the shell goes on after each.
$ printf '%s\n' '.import --csv --id' '.import --csv --id-generate uuid1 a.csv people' '.import --json a.csv people' '.import --csv a.csv people' | pier shell
! pier: usage: .import: --id needs a column name
! pier: usage: .import: --id-generate takes uuid7 or uuid4
! pier: usage: .import has no option '--json' (--csv, --tsv, --id COL, --id-generate KIND)
! pier: error: MissingId: the header (line 1 of a.csv) has no 'id' column: name the column that holds the ids with --id COL, or generate ids with --id-generate uuid7 (batch 1 of a.csv not written; 0 rows committed before it)
[exit 1]
$ pier count people
3
