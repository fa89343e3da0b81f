#!/usr/bin/env bash
# make demo: a short tour of Pier on the embedded default, in a fresh data
# directory under the work tree. Every command is printed before it runs,
# with what it printed; refusals are part of the tour.
set -uo pipefail
pier=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
data=$2
rm -rf "$data"
mkdir -p "$data"
export PIER_DATA
PIER_DATA=$(cd "$data" && pwd)

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
quote() {  # an argument as a person would type it
    if [[ $1 =~ ^[A-Za-z0-9_=./:,-]+$ ]]; then
        printf ' %s' "$1"
    else
        printf " '%s'" "${1//\'/\'\\\'\'}"
    fi
}
run() {
    printf '$ pier'
    for a in "$@"; do quote "$a"; done
    printf '\n'
    "$pier" "$@"
    local rc=$?
    [ $rc -eq 0 ] || printf '(exit %d)\n' $rc
    return 0
}

step "A board is created by its first write; the write returns its watermark"
run insert acme_roadmap '{"id":"task-1","state":"active","title":"Ship it","priority":3}'
run boards
run schema acme_roadmap

step "Column types are inferred once, then enforced"
run insert acme_roadmap '{"id":"task-9","state":"active","priority":"N/A"}'
run count acme_roadmap

step "The recovery is explicit: widen the column, then retry"
run widen acme_roadmap priority text
run insert acme_roadmap '{"id":"task-9","state":"active","priority":"N/A"}'
run get acme_roadmap task-1

step "Columns only widen: narrowing is refused"
run widen acme_roadmap priority tinyint

step "One write decides a new column from all its values: [1, 2.5] is double"
run insert metrics '[{"id":"m1","value":1},{"id":"m2","value":2.5},{"id":"m3","tags":["a","b"],"big":123456789012345678901234567890}]'
run schema metrics
run dump metrics

step "Strings stay strings: \"007\" is text, never guessed into a number"
run insert agents '{"id":"bond","code":"007"}'
run --json get agents bond

step "Declared columns and a strict board refuse undeclared columns"
run create-board billing --column amount=double --column currency=text --column paid=boolean --column due=timestamp --strict
run insert billing '{"id":"b1","state":"active","amount":5,"memo":"late fee"}'
run add-column billing memo text
run insert billing '{"id":"b1","state":"active","amount":5,"memo":"late fee","due":"2026-03-01T10:00:00+02:00"}'
run get billing b1

step "Base columns: id is required and unique, updated_at is the engine's, _ names are reserved"
run insert billing '{"state":"active","amount":1}'
run insert billing '{"id":"b1","amount":1}'
run insert billing '{"id":"b2","_v":1}'
run create-board other --column state=text

step "A failed batch leaves nothing behind"
run insert fresh '[{"id":"f1","n":1},{"id":"f2","n":2},{"n":3}]'
run has-board fresh
run insert acme_roadmap '[{"id":"task-3","estimate":2},{"id":"task-4","estimate":3},{"id":"task-1"}]'
run schema acme_roadmap

step "Auto-create can be turned off"
run --auto-create=never insert typo_board '{"id":"x"}'
run has-board typo_board

step "Bad input is refused with a clear error"
run insert acme_roadmap '{"id":"task-2", "title": }'
run insert 'Bad-Board' '{"id":"x"}'
run --json get acme_roadmap nope

step "Update patches a row, upsert replaces or inserts whole rows, delete removes"
run update acme_roadmap task-1 '{"priority":"high","owner":"ada"}'
run update acme_roadmap task-404 '{"priority":"low"}'
run upsert acme_roadmap '[{"id":"task-9","title":"Replaced"},{"id":"task-10","title":"New"}]'
run delete acme_roadmap task-10 task-404
run dump acme_roadmap

step "A transaction names its boards and commits all of its writes, or none"
printf '%s\n' '[{"op":"insert","board":"accounts","rows":[{"id":"a1","balance":10}]},' \
    ' {"op":"insert","board":"history","rows":[{"id":"h1","delta":10}]}]' >"$data/ok.json"
run tx --boards accounts,history "$data/ok.json"
printf '%s\n' '[{"op":"update","board":"accounts","id":"a1","patch":{"balance":7}},' \
    ' {"op":"insert","board":"audit","rows":[{"id":"x"}]}]' >"$data/bad.json"
run tx --boards accounts,history "$data/bad.json"
run get accounts a1

step "Every write is in the change feed, which a consumer follows by watermark"
run changes accounts --after 0
run head

step "A query reads one board with SQL; values are bound, results typed"
run query acme_roadmap 'SELECT id, priority, owner FROM {{board}} WHERE state = :s ORDER BY id' --param s=active
run query billing 'SELECT id, amount, paid, due FROM {{board}}' --jsonl
run query accounts 'SELECT a.id, a.balance, h.delta FROM {{board}} a JOIN {{board:history}} h' --with history --csv

step "A query can read nothing but its boards"
run query acme_roadmap 'SELECT * FROM {{board:accounts}}'
run query acme_roadmap 'SELECT * FROM _pier_changes'
run query acme_roadmap 'SELECT 1; DELETE FROM {{board}}'

step "Declared tables speak Pier's SQL dialect: logical types, checked on every write"
run sql "CREATE TABLE invoices (id INT64 PRIMARY KEY, tenant UUID NOT NULL READONLY, amount DECIMAL(12,2) NOT NULL, status ENUM('open','paid') NOT NULL DEFAULT 'open', due INSTANT)"
run sql "INSERT INTO invoices (id, tenant, amount, due) VALUES (1, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', '0.10', '2026-03-01T10:00:00+02:00'), (2, 'a0eebc999c0b4ef8bb6d6bb9bd380a11', '0.2', NULL)"
run sql "SELECT id, tenant, amount, due FROM invoices ORDER BY id" --jsonl
run sql "SELECT sum(amount) AS total, count(*) AS n FROM invoices WHERE tenant = 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'"
run sql "INSERT INTO invoices (id, tenant, amount) VALUES (3, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '9.999')"
run sql "UPDATE invoices SET tenant = tenant"
run sql "SELECT amount * 1.1 FROM invoices"
run schema dump

step "Lifecycle: truncate keeps the columns, drop removes the board"
run truncate metrics
run count metrics
run schema metrics
run drop metrics
run boards

printf '\nThe lake is in %s (one SQLite file).\n' "$data"
