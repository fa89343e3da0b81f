#!/usr/bin/env bash
# Runs one golden transcript against a pier binary:
#   bash tests/golden/run.sh PATH_TO_PIER FILE.t
# Every '$ ' line of FILE.t is run with `bash -c` in one fresh, empty
# directory (shared by the commands of the file), with `pier` on PATH being
# PATH_TO_PIER, PIER_DATA unset, PIER_NOW=2026-01-01T00:00:00Z, LC_ALL=C and
# stdin from /dev/null. The transcript is then rendered again from what the
# commands actually printed, and any difference fails the test (a unified
# diff is printed). With PIER_GOLDEN_UPDATE=1 the file is rewritten instead.
# The format is described in tests/golden/README.md.
set -uo pipefail

if [ "$#" -ne 2 ]; then
    echo "usage: $0 PATH_TO_PIER FILE.t" >&2
    exit 2
fi
pier=$1
file=$2
if [ ! -x "$pier" ]; then
    echo "golden: $pier is not an executable" >&2
    exit 2
fi
if [ ! -f "$file" ]; then
    echo "golden: no such transcript: $file" >&2
    exit 2
fi
pier=$(cd "$(dirname "$pier")" && pwd)/$(basename "$pier")

root=$(mktemp -d "${TMPDIR:-/tmp}/pier-golden.XXXXXX") || exit 2
trap 'rm -rf "$root"' EXIT
mkdir "$root/bin" "$root/work"
ln -s "$pier" "$root/bin/pier"
rendered=$root/rendered.t

# Seconds one command may take before it counts as hung.
timeout_s=300

# A stdout line that would read as markup gets a '| ' prefix.
render_stdout() {
    local line
    for line in "$@"; do
        if [[ $line == [\#\!\$\|]* || $line =~ ^\[exit\ [0-9]+\]$ ]]; then
            printf '| %s\n' "$line"
        else
            printf '%s\n' "$line"
        fi
    done
}

render_stderr() {
    local line
    for line in "$@"; do
        if [ -z "$line" ]; then
            printf '!\n'
        else
            printf '! %s\n' "$line"
        fi
    done
}

# Reads a captured output into the array named $1, without trailing blank
# lines (the format ignores them).
read_lines() {
    local -n into=$1
    mapfile -t into < "$2"
    while [ "${#into[@]}" -gt 0 ] && [ -z "${into[-1]}" ]; do
        unset 'into[-1]'
    done
}

# Runs one command and prints its rendered block (without the '$ ' line).
run_command() {
    local cmd=$1 status out err
    (
        cd "$root/work" &&
        exec env -u PIER_DATA PIER_NOW=2026-01-01T00:00:00Z LC_ALL=C \
            PATH="$root/bin:$PATH" \
            timeout "$timeout_s" bash -c "$cmd" \
            <"/dev/null" >"$root/stdout" 2>"$root/stderr"
    )
    status=$?
    read_lines out "$root/stdout"
    read_lines err "$root/stderr"
    render_stdout "${out[@]}"
    render_stderr "${err[@]}"
    if [ "$status" -ne 0 ]; then
        printf '[exit %d]\n' "$status"
    fi
}

# Splits the transcript: the lines before the first command are kept as
# they are; so is the trailing run of blank and '#' lines of each block
# (comments that belong to the next command); the rest of a block is
# expected output, replaced by the actual output.
mapfile -t lines < "$file"
ncommands=0
{
    i=0
    n=${#lines[@]}
    while [ "$i" -lt "$n" ] && [[ ${lines[i]} != '$ '* ]]; do
        printf '%s\n' "${lines[i]}"
        i=$((i + 1))
    done
    while [ "$i" -lt "$n" ]; do
        cmd=${lines[i]#\$ }
        printf '%s\n' "${lines[i]}"
        i=$((i + 1))
        start=$i
        while [ "$i" -lt "$n" ] && [[ ${lines[i]} != '$ '* ]]; do
            i=$((i + 1))
        done
        # The block is lines[start..i); its trailer starts at t.
        t=$i
        while [ "$t" -gt "$start" ] &&
              [[ -z ${lines[t - 1]} || ${lines[t - 1]} == '#'* ]]; do
            t=$((t - 1))
        done
        run_command "$cmd"
        ncommands=$((ncommands + 1))
        for ((k = t; k < i; k++)); do
            printf '%s\n' "${lines[k]}"
        done
    done
} > "$rendered"

if [ "$ncommands" -eq 0 ]; then
    echo "golden: $file has no '\$ ' command" >&2
    exit 1
fi

if [ "${PIER_GOLDEN_UPDATE:-}" = 1 ]; then
    if ! cmp -s "$file" "$rendered"; then
        cp "$rendered" "$file"
        echo "golden: updated $file"
    fi
    exit 0
fi

if ! diff -u --label "$file (expected)" --label "$file (actual)" \
        "$file" "$rendered"; then
    echo "golden: FAIL $file" >&2
    exit 1
fi
echo "golden: ok $file"
