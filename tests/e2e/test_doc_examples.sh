#!/usr/bin/env bash
# Every example in README.md and docs/*.md runs, so that none can drift
# from what Pier does.
#
# Shell examples: a ```sh block is a transcript, and must hold lines that
# start with "$ " (or be skipped, below), unless it is all `make` lines:
# the build's own commands (README's first lines), which CI runs itself. Each "$ " line is a command (with the lines after it while
# bash reads them as one command: an open quote, a trailing | or \); the
# lines after it, up to the next command, are what it prints, stdout and
# stderr together. A command shown with output must print exactly that,
# line for line (a CRLF read as a line's end), where "..." in a line
# stands for any text and an RFC 3339 instant for any instant (the
# examples show real times); one shown without output may print anything. A command whose output shows
# "pier: error:" or "pier: usage:" must fail, any other succeed.
#
# The blocks of one file run in order in one fresh directory, with `pier`
# the binary under test and no PIER_DATA, so a later example sees what an
# earlier one made. Two HTML comments, invisible on the rendered page,
# steer it:
#   <!-- doc-test: skip REASON -->   on the line before a block: not run
#                                    (a server it needs, a command that
#                                    never ends)
#   <!-- doc-test: setup             its lines up to "-->" run (unchecked)
#   commands...                      before the next block: the state an
#   -->                              example says it starts from
#   <!-- doc-test: env NAME=VALUE -->  sets NAME for the rest of the file
#                                    (PIER_NOW, for names made of the time)
#
# C examples: a ```c block of README.md holding `int main` is built
# against the build tree's library through pier-uninstalled.pc, as the
# README says to, and run in a directory of its own; it must exit 0. Every
# ```c block of docs/ is built the same way (below: a fragment as a
# function's body), unless skipped as a sh block is.
#
# Usage: test_doc_examples.sh PIER SRC_DIR  (PIER_TEST_CFLAGS: the flags
# the library was built with that a program must share, e.g. sanitizers)
set -euo pipefail
pier=$(realpath "$1")
src=$(realpath "$2")
build=$(dirname "$pier")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
ln -s "$pier" "$tmp/bin/pier"
export PATH="$tmp/bin:$PATH"
unset PIER_DATA PIER_LAKE PIER_NOW
export LC_ALL=C PIER_HISTORY=

failures=0
fail() {  # fail FILE:LINE MESSAGE...
    echo "FAIL $*" >&2
    failures=$((failures + 1))
}

# Turns one expected line into an extended regular expression.
pattern() {
    local p
    p=$(printf '%s' "$1" | sed -e 's/[][\.^$*+?(){}|/]/\\&/g')
    p=$(printf '%s' "$p" | sed -E \
        -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\\.[0-9]+)?Z/[0-9T:.Z-]+/g' \
        -e 's/\\\.\\\.\\\./.*/g')
    printf '^%s$' "$p"
}

# Runs one command in the file's directory and checks what it printed.
check() {  # check WHERE COMMAND EXPECTED-FILE
    local where=$1 cmd=$2 want=$3 status=0
    (cd "$dir" && timeout 60 bash -c "$cmd" </dev/null >"$tmp/raw" 2>&1) ||
        status=$?
    sed 's/\r$//' "$tmp/raw" >"$tmp/got"      # CSV's CRLF
    if [ ! -s "$want" ]; then
        [ "$status" -eq 0 ] ||
            fail "$where: exit $status from: $cmd" "$(head -5 "$tmp/got")"
        return
    fi
    if grep -qE '^pier: (error|usage):' "$want"; then
        [ "$status" -ne 0 ] || fail "$where: succeeded, expected a failure: $cmd"
    else
        [ "$status" -eq 0 ] ||
            fail "$where: exit $status from: $cmd" "$(head -5 "$tmp/got")"
    fi
    local nw ng
    nw=$(wc -l <"$want")
    ng=$(wc -l <"$tmp/got")
    local ok=1
    if [ "$nw" -ne "$ng" ]; then
        ok=0
    else
        local i=0 w g
        exec 3<"$want" 4<"$tmp/got"
        while IFS= read -r w <&3 && IFS= read -r g <&4; do
            i=$((i + 1))
            [[ $g =~ $(pattern "$w") ]] || { ok=0; break; }
        done
        exec 3<&- 4<&-
    fi
    if [ "$ok" -eq 0 ]; then
        fail "$where: $cmd"
        diff -u "$want" "$tmp/got" >&2 || true
    fi
}

