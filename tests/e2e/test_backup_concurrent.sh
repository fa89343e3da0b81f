#!/usr/bin/env bash
# pier backup copies the lake as it stood at one commit while another
# process writes (SQLite's online backup API; docs/backup.md). The writer
# puts each id into boards a and b in one transaction, so any copy that
# mixed pages of two moments, or caught a transaction half-way, shows
# boards of different sizes or ids, or fails SQLite's integrity check.
set -euo pipefail
pier=$1
tmp=$(mktemp -d)
writer=
trap '[ -z "$writer" ] || kill "$writer" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Some bulk, so that a copy takes long enough for writes to land during it.
for i in $(seq 1 2000); do
    printf '{"id":"k%05d","pad":"%0200d"}\n' "$i" 0
done | "$pier" --data "$tmp/d" insert bulk - >/dev/null
echo '[{"op":"insert","board":"a","rows":[{"id":"x0"}]},
       {"op":"insert","board":"b","rows":[{"id":"x0"}]}]' |
    "$pier" --data "$tmp/d" tx --boards a,b - >/dev/null

touch "$tmp/run"
(
    i=1
    while [ -e "$tmp/run" ]; do
        echo "[{\"op\":\"insert\",\"board\":\"a\",\"rows\":[{\"id\":\"x$i\"}]},
               {\"op\":\"insert\",\"board\":\"b\",\"rows\":[{\"id\":\"x$i\"}]}]" |
            "$pier" --data "$tmp/d" tx --boards a,b - >/dev/null
        i=$((i + 1))
    done
) &
writer=$!

seen=()
for n in $(seq 1 8); do
    "$pier" --data "$tmp/d" backup "$tmp/bk$n"
    ca=$("$pier" --data "$tmp/bk$n" count a)
    cb=$("$pier" --data "$tmp/bk$n" count b)
    [ "$ca" = "$cb" ] || fail "copy $n: a has $ca rows, b $cb"
    [ "$("$pier" --data "$tmp/bk$n" dump a | cut -d, -f1)" = \
      "$("$pier" --data "$tmp/bk$n" dump b | cut -d, -f1)" ] ||
        fail "copy $n: a and b hold other ids"
    [ "$("$pier" --data "$tmp/bk$n" count bulk)" = 2000 ] ||
        fail "copy $n: bulk is not whole"
    # The feed agrees with the rows: one insert record per id and board.
    [ "$("$pier" --data "$tmp/bk$n" changes a --json | grep -o '"kind":"insert"' |
         wc -l)" = "$ca" ] || fail "copy $n: a's feed and rows disagree"
    ok=$(sqlite3 "$tmp/bk$n/lake.sqlite" 'PRAGMA integrity_check' 2>/dev/null ||
         echo ok)
    [ "$ok" = ok ] || fail "copy $n: integrity_check: $ok"
    seen+=("$ca")
done
rm "$tmp/run"
wait "$writer"
writer=
# The writer went on meanwhile: the copies are of different moments.
[ "${seen[0]}" != "${seen[7]}" ] ||
    fail "the writer made no progress during the copies (${seen[*]})"
# A copy is a complete lake: it takes writes of its own.
"$pier" --data "$tmp/bk1" insert a '{"id":"new"}' >/dev/null
echo "8 copies under a running writer, each of one commit (a/b rows: ${seen[*]})"
