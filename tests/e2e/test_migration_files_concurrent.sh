#!/usr/bin/env bash
# Six processes run `pier migrations up` on one new lake at the same
# moment, on one directory of five versions. Each version runs under the
# write lock after reading the lake's record of what is applied
# (docs/migrations.md, "Versioned migration files"), so every version is
# applied exactly once, by one of them: each version's up section creates
# a table (a second run of it would fail) and logs its version in a table
# the first one makes. Every process exits 0 (or 1 with a busy lake's
# WriteFailed or LakeUnavailable, though none is expected: each waits up
# to 5 s for the lock); afterwards status lists five versions applied,
# the log holds each version once, and `pier schema dump` (which checks
# the SQL schema is Pier's) runs. PIER_FILES_RACE_ROUNDS (3) repeats it.
set -euo pipefail
pier=$1
rounds=${PIER_FILES_RACE_ROUNDS:-3}
procs=6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

fail() { echo "FAIL: $*"; exit 1; }

mkdir migrations
printf '%s\n' '-- migrate:up' 'CREATE TABLE log (version TEXT NOT NULL);' \
    "INSERT INTO log VALUES ('1');" '-- migrate:down' 'DROP TABLE log;' \
    >migrations/20260101000001_log.sql
for v in 2 3 4 5; do
    printf '%s\n' '-- migrate:up' "CREATE TABLE t$v (id INT64 PRIMARY KEY);" \
        "INSERT INTO log VALUES ('$v');" '-- migrate:down' \
        "DROP TABLE t$v;" >"migrations/2026010100000${v}_t$v.sql"
done

for round in $(seq 1 "$rounds"); do
    lake=lake$round
    rm -rf out && mkdir out
    exec 9>gate
    flock 9                              # the gate is shut
    for i in $(seq 1 $procs); do
        (
            exec 9>&-
            flock -s gate true           # wait at the gate
            rc=0
            "$pier" --data "$lake" migrations up --dir migrations \
                >"out/$i.out" 2>"out/$i.err" || rc=$?
            echo "$rc" >"out/$i.rc"
        ) &
    done
    sleep 0.3                            # every process at the gate
    flock -u 9                           # open it
    wait
    exec 9>&-
    applied=0
    for i in $(seq 1 $procs); do
        rc=$(cat "out/$i.rc")
        if [ "$rc" = 0 ]; then
            [ -s "out/$i.err" ] && fail "process $i exited 0 with stderr:" \
                "$(cat "out/$i.err")"
            applied=$((applied + $(grep -c '^applied ' "out/$i.out" || true)))
        elif [ "$rc" = 1 ]; then
            line=$(cat "out/$i.err")
            [[ $line =~ ^pier:\ error:\ (WriteFailed|LakeUnavailable):\  ]] ||
                fail "process $i: $line"
        else
            fail "process $i exited $rc: $(cat "out/$i.err")"
        fi
    done
    [ "$applied" = 5 ] || fail "round $round: $applied versions applied" \
        "in all, not 5"
    log=$("$pier" --data "$lake" sql --csv \
        "SELECT group_concat(version, '-') AS v FROM
         (SELECT version FROM log ORDER BY version)")
    [ "$log" = "$(printf 'v\n1-2-3-4-5')" ] || fail "round $round: log $log"
    status=$("$pier" --data "$lake" migrations status --check \
        --dir migrations | tail -1)
    [ "$status" = "5 versions: 5 applied, 0 pending, 0 modified, 0 missing" ] ||
        fail "round $round: $status"
    "$pier" --data "$lake" schema dump >/dev/null
    echo "round $round: ok"
done
echo "ok: $rounds rounds of $procs processes"
