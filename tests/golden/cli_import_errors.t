# pier import refuses what it cannot load whole, and writes nothing then:
# a lake that is not new, text that is not an export (the message gives
# the line), an export cut short, SQL other than one CREATE statement,
# rows a constraint refuses (foreign keys are checked at the end).
$ pier insert b '{"id":"a","n":1}'
2
$ pier sql "CREATE TABLE p (id INT64 PRIMARY KEY); CREATE TABLE c (id INT64 PRIMARY KEY, p INT64 REFERENCES p(id)); INSERT INTO p VALUES (1); INSERT INTO c VALUES (1, 1)" >/dev/null
$ pier export e.jsonl

# A lake that is not new, whatever it holds.
$ pier import e.jsonl
! pier: error: InvalidArgument: import needs a new, empty lake: this one has 1 boards, 2 declared objects and a head of 2; nothing was written
[exit 1]
$ pier --data t sql "CREATE TABLE x (id INT64 PRIMARY KEY)" >/dev/null && pier --data t import e.jsonl
! pier: error: InvalidArgument: import needs a new, empty lake: this one has 0 boards, 1 declared objects and a head of 0; nothing was written
[exit 1]

# Cut short, empty, not JSON, not an export, another format.
$ head -n -1 e.jsonl | pier --data n import -
! pier: error: InvalidJson: the export ends without its end record (cut short?): nothing was written
[exit 1]
$ pier --data n boards
$ pier --data n tables
$ pier --data n import /dev/null
! pier: error: InvalidJson: the export is empty: nothing was written
[exit 1]
$ printf '{"pier_export":1,"format":5}\nnot json\n' | pier --data n import
! pier: error: InvalidJson: line 2 of the export: not a JSON object
[exit 1]
$ echo '{"hello":1}' | pier --data n import
! pier: error: InvalidJson: line 1 of the export: not a Pier export (no pier_export header)
[exit 1]
$ sed '1s/"format":5/"format":99/' e.jsonl | pier --data n import
! pier: error: InvalidArgument: the export is of a lake of format 99; this Pier imports format 5
[exit 1]
$ sed '1s/"pier_export":1/"pier_export":2/' e.jsonl | pier --data n import
! pier: error: InvalidJson: line 1 of the export: an export of another layout version
[exit 1]
$ (cat e.jsonl; echo '{"end":0}') | pier --data n import
! pier: error: InvalidJson: line 65 of the export: a record after the end
[exit 1]
$ sed 's/^{"end":.*/{"end":1}/' e.jsonl | pier --data n import
! pier: error: InvalidJson: line 64 of the export: the end record counts other rows than came before it
[exit 1]

# Objects: one CREATE statement each, and before any rows.
$ (head -1 e.jsonl; echo '{"object":"table","name":"x","table":"x","sql":"DROP TABLE _pier_meta"}') | pier --data n import
! pier: error: InvalidJson: line 2 of the export: an object's sql is not a CREATE statement
[exit 1]
$ (head -1 e.jsonl; echo '{"object":"table","name":"x","table":"x","sql":"CREATE TABLE x(a); DROP TABLE _pier_meta"}') | pier --data n import
! pier: error: InvalidJson: line 2 of the export: an object's sql holds more than one statement
[exit 1]
$ (head -1 e.jsonl; echo '{"object":"table","name":"x"}') | pier --data n import
! pier: error: InvalidJson: line 2 of the export: an object needs string object, name, table and sql
[exit 1]

# Rows: after their table's record, one value per column, each of a kind
# the export writes.
$ (head -1 e.jsonl; echo '{"r":[1]}') | pier --data n import
! pier: error: InvalidJson: line 2 of the export: a row before its table's rows record
[exit 1]
$ (head -1 e.jsonl; grep '"name":"p"' e.jsonl; echo '{"rows":"p","columns":["rowid","id"]}'; echo '{"r":[1]}') | pier --data n import
! pier: error: InvalidJson: line 4 of the export: a row does not have one value per column
[exit 1]
$ (head -1 e.jsonl; grep '"name":"p"' e.jsonl; echo '{"rows":"p","columns":["rowid","id"]}'; echo '{"r":[1,{"real":"x"}]}') | pier --data n import
! pier: error: InvalidJson: line 4 of the export: a real is not a number
[exit 1]
$ (head -1 e.jsonl; grep '"name":"p"' e.jsonl; echo '{"rows":"p","columns":["rowid","id"]}'; echo '{"r":[1,{"blob":"abc"}]}') | pier --data n import
! pier: error: InvalidJson: line 4 of the export: a hexadecimal value has an odd length
[exit 1]
$ (head -1 e.jsonl; grep '"name":"p"' e.jsonl; echo '{"rows":"p","columns":["rowid","id"]}'; echo '{"r":[1,[2]]}') | pier --data n import
! pier: error: InvalidJson: line 4 of the export: a value is not null, an integer, a string, {"real":...}, {"blob":...} or {"bytes":...}
[exit 1]
$ (head -1 e.jsonl; echo '{"rows":"nope","columns":["id"]}') | pier --data n import
! pier: error: InvalidJson: line 2 of the export: rows of a table that neither the lake nor the export makes
[exit 1]
$ (head -1 e.jsonl; echo '{"what":1}') | pier --data n import
! pier: error: InvalidJson: line 2 of the export: an unknown record
[exit 1]

