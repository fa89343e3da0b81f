# DECIMAL(p,s) and DECIMAL: exact. More scale than the column allows is
# refused, never rounded; trailing zeros are free; a read pads to the
# scale. Equality, ordering, MIN/MAX, GROUP BY, DISTINCT and a UNIQUE
# index compare by value; SUM and AVG are exact.
# DECIMAL(p,s) takes p from 1 to 38 and s from 0 to p; DECIMAL alone
# takes up to 38 significant digits at any scale up to 38 and reads at
# its smallest scale. A decimal is kept as the text written (numbers
# become SQLite's text of them), checked, and compared by value
# (collation pier_numeric); every spelling of a number is taken (a sign,
# no digits before or after the point, an exponent); a refused statement
# or script writes nothing; values read back padded to the column's
# scale in every format, and round-trip through --jsonl and --params, the
# schema through a dump.
$ pier sql "CREATE TABLE d (id INT64 PRIMARY KEY, price DECIMAL(5,2), any_scale DECIMAL)"
$ pier sql "INSERT INTO d VALUES (1, '999.99', '0.10'), (2, '-999.99', '0.20'), (3, '12.5', '1e3'), (4, '1.230', '-0.000001'), (5, 7, 12.25), (6, '0', '12345678901234567890123456789012345678')"
6 rows changed
$ pier sql "SELECT * FROM d ORDER BY id" --jsonl
{"id":1,"price":"999.99","any_scale":"0.1"}
{"id":2,"price":"-999.99","any_scale":"0.2"}
{"id":3,"price":"12.50","any_scale":"1000"}
{"id":4,"price":"1.23","any_scale":"-0.000001"}
{"id":5,"price":"7.00","any_scale":"12.25"}
{"id":6,"price":"0.00","any_scale":"12345678901234567890123456789012345678"}
$ pier sql "INSERT INTO d(id, price) VALUES (7, '1000.00')"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got '1000.00': more digits before the point than the column's precision allows
[exit 1]
$ pier sql "INSERT INTO d(id, price) VALUES (7, '1.234')"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got '1.234': more digits after the point than the column's scale allows (values are never rounded)
[exit 1]
$ pier sql "INSERT INTO d(id, price) VALUES (7, 'abc')"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got 'abc': a decimal needs digits (like 12.50)
[exit 1]
$ pier sql "INSERT INTO d(id, price) VALUES (7, '1.2.3')"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got '1.2.3': a decimal is digits with an optional point and exponent (like 12.50 or -1.5e3)
[exit 1]
$ pier sql "INSERT INTO d(id, any_scale) VALUES (7, '123456789012345678901234567890123456789')"
! pier: error: ColumnTypeConflict: column 'any_scale' of table 'd' is DECIMAL, got '123456789012345678901234567890123456789': a decimal of more than 38 digits
[exit 1]
$ pier sql "INSERT INTO d(id, price) VALUES (7, 1.005)"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got '1.005': more digits after the point than the column's scale allows (values are never rounded)
[exit 1]
$ pier sql "SELECT count(*) AS n FROM d"
n
6
(1 row)

# Every spelling of a number is taken, brought to the column's scale:
# exponents (either case, either sign), a '+', no digit before or after
# the point, a negative zero, trailing zeros past the scale, integers,
# reals (by SQLite's text of them, 15 digits) and TRUE.
$ pier sql "INSERT INTO d(id, price) VALUES (10, '1.5e2'), (11, '1E2'), (12, '150e-3'), (13, '99999e-2'), (14, '+1.5'), (15, '.5'), (16, '5.'), (17, '-0'), (18, '-0.00'), (19, '1.2300000'), (20, '1e+2'), (21, 0.1), (22, 1.005e2), (23, TRUE), (24, '-999.990') RETURNING id, price" --csv
id,price
10,150.00
11,100.00
12,0.15
13,999.99
14,1.50
15,0.50
16,5.00
17,0.00
18,0.00
19,1.23
20,100.00
21,0.10
22,100.50
23,1.00
24,-999.99

