# An index declared on a board is part of the lake as migrations see it:
# the same declaration migrates again to zero steps, export and
# introspect show the index, and a declaration without it drops it.
$ printf '%s\n' 'CREATE BOARD events (kind text);' 'CREATE INDEX ev_kind ON events (kind);' > a.sql
$ printf '%s\n' 'CREATE BOARD events (kind text);' 'CREATE INDEX ev_kind ON events (kind, id);' > b.sql
$ printf '%s\n' 'CREATE BOARD events (kind text);' > c.sql
$ pier migrate a.sql
metadata     create_board         events: 1 column
build        create_index         ev_kind: on events (kind)
2
$ pier insert events '{"id":"e1","kind":"x"}'
3
$ pier plan a.sql
-- no steps: the lake is what the declaration states
-- fingerprint 9591cb654b9b076b
$ pier migrate a.sql
-- no steps: the lake is what the declaration states
3
$ pier schema export
-- The lake as a declaration (pier schema export): pier migrate of this file
-- makes no step.

-- index "ev_kind": managed (a migration made it; a declaration that owns the database drops it when it is no longer declared)
CREATE INDEX "ev_kind" ON "events" (kind);

-- board "events": managed (a migration made it; a declaration that owns the database drops it when it is no longer declared)
CREATE BOARD events ("kind" text);
$ pier introspect
index ev_kind: managed
  ON events (kind)

board events: managed
  id 1 text base
  updated_at 2 timestamp base
  state 3 text base
  kind 4 text declared
$ pier schema export > again.sql && pier plan again.sql
-- no steps: the lake is what the declaration states
-- fingerprint 9591cb654b9b076b

# Changed, then dropped with the declaration that no longer names it.
$ pier migrate b.sql
build        replace_index        ev_kind: on events (kind, id)
4
$ pier plan b.sql
-- no steps: the lake is what the declaration states
-- fingerprint af093398af661f58
$ pier migrate c.sql
metadata     drop_index           ev_kind
5
$ pier plan c.sql
-- no steps: the lake is what the declaration states
-- fingerprint 3860498502e2d13f
$ pier schema export | grep -c INDEX
0
[exit 1]
$ pier count events
1
