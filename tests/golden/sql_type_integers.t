# Integer types: each width's range at its edges, both ways; INTEGER is
# INT64; a refusal names the table, the column, the type and the value,
# and the statement leaves nothing behind.
$ pier sql "CREATE TABLE i (i8 INT8, i16 INT16, i32 INT32, i64 INTEGER, u8 UINT8, u16 UINT16, u32 UINT32, u64 UINT64, h INT128)"
$ pier schema i
table i
column  type    readonly
i8      INT8    no
i16     INT16   no
i32     INT32   no
i64     INT64   no
u8      UINT8   no
u16     UINT16  no
u32     UINT32  no
u64     UINT64  no
h       INT128  no
$ pier sql "INSERT INTO i VALUES (-128, -32768, -2147483648, -9223372036854775808, 0, 0, 0, '0', '-170141183460469231731687303715884105728')"
1 row changed
$ pier sql "INSERT INTO i VALUES (127, 32767, 2147483647, 9223372036854775807, 255, 65535, 4294967295, '18446744073709551615', '170141183460469231731687303715884105727')"
1 row changed
$ pier sql "INSERT INTO i(i8) VALUES (128)"
! pier: error: ColumnTypeConflict: column 'i8' of table 'i' is INT8, got 128: out of range for INT8
[exit 1]
$ pier sql "INSERT INTO i(i8) VALUES (-129)"
! pier: error: ColumnTypeConflict: column 'i8' of table 'i' is INT8, got -129: out of range for INT8
[exit 1]
$ pier sql "INSERT INTO i(i16) VALUES (32768)"
! pier: error: ColumnTypeConflict: column 'i16' of table 'i' is INT16, got 32768: out of range for INT16
[exit 1]
$ pier sql "INSERT INTO i(i32) VALUES (-2147483649)"
! pier: error: ColumnTypeConflict: column 'i32' of table 'i' is INT32, got -2147483649: out of range for INT32
[exit 1]
$ pier sql "INSERT INTO i(i64) VALUES (9223372036854775808)"
! pier: error: ColumnTypeConflict: column 'i64' of table 'i' is INT64, got a real value
[exit 1]
$ pier sql "INSERT INTO i(u8) VALUES (256)"
! pier: error: ColumnTypeConflict: column 'u8' of table 'i' is UINT8, got 256: out of range for UINT8
[exit 1]
$ pier sql "INSERT INTO i(u8) VALUES (-1)"
! pier: error: ColumnTypeConflict: column 'u8' of table 'i' is UINT8, got -1: out of range for UINT8
[exit 1]
$ pier sql "INSERT INTO i(u16) VALUES (65536)"
! pier: error: ColumnTypeConflict: column 'u16' of table 'i' is UINT16, got 65536: out of range for UINT16
[exit 1]
$ pier sql "INSERT INTO i(u32) VALUES (4294967296)"
! pier: error: ColumnTypeConflict: column 'u32' of table 'i' is UINT32, got 4294967296: out of range for UINT32
[exit 1]
$ pier sql "INSERT INTO i(u64) VALUES ('18446744073709551616')"
! pier: error: ColumnTypeConflict: column 'u64' of table 'i' is UINT64, got '18446744073709551616': out of range for UINT64
[exit 1]
$ pier sql "INSERT INTO i(u64) VALUES (-1)"
! pier: error: ColumnTypeConflict: column 'u64' of table 'i' is UINT64, got '-1': out of range for UINT64
[exit 1]
$ pier sql "INSERT INTO i(h) VALUES ('170141183460469231731687303715884105728')"
! pier: error: ColumnTypeConflict: column 'h' of table 'i' is INT128, got '170141183460469231731687303715884105728': out of range for INT128
[exit 1]
$ pier sql "INSERT INTO i(i8) VALUES (1.5)"
! pier: error: ColumnTypeConflict: column 'i8' of table 'i' is INT8, got a real value
[exit 1]
$ pier sql "INSERT INTO i(i8) VALUES ('x')"
! pier: error: ColumnTypeConflict: column 'i8' of table 'i' is INT8, got a text value
[exit 1]
$ pier --json sql "INSERT INTO i(i8) VALUES (1); INSERT INTO i(u8) VALUES (300)"
! {"error":"ColumnTypeConflict","message":"column 'u8' of table 'i' is UINT8, got 300: out of range for UINT8"}
[exit 1]
$ pier sql "SELECT count(*) AS n FROM i"
n
2
(1 row)

# Reading back, in JSON too (all digits kept), and ordering in SQL:
# UINT64 above 2^63 after every smaller value, INT128 by value.
$ pier sql "SELECT * FROM i ORDER BY i8" --jsonl
{"i8":-128,"i16":-32768,"i32":-2147483648,"i64":-9223372036854775808,"u8":0,"u16":0,"u32":0,"u64":0,"h":-170141183460469231731687303715884105728}
{"i8":127,"i16":32767,"i32":2147483647,"i64":9223372036854775807,"u8":255,"u16":65535,"u32":4294967295,"u64":18446744073709551615,"h":170141183460469231731687303715884105727}
$ pier sql "INSERT INTO i(u64, h) VALUES ('9223372036854775808', '-5'), ('10', '99999999999999999999'), (9223372036854775807, 3)"
3 rows changed
$ pier sql "SELECT u64 FROM i ORDER BY u64" --csv
u64
0
10
9223372036854775807
9223372036854775808
18446744073709551615
$ pier sql "SELECT h FROM i ORDER BY h DESC" --csv
h
170141183460469231731687303715884105727
99999999999999999999
3
-5
-170141183460469231731687303715884105728
$ pier sql "SELECT min(u64) AS lo, max(u64) AS hi, count(DISTINCT u64) AS n FROM i" --jsonl
{"lo":"0","hi":"18446744073709551615","n":5}
$ pier sql "SELECT h FROM i WHERE h = 3 OR h = '-5' ORDER BY h" --csv
h
-5
3
$ pier sql "SELECT sum(i8) AS s8, sum(u64) AS su64 FROM i" --jsonl
{"s8":-1,"su64":"36893488147419103240"}
