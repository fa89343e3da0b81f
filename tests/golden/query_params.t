# Every parameter form. A value is bound, never spliced: text that looks
# like SQL stays text. --param reads a JSON scalar when it is one, else
# text; --params takes an object (names) or an array (?1, ?2...); a later
# value for the same name replaces an earlier one.
$ pier insert t '[{"id":"a","n":1,"who":"Ann","ok":true},{"id":"b","n":2,"who":"Bob","ok":false},{"id":"c","n":3,"who":"5"}]'
2
$ pier query t 'SELECT id FROM {{board}} WHERE n = :n' --param n=2
id
b
(1 row)
$ pier query t 'SELECT id FROM {{board}} WHERE n = $n' --param n=2
id
b
(1 row)
$ pier query t 'SELECT id FROM {{board}} WHERE n = @n' --param n=2
id
b
(1 row)
$ pier query t 'SELECT id FROM {{board}} WHERE n = :n' --param :n=3
id
c
(1 row)
$ pier query t 'SELECT id FROM {{board}} WHERE n = ?1 OR n = ?2 ORDER BY id' --param 1=1 --param 2=3
id
a
c
(2 rows)
$ pier query t 'SELECT id FROM {{board}} WHERE n = ? OR n = ? ORDER BY id' --params '[1,2]'
id
a
b
(2 rows)
$ pier query t 'SELECT id FROM {{board}} WHERE who = :who AND ok = :ok' --params '{"who":"Ann","ok":true}'
id
a
(1 row)

# Text or JSON scalar: 5 is an integer, "5" (JSON-quoted) is text, alice is
# text, null is NULL; anything else, an object included, binds as the text
# given.
$ pier query t 'SELECT :v AS v, typeof(:v) AS t FROM {{board}} LIMIT 1' --param v=5 --jsonl
{"v":5,"t":"integer"}
$ pier query t 'SELECT :v AS v, typeof(:v) AS t FROM {{board}} LIMIT 1' --param 'v="5"' --jsonl
{"v":"5","t":"text"}
$ pier query t 'SELECT :v AS v, typeof(:v) AS t FROM {{board}} LIMIT 1' --param v=alice --jsonl
{"v":"alice","t":"text"}
$ pier query t 'SELECT :v AS v, typeof(:v) AS t FROM {{board}} LIMIT 1' --param v=null --jsonl
{"v":null,"t":"null"}
$ pier query t 'SELECT :v AS v, typeof(:v) AS t FROM {{board}} LIMIT 1' --param v=2.5 --jsonl
{"v":2.5,"t":"real"}
$ pier query t 'SELECT :v AS v, typeof(:v) AS t FROM {{board}} LIMIT 1' --param 'v={"b":1, "a":2}' --jsonl
{"v":"{\"b\":1, \"a\":2}","t":"text"}
$ pier query t 'SELECT :v AS v, typeof(:v) AS t FROM {{board}} LIMIT 1' --param 'v=' --jsonl
{"v":"","t":"text"}
$ pier query t 'SELECT id FROM {{board}} WHERE who = :who' --param who=5
id
(0 rows)
$ pier query t 'SELECT id FROM {{board}} WHERE who = :who' --param 'who="5"'
id
c
(1 row)

# Values are never spliced into the text.
$ pier query t 'SELECT count(*) AS n FROM {{board}} WHERE who = :who' --param "who=x' OR '1'='1"
n
0
(1 row)
$ pier query t 'SELECT :s AS s FROM {{board}} LIMIT 1' --param 's={{board}}; DROP TABLE x' --csv
s
{{board}}; DROP TABLE x

# A later value replaces an earlier one, across the two options.
$ pier query t 'SELECT :n AS n FROM {{board}} LIMIT 1' --params '{"n":1}' --param n=2 --jsonl
{"n":2}
$ pier query t 'SELECT :n AS n FROM {{board}} LIMIT 1' --param n=2 --params '{"n":3}' --jsonl
{"n":3}

# A placeholder inside a literal or a comment is text, not a parameter.
$ pier query t 'SELECT '\'':n'\'' AS s /* :m */ FROM {{board}} LIMIT 1' --jsonl
{"s":":n"}

# A parameter without a value, in each form.
$ pier query t 'SELECT id FROM {{board}} WHERE n = :missing'
! pier: error: PlaceholderUnbound: query parameter ':missing' has no value
[exit 1]
$ pier query t 'SELECT id FROM {{board}} WHERE n = $missing' --param other=1
! pier: error: PlaceholderUnbound: query parameter '$missing' has no value
[exit 1]
$ pier query t 'SELECT id FROM {{board}} WHERE n = @missing'
! pier: error: PlaceholderUnbound: query parameter '@missing' has no value
[exit 1]
$ pier query t 'SELECT id FROM {{board}} WHERE n = ?2' --param 1=1
! pier: error: PlaceholderUnbound: query parameter '?2' has no value
[exit 1]
$ pier query t 'SELECT id FROM {{board}} WHERE n = ?' --params '[]'
! pier: error: PlaceholderUnbound: query parameter '?1' has no value
[exit 1]
$ pier --json query t 'SELECT :x AS x FROM {{board}}'
! {"error":"PlaceholderUnbound","message":"query parameter ':x' has no value"}
[exit 1]

# Malformed parameters are refused before the lake is opened.
$ pier --data fresh query t 'SELECT 1' --param novalue
! pier: usage: query: option '--param': a parameter is NAME=VALUE, not 'novalue'
! Try 'pier query --help'.
[exit 2]
$ pier --data fresh query t 'SELECT 1' --param =1
! pier: usage: query: option '--param': a parameter is NAME=VALUE, not '=1'
! Try 'pier query --help'.
[exit 2]
$ pier --data fresh query t 'SELECT 1' --param 0=1
! pier: usage: query: option '--param': query parameter '0' is not a number from 1 up ('?1' or '1')
! Try 'pier query --help'.
[exit 2]
$ pier --data fresh query t 'SELECT 1' --params '{"a":'
! pier: usage: query: option '--params': query parameters: unexpected token near end of file
! Try 'pier query --help'.
[exit 2]
$ pier --data fresh query t 'SELECT 1' --params nope
! pier: usage: query: option '--params': query parameters: invalid token near 'nope'
! Try 'pier query --help'.
[exit 2]
$ pier --data fresh query t 'SELECT 1' --params 5
! pier: usage: query: option '--params': query parameters are a JSON object (named) or array (numbered)
! Try 'pier query --help'.
[exit 2]
$ pier --data fresh query t 'SELECT 1' --params '"text"'
! pier: usage: query: option '--params': query parameters are a JSON object (named) or array (numbered)
! Try 'pier query --help'.
[exit 2]
$ pier --data fresh query t 'SELECT 1' --params '{"a":1,"a":2}'
! pier: usage: query: option '--params': query parameters: duplicate object key near '"a"'
! Try 'pier query --help'.
[exit 2]
$ ls fresh
! ls: cannot access 'fresh': No such file or directory
[exit 2]
