#!/usr/bin/env bash
# A long load shows its progress on stderr when stderr is a terminal, and
# prints nothing more when it is not (so scripts and golden transcripts
# see only the watermark). The terminal is script(1)'s pseudo-terminal;
# a pause in the input makes the load last past the first redraw (a
# quarter of a second), whatever the machine's speed.
set -euo pipefail
pier=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export PIER_DATA="$tmp/data"

fail() { echo "FAIL: $*"; exit 1; }

seq 1 2500 | awk '{printf "{\"id\":\"r%05d\",\"n\":%d}\n", $1, $1}' > rows.jsonl
{ echo "id,n"; seq 1 2500 | awk '{printf "c%05d,%d\n", $1, $1}'; } > rows.csv
head -n 1000 rows.jsonl > first.jsonl
tail -n +1001 rows.jsonl > rest.jsonl
head -n 1001 rows.csv > first.csv
tail -n +1002 rows.csv > rest.csv
cat > slow.sh <<SH
#!/usr/bin/env bash
# Writes \$1, pauses, then writes \$2 (the input of a load that lasts).
cat "\$1"; sleep 0.7; cat "\$2"
SH
chmod +x slow.sh

# ---- on a terminal: a progress line, redrawn, ending with the total ----
script -qec "./slow.sh first.jsonl rest.jsonl | '$pier' insert j -" \
    /dev/null > tty.txt < /dev/null
grep -aq 'pier: 2500 rows committed (' tty.txt ||
    fail "no final progress line on the terminal: $(cat -A tty.txt)"
grep -aq $'\r''pier: ' tty.txt ||
    fail "the progress line is not redrawn in place: $(cat -A tty.txt)"
[ "$("$pier" count j)" = 2500 ] || fail "JSON load incomplete"

script -qec "./slow.sh first.csv rest.csv | '$pier' insert c --csv -" \
    /dev/null > tty.txt < /dev/null
grep -aq 'pier: 2500 rows committed (' tty.txt ||
    fail "no progress line for CSV: $(cat -A tty.txt)"
[ "$("$pier" count c)" = 2500 ] || fail "CSV load incomplete"

# ---- not a terminal: only the watermark, nothing on stderr ----
./slow.sh first.jsonl rest.jsonl | "$pier" upsert j - > out.txt 2> err.txt
[ -s out.txt ] || fail "no watermark"
[ ! -s err.txt ] || fail "stderr not empty: $(cat -A err.txt)"
./slow.sh first.csv rest.csv | "$pier" upsert c --csv - > out.txt 2> err.txt
[ ! -s err.txt ] || fail "stderr not empty for CSV: $(cat -A err.txt)"

# ---- a short load on a terminal prints no progress at all ----
script -qec "printf '{\"id\":\"s\"}' | '$pier' insert s -" \
    /dev/null > tty.txt < /dev/null
if grep -aq 'rows committed' tty.txt; then
    fail "a short load drew progress: $(cat -A tty.txt)"
fi
echo ok
