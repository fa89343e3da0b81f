# UUID: 128 bits written as 32 hex digits, in the 8-4-4-4-12 form with
# hyphens or without any, in either case (or both). It is kept as the
# text written, checked, and compared by value (collation pier_uuid): the
# spellings of one UUID are equal, and UUIDs order as their canonical
# texts do. Any other text (braces, a urn: prefix, a digit too many or
# too few, hyphens elsewhere, white space) and other storage classes are
# refused; a refused statement or script writes nothing. A UUID reads
# back in lowercase with hyphens in every format, round-trips through
# --jsonl and --params, and the schema through a dump.
$ pier sql "CREATE TABLE u (k INT64 PRIMARY KEY, u UUID)"
$ pier schema u
table u
column  type   readonly
k       INT64  no
u       UUID   no
$ pier sql "INSERT INTO u VALUES (1, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), (2, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A12'), (3, 'a0eebc999c0b4ef8bb6d6bb9bd380a13'), (4, 'A0eEbC999C0b4Ef8bB6d6Bb9bD380A14'), (5, '00000000-0000-0000-0000-000000000000'), (6, 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'), (7, NULL)"
7 rows changed

# Refused: braces, a urn: prefix, 31 or 33 digits, 35 or 37 characters, a
# hyphen out of place, hyphens in a 32-character text, a letter past f,
# white space, the empty text; a number, a blob.
$ pier sql "INSERT INTO u(u) VALUES ('{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}')"
! pier: error: ColumnTypeConflict: column 'u' of table 'u' is UUID, got '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}': a UUID is 32 hex digits, as 8-4-4-4-12 with hyphens
[exit 1]
$ pier sql "INSERT INTO u(u) VALUES ('urn:uuid:a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')"
! pier: error: ColumnTypeConflict: column 'u' of table 'u' is UUID, got 'urn:uuid:a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11': a UUID is 32 hex digits, as 8-4-4-4-12 with hyphens
[exit 1]
$ pier sql "INSERT INTO u(u) VALUES ('a0eebc999c0b4ef8bb6d6bb9bd380a1')"
! pier: error: ColumnTypeConflict: column 'u' of table 'u' is UUID, got 'a0eebc999c0b4ef8bb6d6bb9bd380a1': a UUID is 32 hex digits, as 8-4-4-4-12 with hyphens
[exit 1]
$ pier sql "INSERT INTO u(u) VALUES ('a0eebc999c0b4ef8bb6d6bb9bd380a111')"
! pier: error: ColumnTypeConflict: column 'u' of table 'u' is UUID, got 'a0eebc999c0b4ef8bb6d6bb9bd380a111': a UUID is 32 hex digits, as 8-4-4-4-12 with hyphens
[exit 1]
$ pier sql "INSERT INTO u(u) VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1')"
! pier: error: ColumnTypeConflict: column 'u' of table 'u' is UUID, got 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1': a UUID is 32 hex digits, as 8-4-4-4-12 with hyphens
[exit 1]
$ pier sql "INSERT INTO u(u) VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a111')"
! pier: error: ColumnTypeConflict: column 'u' of table 'u' is UUID, got 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a111': a UUID is 32 hex digits, as 8-4-4-4-12 with hyphens
[exit 1]
$ pier sql "INSERT INTO u(u) VALUES ('a0eebc999-c0b-4ef8-bb6d-6bb9bd380a11')"
! pier: error: ColumnTypeConflict: column 'u' of table 'u' is UUID, got 'a0eebc999-c0b-4ef8-bb6d-6bb9bd380a11': a UUID's hyphens stand after 8, 12, 16 and 20 hex digits
[exit 1]
$ pier sql "INSERT INTO u(u) VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd38')"
! pier: error: ColumnTypeConflict: column 'u' of table 'u' is UUID, got 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd38': a UUID holds only hex digits and hyphens
[exit 1]
$ pier sql "INSERT INTO u(u) VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1g')"
! pier: error: ColumnTypeConflict: column 'u' of table 'u' is UUID, got 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1g': a UUID holds only hex digits and hyphens
[exit 1]
$ pier sql "INSERT INTO u(u) VALUES (' a0eebc999c0b4ef8bb6d6bb9bd380a11')"
! pier: error: ColumnTypeConflict: column 'u' of table 'u' is UUID, got ' a0eebc999c0b4ef8bb6d6bb9bd380a11': a UUID is 32 hex digits, as 8-4-4-4-12 with hyphens
[exit 1]
$ pier sql "INSERT INTO u(u) VALUES ('')"
! pier: error: ColumnTypeConflict: column 'u' of table 'u' is UUID, got '': a UUID is 32 hex digits, as 8-4-4-4-12 with hyphens
[exit 1]
$ pier sql "INSERT INTO u(u) VALUES (12)"
! pier: error: ColumnTypeConflict: column 'u' of table 'u' is UUID, got '12': a UUID is 32 hex digits, as 8-4-4-4-12 with hyphens
[exit 1]
$ pier sql "INSERT INTO u(u) VALUES (x'a0eebc999c0b4ef8bb6d6bb9bd380a11')"
! pier: error: ColumnTypeConflict: column 'u' of table 'u' is UUID, got a blob value
[exit 1]
$ pier sql "SELECT count(*) AS n FROM u"
n
7
(1 row)

