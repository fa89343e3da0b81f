#!/usr/bin/env bash
# A real limit on the lake's files: the kernel's limit on file size
# (ulimit -f, RLIMIT_FSIZE), with SIGXFSZ ignored so that a write past it
# fails with EFBIG as a write to a full disk fails with ENOSPC. Every
# command runs under the limit, as every process does on a full disk.
#   - `pier insert` streams rows, 1000 per process, until the lake refuses
#     one: WriteFailed, and nothing of it is written;
#   - `pier maintain` under the same limit fails cleanly and changes
#     nothing: its checkpoint needs room for the pages the log adds to the
#     lake file;
#   - with the limit raised, 256 KiB at a time, `pier maintain` succeeds
#     and drops the old change records; back under the first limit, the
#     lake takes writes again and every row is there.
# (tests/unit/test_fulldisk.c shows the same with a quota on all the
# lake's files together.)
set -euo pipefail
pier=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PIER_DATA=$tmp/data
limit_kb=2048

# Runs a command with files limited to $1 KiB.
limited() {
    local kb=$1
    shift
    (ulimit -f "$kb"; trap '' XFSZ; "$@")
}

rows() {   # rows $1 .. $1+999 as JSON lines
    awk -v s="$1" 'BEGIN { for (i = s; i < s + 1000; i++)
        printf "{\"id\":\"r%07d\",\"n\":%d,\"note\":\"row %d of %s\"}\n",
            i, i, i, "a log that fills the disk" }'
}

count() { limited "$limit_kb" "$pier" count log; }

batches=0
while :; do
    if ! rows $((batches * 1000)) | limited "$limit_kb" "$pier" \
            insert log - >/dev/null 2>"$tmp/err"; then
        break
    fi
    batches=$((batches + 1))
    if [ "$batches" -gt 200 ]; then
        echo "the limit never stopped a write"; exit 1
    fi
done
echo "the lake refused batch $((batches + 1)): $(cat "$tmp/err")"
grep -q 'WriteFailed' "$tmp/err"
grep -q 'batch 1 of stdin not written; 0 rows committed before it' "$tmp/err"
[ "$(count)" = "$((batches * 1000))" ]
head=$(limited "$limit_kb" "$pier" head)

# Maintenance with no room: a clean failure that changes nothing.
if limited "$limit_kb" "$pier" maintain --older-than-hours 0 2>"$tmp/err"; then
    echo "maintain succeeded with no room: the lake was not full"; exit 1
fi
grep -q 'WriteFailed' "$tmp/err"
[ "$(count)" = "$((batches * 1000))" ]
[ "$(limited "$limit_kb" "$pier" head)" = "$head" ]

# A little more room at a time, until maintenance can run.
extra=0
until limited $((limit_kb + extra)) "$pier" maintain --older-than-hours 0 \
        2>"$tmp/err"; do
    grep -q 'WriteFailed' "$tmp/err"
    extra=$((extra + 256))
    if [ "$extra" -gt "$limit_kb" ]; then
        echo "maintain still fails: $(cat "$tmp/err")"; exit 1
    fi
done
echo "maintain succeeded with the limit raised by $extra KiB"
stat -c '%n %s' "$PIER_DATA"/lake.sqlite*
"$pier" --json stats | grep -q '"floor":[1-9]'

# Back under the first limit, writes work again.
rows 900000 | limited "$limit_kb" "$pier" insert log - >/dev/null
[ "$(count)" = "$((batches * 1000 + 1000))" ]
for f in "$PIER_DATA"/lake.sqlite*; do
    size=$(stat -c %s "$f")
    [ "$size" -le $((limit_kb * 1024)) ]
done
echo "full-disk recovery works"
