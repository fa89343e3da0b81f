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
! pier: usage: .import has no option '--csv'
! pier: error: InvalidBoardId: invalid board id 'Bad': a board id matches [a-z][a-z0-9_]{0,62} (a lowercase letter, then up to 62 lowercase letters, digits or underscores) (batch 1 of rows.jsonl not written; 0 rows committed before it)
! pier: error: ColumnTypeConflict: column 'n' of board 'tasks' is bigint, got text "six" (row 2) (batch 1 of bad.jsonl not written; 0 rows committed before it)
[exit 1]

# An unknown board, when writes may not create boards.
$ printf '%s\n' '.import rows.jsonl nope' '.boards' | pier --auto-create=never shell
tasks
! pier: error: BoardNotFound: no board 'nope', and this engine creates boards only explicitly (auto-create is never) (batch 1 of rows.jsonl not written; 0 rows committed before it)
[exit 1]