# A refusal at the end of a script leaves nothing of it.
$ pier sql "INSERT INTO u VALUES (10, '10000000-0000-0000-0000-000000000000'); UPDATE u SET u = NULL WHERE k = 1; INSERT INTO u VALUES (11, 'not-a-uuid')"
! pier: error: ColumnTypeConflict: column 'u' of table 'u' is UUID, got 'not-a-uuid': a UUID is 32 hex digits, as 8-4-4-4-12 with hyphens
[exit 1]
$ pier sql "SELECT count(*) AS n FROM u WHERE k >= 10 OR (k = 1 AND u IS NULL)" --csv
n
0

# Reading back: lowercase with hyphens in the table, JSON and CSV.
$ pier sql "SELECT * FROM u ORDER BY k"
k  u
1  a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11
2  a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12
3  a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a13
4  a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a14
5  00000000-0000-0000-0000-000000000000
6  ffffffff-ffff-ffff-ffff-ffffffffffff
7  null
(7 rows)
$ pier sql "SELECT * FROM u ORDER BY k" --json
[
{"k":1,"u":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
{"k":2,"u":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12"},
{"k":3,"u":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a13"},
{"k":4,"u":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a14"},
{"k":5,"u":"00000000-0000-0000-0000-000000000000"},
{"k":6,"u":"ffffffff-ffff-ffff-ffff-ffffffffffff"},
{"k":7,"u":null}
]
$ pier sql "SELECT * FROM u ORDER BY k" --csv
k,u
1,a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11
2,a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12
3,a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a13
4,a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a14
5,00000000-0000-0000-0000-000000000000
6,ffffffff-ffff-ffff-ffff-ffffffffffff
7,

# Order and equality by value: ORDER BY (as the canonical texts),
# '=' with another spelling, '<' and '>', MIN/MAX (computed: the stored
# text), GROUP BY, DISTINCT, and a key that refuses another spelling.
$ pier sql "SELECT k, u FROM u ORDER BY u DESC" --csv
k,u
6,ffffffff-ffff-ffff-ffff-ffffffffffff
4,a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a14
3,a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a13
2,a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12
1,a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11
5,00000000-0000-0000-0000-000000000000
7,
$ pier sql "SELECT k FROM u WHERE u = 'A0EEBC999C0B4EF8BB6D6BB9BD380A11' OR u = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12' OR u = 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A14' ORDER BY k" --csv
k
1
2
4
$ pier sql "SELECT k FROM u WHERE u > 'a0eebc999c0b4ef8bb6d6bb9bd380a11' AND u < 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF' ORDER BY u" --csv
k
2
3
4
$ pier sql "SELECT min(u) AS lo, max(u) AS hi FROM u WHERE k < 5" --jsonl
{"lo":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11","hi":"A0eEbC999C0b4Ef8bB6d6Bb9bD380A14"}
$ pier sql "SELECT u FROM u WHERE k < 5 ORDER BY u LIMIT 1" --jsonl
{"u":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"}
$ pier sql "UPDATE u SET u = 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11' WHERE k = 5; SELECT u, count(*) AS n FROM u GROUP BY u ORDER BY u" --csv
u,n
,1
a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,2
a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12,1
a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a13,1
a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a14,1
ffffffff-ffff-ffff-ffff-ffffffffffff,1
$ pier sql "SELECT count(DISTINCT u) AS n FROM u" --csv
n
5
$ pier sql "CREATE TABLE key (v UUID PRIMARY KEY); INSERT INTO key VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'); INSERT INTO key VALUES ('A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11')"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: key.v
[exit 1]
$ pier sql "CREATE TABLE key (v UUID UNIQUE); INSERT INTO key VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'); INSERT INTO key VALUES ('a0eebc999c0b4ef8bb6d6bb9bd380a11')"
! pier: error: ConstraintUnique: UNIQUE constraint failed: key.v
[exit 1]
$ pier tables
u

# Round-trip through the CLI: the rows read with --jsonl are bound back
# with --params into a second table; the two hold the same rows, and
# read the same.
$ pier sql "CREATE TABLE w (k INT64 PRIMARY KEY, u UUID)"
$ pier sql "SELECT * FROM u" --jsonl > rows.jsonl && while IFS= read -r row; do pier sql "INSERT INTO w VALUES (:k, :u)" --params "$row" > /dev/null || exit 1; done < rows.jsonl && pier sql "SELECT count(*) AS n FROM w" --csv
n
7
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM u EXCEPT SELECT * FROM w)) AS lost, (SELECT count(*) FROM (SELECT * FROM w EXCEPT SELECT * FROM u)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM u ORDER BY k" --jsonl) <(pier sql "SELECT * FROM w ORDER BY k" --jsonl) && echo same
same
$ pier sql "SELECT count(*) AS n FROM u JOIN w USING (k, u)" --csv
n
6
$ pier sql "SELECT k FROM w WHERE u = :u" --param u=A0EEBC999C0B4EF8BB6D6BB9BD380A12 --csv
k
2

# Round-trip of the schema through a dump.
$ pier schema dump
CREATE TABLE "u" (
    "k" INT64 PRIMARY KEY,
    "u" UUID
);
CREATE TABLE "w" (
    "k" INT64 PRIMARY KEY,
    "u" UUID
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
