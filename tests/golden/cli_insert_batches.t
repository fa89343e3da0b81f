# A bad row in the second batch of stdin: the first batch (1000 rows) stays
# committed, nothing of the second batch or after it is written, and the
# error says how many rows were committed before it; its byte offsets and
# row numbers count from the start of stdin, not of the batch.
$ seq 1 2500 | awk '{if (NR==1500) printf "{\"id\":\"r%05d\",\"n\":\"oops\"}\n", $1; else printf "{\"id\":\"r%05d\",\"n\":%d}\n", $1, $1}' | pier insert t -
! pier: error: ColumnTypeConflict: column 'n' of board 't' is bigint, got text "oops" (row 1500) (batch 2 of stdin not written; 1000 rows committed before it)
[exit 1]
$ pier count t
1000
$ pier get t r01000
id          r01000
updated_at  2026-01-01T00:00:00.000000Z
state       null
n           1000
$ pier get t r01001
! pier: error: RowNotFound: board 't' has no row with id 'r01001'
[exit 1]

# A syntax error in the second batch. Every line is 22 bytes; line 1500
# starts at byte 1499 * 22 = 32978, and the ',' standing where its value
# should be is 19 bytes in: 32997.
$ seq 1 2500 | awk '{if (NR==1500) printf "{\"id\":\"s%05d\",\"n\":,}\n", $1; else printf "{\"id\":\"s%05d\",\"n\":1}\n", $1}' | pier insert u -
! pier: error: InvalidJson: expected a value at byte 32997 of stdin (batch 2 of stdin not written; 1000 rows committed before it)
[exit 1]
$ pier count u
1000

# An id given twice within one batch names both rows by their place in
# stdin.
$ seq 1 1500 | awk '{if (NR==1400) printf "{\"id\":\"v01001\"}\n"; else printf "{\"id\":\"v%05d\"}\n", $1}' | pier --json insert v -
! {"error":"DuplicateId","message":"id 'v01001' is given twice in this write (rows 1001 and 1400) (batch 2 of stdin not written; 1000 rows committed before it)"}
[exit 1]
$ pier count v
1000

# A failure in the first batch writes nothing at all.
$ seq 1 1500 | awk '{if (NR==10) printf "{\"id\":\"w\",\"_x\":1}\n"; else printf "{\"id\":\"w%05d\"}\n", $1}' | pier insert w -
! pier: error: ReservedColumnName: column name '_x' is reserved: names starting with '_' belong to the engine (row 10) (batch 1 of stdin not written; 0 rows committed before it)
[exit 1]
$ pier has-board w
false

# The splitter's own errors count the rows committed before them too.
$ (seq 1 1000 | awk '{printf "{\"id\":\"x%05d\"}\n", $1}'; echo '{"id":"bad"},') | pier insert x -
! pier: error: InvalidJson: expected an object at byte 16012 of stdin (JSON lines are objects separated by white space) (batch 2 of stdin not written; 1000 rows committed before it)
[exit 1]
$ pier count x
1000

# Only the library's own row numbers and byte offsets are renumbered,
# never a quoted value that happens to look like one.
$ (seq 1 1000 | awk '{printf "{\"id\":\"y%05d\",\"n\":1}\n", $1}'; echo '{"id":"y2","n":2}'; echo '{"id":"y3","n":"(row 2) at byte 1"}') | pier insert y -
! pier: error: ColumnTypeConflict: column 'n' of board 'y' is bigint, got text "(row 2) at byte 1" (row 1002) (batch 2 of stdin not written; 1000 rows committed before it)
[exit 1]
