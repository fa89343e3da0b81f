# --id COL takes the row's id from the field COL, which is then no column
# of its own; an integer there is kept as its digits, a string as it is.
$ printf '{"k":7,"n":1}\n{"n":2,"k":"seven"}\n{"k":-12}\n' | pier insert a - --id k
2
$ pier dump a
{"id":"-12","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":null}
{"id":"7","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":1}
{"id":"seven","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":2}

# --id id keeps numeric ids of the "id" field; the JSON argument takes the
# options too, an array as much as one object.
$ pier insert b '[{"id":1,"x":"a"},{"id":2}]' --id id
4
$ pier dump b
{"id":"1","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"x":"a"}
{"id":"2","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"x":null}

# Without --id, a numeric id is refused as before, and the error says what
# to do; so is a row without an id.
$ pier insert b '{"id":3}'
! pier: error: ColumnTypeConflict: column 'id' of board 'b' is text, got bigint 3; an id is a string; --id id takes an integer id as its digits
[exit 1]
$ echo '{"x":"q"}' | pier insert b -
! pier: error: MissingId: every row needs an id (a non-empty string); name the field that holds it with --id COL, or generate ids with --id-generate uuid7 (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]

# What cannot be an id is refused with the row's number, and nothing of
# its batch is written: a real number, a boolean, an object, an array, a
# missing field, and a row with an "id" field when --id names another
# (with --id-generate too: the row would have two ids).
$ printf '{"k":"ok"}\n{"k":7.5}\n' | pier insert c - --id k
! pier: error: ColumnTypeConflict: row 2: its "k" (--id) is a real number; an id is a string or an integer (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ printf '{"k":true}\n' | pier insert c - --id k
! pier: error: ColumnTypeConflict: row 1: its "k" (--id) is a boolean; an id is a string or an integer (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ pier insert c '[{"k":"a"},{"k":{"x":1}}]' --id k
! pier: error: ColumnTypeConflict: row 2: its "k" (--id) is an object; an id is a string or an integer
[exit 1]
$ pier insert c '{"k":[1]}' --id k
! pier: error: ColumnTypeConflict: row 1: its "k" (--id) is an array; an id is a string or an integer
[exit 1]
$ printf '{"k":"a"}\n{"n":1}\n' | pier insert c - --id k
! pier: error: MissingId: row 2 has no "k" (--id k); give every row one, or generate ids with --id-generate uuid7 (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ pier insert c '{"k":"a","id":"b"}' --id k
! pier: error: InvalidArgument: row 1 has a field "id", but --id names "k" as the one that holds its id
[exit 1]
$ pier insert c '{"id":"b"}' --id k --id-generate uuid7
! pier: error: InvalidArgument: row 1 has a field "id", but --id names "k" as the one that holds its id
[exit 1]
$ pier has-board c
false

# --id-generate uuid7 gives each row without an id (or a null or empty one) a
# version 7 UUID; a row that has one keeps it. UUIDs differ from run to
# run, so their shape is checked.
$ printf '{"n":1}\n{"id":"mine","n":2}\n{"id":null,"n":3}\n{}\n' | pier insert g - --id-generate uuid7
6
$ pier get g mine --json
{"id":"mine","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":2}
$ pier dump g | grep -c '"id":"[0-9a-f]\{8\}-[0-9a-f]\{4\}-7[0-9a-f]\{3\}-[89ab][0-9a-f]\{3\}-[0-9a-f]\{12\}"'
3
$ pier insert g '[{"n":4},{"n":5}]' --id-generate uuid4 && pier dump g | grep -c '"id":"[0-9a-f]\{8\}-[0-9a-f]\{4\}-4[0-9a-f]\{3\}-[89ab][0-9a-f]\{3\}-[0-9a-f]\{12\}"'
7
2
$ pier count g
6
$ pier insert g2 '{"id":"","n":1}' --id-generate uuid7 && pier dump g2 | grep -c '"id":"[0-9a-f-]\{36\}"'
9
1

# Generated version 7 ids sort in the order the rows came.
$ seq 1 3000 | awk '{printf "{\"n\":%d}\n", $1}' | pier insert h - --id-generate uuid7 && pier dump h | sed 's/.*"n":\([0-9]*\).*/\1/' | awk 'NR != $1 {bad++} END {print NR, bad + 0}'
13
3000 0

# With CSV: --id names the column, --id-generate fills missing or empty
# ids, or gives every row one when the header has no id column.
$ printf 'code,name\n1,one\n2,two\n' | pier insert k --csv - --id code
15
$ pier dump k
{"id":"1","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"name":"one"}
{"id":"2","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"name":"two"}
$ printf 'name\nx\ny\n' | pier insert m --csv - --id-generate uuid7 && pier dump m | grep -c '"id":"[0-9a-f-]\{36\}"'
17
2
$ printf 'id,name\n,x\nkeep,y\n' | pier insert m --csv - --id-generate uuid7 && pier count m && pier get m keep --json
18
4
{"id":"keep","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"name":"y"}
$ printf 'id,code\na,1\n' | pier insert k --csv - --id code
! pier: error: InvalidArgument: the header (line 1 of stdin) has both 'id' and 'code', the column --id names (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ printf 'id,name\na,1\n' | pier insert k --csv - --id code
! pier: error: MissingId: the header (line 1 of stdin) has no 'code' column: name the column that holds the ids with --id COL, or generate ids with --id-generate uuid7 (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ pier count k
2

# Bad values of the options are usage errors.
$ pier insert k - --id-generate uuid1
! pier: usage: insert: --id-generate takes uuid7 or uuid4, not 'uuid1'
! Try 'pier insert --help'.
[exit 2]
$ pier insert k - --id ''
! pier: usage: insert: --id needs a column name
! Try 'pier insert --help'.
[exit 2]

# With the id options, an error's byte offset still counts in stdin as it
# was read, although the rows' ids were rewritten: line 1500 starts at
# byte 24376 (9 lines of 14 bytes, 90 of 15, 900 of 16, 500 of 17), and
# the ',' standing for its value is 14 bytes in.
$ seq 1 2500 | awk '{if (NR==1500) printf "{\"k\":%d,\"n\":,}\n", $1; else printf "{\"k\":%d,\"n\":1}\n", $1}' | pier insert off - --id k
! pier: error: InvalidJson: expected a value at byte 24390 of stdin (batch 2 of stdin not written; 1000 rows committed before it)
[exit 1]
$ pier count off
1000
$ pier insert off '[{"k":1},{"k":2,"n":}]' --id k
! pier: error: InvalidJson: expected a value at byte 20
[exit 1]
