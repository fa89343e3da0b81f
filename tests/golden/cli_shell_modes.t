# The shell's output modes: .mode box draws the table in UTF-8 box
# characters (nulls as null, wide text aligned by code points); .headers
# off leaves the column names out of the table, the box and CSV. A pager
# ($PAGER) never runs when stdout is not a terminal.
$ pier insert tasks '[{"id":"a","n":1,"note":"héllo"},{"id":"b","n":22,"note":null}]'
2
$ printf '%s\n' '.mode box' '.mode' 'SELECT id, n, note FROM {{board}} ORDER BY id' '.headers off' 'SELECT id, n, note FROM {{board}} ORDER BY id' '.mode table' 'SELECT id, n FROM {{board}} ORDER BY id' '.mode json' 'SELECT id FROM {{board}} ORDER BY id' | pier shell tasks
box
┌────┬────┬───────┐
│ id │ n  │ note  │
├────┼────┼───────┤
│ a  │ 1  │ héllo │
│ b  │ 22 │ null  │
└────┴────┴───────┘
(2 rows)
┌───┬────┬───────┐
│ a │ 1  │ héllo │
│ b │ 22 │ null  │
└───┴────┴───────┘
(2 rows)
a  1
b  22
(2 rows)
[
{"id":"a"},
{"id":"b"}
]

# CSV without its header line, even when a column's name holds a quote, a
# comma or a line end (a SQL script's statement may span lines).
$ printf '%s\n' '.mode csv' '.headers off' '.sql' 'SELECT 1 AS "a ""b"", c' 'd", 2 AS e;' '.headers on' 'SELECT 1 AS "a ""b"", c' 'd", 2 AS e;' | pier shell
1,2
"a ""b"", c
d",e
1,2

# An empty result in a box; a box in the SQL mode.
$ printf '%s\n' '.mode box' 'SELECT id FROM {{board}} WHERE n > 100' '.sql' 'CREATE TABLE t (x INT64);' 'INSERT INTO t VALUES (1), (2);' 'SELECT x FROM t;' | pier shell tasks
┌────┐
│ id │
└────┘
(0 rows)
2 rows changed
┌───┐
│ x │
├───┤
│ 1 │
│ 2 │
└───┘
(2 rows)

# Not a terminal: no pager, however long the result.
$ printf '%s\n' 'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 40) SELECT count(*) AS n FROM r' '.pager on' 'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 30) SELECT i FROM r WHERE i > 27' | PAGER='sed s/^/paged:/' LINES=2 pier shell tasks
n
40
(1 row)
i
28
29
30
(3 rows)

# Errors: an unknown mode, bad on/off words.
$ printf '%s\n' '.mode boxes' '.headers' '.headers yes' '.pager' '.pager maybe' | pier shell tasks
! pier: usage: .format takes one of table, box, json, jsonl, csv
! pier: usage: .headers takes on or off
! pier: usage: .headers takes on or off
! pier: usage: .pager takes on or off
! pier: usage: .pager takes on or off
[exit 1]
