#!/usr/bin/env bash
# pier shell's pager, seen from outside: under script(1) stdout is a
# terminal, and a result taller than the terminal goes through $PAGER (a
# stub that marks its lines), while one that fits does not; with stdout a
# pipe, nothing is ever paged. (tests/unit/test_shell.c drives the same
# with the keyboard on a pseudo-terminal.)
set -euo pipefail
pier=$1
if ! command -v script >/dev/null; then
    echo "script(1) (bsdutils) is missing"; exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export PIER_DATA="$tmp/data" PIER_HISTORY=
"$pier" insert tasks '[{"id":"a","n":1},{"id":"b","n":2}]' >/dev/null

long='WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r'
long+=' WHERE i < 50) SELECT i FROM r'
short='SELECT count(*) AS n FROM {{board}}'
printf '%s\n' "$long" "$short" > lines.txt
cat > pager.sh <<'PAGER'
#!/bin/sh
echo "pager ran" >> "$PAGER_LOG"
sed 's/^/paged: /'
PAGER
chmod +x pager.sh
export PAGER="$tmp/pager.sh" PAGER_LOG="$tmp/pager.log"

# A terminal of 10 rows: the 53 lines of the long result are paged, the 3
# of the short one are not.
script -qec "stty rows 10 cols 80; '$pier' shell tasks < lines.txt" \
    /dev/null > tty.txt
tr -d '\r' < tty.txt > tty_clean.txt
grep -qx 'paged: 50' tty_clean.txt ||
    { echo "the long result was not paged:"; cat tty_clean.txt; exit 1; }
grep -qx 'paged: (50 rows)' tty_clean.txt ||
    { echo "the pager did not get the whole result"; exit 1; }
grep -qx '2' tty_clean.txt ||
    { echo "the short result is missing:"; cat tty_clean.txt; exit 1; }
if grep -q 'paged: n' tty_clean.txt; then
    echo "the short result was paged"; exit 1
fi
[ "$(cat pager.log)" = "pager ran" ] ||
    { echo "the pager ran other than once:"; cat pager.log; exit 1; }

# .pager off: nothing paged.
rm -f pager.log
printf '%s\n' '.pager off' "$long" > off.txt
script -qec "stty rows 10 cols 80; '$pier' shell tasks < off.txt" \
    /dev/null > tty.txt
tr -d '\r' < tty.txt | grep -qx '50' ||
    { echo ".pager off did not print the result"; exit 1; }
[ ! -e pager.log ] || { echo ".pager off still paged"; exit 1; }

# stdout a pipe (or a file): never paged, however tall.
LINES=5 "$pier" shell tasks < lines.txt > out.txt
grep -qx '50' out.txt
[ ! -e pager.log ] || { echo "the pager ran with stdout a file"; exit 1; }

# A pager that cannot run: the result is printed as it is.
PAGER=/nonexistent/pager script -qec \
    "stty rows 10 cols 80; '$pier' shell tasks < lines.txt" /dev/null \
    > tty.txt 2>/dev/null
tr -d '\r' < tty.txt | grep -qx '(50 rows)' ||
    { echo "a missing pager lost the result"; exit 1; }
echo ok
