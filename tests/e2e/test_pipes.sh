#!/usr/bin/env bash
# A reader that goes away ends the command that writes to it, cleanly.
# `pier watch b | head -1` exits as soon as head has gone, without waiting
# for a second record that may never come, with status 0 and nothing on
# stderr (as on Ctrl-C: a watch has no end of its own). dump, query and
# changes whose reader leaves early stop writing and exit 1 (the output
# was cut short, as a pipeline under `set -o pipefail` should see), also
# without a word on stderr. A watch writing to a file or /dev/null, which
# never report a gone reader, keeps watching until SIGINT.
set -euo pipefail
pier=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export PIER_DATA="$tmp/data"

fail() { echo "$*"; exit 1; }

# Runs the pipeline "$1 | head -1" under a 20 s timeout: out.txt gets
# head's line, err.txt pier's stderr, $status pier's exit status and
# $elapsed the seconds it took.
piped() {
    local start=$SECONDS
    status=0
    timeout 20 bash -c "$1"' 2>err.txt | head -1 >out.txt; exit ${PIPESTATUS[0]}' ||
        status=$?
    elapsed=$((SECONDS - start))
}

"$pier" insert b '{"id":"a","n":1}' >/dev/null

# A record already kept (the board's creation): printed at once; then
# head leaves.
piped "'$pier' watch b"
[ "$status" -eq 0 ] || fail "watch | head -1: exit $status (124: it hung)"
[ "$elapsed" -le 5 ] || fail "watch | head -1 took ${elapsed}s"
grep -q '"watermark":1,"board":"b","kind":"schema"' out.txt ||
    fail "watch | head -1 printed: $(cat out.txt)"
[ ! -s err.txt ] || fail "watch | head -1 said: $(cat err.txt)"

# A record written while the watch waits, and none after it.
( sleep 0.5; "$pier" insert b '{"id":"c","n":3}' >/dev/null ) &
writer=$!
piped "'$pier' watch b --after 2 --poll-ms 20"
wait "$writer"
[ "$status" -eq 0 ] || fail "watch after a write: exit $status"
[ "$elapsed" -le 8 ] || fail "watch after a write took ${elapsed}s"
grep -q '"watermark":3,"board":"b","kind":"insert"' out.txt ||
    fail "watch --after 2: $(cat out.txt)"
[ ! -s err.txt ] || fail "watch --after 2 said: $(cat err.txt)"

# Writing to a file: the watch goes on until SIGINT, then exits 0.
"$pier" watch b >file.txt 2>err.txt &
pid=$!
sleep 1.5
kill -0 "$pid" 2>/dev/null || fail "watch > file ended by itself"
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
[ "$rc" -eq 0 ] || fail "watch > file: exit $rc on SIGINT"
[ "$(wc -l <file.txt)" -eq 3 ] || fail "watch > file wrote: $(cat file.txt)"

# Outputs far larger than a pipe's buffer (64 KiB), so that the reader is
# gone while pier still writes.
seq 1 5000 | awk '{ printf "{\"id\":\"r%05d\",\"t\":\"%s\"}\n", $1,
                   "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" }' >rows.jsonl
"$pier" insert big - <rows.jsonl >/dev/null
for cmd in "dump big" "query big 'SELECT * FROM {{board}}'" \
           "query big 'SELECT * FROM {{board}}' --csv" "changes big"; do
    piped "'$pier' $cmd"
    [ "$elapsed" -le 10 ] || fail "$cmd | head -1 took ${elapsed}s"
    [ -s out.txt ] || fail "$cmd | head -1 printed nothing"
    [ ! -s err.txt ] || fail "$cmd | head -1 said: $(cat err.txt)"
    case $cmd in
    changes*) ;;    # (one line of JSON: head may take it whole)
    *) [ "$status" -eq 1 ] || fail "$cmd | head -1: exit $status" ;;
    esac
done
# A page of changes is one line: a reader that takes a few bytes of it
# leaves while the line is written, and changes fails as quietly.
status=0
timeout 20 bash -c "'$pier' changes big"' 2>err.txt | head -c 10 >out.txt; exit ${PIPESTATUS[0]}' ||
    status=$?
[ "$status" -eq 1 ] || fail "changes | head -c 10: exit $status"
[ "$(wc -c <out.txt)" -eq 10 ] ||
    fail "changes | head -c 10 printed: $(cat out.txt)"
[ ! -s err.txt ] || fail "changes | head -c 10 said: $(cat err.txt)"
echo "readers that go away end the command quietly"
