#!/usr/bin/env bash
# Eight processes run `pier migrate` on one lake at the same moment, and
# the lake ends as exactly one declaration states, with every process
# either done or refused cleanly. A migration plans under the write lock,
# against the catalog as it is then (docs/migrations.md, "Applying"), so:
#   1. eight migrations of one declaration onto a new lake (the lake is
#      created by the race too): one applies every step, the others find
#      nothing left to do;
#   2. four of a declaration adding column x and four adding y, each with
#      --expect of the fingerprint they all planned on: one applies, the
#      other seven fail with MigrationConflict;
#   3. the same without --expect: the winner's kin find nothing to do, the
#      others are refused with DestructiveChange (their declaration would
#      drop the winner's column, which holds rows);
#   4. the same with --allow-destructive: every one applies in turn, and
#      the lake ends as the last one's declaration states, never a blend.
# Each process exits 0, or 1 with one line `pier: error: TAG: ...` of a
# tag its round allows (a busy lake's WriteFailed or LakeUnavailable
# always: it would be no crash, though none is expected, since each waits
# up to 5 s for the lock); never a signal, a sanitizer report or another
# tag. Afterwards `pier plan` of the winning declaration has no steps,
# `pier schema dump` (which checks the SQL schema is Pier's) equals the
# dump of a lake migrated to it by one process alone, SQLite's
# integrity_check and foreign_key_check pass, and the rows are all there.
# PIER_MIGRATE_RACE_ROUNDS (3) repeats each round.
set -euo pipefail
pier=$1
rounds=${PIER_MIGRATE_RACE_ROUNDS:-3}
procs=8
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

fail() { echo "FAIL: $*"; exit 1; }

