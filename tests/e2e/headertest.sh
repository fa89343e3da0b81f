#!/usr/bin/env bash
# pier.h is the whole public API: it must compile on its own, as C17 with
# every warning the project uses, and as C++ (callers link libpier from C++
# services), with nothing included before it.
set -euo pipefail
include=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include "pier.h"\nint pier_headertest(void);\nint pier_headertest(void) { return PIER_OK; }\n' >"$tmp/t.c"
cp "$tmp/t.c" "$tmp/t.cpp"
warn="-Wall -Wextra -Werror -Wpedantic -Wshadow -Wundef"
cc -std=c17 $warn -Wstrict-prototypes -Wmissing-prototypes -Wvla \
    -I"$include" -c "$tmp/t.c" -o "$tmp/c.o"
if command -v c++ >/dev/null 2>&1; then
    c++ -std=c++17 $warn -I"$include" -c "$tmp/t.cpp" -o "$tmp/cpp.o"
else
    echo "headertest: no C++ compiler; C++ check not run" >&2
    exit 1
fi
echo "pier.h compiles alone as C17 and C++17"
