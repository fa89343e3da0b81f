# A DEFAULT keeps the digits it is written with (docs/sql.md, technique 6):
# a number SQLite would read as a float is the column's exact value. A
# DEFAULT its column cannot hold is refused with the table (and with ADD
# COLUMN), ColumnTypeConflict, rather than failing every INSERT later.
$ pier sql "CREATE TABLE r (id INT64 PRIMARY KEY, dd DECIMAL(20,8) DEFAULT 123456789.12345678, u UINT64 DEFAULT 18446744073709551615, n DECIMAL(20,8) DEFAULT -123456789.12345678, p DECIMAL(20,8) DEFAULT (123456789.12345678), h INT128 DEFAULT 170141183460469231731687303715884105727)"
$ pier sql "INSERT INTO r (id) VALUES (1); SELECT * FROM r" --jsonl
{"id":1,"dd":"123456789.12345678","u":18446744073709551615,"n":"-123456789.12345678","p":"123456789.12345678","h":170141183460469231731687303715884105727}
$ pier sql "CREATE TABLE q (id INT64 PRIMARY KEY, a INT8 DEFAULT 300)"
! pier: error: ColumnTypeConflict: column 'a' of table 'q' is INT8: its DEFAULT 300 is not one (out of range for INT8), so every INSERT that omits it would fail
[exit 1]
$ pier sql "CREATE TABLE q (id INT64 PRIMARY KEY, e ENUM('x','y') DEFAULT 'z')"
! pier: error: ColumnTypeConflict: column 'e' of table 'q' is ENUM('x','y'): its DEFAULT 'z' is not one (not one of the labels), so every INSERT that omits it would fail
[exit 1]
$ pier sql "CREATE TABLE q (id INT64 PRIMARY KEY, b INT64 DEFAULT 9223372036854775808)"
! pier: error: ColumnTypeConflict: column 'b' of table 'q' is INT64: its DEFAULT 9223372036854775808 is not one (an INT64 is an integer), so every INSERT that omits it would fail
[exit 1]
$ pier sql "CREATE TABLE q (id INT64 PRIMARY KEY, d DATE DEFAULT '2024-02-30')"
! pier: error: ColumnTypeConflict: column 'd' of table 'q' is DATE: its DEFAULT '2024-02-30' is not one (a date is YYYY-MM-DD, a real day of the years 0001 to 9999), so every INSERT that omits it would fail
[exit 1]
$ pier sql "CREATE TABLE q (id INT64 PRIMARY KEY, x REAL DEFAULT 'abc')"
! pier: error: ColumnTypeConflict: column 'x' of table 'q' is DOUBLE: its DEFAULT 'abc' is not one (a DOUBLE is a number), so every INSERT that omits it would fail
[exit 1]
$ pier sql "ALTER TABLE r ADD COLUMN z INT8 DEFAULT 1000"
! pier: error: ColumnTypeConflict: column 'z' of table 'r' is INT8: the rows stored before it read its default, which is not one: out of range for INT8
[exit 1]
$ pier sql "ALTER TABLE r ADD COLUMN z UINT8 DEFAULT -1"
! pier: error: ColumnTypeConflict: column 'z' of table 'r' is UINT8: the rows stored before it read its default, which is not one: out of range for UINT8
[exit 1]
$ pier sql "CREATE TABLE em (id INT64 PRIMARY KEY); ALTER TABLE em ADD COLUMN z INT8 DEFAULT 1000"
! pier: error: ColumnTypeConflict: column 'z' of table 'em' is INT8: its DEFAULT 1000 is not one (out of range for INT8), so every INSERT that omits it would fail
[exit 1]
# Nothing was made.
$ pier tables
r
# Defaults the columns hold, each as SQLite's affinity gives it to them.
$ pier sql "CREATE TABLE ok (id INT64 PRIMARY KEY, a INT8 DEFAULT '5', b INT8 DEFAULT 5.0, c REAL DEFAULT 1, d VARCHAR(3) DEFAULT 12, e ENUM('x','y') DEFAULT 'y', f BOOLEAN DEFAULT TRUE, g DATE DEFAULT '2024-01-01', h DECIMAL(5,2) DEFAULT 1.5, i INT8 DEFAULT NULL, j INT8 DEFAULT -128, m UINT64 DEFAULT 0, o INT32[] DEFAULT '[]', p INT64 DEFAULT 9223372036854775807, w INT64 DEFAULT (1 + 2), t ANY DEFAULT 'q')"
$ pier sql "INSERT INTO ok (id) VALUES (1); SELECT * FROM ok" --jsonl
{"id":1,"a":5,"b":5,"c":1.0,"d":"12","e":"y","f":true,"g":"2024-01-01","h":"1.50","i":null,"j":-128,"m":0,"o":[],"p":9223372036854775807,"w":3,"t":"q"}
