# The dialect's decimal and temporal functions, now() and the UUID
# makers (docs/sql.md, "Functions"): exact results in the canonical text
# of their type, NULL in gives NULL out, and a refusal names the function
# and what to write instead. PostgreSQL is the reference for the calendar:
# month ends clamp, ISO weeks belong to their Thursday's year, age borrows
# from the earlier month. PIER_NOW fixes now() at 2026-01-01T00:00:00Z.

# decimal_round: every rounding mode decimal_div takes, on a tie, by sign.
$ pier sql "SELECT decimal_round('123.456', 2, 'half_even') AS he, decimal_round('2.5', 0, 'half_even') AS he2, decimal_round('2.5', 0, 'half_up') AS hu, decimal_round('2.5', 0, 'half_down') AS hd, decimal_round('-2.5', 0, 'up') AS u, decimal_round('-2.5', 0, 'down') AS d, decimal_round('-2.5', 0, 'ceiling') AS c, decimal_round('-2.5', 0, 'floor') AS f, decimal_round('7', 2) AS pad" --jsonl
{"he":"123.46","he2":"2","hu":"3","hd":"2","u":"-3","d":"-2","c":"-2","f":"-3","pad":"7.00"}
$ pier sql "SELECT decimal_div(1, 8, 2, 'half_down') AS q, decimal_div('-1', 8, 2, 'HALF_DOWN') AS nq, decimal_round(NULL, 2) AS n1, decimal_round('1.5', NULL) AS n2, decimal_round('1.5', 0, NULL) AS n3" --jsonl
{"q":"0.12","nq":"-0.12","n1":null,"n2":null,"n3":null}
$ pier sql "SELECT decimal_round('1.25', 1, 'sideways')"
! pier: error: QueryFailed: decimal_round: unknown rounding mode 'sideways': use half_even, half_up, half_down, up, down, ceiling or floor (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT decimal_round('1.25', 39)"
! pier: error: QueryFailed: decimal_round: the scale is an integer from 0 to 38, the digits to keep after the point (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT decimal_round('1.25', -1)"
! pier: error: QueryFailed: decimal_round: the scale is an integer from 0 to 38, the digits to keep after the point (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT decimal_round('99999999999999999999999999999999999999', 1)"
! pier: error: QueryFailed: decimal_round: the result needs more than 38 digits (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT decimal_round('abc', 1)"
! pier: error: QueryFailed: decimal_round: a decimal needs digits (like 12.50) (at byte 0 of the script)
[exit 1]

# make_interval: parts from the left, the rest 0; secs is exact, rounded
# half to even to the microsecond; the others are whole numbers.
$ pier sql "SELECT make_interval() AS z, make_interval(1, 2, 3, 4, 5, 6, '7.1234565') AS all7, make_interval(0, 0, 0, 0, 0, 0, '7.1234575') AS up, make_interval(1) AS y, make_interval(0, -13) AS neg, make_interval(0, 0, 1, -1, 0, 90) AS mix, make_interval(1, NULL) AS n" --jsonl
{"z":"PT0S","all7":"P1Y2M25DT5H6M7.123456S","up":"PT7.123458S","y":"P1Y","neg":"P-1Y-1M","mix":"P6DT1H30M","n":null}
$ pier sql "SELECT make_interval(1.5)"
! pier: error: QueryFailed: make_interval: years must be a whole number (only secs takes a fraction) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT make_interval(178956970, 8)"
! pier: error: QueryFailed: make_interval: the result is outside an interval's range (32-bit months and days, 64-bit microseconds) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT make_interval(0, 0, 0, 0, 0, 0, 'soon')"
! pier: error: QueryFailed: make_interval: secs 'soon' is not a number: a decimal needs digits (like 12.50) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT make_interval(1, 2, 3, 4, 5, 6, 7, 8)"
! pier: error: QueryFailed: SQLite refused the statement: wrong number of arguments to function make_interval() (at byte 7 of the script)
[exit 1]

# date_part and extract(field FROM x), which Pier writes as date_part for
# SQLite: exact decimals, for every type; an instant's fields are UTC's.
$ pier sql "SELECT extract(year FROM '2024-02-29') AS y, EXTRACT(DOY FROM '2024-12-31') AS doy, extract(second FROM '2024-02-29T12:34:56.123456') AS s, extract(milliseconds FROM '2024-02-29T12:34:56.123456') AS ms, extract(epoch FROM '1969-12-31T23:59:59.999999Z') AS e, date_part('month', 'P2Y13M') AS m, date_part('year', 'P2Y13M') AS iy, date_part('millennium', '2021-01-03') AS k, date_part('century', '2000-12-31') AS c20, date_part('century', '2001-01-01') AS c21" --jsonl
{"y":2024,"doy":366,"s":"56.123456","ms":"56123.456","e":"-0.000001","m":1,"iy":3,"k":3,"c20":20,"c21":21}
$ pier sql "SELECT extract(hour FROM '2026-01-01T01:30:00+02:00') AS h, extract(day FROM '2026-01-01T01:30:00+02:00') AS d, date_part('epoch', '12:00:00.5') AS te, date_part('hour', 'PT49H30M') AS ih, date_part('minute', 'PT-1H-30M') AS im, date_part('epoch', 'P1Y1M1D') AS ie, date_part('quarter', '2024-11-30') AS q, date_part('dow', '2024-03-03') AS dow, date_part('isodow', '2024-03-03') AS isodow, date_part('year', NULL) AS n" --jsonl
{"h":23,"d":31,"te":"43200.5","ih":49,"im":-30,"ie":"34236000","q":4,"dow":0,"isodow":7,"n":null}

# A field that is always whole is an INTEGER, and compares with numbers;
# second, milliseconds and epoch are DECIMAL text, exact values like a
# decimal function's: their arithmetic is exact and they compare with
# numbers by value (under pier_numeric too, as written before).
$ pier sql "SELECT extract(year FROM '2024-02-29') = 2024 AS year_is, typeof(extract(year FROM '2024-02-29')) AS year_type, typeof(extract(second FROM '10:00:00')) AS second_type, extract(epoch FROM '2024-01-01T00:00:00Z') > '999999999.5' COLLATE pier_numeric AS later" --jsonl
{"year_is":1,"year_type":"integer","second_type":"text","later":1}
$ pier sql "SELECT extract(second FROM '10:00:00.1') + extract(second FROM '10:00:00.2') AS s, extract(epoch FROM '2020-01-01T00:00:00.1Z') - 1577836800 AS frac, date_part('epoch', '2020-01-01T00:00:00.123457Z') * 1000 AS ms, date_part('milliseconds', '10:00:01.5') / 4 AS q, extract(epoch FROM '2024-01-01T00:00:00.5Z') > 1704067200 AS later, extract(second FROM '10:00:07.5') < 10 AS below, extract(year FROM '2024-02-29') + 1 AS next_year, extract(year FROM '2024-02-29') * 1.5 AS real_ok" --jsonl
{"s":"0.3","frac":"0.1","ms":"1577836800123.457","q":"375","later":1,"below":1,"next_year":2025,"real_ok":3036.0}
$ pier sql "WITH t(at) AS (VALUES ('2020-01-01T00:00:09Z'), ('2020-01-01T00:00:10.5Z'), ('2020-01-01T00:00:02Z')) SELECT date_part('second', at) AS s FROM t ORDER BY date_part('second', at)" --csv
s
2
9
10.5
$ pier sql "SELECT date_part('epoch', '2024-01-01T00:00:00.5Z') * 1.5 AS x"
! pier: error: QueryFailed: '*' of an exact value (DECIMAL, UINT64, INT128) and a REAL: write CAST(x AS DECIMAL) (or the number as a string, '1.5') to compute exactly, or CAST(... AS REAL) for a floating-point result (at byte 0 of the script)
[exit 1]

# ISO weeks around New Year: a week is its Thursday's year's.
$ pier sql "WITH d(day) AS (VALUES ('2020-12-31'), ('2021-01-03'), ('2021-01-04'), ('2024-12-29'), ('2024-12-30'), ('2026-01-01'), ('2027-01-03'), ('2027-01-04')) SELECT day, extract(isodow FROM day) AS isodow, extract(week FROM day) AS week, extract(isoyear FROM day) AS isoyear, extract(year FROM day) AS year FROM d" --csv
day,isodow,week,isoyear,year
2020-12-31,4,53,2020,2020
2021-01-03,7,53,2020,2021
2021-01-04,1,1,2021,2021
2024-12-29,7,52,2024,2024
2024-12-30,1,1,2025,2024
2026-01-01,4,1,2026,2026
2027-01-03,7,53,2026,2027
2027-01-04,1,1,2027,2027

# Refusals: an unknown field, a field the type lacks, a value of no
# temporal type.
$ pier sql "SELECT extract(yeer FROM '2024-01-01')"
! pier: error: QueryFailed: date_part: unknown field 'yeer': use century, day, decade, dow, doy, epoch, hour, isodow, isoyear, microseconds, millennium, milliseconds, minute, month, quarter, second, week or year (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT extract(hour FROM '2024-01-01')"
! pier: error: QueryFailed: date_part('hour'): a DATE has no time of day: its fields are century, day, decade, dow, doy, epoch, isodow, isoyear, millennium, month, quarter, week and year (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT date_part('day', '12:00:00')"
! pier: error: QueryFailed: date_part('day'): a TIME is a time of day: its fields are hour, minute, second, milliseconds, microseconds and epoch (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT date_part('week', 'P1M')"
! pier: error: QueryFailed: date_part('week'): an INTERVAL has no calendar: its fields are century, day, decade, epoch, hour, microseconds, millennium, milliseconds, minute, month, quarter, second and year (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT date_part('year', '2024-02-30')"
! pier: error: QueryFailed: date_part: '2024-02-30' is not a DATE, TIME, DATETIME, INSTANT or INTERVAL (like 2026-03-01, 10:00:00, 2026-03-01T10:00:00, 2026-03-01T10:00:00Z or P1D) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT date_part('year', 1.5)"
! pier: error: QueryFailed: date_part: 1.5 is not a DATE, TIME, DATETIME, INSTANT or INTERVAL (give their text, like 2026-03-01) (at byte 0 of the script)
[exit 1]

# date_trunc: DATE stays DATE; weeks start on Monday, centuries in ..01;
# an interval's parts are cut toward zero.
$ pier sql "SELECT date_trunc('week', '2021-01-03') AS w, date_trunc('quarter', '2024-11-30') AS q, date_trunc('hour', '2024-02-29T12:34:56.5') AS h, date_trunc('century', '2000-06-01T00:00:00') AS c, date_trunc('millennium', '2024-06-01T00:00:00Z') AS k, date_trunc('milliseconds', '10:11:12.345678') AS ms, date_trunc('quarter', 'P1Y5M3DT4H') AS iq, date_trunc('second', 'PT-1.5S') AS isec" --jsonl
{"w":"2020-12-28","q":"2024-10-01","h":"2024-02-29T12:00:00.000000","c":"1901-01-01T00:00:00.000000","k":"2001-01-01T00:00:00.000000Z","ms":"10:11:12.345000","iq":"P1Y3M","isec":"PT-1S"}
$ pier sql "SELECT date_trunc('dow', '2024-01-01')"
! pier: error: QueryFailed: date_trunc('dow'): not a unit to cut to: use microseconds, milliseconds, second, minute, hour, day, week, month, quarter, year, decade, century or millennium (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT date_trunc('day', '10:00:00')"
! pier: error: QueryFailed: date_trunc('day'): a TIME is a time of day: cut it to hour, minute, second, milliseconds or microseconds (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT date_trunc('week', 'P1M')"
! pier: error: QueryFailed: date_trunc('week'): an INTERVAL cannot be cut to weeks: a month has no whole number of them (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT date_trunc('decade', '0009-06-01')"
! pier: error: QueryFailed: date_trunc('decade'): the result is outside the years 0001 to 9999 (at byte 0 of the script)
[exit 1]

# date_add and date_sub: months first, the day clamped to a shorter
# month's end (leap years too), then days, then time; a DATE takes whole
# days; a TIME goes around the clock; intervals add part by part.
$ pier sql "SELECT date_add('2024-01-31', 'P1M') AS leap, date_add('2023-01-31', 'P1M') AS common, date_sub('2024-03-31', 'P1M') AS back, date_add('2024-02-29', 'P1Y') AS year, date_add('2024-01-31', 'P1M1D') AS then_day, date_add('2024-01-31T10:00:00', 'P1MT14H') AS dt, date_sub('1970-01-01T00:00:00Z', 'PT0.000001S') AS inst, date_add('23:00:00', 'PT2H') AS t, date_sub('P1M', 'P1DT1H') AS iv, date_add(NULL, 'P1D') AS n" --jsonl
{"leap":"2024-02-29","common":"2023-02-28","back":"2024-02-29","year":"2025-02-28","then_day":"2024-03-01","dt":"2024-03-01T00:00:00.000000","inst":"1969-12-31T23:59:59.999999Z","t":"01:00:00.000000","iv":"P1M-1DT-1H","n":null}
$ pier sql "SELECT date_add('2024-01-01', 'PT1H')"
! pier: error: QueryFailed: date_add: a DATE takes whole days only: the interval has a time of day (add it to a DATETIME, like 2026-03-01T00:00:00) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT date_add('9999-12-31', 'P1D')"
! pier: error: QueryFailed: date_add: the result is outside the years 0001 to 9999 (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT date_sub('0001-01-01T00:00:00Z', 'PT0.000001S')"
! pier: error: QueryFailed: date_sub: the result is outside the years 0001 to 9999 (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT date_add('2024-01-01', '2024-01-02')"
! pier: error: QueryFailed: date_add: '2024-01-02' is a DATE, not an INTERVAL (like P1D or PT1H30M) (at byte 0 of the script)
[exit 1]

# date_diff: a - b; days between DATEs, else an INTERVAL with the sign of
# the difference on every part; a DATE is its midnight.
$ pier sql "SELECT date_diff('2024-03-01', '2024-02-01') AS leap_days, date_diff('2024-01-01', '2024-12-31') AS back, date_diff('2024-03-01T00:00:00', '2024-02-28T12:00:00') AS dt, date_diff('2024-02-28T12:00:00Z', '2024-03-01T00:00:00Z') AS neg, date_diff('2024-03-01', '2024-02-29T06:00:00') AS mixed, date_diff('10:00:00', '12:30:00') AS t, date_diff('P1Y', 'P1M1D') AS iv" --jsonl
{"leap_days":29,"back":-365,"dt":"P1DT12H","neg":"P-1DT-12H","mixed":"PT18H","t":"PT-2H-30M","iv":"P11M-1D"}
$ pier sql "SELECT typeof(date_diff('2024-03-01', '2024-02-01')) AS days, typeof(date_diff('10:00:00', '09:00:00')) AS interval" --jsonl
{"days":"integer","interval":"text"}
$ pier sql "SELECT date_diff('2024-03-01T00:00:00Z', '2024-03-01T00:00:00')"
! pier: error: QueryFailed: date_diff: an INSTANT and a DATETIME do not mix: a DATETIME names no zone (write it with Z to read it in UTC) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT date_diff('10:00:00', '2024-03-01')"
! pier: error: QueryFailed: date_diff: a TIME subtracts only from a TIME (at byte 0 of the script)
[exit 1]

# age: years, months and days as a calendar counts them; age(a) counts
# from today's midnight (UTC), here 2026-01-01.
$ pier sql "SELECT age('2001-04-10', '1957-06-13') AS pg, age('2024-03-01', '2024-01-31') AS borrow, age('2025-02-28', '2024-02-29') AS leap, age('1957-06-13', '2001-04-10') AS neg, age('2024-03-01T00:00:00Z', '2023-12-31T23:59:59.5Z') AS inst, age('2024-06-15') AS since, age('2026-01-01T12:00:00Z') AS future" --jsonl
{"pg":"P43Y9M27D","borrow":"P1M1D","leap":"P11M28D","neg":"P-43Y-9M-27D","inst":"P2MT0.5S","since":"P1Y6M16D","future":"PT-12H"}
$ pier sql "SELECT age('10:00:00', '09:00:00')"
! pier: error: QueryFailed: age: age takes DATE, DATETIME and INSTANT values (at byte 0 of the script)
[exit 1]

# interval_mul: exact; a fraction of a month becomes days (30 of them), a
# fraction of a day time, rounded half to even to the microsecond.
$ pier sql "SELECT interval_mul('P1M', '0.5') AS half_month, interval_mul('P1D', 1.5) AS day_and_half, interval_mul('P1Y2M3DT4H', 2) AS twice, interval_mul('P1M1D', '0.1') AS tenth, interval_mul('PT1S', '0.0000005') AS tie, interval_mul('PT1S', '-0.0000015') AS neg, interval_mul('PT1H', NULL) AS n" --jsonl
{"half_month":"P15D","day_and_half":"P1DT12H","twice":"P2Y4M6DT8H","tenth":"P3DT2H24M","tie":"PT0S","neg":"PT-0.000002S","n":null}
$ pier sql "SELECT interval_mul('P100Y', '2e7')"
! pier: error: QueryFailed: interval_mul: the result is outside an interval's range (32-bit months and days, 64-bit microseconds) (at byte 0 of the script)
[exit 1]
$ pier sql "SELECT interval_mul('2024-01-01', 2)"
! pier: error: QueryFailed: interval_mul: '2024-01-01' is a DATE, not an INTERVAL (like P1D or PT1H30M) (at byte 0 of the script)
[exit 1]

# now(): the statement's instant, the same for every call in it, and the
# one DEFAULT now() fills; uuid_v4() is random, uuid_v7() starts with the
# statement's millisecond (019b76daa800 is 2026-01-01T00:00:00Z) and
# increases within a connection.
$ pier sql "SELECT now() AS now, now() = now() AS same, date_part('epoch', now()) AS epoch" --jsonl
{"now":"2026-01-01T00:00:00.000000Z","same":1,"epoch":"1767225600"}
$ pier sql "SELECT length(u) AS len, substr(u, 15, 1) AS version, substr(u, 20, 1) IN ('8', '9', 'a', 'b') AS variant, u <> uuid_v4() AS differs FROM (SELECT uuid_v4() AS u)" --jsonl
{"len":36,"version":"4","variant":1,"differs":1}
$ pier sql "WITH RECURSIVE r(i, u) AS (SELECT 1, uuid_v7() UNION ALL SELECT i + 1, uuid_v7() FROM r WHERE i < 5) SELECT count(*) AS n, count(DISTINCT u) AS distinct_n, min(substr(u, 1, 13)) AS stamp, max(substr(u, 15, 1)) AS version FROM r" --jsonl
{"n":5,"distinct_n":5,"stamp":"019b76da-a800","version":"7"}
$ pier sql "CREATE TABLE ev (id UUID PRIMARY KEY DEFAULT (uuid_v7()), day DATE NOT NULL CHECK (extract(isodow FROM day) < 6), at INSTANT DEFAULT now())"
$ pier sql "INSERT INTO ev(day) VALUES ('2026-01-05'), ('2026-01-06'), ('2026-01-07')"
3 rows changed
$ pier sql "SELECT (SELECT group_concat(id, ',') FROM (SELECT id FROM ev ORDER BY id)) = (SELECT group_concat(id, ',') FROM (SELECT id FROM ev ORDER BY rowid)) AS ordered, count(*) AS n, min(at) = now() AS at_now FROM ev" --jsonl
{"ordered":1,"n":3,"at_now":1}
$ pier sql "INSERT INTO ev(day) VALUES ('2026-01-10')"
! pier: error: ConstraintCheck: CHECK (date_part('isodow', day) < 6) failed for a row of ev
[exit 1]
$ pier schema dump
CREATE TABLE "ev" (
    "id" UUID PRIMARY KEY DEFAULT (uuid_v7()),
    "day" DATE NOT NULL CHECK (date_part('isodow', day) < 6),
    "at" INSTANT DEFAULT now()
);

# The same functions in a board query, EXTRACT included; a board's
# timestamp (updated_at) is an INSTANT to them.
$ pier insert b '[{"id":"a","due":"2026-02-28"}]'
2
$ pier query b "SELECT id, extract(year FROM updated_at) AS y, date_add(due, 'P1M') AS next, date_diff(due, date_part('year', now()) || '-01-01') AS days, now() AS now FROM {{board}}" --jsonl
{"id":"a","y":2026,"next":"2026-03-28","days":58,"now":"2026-01-01T00:00:00.000000Z"}
$ pier query b "SELECT extract(yeer FROM updated_at) FROM {{board}}"
! pier: error: ReadFailed: the query failed: date_part: unknown field 'yeer': use century, day, decade, dow, doy, epoch, hour, isodow, isoyear, microseconds, millennium, milliseconds, minute, month, quarter, second, week or year
[exit 1]
