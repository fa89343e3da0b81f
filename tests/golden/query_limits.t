# A query has limits (docs/query.md, "Limits"): time, the size of one
# value, memory. A query that reaches one fails with LimitExceeded naming
# it; the defaults hold without any option (a query without end stops at
# 30 s; a gigabyte blob at 64 MiB), and --time-limit, --max-value and
# --max-memory change them, before the command or after it.
$ pier insert qb '[{"id":"a","n":1},{"id":"b","n":2}]'
2
$ pier --json query qb 'SELECT zeroblob(1000000000) AS z'
! {"error":"LimitExceeded","message":"the query made or read a value longer than 64 MiB, its limit on one value"}
[exit 1]
$ pier query qb --time-limit 200ms 'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r) SELECT i FROM r WHERE i < 0'
! pier: error: LimitExceeded: the query ran for more than 200 ms, its time limit
[exit 1]
$ pier --time-limit=300ms query qb 'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r) SELECT i FROM r WHERE i < 0'
! pier: error: LimitExceeded: the query ran for more than 300 ms, its time limit
[exit 1]
$ pier query qb --max-value 1K 'SELECT length(randomblob(2000)) AS n'
! pier: error: LimitExceeded: the query made or read a value longer than 1 KiB, its limit on one value
[exit 1]
$ pier query qb --max-value 4K 'SELECT length(randomblob(2000)) AS n'
n
2000
(1 row)
$ pier query qb --max-memory 8M 'WITH RECURSIVE r(i, s) AS (SELECT 1, randomblob(1000000) UNION ALL SELECT i + 1, randomblob(1000000) FROM r WHERE i < 100) SELECT count(*) AS n FROM (SELECT * FROM r ORDER BY s)'
! pier: error: LimitExceeded: the query took more than 8 MiB of memory, its memory limit
[exit 1]

# A parameter longer than the limit on one value is refused before the
# query runs.
$ pier query qb --max-value 10 --param s=01234567890 'SELECT length(:s) AS n'
! pier: error: LimitExceeded: query parameter 1 is longer than 10 bytes, the query's limit on one value
[exit 1]

# "none" (or 0) lifts a limit: a long query runs to its end.
$ pier query qb --time-limit none --max-memory none 'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r WHERE i < 300000) SELECT sum(i) AS s FROM r'
s
45000150000
(1 row)

# pier sql has the same limits; the script that reaches one changes
# nothing.
$ pier sql 'CREATE TABLE t (n INT64)'
$ pier sql --time-limit 200ms 'INSERT INTO t VALUES (1); INSERT INTO t WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r) SELECT i FROM r'
! pier: error: LimitExceeded: the script ran for more than 200 ms, its time limit
[exit 1]
$ pier sql --max-value 1K "INSERT INTO t VALUES (length(randomblob(5000)))"
! pier: error: LimitExceeded: the script made or read a value longer than 1 KiB, its limit on one value
[exit 1]
$ pier sql 'SELECT count(*) AS n FROM t'
n
0
(1 row)

# A limit's value is a duration (500ms, 30s, 5m, 1h; a bare number is
# seconds) or a size (bytes, K, M, G); anything else is a usage error.
$ pier query qb --time-limit 5x 'SELECT 1'
! pier: usage: query: option '--time-limit' takes a duration (500ms, 30s, 5m) or none, not '5x'
! Try 'pier query --help'.
[exit 2]
$ pier --max-memory=lots query qb 'SELECT 1'
! pier: usage: option '--max-memory' takes a size (4096, 64K, 16M, 1G) or none, not 'lots'
! Try 'pier --help'.
[exit 2]
$ pier sql --max-value -1 'SELECT 1'
! pier: usage: sql: option '--max-value' takes a size (4096, 64K, 16M, 1G) or none, not '-1'
! Try 'pier sql --help'.
[exit 2]