# Refused: a scale past the column's however it is spelled (an exponent,
# zeros after the last digit do not count but other digits do), more
# digits before the point than p - s, text that is no number, and a
# blob. DECIMAL alone refuses a 39th digit on either side of the point.
$ pier sql "INSERT INTO d(id, price) VALUES (30, '1.5e-2')"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got '1.5e-2': more digits after the point than the column's scale allows (values are never rounded)
[exit 1]
$ pier sql "INSERT INTO d(id, price) VALUES (30, '0.0010')"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got '0.0010': more digits after the point than the column's scale allows (values are never rounded)
[exit 1]
$ pier sql "INSERT INTO d(id, price) VALUES (30, '999.995')"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got '999.995': more digits after the point than the column's scale allows (values are never rounded)
[exit 1]
$ pier sql "INSERT INTO d(id, price) VALUES (30, '1e3')"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got '1e3': more digits before the point than the column's precision allows
[exit 1]
$ pier sql "INSERT INTO d(id, price) VALUES (30, '-1000')"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got '-1000': more digits before the point than the column's precision allows
[exit 1]
$ pier sql "INSERT INTO d(id, price) VALUES (30, 1e20)"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got '1.0e+20': more digits before the point than the column's precision allows
[exit 1]
$ pier sql "INSERT INTO d(id, price) VALUES (30, '1e')"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got '1e': a decimal's exponent needs digits (like 1.5e3)
[exit 1]
$ pier sql "INSERT INTO d(id, price) VALUES (30, 'e3')"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got 'e3': a decimal needs digits (like 12.50)
[exit 1]
$ pier sql "INSERT INTO d(id, price) VALUES (30, ' 1')"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got ' 1': a decimal needs digits (like 12.50)
[exit 1]
$ pier sql "INSERT INTO d(id, price) VALUES (30, '1 ')"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got '1 ': a decimal is digits with an optional point and exponent (like 12.50 or -1.5e3)
[exit 1]
$ pier sql "INSERT INTO d(id, price) VALUES (30, '')"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got '': a decimal needs digits (like 12.50)
[exit 1]
$ pier sql "INSERT INTO d(id, price) VALUES (30, '1e100001')"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got '1e100001': a decimal's exponent is out of range
[exit 1]
$ pier sql "INSERT INTO d(id, price) VALUES (30, x'01')"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got a blob value
[exit 1]
$ pier sql "INSERT INTO d(id, any_scale) VALUES (30, '0.000000000000000000000000000000000000001')"
! pier: error: ColumnTypeConflict: column 'any_scale' of table 'd' is DECIMAL, got '0.000000000000000000000000000000000000001': a decimal of more than 38 digits after the point
[exit 1]
$ pier sql "INSERT INTO d(id, any_scale) VALUES (30, '1e38')"
! pier: error: ColumnTypeConflict: column 'any_scale' of table 'd' is DECIMAL, got '1e38': a decimal of more than 38 digits
[exit 1]
$ pier sql "SELECT count(*) AS n FROM d WHERE id >= 10" --csv
n
15

# The widest columns at their ends: 38 digits after the point, 38
# before, DECIMAL(3) (scale 0), DECIMAL alone; one digit more is refused.
$ pier sql "CREATE TABLE e (k INT64 PRIMARY KEY, frac DECIMAL(38,38), whole DECIMAL(38,0), small DECIMAL(3), free DECIMAL)"
$ pier schema e
table e
column  type            readonly
k       INT64           no
frac    DECIMAL(38,38)  no
whole   DECIMAL(38,0)   no
small   DECIMAL(3,0)    no
free    DECIMAL         no
$ pier sql "INSERT INTO e VALUES (1, '0.99999999999999999999999999999999999999', '99999999999999999999999999999999999999', 999, '0.00000000000000000000000000000000000001'), (2, '-0.00000000000000000000000000000000000001', '-99999999999999999999999999999999999999', '-999.000', '-99999999999999999999999999999999999999'), (3, 0, '1e37', '1.0', '9.9999999999999999999999999999999999999e37')"
3 rows changed
$ pier sql "INSERT INTO e(frac) VALUES ('1')"
! pier: error: ColumnTypeConflict: column 'frac' of table 'e' is DECIMAL(38,38), got '1': more digits before the point than the column's precision allows
[exit 1]
$ pier sql "INSERT INTO e(frac) VALUES ('0.000000000000000000000000000000000000001')"
! pier: error: ColumnTypeConflict: column 'frac' of table 'e' is DECIMAL(38,38), got '0.000000000000000000000000000000000000001': more digits after the point than the column's scale allows (values are never rounded)
[exit 1]
$ pier sql "INSERT INTO e(whole) VALUES ('1e38')"
! pier: error: ColumnTypeConflict: column 'whole' of table 'e' is DECIMAL(38,0), got '1e38': more digits before the point than the column's precision allows
[exit 1]
$ pier sql "INSERT INTO e(whole) VALUES ('0.5')"
! pier: error: ColumnTypeConflict: column 'whole' of table 'e' is DECIMAL(38,0), got '0.5': more digits after the point than the column's scale allows (values are never rounded)
[exit 1]
$ pier sql "INSERT INTO e(small) VALUES (1000)"
! pier: error: ColumnTypeConflict: column 'small' of table 'e' is DECIMAL(3,0), got '1000': more digits before the point than the column's precision allows
[exit 1]
$ pier sql "INSERT INTO e(small) VALUES ('1.5')"
! pier: error: ColumnTypeConflict: column 'small' of table 'e' is DECIMAL(3,0), got '1.5': more digits after the point than the column's scale allows (values are never rounded)
[exit 1]
$ pier sql "INSERT INTO e(free) VALUES ('-100000000000000000000000000000000000000')"
! pier: error: ColumnTypeConflict: column 'free' of table 'e' is DECIMAL, got '-100000000000000000000000000000000000000': a decimal of more than 38 digits
[exit 1]
$ pier sql "SELECT count(*) AS n FROM e" --csv
n
3
$ pier sql "SELECT * FROM e ORDER BY k"
k  frac                                       whole                                    small  free
1  0.99999999999999999999999999999999999999   99999999999999999999999999999999999999   999    0.00000000000000000000000000000000000001
2  -0.00000000000000000000000000000000000001  -99999999999999999999999999999999999999  -999   -99999999999999999999999999999999999999
3  0.00000000000000000000000000000000000000   10000000000000000000000000000000000000   1      99999999999999999999999999999999999999
(3 rows)

