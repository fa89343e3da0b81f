# The board commands in both output modes: those that change the lake
# print the watermark (the number alone, or {"watermark":N}); boards prints
# one id per line or a JSON array; has-board prints true or false in both
# modes.
$ pier flush
$ pier boards
$ pier --json boards
[]
$ pier create-board beta
1
$ pier --json create-board alpha --column 'a=b=bigint' --column when=timestamp
{"watermark":2}
$ pier schema alpha
board alpha
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
a=b         bigint     declared
when        timestamp  declared
$ pier boards
alpha
beta
$ pier --json boards
["alpha","beta"]
$ pier has-board alpha
true
$ pier --json has-board alpha
true
$ pier --json has-board gamma
false
$ pier add-column alpha score integer
3
$ pier --json add-column alpha -- -dash text
{"watermark":4}
$ pier widen alpha score bigint
5
$ pier --json widen alpha score double
{"watermark":6}
$ pier schema alpha
board alpha
column      type       origin
id          text       base
updated_at  timestamp  base
state       text       base
a=b         bigint     declared
when        timestamp  declared
score       double     declared
-dash       text       declared
$ pier insert alpha '{"id":"r1","score":1.5}'
7
$ pier truncate alpha
8
$ pier count alpha
0
$ pier --json truncate alpha
{"watermark":9}
$ pier drop beta
10
$ pier --json drop alpha
{"watermark":11}
$ pier boards
$ pier --json boards
[]
