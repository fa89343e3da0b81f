# Choices of values that may be exact (docs/sql.md, "Operators on exact
# values"): CASE, coalesce, ifnull, nullif, iif and the scalar min and max
# hand on an exact value without its column's type. Arithmetic on them is
# exact, comparisons go by value, and an ordering that rows could mix
# (exact text in one, a number in another) is refused, never answered by
# SQLite's order of storage classes.
$ pier sql "CREATE TABLE acct (id INT64 PRIMARY KEY, bal DECIMAL(12,2), n INT64)"
$ pier sql "INSERT INTO acct VALUES (1, '0.10', 3), (2, NULL, 7), (3, '-5.00', 1), (4, '12.50', 0)"
4 rows changed

# Arithmetic on a choice is exact: a missing balance counts as 0.
$ pier sql "SELECT id, coalesce(bal, 0) * 3 AS c, ifnull(bal, 0) + '0.05' AS i, nullif(bal, '0.10') * 2 AS z FROM acct ORDER BY id" --jsonl
{"id":1,"c":"0.3","i":"0.15","z":null}
{"id":2,"c":0,"i":"0.05","z":null}
{"id":3,"c":"-15","i":"-4.95","z":"-10"}
{"id":4,"c":"37.5","i":"12.55","z":"25"}
$ pier sql "SELECT id, CASE WHEN n > 2 THEN bal ELSE 0 END * 2 AS c, iif(n > 2, bal, 1) - '0.01' AS i FROM acct ORDER BY id" --jsonl
{"id":1,"c":"0.2","i":"0.09"}
{"id":2,"c":null,"i":null}
{"id":3,"c":0,"i":"0.99"}
{"id":4,"c":0,"i":"0.99"}
$ pier sql "SELECT sum(coalesce(bal, 0)) AS s, sum(CASE WHEN n > 0 THEN bal ELSE 0 END) AS t FROM acct" --jsonl
{"s":"7.6","t":"-4.9"}

# The scalar min and max compare by value (SQLite's put every number below
# every text: max(bal, 0) would be -5.00), and a number they choose over an
# exact value is its text, so every row orders by value.
$ pier sql "SELECT id, max(bal, 0) AS hi, min(bal, 1, n) AS lo, max(bal, 0) * 3 AS m FROM acct ORDER BY id" --jsonl
{"id":1,"hi":"0.10","lo":"0.10","m":"0.3"}
{"id":2,"hi":null,"lo":null,"m":null}
{"id":3,"hi":"0","lo":"-5.00","m":"0"}
{"id":4,"hi":"12.50","lo":"0","m":"37.5"}
$ pier sql "SELECT id, min(bal, 0) AS lo FROM acct WHERE bal IS NOT NULL ORDER BY lo, id" --jsonl
{"id":3,"lo":"-5.00"}
{"id":1,"lo":"0"}
{"id":4,"lo":"0"}
$ pier sql "SELECT max(3, 7, 2) AS a, min('b', 'a') AS b, max(n, 2) AS c FROM acct WHERE id = 1" --jsonl
{"a":7,"b":"a","c":3}
# A min or max the rewrite cannot name (quoted, or of more than 101
# arguments) is refused rather than ordered by storage class.
$ pier sql "SELECT \"max\"(bal, 0) AS m FROM acct"
! pier: error: QueryFailed: max() of acct.bal and other values would order them as SQLite does, every number below every text, not by value: write it as max(a, b, ...) by name, with at most 101 arguments, or CAST the exact value AS REAL (at byte 0 of the script)
[exit 1]

