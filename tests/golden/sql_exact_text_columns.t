# An exact column compared with a TEXT column: write the text as the
# exact type, CAST(q.quoted AS DECIMAL), to compare by value in either
# order (docs/sql.md, Limits: a bare comparison of the two columns takes
# its collation from SQLite's rules and its plan).
$ pier sql "CREATE TABLE p (id INT64 PRIMARY KEY, price DECIMAL(10,2)); CREATE TABLE q (id INT64 PRIMARY KEY, quoted TEXT)"
$ pier sql "INSERT INTO p VALUES (1, 1.50); INSERT INTO q VALUES (1, '1.5'), (2, '1.50'), (3, '01.5'), (4, '1.51')"
4 rows changed
$ pier sql "SELECT q.id FROM p, q WHERE CAST(q.quoted AS DECIMAL) = p.price ORDER BY q.id" --csv
id
1
2
3
$ pier sql "SELECT q.id FROM q, p WHERE p.price = CAST(q.quoted AS DECIMAL) ORDER BY q.id" --csv
id
1
2
3
