# Operators on exact values (docs/sql.md, "Operators on exact values"):
# + - * / % and unary minus on DECIMAL, UINT64 and INT128 values are exact,
# integers promoted exactly; / must terminate; comparisons, BETWEEN, IN,
# ORDER BY, GROUP BY, DISTINCT, min and max of computed values go by value.
$ pier sql "CREATE TABLE acct (id INT64 PRIMARY KEY, bal DECIMAL(12,2) NOT NULL, rate DECIMAL(6,4), n INT64, r REAL)"
$ pier sql "INSERT INTO acct VALUES (1, '0.10', '0.0125', 3, 0.5), (2, '0.20', '1.5', 7, 1.5), (3, '10.00', NULL, -2, 2.5), (4, '999999999.99', '0.0001', 0, 0)"
4 rows changed

# The four operations, remainder and sign, exact at the smallest scale.
$ pier sql "SELECT id, bal + 1 AS a, bal - '0.05' AS s, bal * 3 AS m, bal / 4 AS d, bal % '0.15' AS r, -bal AS neg FROM acct ORDER BY id" --jsonl
{"id":1,"a":"1.1","s":"0.05","m":"0.3","d":"0.025","r":"0.1","neg":"-0.1"}
{"id":2,"a":"1.2","s":"0.15","m":"0.6","d":"0.05","r":"0.05","neg":"-0.2"}
{"id":3,"a":"11","s":"9.95","m":"30","d":"2.5","r":"0.1","neg":"-10"}
{"id":4,"a":"1000000000.99","s":"999999999.94","m":"2999999999.97","d":"249999999.9975","r":"0.09","neg":"-999999999.99"}
$ pier sql "SELECT a.bal + b.bal AS sum_exact FROM acct a, acct b WHERE a.id = 1 AND b.id = 2" --jsonl
{"sum_exact":"0.3"}
$ pier sql "SELECT bal * rate AS interest FROM acct WHERE rate IS NOT NULL ORDER BY id" --jsonl
{"interest":"0.00125"}
{"interest":"0.3"}
{"interest":"99999.999999"}
# A result column keeps its name as written; integers alone keep SQLite's
# arithmetic (7 / 2 is 3), in the same statement too.
$ pier sql "SELECT bal * 2, n / 2, 7 / 2, n % 3 FROM acct WHERE id = 2"
bal * 2  n / 2  7 / 2  n % 3
0.4      3      3      1
(1 row)
# Nested, with parentheses, CASE and functions around them.
$ pier sql "SELECT (bal + 1) * (bal - 1) AS p, CASE WHEN bal * 2 > 1 THEN 'big' ELSE 'small' END AS k, bal / 4 * 4 AS q FROM acct WHERE id IN (1, 3) ORDER BY id" --jsonl
{"p":"-0.99","k":"small","q":"0.1"}
{"p":"99","k":"big","q":"10"}