# Comparisons of a choice go by value, BETWEEN and IN too.
$ pier sql "SELECT id FROM acct WHERE coalesce(bal, 0) > -1 ORDER BY id" --jsonl
{"id":1}
{"id":2}
{"id":4}
$ pier sql "SELECT id FROM acct WHERE CASE WHEN n > 0 THEN bal ELSE 100 END < 5 ORDER BY id" --jsonl
{"id":1}
{"id":3}
$ pier sql "SELECT id FROM acct WHERE ifnull(bal, 0) BETWEEN -1 AND 10 ORDER BY id" --jsonl
{"id":1}
{"id":2}
$ pier sql "SELECT id FROM acct WHERE coalesce(bal, 0) IN (0, '12.5') ORDER BY id" --jsonl
{"id":2}
{"id":4}
$ pier sql "SELECT id FROM acct WHERE bal * 1 > (SELECT min(bal) FROM acct) AND bal > (SELECT sum(bal) / 4 FROM acct) ORDER BY id" --jsonl
{"id":4}

# Ordering a choice that rows could mix is refused, with the way to write
# it: ORDER BY, DISTINCT, GROUP BY, and the aggregate min and max.
$ pier sql "SELECT id FROM acct ORDER BY coalesce(bal, 0)"
! pier: error: QueryFailed: a value chosen between acct.bal and other values (by CASE, coalesce, ifnull, nullif or iif) may be exact text in one row and a number in another, which SQLite would order numbers first, not by value: CAST the choice AS DECIMAL (or AS REAL to ask for the approximation) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT coalesce(bal, 0) * 3 AS x FROM acct ORDER BY x"
! pier: error: QueryFailed: a value chosen between acct.bal and other values (by CASE, coalesce, ifnull, nullif or iif) may be exact text in one row and a number in another, which SQLite would order numbers first, not by value: CAST the choice AS DECIMAL (or AS REAL to ask for the approximation) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT DISTINCT CASE WHEN n > 2 THEN bal ELSE 0 END AS x FROM acct"
! pier: error: QueryFailed: a value chosen between acct.bal and other values (by CASE, coalesce, ifnull, nullif or iif) may be exact text in one row and a number in another, which SQLite would order numbers first, not by value: CAST the choice AS DECIMAL (or AS REAL to ask for the approximation) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT ifnull(bal, 0) AS b, count(*) AS k FROM acct GROUP BY b"
! pier: error: QueryFailed: a value chosen between acct.bal and other values (by CASE, coalesce, ifnull, nullif or iif) may be exact text in one row and a number in another, which SQLite would order numbers first, not by value: CAST the choice AS DECIMAL (or AS REAL to ask for the approximation) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT max(coalesce(bal, 0)) AS m FROM acct"
! pier: error: QueryFailed: a value chosen between acct.bal and other values (by CASE, coalesce, ifnull, nullif or iif) may be exact text in one row and a number in another, which SQLite would order numbers first, not by value: CAST the choice AS DECIMAL (or AS REAL to ask for the approximation) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT id, CAST(coalesce(bal, 0) AS DECIMAL) AS b FROM acct ORDER BY b, id" --jsonl
{"id":3,"b":"-5"}
{"id":2,"b":"0"}
{"id":1,"b":"0.1"}
{"id":4,"b":"12.5"}
$ pier sql "SELECT max(CAST(coalesce(bal, 0) AS DECIMAL)) AS m FROM acct" --jsonl
{"m":"12.5"}

# A refused write changes nothing.
$ pier sql "UPDATE acct SET n = 9 WHERE id IN (SELECT id FROM acct ORDER BY ifnull(bal, 0) LIMIT 1)"
! pier: error: QueryFailed: a value chosen between acct.bal and other values (by CASE, coalesce, ifnull, nullif or iif) may be exact text in one row and a number in another, which SQLite would order numbers first, not by value: CAST the choice AS DECIMAL (or AS REAL to ask for the approximation) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT count(*) AS nines FROM acct WHERE n = 9" --jsonl
{"nines":0}
$ pier sql "UPDATE acct SET bal = coalesce(bal, 0) * 2 WHERE id IN (1, 2)"
2 rows changed
$ pier sql "SELECT id, bal FROM acct WHERE id IN (1, 2) ORDER BY id" --jsonl
{"id":1,"bal":"0.20"}
{"id":2,"bal":"0.00"}
