# Query results carry their columns' logical types: every board type in the
# four output formats. A timestamp reads as RFC 3339 UTC, a boolean as
# true/false, json as a document (inline in JSON, its text in the table and
# CSV), a hugeint with all its digits, a float as the float it holds.
# Computed values read as SQLite holds them (a blob as hexadecimal text).
$ pier create-board items --column flag=boolean --column tiny=tinyint --column small=smallint --column num=integer --column big=bigint --column huge=hugeint --column f=float --column d=double --column name=text --column ts=timestamp --column doc=json
1
$ pier insert items '[{"id":"a","flag":true,"tiny":-128,"small":32767,"num":-2147483648,"big":9223372036854775807,"huge":-170141183460469231731687303715884105728,"f":0.1,"d":-2.5e-7,"name":"Ann, \"the first\"","ts":"2026-01-02T03:04:05.123456+02:00","doc":{"b":[1,2],"a":null}},{"id":"b","flag":false,"name":""},{"id":"c"}]'
2
$ pier query items 'SELECT id, flag, tiny, small, num, big, huge, f, d, name, ts, doc FROM {{board}} ORDER BY id'
id  flag   tiny  small  num          big                  huge                                      f     d         name              ts                           doc
a   true   -128  32767  -2147483648  9223372036854775807  -170141183460469231731687303715884105728  0.1   -2.5e-07  Ann, "the first"  2026-01-02T01:04:05.123456Z  {"a":null,"b":[1,2]}
b   false  null  null   null         null                 null                                      null  null                        null                         null
c   null   null  null   null         null                 null                                      null  null      null              null                         null
(3 rows)
$ pier query items 'SELECT id, flag, tiny, small, num, big, huge, f, d, name, ts, doc FROM {{board}} ORDER BY id' --json
[
{"id":"a","flag":true,"tiny":-128,"small":32767,"num":-2147483648,"big":9223372036854775807,"huge":-170141183460469231731687303715884105728,"f":0.1,"d":-2.5e-07,"name":"Ann, \"the first\"","ts":"2026-01-02T01:04:05.123456Z","doc":{"a":null,"b":[1,2]}},
{"id":"b","flag":false,"tiny":null,"small":null,"num":null,"big":null,"huge":null,"f":null,"d":null,"name":"","ts":null,"doc":null},
{"id":"c","flag":null,"tiny":null,"small":null,"num":null,"big":null,"huge":null,"f":null,"d":null,"name":null,"ts":null,"doc":null}
]
$ pier query items 'SELECT id, flag, tiny, small, num, big, huge, f, d, name, ts, doc FROM {{board}} ORDER BY id' --jsonl
{"id":"a","flag":true,"tiny":-128,"small":32767,"num":-2147483648,"big":9223372036854775807,"huge":-170141183460469231731687303715884105728,"f":0.1,"d":-2.5e-07,"name":"Ann, \"the first\"","ts":"2026-01-02T01:04:05.123456Z","doc":{"a":null,"b":[1,2]}}
{"id":"b","flag":false,"tiny":null,"small":null,"num":null,"big":null,"huge":null,"f":null,"d":null,"name":"","ts":null,"doc":null}
{"id":"c","flag":null,"tiny":null,"small":null,"num":null,"big":null,"huge":null,"f":null,"d":null,"name":null,"ts":null,"doc":null}
$ pier query items 'SELECT id, flag, tiny, small, num, big, huge, f, d, name, ts, doc FROM {{board}} ORDER BY id' --csv
id,flag,tiny,small,num,big,huge,f,d,name,ts,doc
a,true,-128,32767,-2147483648,9223372036854775807,-170141183460469231731687303715884105728,0.1,-2.5e-07,"Ann, ""the first""",2026-01-02T01:04:05.123456Z,"{""a"":null,""b"":[1,2]}"
b,false,,,,,,,,"",,
c,,,,,,,,,,,

# The base columns, and SELECT * (never the version stamp).
$ pier query items 'SELECT * FROM {{board}} WHERE id = '\''c'\''' --jsonl
{"id":"c","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"flag":null,"tiny":null,"small":null,"num":null,"big":null,"huge":null,"f":null,"d":null,"name":null,"ts":null,"doc":null}

# Origins survive aliases, CTEs and subqueries; computed columns do not
# take a type: an aggregate of a timestamp is its microseconds.
$ pier query items 'WITH x AS (SELECT ts AS t, flag FROM {{board}}) SELECT t, flag AS f2, (SELECT max(ts) FROM {{board}}) AS latest FROM x WHERE t IS NOT NULL' --jsonl
{"t":"2026-01-02T01:04:05.123456Z","f2":true,"latest":1767315845123456}
$ pier query items 'SELECT id, flag + 0 AS flag_int, num * 2 AS twice, length(name) AS len, x'\''00ff'\'' AS raw, 1e999 AS inf, NULL AS nada, json_extract(doc, '\''$.b[1]'\'') AS second FROM {{board}} WHERE id = '\''a'\''' --jsonl
{"id":"a","flag_int":1,"twice":-4294967296,"len":16,"raw":"00FF","inf":9e999,"nada":null,"second":2}

# Typed values compare and sort in SQL by their meaning: instants by time,
# json as its canonical text, booleans as 0/1.
$ pier query items 'SELECT id FROM {{board}} WHERE flag ORDER BY id'
id
a
(1 row)
$ pier query items 'SELECT count(*) AS n, min(ts) AS first, max(big) AS most FROM {{board}}' --jsonl
{"n":3,"first":1767315845123456,"most":9223372036854775807}
$ pier query items 'SELECT id, json_extract(doc, '\''$.b'\'') AS b FROM {{board}} WHERE json_extract(doc, '\''$.b[0]'\'') = 1' --jsonl
{"id":"a","b":"[1,2]"}

# Empty results in each format.
$ pier query items 'SELECT id, name FROM {{board}} WHERE 0'
id  name
(0 rows)
$ pier query items 'SELECT id, name FROM {{board}} WHERE 0' --json
[]
$ pier query items 'SELECT id, name FROM {{board}} WHERE 0' --jsonl
$ pier query items 'SELECT id, name FROM {{board}} WHERE 0' --csv
id,name

# The table keeps a cell on one line and aligns by characters.
$ pier insert notes '[{"id":"n1","text":"two\nlines\tand a tab"},{"id":"n2","text":"żółw"},{"id":"n3","text":"x"}]'
4
$ pier query notes 'SELECT text, id FROM {{board}} ORDER BY id'
text                   id
two\nlines\tand a tab  n1
żółw                   n2
x                      n3
(3 rows)