# Precision and scale of the type itself.
$ pier sql "CREATE TABLE bad (v DECIMAL(39,0))"
! pier: error: UnknownType: column 'v': DECIMAL(p,s) takes a precision p from 1 to 38
[exit 1]
$ pier sql "CREATE TABLE bad (v DECIMAL(0,0))"
! pier: error: UnknownType: column 'v': DECIMAL(p,s) takes a precision p from 1 to 38
[exit 1]
$ pier sql "CREATE TABLE bad (v DECIMAL(5,6))"
! pier: error: UnknownType: column 'v': DECIMAL(p,s) takes a scale s from 0 to p
[exit 1]
$ pier sql "CREATE TABLE bad (v DECIMAL(5,))"
! pier: error: UnknownType: column 'v': DECIMAL(p,s) takes a scale s from 0 to p
[exit 1]
$ pier sql "CREATE TABLE bad (v NUMERIC(5,2))"
! pier: error: UnknownType: column 'v': type NUMERIC is not supported: use DECIMAL or DECIMAL(p,s)
[exit 1]

# A refusal at the end of a script leaves nothing of it.
$ pier sql "INSERT INTO d(id, price) VALUES (40, 1); UPDATE d SET price = 2 WHERE id = 6; INSERT INTO d(id, price) VALUES (41, '0.001')"
! pier: error: ColumnTypeConflict: column 'price' of table 'd' is DECIMAL(5,2), got '0.001': more digits after the point than the column's scale allows (values are never rounded)
[exit 1]
$ pier sql "SELECT count(*) AS n FROM d WHERE id >= 40 OR price = 2" --csv
n
0
$ pier sql "DELETE FROM d WHERE id >= 10"
15 rows changed

