# The shell's .output FILE sends what the shell prints to FILE (created or
# emptied) until .output alone brings it back to stdout; .once FILE does so
# for the next command only. Diagnostics stay on stderr.
$ pier insert tasks '[{"id":"a","n":1},{"id":"b","n":2}]'
2
$ printf '%s\n' '.use tasks' '.output out.txt' 'SELECT id FROM {{board}} ORDER BY id' 'SELECT nope FROM {{board}}' '.boards' '.output' 'SELECT count(*) AS n FROM {{board}}' | pier shell
n
2
(1 row)
! pier: error: QueryFailed: the query does not compile: no such column: nope (at byte 7 of the query)
[exit 1]
$ cat out.txt
id
a
b
(2 rows)
tasks

# .once: the next command that prints a result only (here a SQL script
# over two lines; .sql, which prints none, does not count), then stdout
# again; a second .output empties the file.
$ printf '%s\n' '.once once.txt' '.sql' 'SELECT 1 AS x' 'UNION ALL SELECT 2;' 'SELECT 3 AS y;' '.sql off' '.once once2.txt' '.use tasks' '.dump tasks' '.boards' | pier shell
y
3
(1 row)
tasks
$ cat once.txt
x
1
2
(2 rows)
$ cat once2.txt
{"id":"a","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":1}
{"id":"b","updated_at":"2026-01-01T00:00:00.000000Z","state":null,"n":2}
$ printf '%s\n' '.output once.txt' '.output' | pier shell
$ wc -c < once.txt
0

# Errors: a file that cannot be written, .once without a file, .output with
# two; output stays on stdout.
$ printf '%s\n' '.output no/such/dir.txt' '.once' '.output a b' '.use tasks' 'SELECT count(*) AS n FROM {{board}}' | pier shell
n
2
(1 row)
! pier: error: WriteFailed: cannot write to 'no/such/dir.txt': No such file or directory
! pier: usage: .once takes one file: .once FILE
! pier: usage: .output takes at most one file
[exit 1]
$ ls
once.txt
once2.txt
out.txt
pier-data