# Comparisons of computed values go by value (text would sort '10.5' before '9').
$ pier sql "SELECT id FROM acct WHERE bal * 2 > 1 ORDER BY id" --jsonl
{"id":3}
{"id":4}
$ pier sql "SELECT id FROM acct WHERE bal + 0 BETWEEN '0.15' AND 10 ORDER BY id" --jsonl
{"id":2}
{"id":3}
$ pier sql "SELECT id FROM acct WHERE bal * 10 IN (1, 100) ORDER BY id" --jsonl
{"id":1}
{"id":3}
$ pier sql "SELECT id FROM acct WHERE bal * 10 NOT IN (1, 100) ORDER BY id" --jsonl
{"id":2}
{"id":4}
$ pier sql "SELECT id FROM acct WHERE decimal_add(bal, 0) >= 9 ORDER BY id" --jsonl
{"id":3}
{"id":4}
$ pier sql "SELECT id, bal * 100 AS cents FROM acct ORDER BY cents DESC" --jsonl
{"id":4,"cents":"99999999999"}
{"id":3,"cents":"1000"}
{"id":2,"cents":"20"}
{"id":1,"cents":"10"}
$ pier sql "SELECT max(bal * 3) AS hi, min(bal * 3) AS lo FROM acct" --jsonl
{"hi":"2999999999.97","lo":"0.3"}
$ pier sql "SELECT n % 2 AS odd, sum(bal) AS total FROM acct GROUP BY odd HAVING sum(bal) > 1 ORDER BY odd" --jsonl
{"odd":0,"total":"1000000009.99"}
$ pier sql "SELECT n % 2 AS odd, max(bal) AS hi FROM acct GROUP BY odd HAVING max(bal) > 5 ORDER BY odd" --jsonl
{"odd":0,"hi":"999999999.99"}
$ pier sql "SELECT DISTINCT bal * 0 AS z FROM acct" --jsonl
{"z":"0"}
$ pier sql "SELECT id, sum(bal * 2) OVER (ORDER BY id) AS running FROM acct ORDER BY id" --jsonl
{"id":1,"running":"0.2"}
{"id":2,"running":"0.6"}
{"id":3,"running":"20.6"}
{"id":4,"running":"2000000020.58"}
$ pier sql "SELECT x FROM (SELECT bal * 2 AS x FROM acct) WHERE CAST(x AS DECIMAL) > 1 ORDER BY CAST(x AS DECIMAL)" --jsonl
{"x":"20"}
{"x":"1999999999.98"}
# Aggregates of a tree of operators total each value as it is computed:
# sum, avg and total, a FILTER, a sliding window (values leave it again),
# and DISTINCT.
$ pier sql "SELECT sum(bal * 3 - bal / 4) AS s, avg(bal * 2) AS a, total(-bal) AS t, sum(bal * 2) FILTER (WHERE id > 2) AS f, sum(DISTINCT bal * 0) AS d FROM acct" --jsonl
{"s":"2750000028.2975","a":"500000005.145","t":"-1000000010.29","f":"2000000019.98","d":"0"}
$ pier sql "SELECT id, sum(bal * 10) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS w FROM acct ORDER BY id" --jsonl
{"id":1,"w":"1"}
{"id":2,"w":"3"}
{"id":3,"w":"102"}
{"id":4,"w":"10000000099.9"}
$ pier sql "SELECT sum(n * 2) AS ints, sum(r * 2) AS reals FROM acct" --jsonl
{"ints":16,"reals":9.0}
$ pier sql "SELECT sum(bal / (n - n)) FROM acct"
! pier: error: QueryFailed: '/': division by zero (at byte 0 of the script)
[exit 1]

# Writes: an UPDATE, an INSERT ... SELECT, a parameter, a literal past
# what a double holds.
$ pier sql "UPDATE acct SET bal = bal * 2 + '0.01' WHERE id = 1"
1 row changed
$ pier sql "SELECT bal FROM acct WHERE id = 1" --jsonl
{"bal":"0.21"}
# (a parameter given as a number is a REAL: bind decimals as strings)
$ pier sql "UPDATE acct SET bal = bal + :amount WHERE id = 2" --param amount=0.05
! pier: error: QueryFailed: '+' of an exact value (DECIMAL, UINT64, INT128) and a REAL: write CAST(x AS DECIMAL) (or the number as a string, '1.5') to compute exactly, or CAST(... AS REAL) for a floating-point result (at byte 0 of the script)
[exit 1]
$ pier sql "UPDATE acct SET bal = bal + :amount WHERE id = 2" --param amount='"0.05"'
1 row changed
$ pier sql "SELECT bal FROM acct WHERE id = 2" --jsonl
{"bal":"0.25"}
$ pier sql "CREATE TABLE ledger (k INT64 PRIMARY KEY, v DECIMAL(38,10))"
$ pier sql "INSERT INTO ledger SELECT id, bal / 8 FROM acct"
4 rows changed
$ pier sql "SELECT k, v FROM ledger ORDER BY k" --jsonl
{"k":1,"v":"0.0262500000"}
{"k":2,"v":"0.0312500000"}
{"k":3,"v":"1.2500000000"}
{"k":4,"v":"124999999.9987500000"}
$ pier sql "SELECT v * 12345678901234567890 AS big FROM ledger WHERE k = 3" --jsonl
{"big":"15432098626543209862.5"}