# The declarations: two tables (a foreign key, a CHECK, typed columns),
# an index, a view and a board; x.sql and y.sql each add a column to it.
base_decl() {  # base_decl [EXTRA COLUMN]
    cat <<EOF
CREATE TABLE parents (id INT64 PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE items (
  id     INT64 PRIMARY KEY,
  parent INT64 NOT NULL REFERENCES parents(id),
  amount DECIMAL(12,2) NOT NULL,
  title  VARCHAR(40),
  kind   ENUM('a', 'b', 'c') NOT NULL,
  due    DATE${1:+,
  $1}
  , CONSTRAINT positive CHECK (amount > 0)
);
CREATE INDEX items_parent ON items (parent);
CREATE VIEW big_items (id INT64, amount DECIMAL(12,2)) AS
  SELECT id, amount FROM items WHERE amount > 100;
CREATE BOARD events (kind text, n bigint) STRICT;
EOF
}
base_decl >base.sql
base_decl "x INT64 NOT NULL BACKFILL 7" >x.sql
base_decl "y VARCHAR(10)" >y.sql

# A lake migrated by one process alone, and its schema dump: what the race
# must end at.
reference() {  # reference FROM_LAKE DECL: prints the dump
    rm -rf ref
    if [ -n "$1" ]; then cp -a "$1" ref; fi
    "$pier" --data ref migrate "$2" >/dev/null
    "$pier" --data ref schema dump
}

# The row counts of a lake: the tables', then the board's.
counts() {
    "$pier" --data "$1" sql --csv "SELECT (SELECT count(*) FROM parents) AS p,
        (SELECT count(*) FROM items) AS i"
    if [ "$("$pier" --data "$1" has-board events)" = true ]; then
        "$pier" --data "$1" count events
    fi
}

# The SQLite checks, without Pier's functions (its CHECKs call them): the
# file's structure, indexes, NOT NULL, and every foreign key.
sqlite_checks() {
    local out
    out=$(sqlite3 "$1/lake.sqlite" 'PRAGMA ignore_check_constraints = 1;
        PRAGMA integrity_check; PRAGMA foreign_key_check;')
    [ "$out" = ok ] || fail "$1: integrity_check/foreign_key_check: $out"
}

# race LAKE ALLOWED_TAGS DECL OPTIONS...: starts $procs `pier migrate`s of
# DECL (a file, or "x/y": x.sql for even process numbers, y.sql for odd)
# at once, on LAKE, and checks how each ended. Sets `applied` (the
# declarations of the processes that applied steps, in no order), `zero`
# (those that found none) and `refused` (a count).
race() {
    local lake=$1 allowed=$2 decl=$3 i d rc line
    shift 3
    rm -rf out && mkdir out
    exec 9>gate
    flock 9                              # the gate is shut
    for i in $(seq 1 $procs); do
        d=$decl
        if [ "$decl" = x/y ]; then
            if [ $((i % 2)) = 0 ]; then d=x.sql; else d=y.sql; fi
        fi
        echo "$d" >"out/$i.decl"
        (
            exec 9>&-
            flock -s gate true           # wait at the gate
            rc=0
            "$pier" --data "$lake" migrate "$d" "$@" >"out/$i.out" \
                2>"out/$i.err" || rc=$?
            echo "$rc" >"out/$i.rc"
        ) &
    done
    sleep 0.3                            # every process at the gate
    flock -u 9                           # open it
    wait
    exec 9>&-
    applied=() zero=() refused=0
    for i in $(seq 1 $procs); do
        rc=$(cat "out/$i.rc")
        d=$(cat "out/$i.decl")
        if [ "$rc" = 0 ]; then
            [ -s "out/$i.err" ] && fail "process $i exited 0 with stderr:" \
                "$(cat "out/$i.err")"
            if grep -q '^-- no steps' "out/$i.out"; then
                zero+=("$d")
            else
                applied+=("$d")
            fi
        elif [ "$rc" = 1 ]; then
            [ "$(wc -l <"out/$i.err")" = 1 ] ||
                fail "process $i ($d): not one line of error:" \
                    "$(cat "out/$i.err")"
            line=$(cat "out/$i.err")
            [[ $line =~ ^pier:\ error:\ ([A-Za-z]+):\  ]] ||
                fail "process $i ($d): not an error line: $line"
            [[ " $allowed WriteFailed LakeUnavailable " == \
               *" ${BASH_REMATCH[1]} "* ]] ||
                fail "process $i ($d): ${BASH_REMATCH[1]} is not allowed" \
                    "here: $line"
            refused=$((refused + 1))
        else
            fail "process $i ($d) exited $rc: $(cat "out/$i.err")"
        fi
    done
    [ ${#applied[@]} -ge 1 ] || fail "no process applied the migration"
}

# after LAKE DECL REFERENCE_DUMP ROWS: the lake is DECL's, exactly.
after() {
    local lake=$1 decl=$2 want=$3 rows=$4 dump
    "$pier" --data "$lake" plan "$decl" | grep -q '^-- no steps' ||
        fail "plan of $decl after the race has steps: $("$pier" \
            --data "$lake" plan "$decl")"
    dump=$("$pier" --data "$lake" schema dump)
    [ "$dump" = "$want" ] || fail "the schema is not $decl's:
$(diff <(echo "$want") <(echo "$dump") || true)"
    sqlite_checks "$lake"
    [ "$(counts "$lake")" = "$rows" ] ||
        fail "rows changed: $(counts "$lake"), not $rows"
}

started=$(date +%s)
want_base=$(reference "" base.sql)

# 1. One declaration, a lake that does not exist yet.
for r in $(seq 1 "$rounds"); do
    rm -rf lake1
    race lake1 "MigrationConflict" base.sql
    [ ${#applied[@]} = 1 ] ||
        fail "round 1.$r: ${#applied[@]} processes applied steps"
    [ $refused = 0 ] || fail "round 1.$r: $refused refused"
    after lake1 base.sql "$want_base" "$(printf 'p,i\n0,0\n0')"
    echo "round 1.$r: 1 applied, ${#zero[@]} found no steps"
done

# The lake the other rounds start from: rows in both tables and the board.
"$pier" --data lake1 sql "INSERT INTO parents VALUES (1, 'one'), (2, 'two');
    INSERT INTO items VALUES (1, 1, '150.00', 'first', 'a', '2026-01-01'),
    (2, 2, '9.50', NULL, 'b', NULL)" >/dev/null
"$pier" --data lake1 insert events '{"id":"e1","kind":"k","n":1}' >/dev/null
rows=$(counts lake1)
cp -a lake1 start
want_x=$(reference start x.sql)
want_y=$(reference start y.sql)
fingerprint=$("$pier" --data start plan base.sql |
    sed -n 's/^-- fingerprint //p')

# Which declaration the lake is now: exactly one of x and y.
which_one() {
    local dump
    dump=$("$pier" --data "$1" schema dump)
    if [ "$dump" = "$want_x" ]; then echo x.sql
    elif [ "$dump" = "$want_y" ]; then echo y.sql
    else fail "$1 is neither x.sql's nor y.sql's:
$(diff <(echo "$want_x") <(echo "$dump") || true)"
    fi
}

for r in $(seq 1 "$rounds"); do
    # 2. Different declarations, each expecting the catalog it planned on.
    rm -rf lake2 && cp -a start lake2
    race lake2 "MigrationConflict" x/y --expect "$fingerprint"
    [ ${#applied[@]} = 1 ] && [ ${#zero[@]} = 0 ] &&
        [ $refused = $((procs - 1)) ] ||
        fail "round 2.$r: ${#applied[@]} applied, ${#zero[@]} no steps," \
            "$refused refused"
    [ "$(cat out/*.err | grep -c MigrationConflict)" = $((procs - 1)) ] ||
        fail "round 2.$r: a loser failed otherwise than MigrationConflict"
    w=${applied[0]}
    [ "$(which_one lake2)" = "$w" ] || fail "round 2.$r: not the winner's"
    after lake2 "$w" "$(if [ "$w" = x.sql ]; then echo "$want_x"; else
        echo "$want_y"; fi)" "$rows"
    echo "round 2.$r: $w applied, $refused MigrationConflict"

    # 3. Different declarations, no --expect.
    rm -rf lake3 && cp -a start lake3
    race lake3 "DestructiveChange" x/y
    w=${applied[0]}
    [ ${#applied[@]} = 1 ] || fail "round 3.$r: ${#applied[@]} applied"
    for d in "${zero[@]}"; do
        [ "$d" = "$w" ] || fail "round 3.$r: $d found no steps after $w"
    done
    [ $((${#zero[@]} + 1)) = $((procs / 2)) ] &&
        [ $refused = $((procs / 2)) ] ||
        fail "round 3.$r: ${#zero[@]} no steps, $refused refused"
    [ "$(which_one lake3)" = "$w" ] || fail "round 3.$r: not the winner's"
    after lake3 "$w" "$(if [ "$w" = x.sql ]; then echo "$want_x"; else
        echo "$want_y"; fi)" "$rows"
    echo "round 3.$r: $w applied, ${#zero[@]} found no steps, $refused" \
        "DestructiveChange"

    # 4. Different declarations, each allowed to drop the other's column:
    # whichever ran last wins, whole.
    rm -rf lake4 && cp -a start lake4
    race lake4 "" x/y --allow-destructive
    [ $refused = 0 ] || fail "round 4.$r: $refused refused"
    w=$(which_one lake4)
    after lake4 "$w" "$(if [ "$w" = x.sql ]; then echo "$want_x"; else
        echo "$want_y"; fi)" "$rows"
    echo "round 4.$r: ${#applied[@]} applied, ${#zero[@]} found no steps;" \
        "the lake is $w's"
done
echo "migrations race cleanly ($(($(date +%s) - started)) s)"
