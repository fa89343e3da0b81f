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
! pier: error: LakeUnavailable: data directory 'afile' is not a directory
[exit 1]
$ pier --json --data afile/sub boards
! {"error":"LakeUnavailable","message":"cannot create data directory 'afile/sub': Not a directory"}
[exit 1]