# Refusals: a quotient that does not terminate, division by zero, a REAL
# beside an exact value, text that is not a number, more than 38 digits,
# a numeric function that would read the value as a float. Nothing is
# written by a statement refused.
$ pier sql "SELECT bal / 3 FROM acct WHERE id = 3"
! pier: error: QueryFailed: '/': the quotient does not terminate within 38 digits after the point (like 1/3): use decimal_div with a scale and a rounding mode (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT decimal_div(bal, 3, 4, 'half_even') AS third FROM acct WHERE id = 3" --jsonl
{"third":"3.3333"}
$ pier sql "UPDATE acct SET bal = bal / (n - n)"
! pier: error: QueryFailed: '/': division by zero (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT bal % 0 FROM acct"
! pier: error: QueryFailed: '%': division by zero (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT bal * 1.5 FROM acct"
! pier: error: QueryFailed: '*' of an exact value (DECIMAL, UINT64, INT128) and a REAL: write CAST(x AS DECIMAL) (or the number as a string, '1.5') to compute exactly, or CAST(... AS REAL) for a floating-point result (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT bal * r FROM acct"
! pier: error: QueryFailed: '*' of an exact value (DECIMAL, UINT64, INT128) and a REAL: write CAST(x AS DECIMAL) (or the number as a string, '1.5') to compute exactly, or CAST(... AS REAL) for a floating-point result (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT bal * CAST('1.5' AS DECIMAL) AS ok, CAST(bal AS REAL) * r AS approx FROM acct WHERE id = 3" --jsonl
{"ok":"15","approx":25.0}
$ pier sql "SELECT bal + 'abc' FROM acct"
! pier: error: QueryFailed: '+' of an exact value and text that is not a number (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT v * v * v * v FROM ledger WHERE k = 4"
! pier: error: QueryFailed: '*': the result needs more than 38 digits (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT abs(bal) FROM acct"
! pier: error: QueryFailed: abs() on acct.bal would compute with a floating-point or 64-bit approximation of an exact value: write CASE WHEN x < 0 THEN -x ELSE x END, which is exact (at byte 0 of the script)
[exit 1]
$ pier sql "UPDATE acct SET bal = bal * 1.1"
! pier: error: QueryFailed: '*' of an exact value (DECIMAL, UINT64, INT128) and a REAL: write CAST(x AS DECIMAL) (or the number as a string, '1.5') to compute exactly, or CAST(... AS REAL) for a floating-point result (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT id, bal FROM acct ORDER BY id" --jsonl
{"id":1,"bal":"0.21"}
{"id":2,"bal":"0.25"}
{"id":3,"bal":"10.00"}
{"id":4,"bal":"999999999.99"}

# The functions the rewrite writes check what they are given.
$ pier sql "SELECT _pxe('xx+', 1)"
! pier: error: QueryFailed: _pxe: not a program of its arguments (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT _pxe('x?', 1)"
! pier: error: QueryFailed: _pxe: not a program of its arguments (at byte 0 of the script)
[exit 1]

# A comparison the rewrite cannot see is refused, not answered as text.
$ pier sql "SELECT x FROM (SELECT bal * 2 AS x FROM acct) WHERE x > 1"
! pier: error: QueryFailed: a value computed from acct.bal is exact text without a column's type, which SQLite would compare and order as text, not by value: compare it where it is computed, or as CAST(x AS DECIMAL) (< <= > >= = <> BETWEEN and IN (...) then compare by value), or CAST it AS REAL (at byte 0 of the script)
[exit 1]

# Board queries: a board with exact columns (decimal, uint64, hugeint)
# gets the same operators, comparisons and aggregates.
$ pier sql "CREATE BOARD pub (n bigint, d decimal(12,2), h hugeint)"
$ printf '%s\n' '{"id":"a","n":1,"d":"2.50","h":170141183460469231731687303715884105}' '{"id":"b","n":2,"d":"0.10","h":3}' | pier insert pub -
2
$ pier query pub "SELECT id, d * 2, d + '0.2' AS y, h * 2 AS hh, n / 2 AS half FROM {{board}} ORDER BY id" --jsonl
{"id":"a","d * 2":"5","y":"2.7","hh":"340282366920938463463374607431768210","half":0}
{"id":"b","d * 2":"0.2","y":"0.3","hh":"6","half":1}
$ pier query pub "SELECT id, d * 100 AS cents FROM {{board}} WHERE d * 10 > 2 ORDER BY cents" --jsonl
{"id":"a","cents":"250"}
$ pier query pub "SELECT sum(d * 3 - d / 4) AS s, max(d * 3) AS m FROM {{board}} HAVING sum(d) > 2" --jsonl
{"s":"7.15","m":"7.5"}
$ pier query pub "SELECT d * CAST('0.5' AS DECIMAL) AS half FROM {{board}} ORDER BY id" --jsonl
{"half":"1.25"}
{"half":"0.05"}
$ pier query pub "SELECT d + 0.2 FROM {{board}}"
! pier: error: ReadFailed: the query failed: '+' of an exact value (DECIMAL, UINT64, INT128) and a REAL: write CAST(x AS DECIMAL) (or the number as a string, '1.5') to compute exactly, or CAST(... AS REAL) for a floating-point result
[exit 1]
# Numbers SQLite would read inexactly are read as their digits in a board
# query too.
$ pier query pub "SELECT id FROM {{board}} WHERE h = 170141183460469231731687303715884105" --jsonl
{"id":"a"}
$ pier query pub "SELECT count(*) AS n FROM {{board}} WHERE h = 170141183460469231731687303715884104" --jsonl
{"n":0}

# An operand right after a keyword (WHERE(...)) or right before one
# ((...)AND) stays apart from it in the rewrite, and a CAST that ends a
# result column leaves its name whole.
$ pier sql "SELECT id FROM acct WHERE(bal*2)>1 ORDER BY id" --jsonl
{"id":3}
{"id":4}
$ pier sql "SELECT id FROM acct WHERE 1<(bal*2)AND id>3" --jsonl
{"id":4}
$ pier sql "SELECT 2 * CAST(bal AS  DECIMAL) FROM acct WHERE id = 1"
2 * CAST(bal AS  DECIMAL)
0.42
(1 row)

# An INT128 of 39 digits (its extremes) is read and compared, not computed
# on: its negation and its remainder are refused, as its sum is.
$ pier sql "CREATE TABLE big (k INT64 PRIMARY KEY, v INT128); INSERT INTO big VALUES (1, '-170141183460469231731687303715884105728'), (2, '170141183460469231731687303715884105727')"
2 rows changed
$ pier sql "SELECT -v FROM big WHERE k = 2"
! pier: error: QueryFailed: '-': the result needs more than 38 digits (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT -v FROM big WHERE k = 1"
! pier: error: QueryFailed: '-': the result needs more than 38 digits (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT v % 7 FROM big WHERE k = 1"
! pier: error: QueryFailed: '%': the result needs more than 38 digits (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT k FROM big WHERE v + 0 > 0 OR v < decimal(0) ORDER BY k"
! pier: error: QueryFailed: '+': the result needs more than 38 digits (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT k FROM big WHERE v < decimal(0)" --jsonl
{"k":1}

# A statement met again after its table changed is judged again: exact once
# its column is DECIMAL, SQLite's arithmetic once it no longer is.
$ pier sql "CREATE TABLE u (k INT64 PRIMARY KEY, x TEXT); INSERT INTO u VALUES (1, '0.1'); SELECT x * 3 AS h FROM u; DROP TABLE u; CREATE TABLE u (k INT64 PRIMARY KEY, x DECIMAL); INSERT INTO u VALUES (1, '0.1'); SELECT x * 3 AS h FROM u" --jsonl
{"h":"0.3"}
$ pier sql "DROP TABLE u; CREATE TABLE u (k INT64 PRIMARY KEY, x DECIMAL); INSERT INTO u VALUES (1, '7'); SELECT x / 2 AS h FROM u; DROP TABLE u; CREATE TABLE u (k INT64 PRIMARY KEY, x TEXT); INSERT INTO u VALUES (1, '7'); SELECT x / 2 AS h FROM u" --jsonl
{"h":3}

# RETURNING computes exactly, on the values an INSERT just stored too, and
# its columns keep their names as written.
$ pier sql "INSERT INTO acct VALUES (5, '0.10', NULL, 1, 0) RETURNING bal * 3, -bal"
bal * 3  -bal
0.3      -0.1
(1 row)
$ pier sql "DELETE FROM acct WHERE id = 5 RETURNING bal * 3 AS t" --jsonl
{"t":"0.3"}
