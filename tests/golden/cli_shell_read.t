# The shell's .read FILE runs FILE's lines as if they were typed: queries,
# dot-commands, SQL scripts, other .read files. Errors are reported and the
# lines after them still run.
$ pier insert tasks '[{"id":"a","n":1},{"id":"b","n":2}]'
2
$ printf '%s\n' '.use tasks' '.format csv' 'SELECT id FROM {{board}} ORDER BY id' '.sql' 'CREATE TABLE t (x INT64);' 'INSERT INTO t' 'VALUES (7);' '.sql off' > script.pier
$ printf '%s\n' '.read script.pier' 'SELECT count(*) AS n FROM {{board}}' '.sql' 'SELECT x FROM t;' | pier shell
id
a
b
n
2
x
7

# A failing line inside the file does not stop the file.
$ printf '%s\n' '.use tasks' 'SELECT nope FROM {{board}}' 'SELECT count(*) AS n FROM {{board}}' > failing.pier
$ printf '%s\n' '.read failing.pier' | pier shell
n
2
(1 row)
! pier: error: QueryFailed: the query does not compile: no such column: nope (at byte 7 of the query)
[exit 1]

# Errors: a missing file, no file or two, a directory, a file that reads
# itself (stopped at 16 files deep).
$ mkdir adir
$ printf '%s\n' '.read self.pier' > self.pier
$ printf '%s\n' '.read missing.pier' '.read' '.read a b' '.read adir' '.read self.pier' '.boards' | pier shell
tasks
! pier: error: ReadFailed: cannot read 'missing.pier': No such file or directory
! pier: usage: .read takes one file: .read FILE
! pier: usage: .read takes one file: .read FILE
! pier: error: ReadFailed: cannot read 'adir': Is a directory
! pier: error: LimitExceeded: .read of 'self.pier' nests deeper than 16 files
[exit 1]
