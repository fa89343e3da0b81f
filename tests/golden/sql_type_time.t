# INSTANT (offset in, UTC out), DATE, TIME and DATETIME (no zone: an
# offset is refused) and INTERVAL (months, days, microseconds). Instants
# compare by time whatever their offset.
$ pier sql "CREATE TABLE w (i INSTANT, d DATE, t TIME, dt DATETIME, iv INTERVAL)"
$ pier sql "INSERT INTO w VALUES ('2026-03-01T10:00:00+02:00', '2026-03-01', '10:00:00', '2026-03-01 10:00:00', 'P1Y2M3DT4H5M6.5S'), ('2026-03-01T08:00:00.5Z', '0001-01-01', '23:59:59.999999', '9999-12-31T23:59:59.123456789', 'PT0S'), ('2026-02-28T23:00:00-10:00', '2024-02-29', '00:00:00.5', '2026-03-01t00:00:00', 'P-1W')"
3 rows changed
$ pier sql "SELECT * FROM w" --jsonl
{"i":"2026-03-01T08:00:00.000000Z","d":"2026-03-01","t":"10:00:00.000000","dt":"2026-03-01T10:00:00.000000","iv":"P1Y2M3DT4H5M6.5S"}
{"i":"2026-03-01T08:00:00.500000Z","d":"0001-01-01","t":"23:59:59.999999","dt":"9999-12-31T23:59:59.123456","iv":"PT0S"}
{"i":"2026-03-01T09:00:00.000000Z","d":"2024-02-29","t":"00:00:00.500000","dt":"2026-03-01T00:00:00.000000","iv":"P-7D"}
$ pier sql "INSERT INTO w(i) VALUES ('2026-03-01T10:00:00')"
! pier: error: ColumnTypeConflict: column 'i' of table 'w' is INSTANT, got '2026-03-01T10:00:00': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO w(i) VALUES ('2026-13-01T10:00:00Z')"
! pier: error: ColumnTypeConflict: column 'i' of table 'w' is INSTANT, got '2026-13-01T10:00:00Z': an instant is RFC 3339 text with Z or an offset, like 2026-03-01T10:00:00Z, in the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO w(d) VALUES ('2026-02-29')"
! pier: error: ColumnTypeConflict: column 'd' of table 'w' is DATE, got '2026-02-29': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO w(d) VALUES ('2026-3-1')"
! pier: error: ColumnTypeConflict: column 'd' of table 'w' is DATE, got '2026-3-1': a date is YYYY-MM-DD, a real day of the years 0001 to 9999
[exit 1]
$ pier sql "INSERT INTO w(t) VALUES ('10:00:00Z')"
! pier: error: ColumnTypeConflict: column 't' of table 'w' is TIME, got '10:00:00Z': a time has no time zone: drop the offset
[exit 1]
$ pier sql "INSERT INTO w(t) VALUES ('24:00:00')"
! pier: error: ColumnTypeConflict: column 't' of table 'w' is TIME, got '24:00:00': a time is HH:MM:SS with an optional fraction, 00:00:00 to 23:59:59.999999
[exit 1]
$ pier sql "INSERT INTO w(dt) VALUES ('2026-03-01T10:00:00+02:00')"
! pier: error: ColumnTypeConflict: column 'dt' of table 'w' is DATETIME, got '2026-03-01T10:00:00+02:00': a datetime has no time zone: drop the offset (an instant keeps one)
[exit 1]
$ pier sql "INSERT INTO w(iv) VALUES ('1 day')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'w' is INTERVAL, got '1 day': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "INSERT INTO w(iv) VALUES ('P')"
! pier: error: ColumnTypeConflict: column 'iv' of table 'w' is INTERVAL, got 'P': an interval is an ISO 8601 duration, like P1Y2M3DT4H5M6.5S (each part may have a sign)
[exit 1]
$ pier sql "SELECT count(*) AS n FROM w"
n
3
(1 row)
$ pier sql "SELECT i FROM w ORDER BY i" --csv
i
2026-03-01T08:00:00.000000Z
2026-03-01T08:00:00.500000Z
2026-03-01T09:00:00.000000Z
$ pier sql "SELECT count(*) AS n FROM w WHERE i = '2026-03-01T08:00:00Z'" --csv
n
1
$ pier sql "SELECT min(i) AS first, max(d) AS last_day FROM w" --jsonl
{"first":"2026-03-01T10:00:00+02:00","last_day":"2026-03-01"}
$ pier sql "SELECT t FROM w WHERE t > '00:00:00.4' ORDER BY t" --csv
t
00:00:00.500000
10:00:00.000000
23:59:59.999999
$ pier sql "SELECT dt FROM w ORDER BY dt" --csv
dt
2026-03-01T00:00:00.000000
2026-03-01T10:00:00.000000
9999-12-31T23:59:59.123456
$ pier sql "SELECT count(*) AS n FROM w WHERE t = '10:00:00.000'" --csv
n
1
$ pier sql "SELECT iv FROM w ORDER BY iv" --csv
iv
P-7D
PT0S
P1Y2M3DT4H5M6.5S
