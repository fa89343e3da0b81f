# BOOLEAN, REAL / DOUBLE, FLOAT32, BLOB / BYTEA, UUID and ANY: what each
# accepts and refuses, how it reads back, and how it orders.
$ pier sql "CREATE TABLE s (b BOOLEAN, r REAL, d DOUBLE, f FLOAT32, x BLOB, y BYTEA, u UUID, a ANY)"
$ pier schema s
table s
column  type     readonly
b       BOOLEAN  no
r       DOUBLE   no
d       DOUBLE   no
f       FLOAT32  no
x       BLOB     no
y       BLOB     no
u       UUID     no
a       ANY      no
$ pier sql "INSERT INTO s VALUES (TRUE, 0.1, 2, 0.1, x'00ff', x'', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', 1), (0, -2.5e-7, 1e300, 3.4e38, NULL, NULL, 'a0eebc999c0b4ef8bb6d6bb9bd380a12', 'text'), (NULL, NULL, NULL, NULL, NULL, NULL, NULL, x'01')"
3 rows changed
$ pier sql "SELECT * FROM s" --jsonl
{"b":true,"r":0.1,"d":2.0,"f":0.1,"x":"00FF","y":"","u":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11","a":1}
{"b":false,"r":-2.5e-07,"d":1e+300,"f":3.4e+38,"x":null,"y":null,"u":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12","a":"text"}
{"b":null,"r":null,"d":null,"f":null,"x":null,"y":null,"u":null,"a":"01"}
$ pier sql "SELECT * FROM s"
b      r         d       f        x     y     u                                     a
true   0.1       2.0     0.1      00FF        a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11  1
false  -2.5e-07  1e+300  3.4e+38  null  null  a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12  text
null   null      null    null     null  null  null                                  01
(3 rows)
$ pier sql "INSERT INTO s(b) VALUES (2)"
! pier: error: ColumnTypeConflict: column 'b' of table 's' is BOOLEAN, got 2: a BOOLEAN is 0 or 1
[exit 1]
$ pier sql "INSERT INTO s(b) VALUES ('true')"
! pier: error: ColumnTypeConflict: column 'b' of table 's' is BOOLEAN, got a text value
[exit 1]
$ pier sql "INSERT INTO s(r) VALUES ('x')"
! pier: error: ColumnTypeConflict: column 'r' of table 's' is DOUBLE, got a text value
[exit 1]
$ pier sql "INSERT INTO s(f) VALUES (3.5e38)"
! pier: error: ColumnTypeConflict: column 'f' of table 's' is FLOAT32, got 3.5e+38: out of range for FLOAT32
[exit 1]
$ pier sql "INSERT INTO s(x) VALUES ('text')"
! pier: error: ColumnTypeConflict: column 'x' of table 's' is BLOB, got a text value
[exit 1]
$ pier sql "INSERT INTO s(u) VALUES ('not-a-uuid')"
! pier: error: ColumnTypeConflict: column 'u' of table 's' is UUID, got 'not-a-uuid': a UUID is 32 hex digits, as 8-4-4-4-12 with hyphens
[exit 1]
$ pier sql "INSERT INTO s(u) VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1')"
! pier: error: ColumnTypeConflict: column 'u' of table 's' is UUID, got 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1': a UUID is 32 hex digits, as 8-4-4-4-12 with hyphens
[exit 1]
$ pier sql "SELECT count(*) AS n FROM s"
n
3
(1 row)
$ pier sql "SELECT u FROM s WHERE u = 'A0EEBC999C0B4EF8BB6D6BB9BD380A11'" --csv
u
a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11
$ pier sql "SELECT u FROM s WHERE u IS NOT NULL ORDER BY u DESC" --csv
u
a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12
a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11
$ pier sql "SELECT typeof(a) AS t FROM s ORDER BY a" --csv
t
integer
text
blob
$ pier sql "CREATE TABLE k (u UUID PRIMARY KEY); INSERT INTO k VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'); INSERT INTO k VALUES ('A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11')"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: k.u
[exit 1]
