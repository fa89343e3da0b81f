# The limit on one value (--max-value) counts the values the statement
# makes, reads and binds, not the text, the column names or the lake's
# own statements Pier runs to serve it: a limit of 10 bytes answers
# "SELECT 1 AS a" and a long column name, and still refuses a longer value.
$ pier insert b '{"id":"x"}'
2

$ pier --max-value 10 sql 'SELECT 1 AS a' --csv
a
1

$ pier --max-value 10 query b 'SELECT 1 AS a_rather_long_name' --csv
a_rather_long_name
1

$ pier --max-value 10 query b 'SELECT id FROM {{board}}' --csv
id
x

$ pier --max-value 10 sql "SELECT 'eleven char' AS a" --csv
! pier: error: LimitExceeded: the script made or read a value longer than 10 bytes, its limit on one value
[exit 1]

$ pier --max-value 10 query b "SELECT :v AS a" --param v=abcdefghijk --csv
! pier: error: LimitExceeded: query parameter 1 is longer than 10 bytes, the query's limit on one value
[exit 1]