# Reading back in the table, JSON and CSV: padded to the scale.
$ pier sql "SELECT * FROM d ORDER BY id"
id  price    any_scale
1   999.99   0.1
2   -999.99  0.2
3   12.50    1000
4   1.23     -0.000001
5   7.00     12.25
6   0.00     12345678901234567890123456789012345678
(6 rows)
$ pier sql "SELECT * FROM d ORDER BY id" --json
[
{"id":1,"price":"999.99","any_scale":"0.1"},
{"id":2,"price":"-999.99","any_scale":"0.2"},
{"id":3,"price":"12.50","any_scale":"1000"},
{"id":4,"price":"1.23","any_scale":"-0.000001"},
{"id":5,"price":"7.00","any_scale":"12.25"},
{"id":6,"price":"0.00","any_scale":"12345678901234567890123456789012345678"}
]
$ pier sql "SELECT * FROM d ORDER BY id" --csv
id,price,any_scale
1,999.99,0.1
2,-999.99,0.2
3,12.50,1000
4,1.23,-0.000001
5,7.00,12.25
6,0.00,12345678901234567890123456789012345678
$ pier sql "SELECT id FROM d WHERE price = '12.50' OR price = 7 ORDER BY id" --csv
id
3
5
$ pier sql "SELECT price FROM d ORDER BY price" --csv
price
-999.99
0.00
1.23
7.00
12.50
999.99
$ pier sql "SELECT min(price) AS lo, max(price) AS hi FROM d" --jsonl
{"lo":"-999.99","hi":"999.99"}
$ pier sql "SELECT id FROM d WHERE price > 10 ORDER BY id" --csv
id
1
3
$ pier sql "UPDATE d SET price = '12.50' WHERE id = 5; SELECT price, count(*) AS n FROM d GROUP BY price ORDER BY price" --csv
price,n
-999.99,1
0.00,1
1.23,1
12.50,2
999.99,1
$ pier sql "SELECT count(DISTINCT price) AS n FROM d" --csv
n
5
$ pier sql "SELECT sum(any_scale) AS s FROM d WHERE id < 3" --jsonl
{"s":"0.3"}
$ pier sql "SELECT sum(price) AS s, avg(price) AS a FROM d WHERE id IN (1, 3)" --jsonl
{"s":"1012.49","a":"506.245"}
$ pier sql "SELECT avg(any_scale) AS a FROM d WHERE id IN (1, 2, 5)" --jsonl
! pier: error: QueryFailed: avg: the quotient does not terminate within 38 digits after the point (like 1/3): use decimal_div with a scale and a rounding mode (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT decimal_div(sum(any_scale), 3, 4) AS a, decimal_div(1, 3, 2, 'up') AS up, decimal_mul('1.5', '2.25') AS m, decimal_add('0.1', '0.2') AS s, decimal_sub(1, '0.001') AS d FROM d WHERE id IN (1, 2, 5)" --jsonl
{"a":"4.1833","up":"0.34","m":"3.375","s":"0.3","d":"0.999"}
$ pier sql "SELECT decimal_div(1, 0, 2)"
! pier: error: QueryFailed: decimal_div: division by zero (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT decimal_div(1, 3, 2, 'sideways')"
! pier: error: QueryFailed: decimal_div: unknown rounding mode 'sideways': use half_even, half_up, half_down, up, down, ceiling or floor (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT sum(x) AS s, total(x) AS t FROM (SELECT 1 AS x UNION ALL SELECT 2.5)" --jsonl
{"s":3.5,"t":3.5}
$ pier sql "CREATE TABLE u (v DECIMAL(6,2) UNIQUE); INSERT INTO u VALUES ('1.5'); INSERT INTO u VALUES ('1.50')"
! pier: error: ConstraintUnique: UNIQUE constraint failed: u.v
[exit 1]
$ pier sql "CREATE TABLE u (v DECIMAL PRIMARY KEY); INSERT INTO u VALUES ('10'); INSERT INTO u VALUES ('1e1')"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: u.v
[exit 1]
$ pier sql "CREATE TABLE u (v DECIMAL(38,0) PRIMARY KEY); INSERT INTO u VALUES ('-0'); INSERT INTO u VALUES (0)"
! pier: error: ConstraintPrimaryKey: UNIQUE constraint failed: u.v
[exit 1]
$ pier tables
d
e

# Arithmetic on an exact column is exact wherever the column is read (a
# subquery, an index, a WITHOUT ROWID key, an UPDATE): the front-end
# writes the operators as Pier's exact functions. Numeric functions that
# would read it as a float are refused; the exact functions, sum, avg and
# total, and an explicit CAST are allowed.
$ pier sql "SELECT price * 2 FROM d"
price * 2
1999.98
-1999.98
25
2.46
25
0
(6 rows)
$ pier sql "SELECT x FROM (SELECT price + 1 AS x FROM d)"
x
1000.99
-998.99
13.5
2.23
13.5
1
(6 rows)
$ pier sql "UPDATE d SET any_scale = any_scale - 1"
6 rows changed
$ pier sql "SELECT total(price) FROM d"
total(price)
26.23
(1 row)
$ pier sql "SELECT round(price, 1) FROM d"
! pier: error: QueryFailed: round() on d.price would compute with a floating-point or 64-bit approximation of an exact value: use decimal_round(x, scale[, mode]) (at byte 0 of the script)
[exit 1]
$ pier sql "CREATE TABLE w (k TEXT PRIMARY KEY, v DECIMAL(5,1)) WITHOUT ROWID; CREATE INDEX d_price ON d(price)"
$ pier sql "SELECT v / 2 FROM w"
v / 2
(0 rows)
$ pier sql "SELECT price + 0 FROM d INDEXED BY d_price WHERE price > 1"
price + 0
1.23
12.5
12.5
999.99
(4 rows)
$ pier sql "SELECT id, CAST(price AS REAL) * 2 AS approx, decimal_mul(price, 2) AS exact FROM d WHERE id = 3" --jsonl
{"id":3,"approx":25.0,"exact":"25"}

# Round-trip through the CLI: the rows read with --jsonl (decimals as
# strings) are bound back with --params into a second table; the two
# hold the same rows, and read the same. A decimal bound as a JSON number
# is taken too.
$ pier sql "CREATE TABLE d2 (id INT64 PRIMARY KEY, price DECIMAL(5,2), any_scale DECIMAL)"
$ pier sql "SELECT * FROM d" --jsonl > rows.jsonl && while IFS= read -r row; do pier sql "INSERT INTO d2 VALUES (:id, :price, :any_scale)" --params "$row" > /dev/null || exit 1; done < rows.jsonl && pier sql "SELECT count(*) AS n FROM d2" --csv
n
6
$ pier sql "SELECT (SELECT count(*) FROM (SELECT * FROM d EXCEPT SELECT * FROM d2)) AS lost, (SELECT count(*) FROM (SELECT * FROM d2 EXCEPT SELECT * FROM d)) AS added" --csv
lost,added
0,0
$ diff <(pier sql "SELECT * FROM d ORDER BY id" --jsonl) <(pier sql "SELECT * FROM d2 ORDER BY id" --jsonl) && echo same
same
$ pier sql "CREATE TABLE e2 (k INT64 PRIMARY KEY, frac DECIMAL(38,38), whole DECIMAL(38,0), small DECIMAL(3), free DECIMAL)"
$ pier sql "SELECT * FROM e" --jsonl > rows.jsonl && while IFS= read -r row; do pier sql "INSERT INTO e2 VALUES (:k, :frac, :whole, :small, :free)" --params "$row" > /dev/null || exit 1; done < rows.jsonl && pier sql "SELECT count(*) AS n FROM e JOIN e2 USING (k, frac, whole, small, free)" --csv
n
3
$ diff <(pier sql "SELECT * FROM e ORDER BY k" --csv) <(pier sql "SELECT * FROM e2 ORDER BY k" --csv) && echo same
same
$ pier sql "INSERT INTO d2 VALUES (:id, :p, :a)" --params '{"id": 50, "p": 12.5, "a": 1e-5}' && pier sql "SELECT price, any_scale FROM d2 WHERE id = 50" --jsonl
1 row changed
{"price":"12.50","any_scale":"0.00001"}
$ pier sql "INSERT INTO d2 VALUES (:id, :p, NULL)" --param id=51 --param p='"1.005"'
! pier: error: ColumnTypeConflict: column 'price' of table 'd2' is DECIMAL(5,2), got '1.005': more digits after the point than the column's scale allows (values are never rounded)
[exit 1]

# Round-trip of the schema through a dump: each precision and scale in
# its canonical spelling, the WITHOUT ROWID table and the index too.
$ pier schema dump
CREATE TABLE "d" (
    "id" INT64 PRIMARY KEY,
    "price" DECIMAL(5,2),
    "any_scale" DECIMAL
);
CREATE TABLE "e" (
    "k" INT64 PRIMARY KEY,
    "frac" DECIMAL(38,38),
    "whole" DECIMAL(38,0),
    "small" DECIMAL(3,0),
    "free" DECIMAL
);
CREATE TABLE "w" (
    "k" TEXT PRIMARY KEY,
    "v" DECIMAL(5,1)
) WITHOUT ROWID;
CREATE INDEX d_price ON d(price);
CREATE TABLE "d2" (
    "id" INT64 PRIMARY KEY,
    "price" DECIMAL(5,2),
    "any_scale" DECIMAL
);
CREATE TABLE "e2" (
    "k" INT64 PRIMARY KEY,
    "frac" DECIMAL(38,38),
    "whole" DECIMAL(38,0),
    "small" DECIMAL(3,0),
    "free" DECIMAL
);
$ pier schema dump > d.sql && mkdir o && cd o && pier sql -f ../d.sql && pier schema dump | diff ../d.sql - && echo same
same
