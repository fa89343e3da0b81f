#!/usr/bin/env bash
# The bash and zsh completions the build makes from the command table
# (`pier help --completion bash|zsh`) complete commands, global options and
# their values, each command's options and subcommands, and the boards of
# the lake that --data names on the line (by running `pier boards`), none
# when there is no lake. Each shell's function is called as the shell
# would call it: bash's with COMP_WORDS and COMP_CWORD set; zsh's with
# `words` and CURRENT, compadd and _files stubbed to record candidates
# (zsh filters them by the prefix itself). zsh is a setup dependency
# (scripts/setup.sh); without it only bash's half runs.
set -euo pipefail
pier=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "$*"; exit 1; }

bin=$(dirname "$pier")
for shell in bash zsh; do
    f=$bin/completion/$([ "$shell" = bash ] && echo pier || echo _pier)
    [ -s "$f" ] || fail "the build made no $f"
    "$pier" help --completion "$shell" | cmp -s - "$f" ||
        fail "$f is not 'pier help --completion $shell'"
done
"$pier" --data lake insert orders '{"id":"a"}' >/dev/null
"$pier" --data lake insert other '{"id":"a"}' >/dev/null
"$pier" --data lake2 insert solo '{"id":"a"}' >/dev/null
mkdir -p files/dir1
touch files/file1
export PATH="$bin:$PATH"

# ---- bash ----
cat >complete.bash <<'SH'
source "$1"
shift
COMP_WORDS=("$@")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
COMPREPLY=()
_pier
printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
SH
# check WANT WORD... : the candidates for the last word, sorted.
check() {
    local want=$1
    shift
    local got
    got=$(bash complete.bash "$bin/completion/pier" "$@")
    [ "$got" = "$want" ] || fail "bash: [$*]: want '$want', got '$got'"
}
check "watch" pier wa
check "create-board" pier cr
check "--data --durability" pier --d
check "files/dir1" pier --data files/d
check "never" pier --auto-create = n
check "full normal" pier --durability ""
check "orders other" pier --data lake count ""
check "orders" pier --data lake count or
check "orders other" pier count --data lake ""
check "orders other" pier --data = lake dump ""
check "solo" pier --data lake2 get ""
check "" pier --data nowhere count ""          # no lake: no boards
check "" pier --data lake count orders ""      # one BOARD: nothing after
check "--after --auto-create" pier --data lake watch orders --a
check "--limit" pier changes b --li
check "down new status up" pier migrations ""
check "codegen dump export orders other" pier --data lake schema ""
check "apply record show" pier changeset ""
check "abort replace skip" pier changeset apply x --on-conflict ""
check "--csv" pier query b SQL --cs
check "stats" pier help st
check "bash zsh" pier help --completion ""
check "files/dir1 files/file1" pier plan files/  # a FILE
check "files/dir1" pier migrations up --dir files/  # a DIR

# ---- zsh ----
if ! command -v zsh >/dev/null 2>&1; then
    echo "zsh is missing (scripts/setup.sh installs it): bash checked only"
    exit 0
fi
zsh -n "$bin/completion/_pier" || fail "zsh: _pier does not parse"
cat >complete.zsh <<'SH'
compadd() { [[ $1 == -- ]] && shift; got+=("$@") }
_files() { got+=("<files>") }
_directories() { got+=("<dirs>") }
compdef() { }
source "$1"
shift
local -a words got
words=("$@")
CURRENT=$#
got=()
_pier
print -r -- ${(j: :)${(o)got}}
SH
zcheck() {
    local want=$1
    shift
    local got
    got=$(zsh -f complete.zsh "$bin/completion/_pier" "$@")
    [ "$got" = "$want" ] || fail "zsh: [$*]: want '$want', got '$got'"
}
zcheck "orders other" pier --data lake count ""
zcheck "orders other" pier --data=lake count o
zcheck "solo" pier count --data lake2 ""
zcheck "down new status up" pier migrations ""
zcheck "<dirs>" pier --data ""
zcheck "never on-write" pier --auto-create=""
zcheck "<files>" pier plan ""
zcheck "" pier --data nowhere count ""
"$pier" help --completion zsh | zsh -n || fail "zsh: stdin does not parse"
zsh -fc "$(printf 'compdef() { print -r -- "compdef $*"; }\nsource %q' \
    "$bin/completion/_pier")" | grep -qx 'compdef _pier pier' ||
    fail "zsh: sourcing _pier does not register it"
echo "bash and zsh complete pier's commands, options and boards"
