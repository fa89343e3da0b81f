# A lake that cannot be opened is LakeUnavailable, saying why; a file that
# is not a lake is left as it was.
$ mkdir pier-data && echo 'hello' > pier-data/lake.sqlite && pier boards
! pier: error: LakeUnavailable: './pier-data/lake.sqlite' is not a Pier lake (not a SQLite database)
[exit 1]
$ cat pier-data/lake.sqlite
hello
$ touch file.txt && pier --data ./file.txt boards
! pier: error: LakeUnavailable: no lake at './file.txt': './file.txt/lake.sqlite' does not exist (a read makes no lake)
[exit 1]
$ pier --data ./file.txt/sub boards
! pier: error: LakeUnavailable: no lake at './file.txt/sub': './file.txt/sub/lake.sqlite' does not exist (a read makes no lake)
[exit 1]

# A new data directory, nested, is created on first use.
$ pier --data ./deep/er/lake insert b '{"id":"x"}'
2
$ ls deep/er/lake
lake.sqlite
