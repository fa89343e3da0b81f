# Where the lake lives: --data DIR, else $PIER_DATA, else ./pier-data.
# --data wins over PIER_DATA; an empty PIER_DATA counts as unset.
$ pier insert here '{"id":"a"}'
2
$ ls
pier-data
$ PIER_DATA=elsewhere pier insert there '{"id":"b"}'
2
$ ls
elsewhere
pier-data
$ PIER_DATA=elsewhere pier boards
there
$ pier boards
here
$ pier --data elsewhere boards
there
$ pier --data=elsewhere boards
there
$ PIER_DATA=elsewhere pier --data pier-data boards
here
$ PIER_DATA= pier boards
here
$ pier --data nested/dir insert deep '{"id":"c"}'
2
$ pier --data nested/dir boards
deep
$ ls nested/dir
lake.sqlite

# A path that cannot be a directory is LakeUnavailable.
$ touch afile
$ pier --data afile boards
! pier: error: LakeUnavailable: no lake at 'afile': 'afile/lake.sqlite' does not exist (a read makes no lake)
[exit 1]
$ pier --json --data afile/sub boards
! {"error":"LakeUnavailable","message":"no lake at 'afile/sub': 'afile/sub/lake.sqlite' does not exist (a read makes no lake)"}
[exit 1]
# A command that only reads makes no lake: a mistyped directory is
# refused, naming where the lake was looked for, and nothing is made.
$ pier --data typo boards
! pier: error: LakeUnavailable: no lake at 'typo': 'typo/lake.sqlite' does not exist (a read makes no lake)
[exit 1]
$ test -e typo || echo nothing made
nothing made
# plan and migrations status answer for a missing lake as for an empty one,
# and make none either (migrate does).
$ printf 'CREATE TABLE t (a INT64);\n' > decl.sql
$ pier --data typo plan decl.sql
metadata     create_table         t: 1 column
-- fingerprint cbf29ce484222325
$ mkdir -p db/migrations && pier --data typo migrations status
0 versions: 0 applied, 0 pending, 0 modified, 0 missing
$ test -e typo || echo nothing made
nothing made
$ pier --data typo migrate decl.sql
metadata     create_table         t: 1 column
1
$ pier --data typo plan decl.sql
-- no steps: the lake is what the declaration states
-- fingerprint d9a12c47b98878f0
$ rm -r typo
$ pier --data typo insert b '{"id":"a"}'
2
$ pier --data typo count b
1
$ pier --data afile insert b '{"id":"a"}'
! pier: error: LakeUnavailable: data directory 'afile' is not a directory
[exit 1]
