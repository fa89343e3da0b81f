# Malformed CSV is refused with the line it is on, and nothing of the
# batch it is in is written: here every case is in the first batch, so the
# board stays as it was (it is not even created).
$ printf 'id,n\na,1\nb,2,3\n' | pier insert e --csv -
! pier: error: InvalidArgument: line 3 of stdin has 3 fields, but the header has 2 (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ printf 'id,n\na,1\nb\n' | pier insert e --csv -
! pier: error: InvalidArgument: line 3 of stdin has 1 field, but the header has 2 (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ printf 'id,n\na,1\nb,x"y\n' | pier insert e --csv -
! pier: error: InvalidArgument: line 3 of stdin: a quote inside an unquoted field (quote the whole field and double the quotes in it) (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ printf 'id,n\na,1\nb,"x"y\n' | pier insert e --csv -
! pier: error: InvalidArgument: line 3 of stdin: text after the closing quote of a field (a quote inside a quoted field is written twice) (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ printf 'id,n\na,1\nb,"x\n\nmore' | pier insert e --csv -
! pier: error: InvalidArgument: line 5 of stdin: the input ends inside a quoted field (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ printf 'id,n\na,1\rb,2\n' | pier insert e --csv -
! pier: error: InvalidArgument: line 2 of stdin: a carriage return not followed by a line feed outside quotes (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ pier has-board e
false

# The header: an empty name, a name given twice, no id column.
$ printf 'id,,n\na,1,2\n' | pier insert e --csv -
! pier: error: InvalidColumnName: field 2 of the header (line 1 of stdin) is empty: every column needs a name (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ printf 'id,n,n\na,1,2\n' | pier insert e --csv -
! pier: error: DuplicateColumn: the header (line 1 of stdin) names column 'n' twice (fields 2 and 3) (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ printf 'id,n,N\na,1,2\n' | pier insert e --csv -
! pier: error: DuplicateColumn: the header (line 1 of stdin) names column 'N' twice (fields 2 and 3) (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ printf 'key,n\na,1\n' | pier insert e --csv -
! pier: error: MissingId: the header (line 1 of stdin) has no 'id' column: name the column that holds the ids with --id COL, or generate ids with --id-generate uuid7 (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ printf 'id,n\na,1\n,2\n' | pier insert e --csv -
! pier: error: MissingId: line 3 of stdin has an empty id (column 'id'); give every row one, or generate ids with --id-generate uuid7 (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ pier has-board e
false

# A value the board's column refuses names its row and its line (a quoted
# line break makes them differ); the rows before it in the batch are not
# written either.
$ printf 'id,n\nz,1\n' | pier insert f --csv -
2
$ printf 'id,note,n\na,"two\nlines",1\nb,x,oops\n' | pier insert f --csv -
! pier: error: ColumnTypeConflict: column 'n' of board 'f' is bigint, got text "oops" (row 2) (line 4 of stdin) (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ pier dump f
{"id":"z","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":1}

# A bad row in the second batch: the first 1000 rows stay committed, and
# the error says so; nothing of the second batch is written.
$ seq 1 2500 | awk 'BEGIN{print "id,n"} {if (NR==1500) print "r01500,1,2"; else printf "r%05d,%d\n", $1, $1}' > bad.csv && pier insert big --csv bad.csv
! pier: error: InvalidArgument: line 1501 of bad.csv has 3 fields, but the header has 2 (batch 2 of bad.csv not written; 1000 rows committed before it)
[exit 1]
$ pier count big
1000

# A file that cannot be read; options that do not go together.
$ pier insert e --csv nope.csv
! pier: error: ReadFailed: cannot read 'nope.csv': No such file or directory
[exit 1]
$ pier insert e '{"id":"a"}' --csv nope.csv
! pier: usage: insert: rows come from --csv nope.csv: no JSON argument goes with it
! Try 'pier insert --help'.
[exit 2]
$ pier insert e --csv a.csv --tsv b.tsv
! pier: usage: insert: give one of --csv and --tsv, once
! Try 'pier insert --help'.
[exit 2]
$ pier insert e --csv
! pier: usage: insert: option '--csv' needs a value
! Try 'pier insert --help'.
[exit 2]
$ pier has-board e
false

# updated_at is the engine's: a CSV that has it is refused at its line (dump
# --csv leaves it out, so that its output loads back).
$ printf 'id,updated_at\na,2026-01-01T00:00:00Z\n' | pier insert g --csv -
! pier: error: ReservedColumnName: column 'updated_at' is the engine's: every write sets it to its own time; leave it out of the row (pier export and import keep timestamps) (line 2 of stdin) (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ pier has-board g
false
