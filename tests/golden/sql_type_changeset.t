# CHANGESET holds the bytes of a changeset: SQLite's changeset reader must
# read them to the end and be able to invert them. Other bytes, text and
# patchsets are refused like any value that does not fit its type; it
# reads back as uppercase hex, like BLOB.
$ pier sql "CREATE TABLE h (id INT64 PRIMARY KEY, cs CHANGESET)"

# A changeset of one insert into t(a INT64 PRIMARY KEY, b TEXT): (1, 'x').
$ pier sql "INSERT INTO h VALUES (1, x'5402010074001200010000000000000001030178')"
1 row changed

# Empty bytes are the empty changeset; null is null.
$ pier sql "INSERT INTO h VALUES (2, x''), (3, NULL)"
2 rows changed

$ pier sql "INSERT INTO h VALUES (4, x'0102')"
! pier: error: ColumnTypeConflict: column 'cs' of table 'h' is CHANGESET, got a blob of 2 bytes: not a changeset (SQLite's changeset format)
[exit 1]

$ pier sql "INSERT INTO h VALUES (4, x'54020100740012000100000000000000010301')"
! pier: error: ColumnTypeConflict: column 'cs' of table 'h' is CHANGESET, got a blob of 19 bytes: not a changeset (SQLite's changeset format)
[exit 1]

# A patchset reads, but cannot be inverted.
$ pier sql "INSERT INTO h VALUES (4, x'5002010074001200010000000000000001030178')"
! pier: error: ColumnTypeConflict: column 'cs' of table 'h' is CHANGESET, got a blob of 20 bytes: a patchset, not a changeset (it cannot be inverted)
[exit 1]

$ pier sql "INSERT INTO h VALUES (4, 'T')"
! pier: error: ColumnTypeConflict: column 'cs' of table 'h' is CHANGESET, got a text value
[exit 1]

$ pier sql "SELECT id, cs FROM h ORDER BY id"
id  cs
1   5402010074001200010000000000000001030178
2   
3   null
(3 rows)

$ pier sql "SELECT id, cs FROM h ORDER BY id" --jsonl
{"id":1,"cs":"5402010074001200010000000000000001030178"}
{"id":2,"cs":""}
{"id":3,"cs":null}

$ pier sql "CREATE TABLE g (a CHANGESET[])"
! pier: error: UnknownType: column 'a': CHANGESET has no arrays: one changeset holds any number of changes
[exit 1]

$ pier create-board b --column c=changeset
! pier: error: UnknownType: type 'changeset' for column 'c' is refused: changeset is not a board type: JSON cannot carry bytes (keep changesets in a declared table)
[exit 1]

$ pier schema h
table h
column  type       readonly
id      INT64      no
cs      CHANGESET  no
