#!/usr/bin/env bash
# The man page pier(1) is made by the build from the command's own help
# (`pier help --man`): the file the build made is what pier prints now;
# groff reads it without a warning (-ww) and man renders it; it has the
# sections a man page has, every command of `pier --help` with its usage
# line, and the options and texts of the help, so that neither can drift
# from the other.
set -euo pipefail
pier=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$*"; exit 1; }

built=$(dirname "$pier")/pier.1
[ -s "$built" ] || fail "the build made no $built"
"$pier" help --man >"$tmp/pier.1"
cmp -s "$built" "$tmp/pier.1" || fail "$built is not 'pier help --man'"

groff -man -Tutf8 -ww -z "$tmp/pier.1" 2>"$tmp/warn" ||
    fail "groff failed: $(cat "$tmp/warn")"
[ ! -s "$tmp/warn" ] || fail "groff warns: $(cat "$tmp/warn")"
MANWIDTH=80 man -l "$tmp/pier.1" 2>"$tmp/err" | col -bx >"$tmp/page" ||
    fail "man -l failed: $(cat "$tmp/err")"

for section in NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS ENVIRONMENT \
               'EXIT STATUS' 'SEE ALSO'; do
    grep -qx "$section" "$tmp/page" || fail "no section $section"
done
head -1 "$tmp/page" | grep -q '^PIER(1) *User Commands *PIER(1)$' ||
    fail "header: $(head -1 "$tmp/page")"
grep -q '^pier 0\.1\.0 ' "$tmp/page" || fail "no version in the footer"

# Every command of `pier --help`, with its usage line from its own help.
commands=$("$pier" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF { print $1 }' |
           grep -v '^Commands:')
[ "$(echo "$commands" | wc -l)" -ge 30 ] || fail "few commands: $commands"
# (A long heading wraps: the page is read as one line of words.)
tr -s ' \n' '  ' <"$tmp/page" >"$tmp/words"
for c in $commands; do
    usage=$("$pier" help "$c" | head -1 |
            sed 's/^Usage: pier \[OPTIONS\] //' | tr -s ' ')
    grep -qF " $usage $("$pier" --help | awk -v c="$c" '$1 == c {
        $1 = ""; sub(/^ +/, ""); print; exit }')." "$tmp/words" ||
        fail "no heading '$usage' and summary for $c"
done
# Texts of the help, hyphens and quotes intact.
grep -qF -- '--auto-create=on-write|never' "$tmp/page" || fail "no options"
grep -qF 'PIER_NOW   Fixes the engine'"'"'s clock' "$tmp/page" ||
    fail "no environment"
grep -qF -- "--column price='decimal(12,2)'" "$tmp/page" ||
    fail "create-board's help lost its example"
echo "pier(1) is made from the help and reads cleanly"
