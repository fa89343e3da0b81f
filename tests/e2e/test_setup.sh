#!/usr/bin/env bash
# The setup step installs what is missing on a fresh Debian machine: as
# root it runs `apt-get update` once and `apt-get install -y` with exactly
# the missing packages; not as root it prints that command and stops; with
# everything present it does nothing. Commands are stubbed on PATH so that
# the test changes nothing on the machine.
set -euo pipefail
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"

stub() {  # stub NAME BODY
    printf '#!/usr/bin/env bash\n%s\n' "$2" >"$tmp/bin/$1"
    chmod +x "$tmp/bin/$1"
}
# pkg-config knows every module but jansson and cmocka.
stub pkg-config 'case "$*" in *jansson*|*cmocka*) exit 1;; *) exit 0;; esac'
stub apt-get "echo \"apt-get \$*\" >>'$tmp/apt.log'"
for c in cc c++ make cmake clang sqlite3 script groff zsh man col; do stub "$c" 'exit 0'; done
export PATH="$tmp/bin:$PATH"
# The files it looks for: none yet (so `locales` and `postgresql`, whose
# server binaries it looks for, are missing).
export PIER_SETUP_ROOT="$tmp/root"

# Not root: the exact command, exit 1, nothing installed.
stub id 'echo 1000'
if bash "$src/scripts/setup.sh" 2>"$tmp/err"; then
    echo "setup succeeded with packages missing"; exit 1
fi
grep -qx 'pier setup: run as root:  apt-get update && apt-get install -y libcmocka-dev libjansson-dev locales postgresql' "$tmp/err" ||
    { cat "$tmp/err"; exit 1; }
[ ! -e "$tmp/apt.log" ] || { echo "apt-get ran without root"; exit 1; }

# Root: update once, then install exactly the missing packages.
stub id 'echo 0'
bash "$src/scripts/setup.sh" 2>/dev/null
printf '%s\n' 'apt-get update -q' \
    'apt-get install -y libcmocka-dev libjansson-dev locales postgresql --no-install-recommends' \
    >"$tmp/want"
diff -u "$tmp/want" "$tmp/apt.log"

# PostgreSQL's client alone (psql, but no initdb, pg_ctl or postgres in
# Debian's directory of its version) is not the server, and without
# libpq's pkg-config module libpq-dev is missing too.
rm "$tmp/apt.log"
mkdir -p "$tmp/root/usr/lib/postgresql/15/bin"
pgbin=$tmp/root/usr/lib/postgresql/15/bin
touch "$pgbin/psql"
chmod +x "$pgbin/psql"
stub pkg-config 'case "$*" in *jansson*|*cmocka*|*libpq*) exit 1;; *) exit 0;; esac'
bash "$src/scripts/setup.sh" 2>/dev/null
printf '%s\n' 'apt-get update -q' \
    'apt-get install -y libcmocka-dev libjansson-dev libpq-dev locales postgresql --no-install-recommends' \
    >"$tmp/want"
diff -u "$tmp/want" "$tmp/apt.log"
stub pkg-config 'case "$*" in *jansson*|*cmocka*) exit 1;; *) exit 0;; esac'
# The server's binaries are there from here on.
for c in initdb pg_ctl postgres; do
    touch "$pgbin/$c"
    chmod +x "$pgbin/$c"
done

# clang without libFuzzer's runtime (a link with -fsanitize=fuzzer fails):
# the runtime's package is added, and clang is not. (The locale is there
# from here on.)
rm "$tmp/apt.log"
mkdir -p "$tmp/root/usr/share/i18n/locales"
touch "$tmp/root/usr/share/i18n/locales/de_DE"
stub clang 'case "$*" in *-fsanitize=fuzzer*) exit 1;; *) exit 0;; esac'
bash "$src/scripts/setup.sh" 2>/dev/null
printf '%s\n' 'apt-get update -q' \
    'apt-get install -y libclang-rt-14-dev libcmocka-dev libjansson-dev --no-install-recommends' \
    >"$tmp/want"
diff -u "$tmp/want" "$tmp/apt.log"

# No clang at all: clang and the runtime both, since clang only recommends
# it. (PATH keeps the stubs and the shell's own tools, not the machine's
# clang.)
rm "$tmp/apt.log" "$tmp/bin/clang"
mkdir "$tmp/tools"
for c in bash mktemp rm printf sort id; do
    p=$(command -v "$c") && ln -sf "$p" "$tmp/tools/$c"
done
stub pkg-config 'exit 0'
PATH="$tmp/bin:$tmp/tools" bash "$src/scripts/setup.sh" 2>/dev/null
printf '%s\n' 'apt-get update -q' \
    'apt-get install -y clang libclang-rt-14-dev --no-install-recommends' \
    >"$tmp/want"
diff -u "$tmp/want" "$tmp/apt.log"
stub clang 'exit 0'

# Everything present: nothing to do.
rm "$tmp/apt.log"
stub pkg-config 'exit 0'
bash "$src/scripts/setup.sh"
[ ! -e "$tmp/apt.log" ] || { echo "apt-get ran with nothing missing"; exit 1; }
echo "setup installs exactly what is missing"
