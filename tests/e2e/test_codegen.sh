#!/usr/bin/env bash
# `pier schema codegen c` writes a header that compiles with every warning
# (as C17 with gcc and clang, and as C++17) and works: a program built
# against the build tree's libpier inserts, updates and reads back rows of
# every type through it (tests/e2e/codegen/program.c) on a lake that
# `pier migrate` made from the same declaration. Then the rows Pier writes
# as JSON (`pier sql --json`, `pier query --json`) validate against
# `pier schema codegen jsonschema`, when Python's jsonschema is there to
# check them (tests/unit/test_codegen.c checks them in any case).
set -euo pipefail
pier=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$2
build=$(dirname "$pier")
here="$src/tests/e2e/codegen"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export PIER_NOW=2026-01-01T00:00:00Z
unset PIER_DATA

# Build as the tree was built: its compiler, and its sanitizers (whose
# runtime libpier.a needs).
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt" 2>/dev/null; }
cc=$(cache CMAKE_C_COMPILER)
cc=${cc:-cc}
sanitize=$(cache PIER_SANITIZE)
san=${sanitize:+-fsanitize=$sanitize -fno-sanitize-recover=all}
warn="-Wall -Wextra -Werror -Wpedantic -Wshadow -Wformat=2 -Wundef -Wvla"
cwarn="$warn -Wstrict-prototypes -Wmissing-prototypes"

"$pier" schema codegen c "$here/schema.sql" >schema.h
"$pier" schema codegen c - <"$here/schema.sql" | cmp - schema.h

# The header alone, included twice, as C17 and C++17 and by clang.
printf '%s\n' '#include "schema.h"' '#include "schema.h"' \
    'int main(void) { return 0; }' >alone.c
cp alone.c alone.cpp
"$cc" -std=c17 $cwarn -I"$src/include" -I. -fsyntax-only alone.c
if command -v clang >/dev/null 2>&1; then
    clang -std=c17 $cwarn -I"$src/include" -I. -fsyntax-only alone.c
fi
if command -v c++ >/dev/null 2>&1; then
    c++ -std=c++17 $warn -I"$src/include" -I. -fsyntax-only alone.cpp
fi

# The program, against the build tree.
"$cc" -std=c17 $cwarn $san -I"$src/include" -I. "$here/program.c" \
    -o program "$build/libpier.a" $(pkg-config --libs sqlite3 jansson) -lpq \
    -lpthread
"$pier" --data lake migrate "$here/schema.sql" >/dev/null
out=$(./program lake)
[ "$out" = "codegen program: every check passed" ] || {
    echo "program: $out"; exit 1; }

# The rows it wrote, as Pier's JSON, against the JSON Schema.
"$pier" schema codegen jsonschema "$here/schema.sql" >schema.json
# one def a line at this indent: three shapes of 4 objects, one of a view
[ "$(grep -c '^    "[a-z_]*": {$' schema.json)" = 13 ]
for t in people tickets notes open_tickets; do
    "$pier" --data lake sql "SELECT * FROM $t" --json >"$t.json"
done
"$pier" --data lake query events 'SELECT * FROM {{board}}' --json \
    >events.json
if python3 -c 'import jsonschema' 2>/dev/null; then
    python3 - <<'PY'
import json, sys
import jsonschema
doc = json.load(open("schema.json"))
jsonschema.Draft202012Validator.check_schema(doc)
checked = 0
for name in ["people", "tickets", "notes", "open_tickets", "events"]:
    rows = json.load(open(name + ".json"))
    assert rows, name + ": no rows"
    shape = dict(doc, **{"$ref": "#/$defs/%s_select" % name})
    v = jsonschema.Draft202012Validator(
        shape, format_checker=jsonschema.FormatChecker())
    for row in rows:
        errors = list(v.iter_errors(row))
        if errors:
            sys.exit("%s: %s: %s" % (name, json.dumps(row), errors[0].message))
        checked += 1
# and what a write may give: the insert shapes say no to what Pier refuses
ins = jsonschema.Draft202012Validator(
    dict(doc, **{"$ref": "#/$defs/tickets_insert"}))
assert ins.is_valid({"owner": 1, "price": "12.5", "wait": "P1D"})
assert not ins.is_valid({"owner": 1, "price": "12.345"})
assert not ins.is_valid({"price": "1"})
print("json schema: %d rows valid" % checked)
PY
else
    echo "test_codegen: no python3 jsonschema; rows not validated here" >&2
fi
echo "codegen: header compiles, program passes"
