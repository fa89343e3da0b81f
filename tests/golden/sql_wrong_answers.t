# The wrong answers a new user met (the issue on the typed dialect), each
# now exact or refused with the exact way to write it.
$ pier sql "SELECT CAST('1' AS DECIMAL) / 8"
CAST('1' AS DECIMAL) / 8
0.125
(1 row)
$ pier sql "SELECT decimal_div(CAST('1' AS DECIMAL), 8, 3) AS q" --jsonl
{"q":"0.125"}
$ pier sql "SELECT CAST('0.1' AS DECIMAL) + CAST('0.2' AS DECIMAL)"
CAST('0.1' AS DECIMAL) + CAST('0.2' AS DECIMAL)
0.3
(1 row)
$ pier sql "SELECT decimal_add(CAST('0.1' AS DECIMAL), CAST('0.2' AS DECIMAL)) AS s" --jsonl
{"s":"0.3"}
$ pier sql "SELECT CAST('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' AS UUID) AS u, CAST('10:00:00' AS TIME) AS t, CAST('2026-03-01T10:00:00Z' AS INSTANT) AS i, CAST('PT1H' AS INTERVAL) AS v, CAST('10:00:00' AS TIME) = CAST('10:00:01' AS TIME) AS same" --jsonl
{"u":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11","t":"10:00:00.000000","i":"2026-03-01T10:00:00.000000Z","v":"PT1H","same":0}
$ pier sql "CREATE TABLE n (u UINT64, h INT128, d DECIMAL(20,8))"
$ pier sql "INSERT INTO n VALUES (18446744073709551615, 170141183460469231731687303715884105727, 123456789.12345678)"
1 row changed
$ pier sql "SELECT * FROM n" --jsonl
{"u":18446744073709551615,"h":170141183460469231731687303715884105727,"d":"123456789.12345678"}
$ pier sql "SELECT decimal(0.30000000000000004) AS d" --jsonl
{"d":"0.30000000000000004"}
# A double bound as a parameter: an exact column takes its shortest text
# (SQLite's own conversion keeps 15 digits), and so does a comparison with
# one; a REAL column beside it takes the double; a parameter that fills
# an exact column and one that keeps the value's class (ANY) is refused.
$ pier sql "CREATE TABLE p (k INT64 PRIMARY KEY, d DECIMAL(20,8), x DECIMAL, r REAL, a ANY)"
$ pier sql "INSERT INTO p(k, d, x, r) VALUES (1, :v, :v, :v)" --param v=123456789.12345678
1 row changed
$ pier sql "UPDATE p SET x = :v WHERE k = 1" --param v=0.30000000000000004
1 row changed
$ pier sql "SELECT d, x, r FROM p" --jsonl
{"d":"123456789.12345678","x":"0.30000000000000004","r":123456789.12345678}
$ pier sql "SELECT k FROM p WHERE d = :v" --param v=123456789.12345678 --jsonl
{"k":1}
$ pier sql "SELECT count(*) AS n FROM p WHERE d = :v" --param v=123456789.1234567 --jsonl
{"n":0}
$ pier sql "INSERT INTO p VALUES (2, :v, :v, :v, :v)" --param v=1.5
! pier: error: InvalidArgument: parameter :v is a REAL that fills an exact column (DECIMAL, UINT64, INT128) and another column: bind the number as a string
[exit 1]
$ pier sql "INSERT INTO p VALUES (2, :v, :v, :v, :v)" --param v='"1.5"'
1 row changed
$ pier sql "SELECT k, d, typeof(a) AS t FROM p ORDER BY k" --jsonl
{"k":1,"d":"123456789.12345678","t":"null"}
{"k":2,"d":"1.50000000","t":"text"}
$ pier sql "CREATE TABLE m (d DECIMAL(10,2), r DOUBLE); INSERT INTO m VALUES (0.1, 0.1), (0.2, 0.2)"
2 rows changed
$ pier sql "SELECT sum(x) FROM (SELECT d AS x FROM m UNION ALL SELECT r FROM m)"
! pier: error: QueryFailed: sum: REAL and DECIMAL values together cannot be totalled exactly: write sum(CAST(x AS REAL)) for a float, or sum(decimal(x)) for an exact decimal (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT sum(d) AS s, avg(d) AS a, total(d) AS t FROM m" --jsonl
{"s":"0.3","a":"0.15","t":"0.3"}
$ pier sql "SELECT avg(x) FROM (SELECT CAST('1' AS DECIMAL) AS x UNION ALL SELECT CAST('0' AS DECIMAL) UNION ALL SELECT CAST('0' AS DECIMAL))"
! pier: error: QueryFailed: avg: the quotient does not terminate within 38 digits after the point (like 1/3): use decimal_div with a scale and a rounding mode (at byte 0 of the script)
[exit 1]
$ pier sql "CREATE TABLE w (t TIME, e ENUM('', 'a'))"
$ pier sql "INSERT INTO w VALUES ('10:00:00.1234565', ''), ('10:00:00.123456789', 'a'); SELECT * FROM w" --jsonl
{"t":"10:00:00.123456","e":""}
{"t":"10:00:00.123457","e":"a"}
# A CAST of a column to an exact type computes exactly, as a CAST of a
# constant does (a statement that reads a table loads the type's name once,
# before the loop that casts each row's value).
$ pier sql "CREATE TABLE c (k INT64 PRIMARY KEY, s TEXT, d DECIMAL(12,2)); INSERT INTO c VALUES (1, '0.1', '1.50')"
1 row changed
$ pier sql "SELECT CAST(s AS DECIMAL) * 3 AS a, CAST(d AS DECIMAL) * 2 AS b FROM c" --jsonl
{"a":"0.3","b":"3"}
$ pier sql "SELECT k FROM c WHERE CAST(s AS DECIMAL) + '0.2' = '0.3'" --jsonl
{"k":1}
