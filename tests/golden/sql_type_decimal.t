# DECIMAL(p,s) and DECIMAL: exact. More scale than the column allows is
# refused, never rounded; trailing zeros are free; a read pads to the
# scale. Equality, ordering, MIN/MAX, GROUP BY, DISTINCT and a UNIQUE
# index compare by value; SUM and AVG are exact.
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
! pier: error: QueryFailed: decimal_div: unknown rounding mode 'sideways' (half_even, half_up, down, up, floor, ceiling) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT sum(x) AS s, total(x) AS t FROM (SELECT 1 AS x UNION ALL SELECT 2.5)" --jsonl
{"s":3.5,"t":3.5}
$ pier sql "CREATE TABLE u (v DECIMAL(6,2) UNIQUE); INSERT INTO u VALUES ('1.5'); INSERT INTO u VALUES ('1.50')"
! pier: error: ConstraintUnique: UNIQUE constraint failed: u.v
[exit 1]

# Arithmetic and numeric functions on an exact column would compute with
# a float: they are refused when the statement is prepared, wherever the
# column is read (a subquery, an index, a WITHOUT ROWID key, an UPDATE);
# the exact functions, sum and avg, and an explicit CAST are allowed.
$ pier sql "SELECT price * 2 FROM d"
! pier: error: QueryFailed: '*' on d.price would compute with a floating-point approximation of an exact value: use decimal_add, decimal_sub, decimal_mul or decimal_div (or CAST it AS REAL to ask for the approximation) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT x FROM (SELECT price + 1 AS x FROM d)"
! pier: error: QueryFailed: '+' on d.price would compute with a floating-point approximation of an exact value: use decimal_add, decimal_sub, decimal_mul or decimal_div (or CAST it AS REAL to ask for the approximation) (at byte 0 of the script)
[exit 1]
$ pier sql "UPDATE d SET any_scale = any_scale - 1"
! pier: error: QueryFailed: '-' on d.any_scale would compute with a floating-point approximation of an exact value: use decimal_add, decimal_sub, decimal_mul or decimal_div (or CAST it AS REAL to ask for the approximation) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT total(price) FROM d"
! pier: error: QueryFailed: total() on d.price would compute with a floating-point approximation of an exact value: use decimal_add, decimal_sub, decimal_mul or decimal_div (or CAST it AS REAL to ask for the approximation) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT round(price, 1) FROM d"
! pier: error: QueryFailed: round() on d.price would compute with a floating-point approximation of an exact value: use decimal_add, decimal_sub, decimal_mul or decimal_div (or CAST it AS REAL to ask for the approximation) (at byte 0 of the script)
[exit 1]
$ pier sql "CREATE TABLE w (k TEXT PRIMARY KEY, v DECIMAL(5,1)) WITHOUT ROWID; CREATE INDEX d_price ON d(price)"
$ pier sql "SELECT v / 2 FROM w"
! pier: error: QueryFailed: '/' on w.v would compute with a floating-point approximation of an exact value: use decimal_add, decimal_sub, decimal_mul or decimal_div (or CAST it AS REAL to ask for the approximation) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT price + 0 FROM d INDEXED BY d_price WHERE price > 1"
! pier: error: QueryFailed: '+' on d.price would compute with a floating-point approximation of an exact value: use decimal_add, decimal_sub, decimal_mul or decimal_div (or CAST it AS REAL to ask for the approximation) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT id, CAST(price AS REAL) * 2 AS approx, decimal_mul(price, 2) AS exact FROM d WHERE id = 3" --jsonl
{"id":3,"approx":25.0,"exact":"25"}