# A child row whose parent is missing: refused at the end, all of it.
$ grep -v '^{"r":\[1,1\]}$' e.jsonl > orphan.jsonl; n=$(grep -c '^{"r"' orphan.jsonl); sed -i "s/^{\"end\":.*/{\"end\":$n}/" orphan.jsonl; grep -A1 '"rows":"p"' orphan.jsonl
{"rows":"p","columns":["rowid","id"]}
{"rows":"sqlite_sequence","columns":["rowid","name","seq"]}
$ pier --data n import orphan.jsonl
! pier: error: ConstraintForeignKey: a row of 'c' (rowid 1) names no row of 'p': nothing was written
[exit 1]
$ pier --data n boards
$ pier --data n head
0

# Read-only.
$ pier --data n --readonly import e.jsonl
! pier: error: WriteFailed: the lake 'n' is open read-only (--readonly): nothing was written
[exit 1]

# After every refusal the lake is still new, and takes the export.
$ pier --data n import e.jsonl && pier --data n count b
1

# A unique key the rows break.
$ sed 's/^{"r":\[1,1\]}$/{"r":[1,1]}\n{"r":[2,1]}/' e.jsonl > dup.jsonl; n=$(grep -c '^{"r"' dup.jsonl); sed -i "s/^{\"end\":.*/{\"end\":$n}/" dup.jsonl; pier --data m import dup.jsonl
! pier: error: ConstraintPrimaryKey: line 59 of the export: cannot write a row: UNIQUE constraint failed: p.id
[exit 1]
$ pier --data m boards

# Export: to a file only once it is complete; a missing lake is not made.
$ pier export no/such/dir/e.jsonl
! pier: error: WriteFailed: cannot create 'no/such/dir/e.jsonl.pier-tmp': No such file or directory
[exit 1]
$ ls no 2>&1
ls: cannot access 'no': No such file or directory
[exit 2]
$ pier --data nope export
! pier: error: LakeUnavailable: no lake at 'nope': 'nope/lake.sqlite' does not exist (a read makes no lake)
[exit 1]
$ pier --readonly export | cmp - e.jsonl && echo identical
identical
$ pier export e.jsonl extra
! pier: usage: export: unexpected argument 'extra'
! Try 'pier export --help'.
[exit 2]

# An object's CREATE makes the lake's own schema, nothing temporary.
$ (head -1 e.jsonl; echo '{"object":"table","name":"x","table":"x","sql":"CREATE /* */ TEMP TABLE x(a)"}') | pier --data q import
! pier: error: InvalidJson: line 2 of the export: an object's sql makes something else than the lake's own schema (a temporary object)
[exit 1]
$ (head -1 e.jsonl; echo '{"object":"trigger","name":"x","table":"_pier_meta","sql":"CREATE TEMPORARY TRIGGER x AFTER INSERT ON _pier_changes BEGIN DELETE FROM _pier_changes; END"}'; echo '{"end":0}') | pier --data q import
! pier: error: InvalidJson: line 3 of the export: an object's sql makes something else than the lake's own schema (a temporary object)
[exit 1]
$ pier --data q boards

# An edited export whose lake this Pier could not read afterwards (the
# catalog's version gone): refused before anything is committed.
$ sed 's/^{"r":\[1,"catalog_version",\(.*\)\]}$/{"r":[1,"catalog_vgrsion",\1]}/' e.jsonl | pier --data q import
! pier: error: InvalidJson: the export does not make a lake this Pier reads (the lake's catalog version is missing: the lake is damaged): nothing was written
[exit 1]
$ pier --data q boards
$ pier --data q head
0

# A FILE that cannot be read is refused before the lake is opened: no
# lake is made.
$ pier --data r import missing.jsonl
! pier: error: ReadFailed: cannot read 'missing.jsonl': No such file or directory
[exit 1]
$ mkdir adir && pier --data r import adir
! pier: error: ReadFailed: cannot read 'adir': Is a directory
[exit 1]
$ ls r 2>&1
ls: cannot access 'r': No such file or directory
[exit 2]

# The export is read a part at a time: an export with a line longer than
# a read (a value of 300,000 bytes), fed slowly through a pipe.
$ { printf '{"id":"big","s":"'; head -c 300000 /dev/zero | tr '\0' y; printf '"}\n'; } | pier --data big insert b - >/dev/null
$ pier --data big export | (sleep 0.2; cat) | pier --data big2 import && pier --data big2 export | cmp - <(pier --data big export) && echo identical
identical