# Runs the transcripts of one Markdown file.
run_file() {
    local file=$1 rel=${1#"$src"/}
    dir=$(mktemp -d "$tmp/run.XXXXXX")
    local n=0 in_block=0 runnable=0 skip_next=0 in_setup=0
    local block_line=0 block_cmds=0 block_make=0
    local cmd="" cmd_line=0 line
    file_env=()
    : >"$tmp/want"
    flush() {
        if [ -n "$cmd" ]; then
            check "$rel:$cmd_line" "$cmd" "$tmp/want"
            cmd=""
        fi
        : >"$tmp/want"
    }
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        if [ "$in_setup" -eq 1 ]; then
            if [ "$line" = "-->" ]; then
                in_setup=0
            elif ! (cd "$dir" && bash -c "$line" </dev/null \
                    >/dev/null 2>"$tmp/err"); then
                fail "$rel:$n: setup failed: $line" "$(cat "$tmp/err")"
            fi
            continue
        fi
        if [ "$in_block" -eq 0 ]; then
            case $line in
            '<!-- doc-test: setup') in_setup=1 ;;
            '<!-- doc-test: skip '*) skip_next=1 ;;
            '<!-- doc-test: env '*' -->')
                local assignment=${line#'<!-- doc-test: env '}
                assignment=${assignment%' -->'}
                export "${assignment?}"
                file_env+=("${assignment%%=*}")
                ;;
            '```sh')
                in_block=1
                runnable=$((1 - skip_next))
                skip_next=0
                block_line=$n
                block_cmds=0
                block_make=1
                ;;
            '```'*) in_block=2 ;;       # another language: not a transcript
            *) [ -z "$line" ] || skip_next=0 ;;
            esac
            continue
        fi
        if [ "$line" = '```' ]; then
            if [ "$in_block" -eq 1 ] && [ "$runnable" -eq 1 ]; then
                flush
                [ "$block_cmds" -gt 0 ] || [ "$block_make" -eq 1 ] ||
                    fail "$rel:$block_line: a sh block with no '\$ ' line:" \
                         "write it as a transcript, or say why it cannot" \
                         "run (<!-- doc-test: skip REASON -->)"
            fi
            in_block=0
            continue
        fi
        [ "$in_block" -eq 1 ] && [ "$runnable" -eq 1 ] || continue
        [[ $line == 'make '* ]] || block_make=0
        # A command still open takes the line as its own.
        if [ -n "$cmd" ] && [ ! -s "$tmp/want" ] &&
           { [[ $cmd == *'\' || $cmd == *'|' ]] ||
             ! bash -n -c "$cmd" 2>/dev/null; }; then
            cmd+=$'\n'"$line"
            continue
        fi
        if [[ $line == '$ '* ]]; then
            flush
            block_cmds=$((block_cmds + 1))
            cmd=${line#'$ '}
            cmd_line=$n
        elif [ -n "$cmd" ]; then
            printf '%s\n' "$line" >>"$tmp/want"
        fi
    done <"$file"
    [ "$in_block" -eq 0 ] || fail "$rel: a code block is never closed"
    local name
    for name in "${file_env[@]}"; do
        unset "$name"
    done
}

for f in "$src/README.md" "$src"/docs/*.md; do
    grep -q '^```sh$' "$f" && run_file "$f"
done

# The README's C program, built as the README says.
awk '/^```c$/ { on = 1; text = ""; next }
     /^```$/ && on { if (text ~ /int main/) printf "%s", text; on = 0; next }
     on { text = text $0 "\n" }' "$src/README.md" >"$tmp/example.c"
if [ ! -s "$tmp/example.c" ]; then
    fail "README.md: no C program (a c block with int main)"
else
    # shellcheck disable=SC2046,SC2086
    if ! cc -std=c17 -Wall -Wextra -Werror ${PIER_TEST_CFLAGS:-} \
            "$tmp/example.c" -o "$tmp/example" \
            $(PKG_CONFIG_PATH="$build" pkg-config --cflags --libs pier) \
            2>"$tmp/cc"; then
        fail "README.md: the C example does not build" "$(cat "$tmp/cc")"
    elif ! (mkdir "$tmp/c" && cd "$tmp/c" && "$tmp/example" >"$tmp/c.out" \
            2>&1); then
        fail "README.md: the C example failed" "$(cat "$tmp/c.out")"
    fi
fi

# The C examples of docs/: each built, not run (they name an engine that
# is not open). A fragment is the body of a function that declares what
# fragments take as given (engine or e, err, a cursor c, params, state,
# last_applied, user_sql, and use(row)); a `static` function it defines
# goes before that function, and a line "..." (what the page leaves out)
# is dropped. A block with `int main` is a program, built whole.
cat >"$tmp/prelude.h" <<'PRELUDE'
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pier.h>

static void use(const pier_row *row) { (void)row; }
PRELUDE
cat >"$tmp/given.h" <<'GIVEN'
    pier_engine *engine = NULL, *e = NULL;
    pier_error err;
    memset(&err, 0, sizeof err);
    pier_cursor *c = NULL;
    pier_params *params = NULL;
    void *state = NULL;
    int64_t last_applied = 0;
    const char *user_sql = "SELECT 1";
    {
GIVEN
nc=0
for f in "$src"/docs/*.md; do
    rel=${f#"$src"/}
    # One file per block: NAME.c, with its first line's number in NAME.at.
    awk -v out="$tmp/c-${rel//\//_}" '
        /^<!-- doc-test: skip / { skip = 1; next }
        /^```c$/ { if (!skip) { on = 1; n++; print FNR > (out "." n ".at") }
                   skip = 0; next }
        /^```$/ && on { on = 0; next }
        on { print > (out "." n ".c") }
        /./ { skip = 0 }' "$f"
done
for body in "$tmp"/c-*.c; do
    [ -e "$body" ] || continue
    nc=$((nc + 1))
    at="${body%.c}.at"
    where=$(basename "${body%.*.c}" | sed 's/^c-//; s/_/\//')
    where="$where:$(cat "$at")"
    unit="$tmp/unit$nc.c"
    libs="pier"
    grep -q '#include <jansson.h>' "$body" && libs="pier jansson"
    if grep -q 'int main' "$body"; then
        cp "$body" "$unit"
    else
        {
            cat "$tmp/prelude.h"
            awk '/^static .*[^;]$/ { top = 1 } top { print } /^}$/ { top = 0 }' \
                "$body"
            echo "void doc_example(void);"
            echo "void doc_example(void)"
            echo "{"
            cat "$tmp/given.h"
            awk '/^static .*[^;]$/ { top = 1 } !top && $0 != "..." { print }
                 /^}$/ { top = 0 }' "$body"
            echo "    }"
            echo "}"
        } >"$unit"
    fi
    # A program is linked too; a fragment is compiled (a function it
    # names that pier.h does not declare fails as implicit).
    local_link=(-c -o "$tmp/unit$nc.o")
    grep -q 'int main' "$unit" && local_link=(-o "$tmp/unit$nc")
    # shellcheck disable=SC2046,SC2086
    if ! cc -std=c17 -Wall -Wextra -Werror -Wno-unused-variable \
            -Wno-unused-but-set-variable -Wno-unused-function \
            -Wno-unused-parameter ${PIER_TEST_CFLAGS:-} "$unit" \
            "${local_link[@]}" \
            $(PKG_CONFIG_PATH="$build" pkg-config --cflags --libs $libs) \
            2>"$tmp/cc"; then
        fail "$where: the C example does not build" "$(head -20 "$tmp/cc")"
    fi
done
[ "$nc" -gt 0 ] || fail "docs/: no C example found"

[ "$failures" -eq 0 ] || { echo "$failures example(s) failed" >&2; exit 1; }
echo "every example in README.md and docs/ ran as shown"
