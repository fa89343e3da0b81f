# A result column without an alias is named by its expression's text as
# the query writes it, placeholders and all, never by the names of the
# engine's own views they stand for; an alias and a plain column keep
# their names.
$ pier insert idx '[{"id":"1"},{"id":"2"}]'
2

$ pier query idx 'SELECT max({{board}}.id) FROM {{board}}' --json
[
{"max({{board}}.id)":"2"}
]

$ pier query idx 'SELECT id, {{board}}.id, max({{board}}.id) AS a, {{board}}.id || {{board:idx}}.id, (SELECT count(*) FROM {{board}}) FROM {{board}} WHERE id = :i' --param i=1 --csv
id,id,a,{{board}}.id || {{board:idx}}.id,(SELECT count(*) FROM {{board}})
1,1,1,11,2
