#!/usr/bin/env bash
# Installing Pier gives a C program everything it needs: libpier (shared and
# static), pier.h and pier.pc for pkg-config, and the pier command with its
# man page and its bash and zsh completions, where man, bash-completion and
# zsh look for them. The build
# here uses clang, so a clang-only warning cannot hide behind gcc, and no
# sanitizer, as a packager would build it.
set -euo pipefail
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmake -S "$src" -B "$tmp/build" -DCMAKE_C_COMPILER=clang \
    -DCMAKE_BUILD_TYPE=Release -DPIER_TESTS=OFF \
    -DCMAKE_INSTALL_PREFIX=/usr/local >/dev/null
cmake --build "$tmp/build" -j 2 >/dev/null
DESTDIR="$tmp/root" cmake --install "$tmp/build" >/dev/null
prefix="$tmp/root/usr/local"
for f in include/pier.h lib/libpier.a lib/libpier.so lib/pkgconfig/pier.pc \
         bin/pier share/man/man1/pier.1 \
         share/bash-completion/completions/pier \
         share/zsh/site-functions/_pier; do
    [ -e "$prefix/$f" ] || { echo "missing after install: $f"; exit 1; }
done
# The installed page and scripts are the installed pier's own.
cmp -s <("$prefix/bin/pier" help --man) "$prefix/share/man/man1/pier.1" ||
    { echo "pier.1 is not 'pier help --man'"; exit 1; }
cmp -s <("$prefix/bin/pier" help --completion bash) \
    "$prefix/share/bash-completion/completions/pier" ||
    { echo "the bash completion is not pier's"; exit 1; }
cmp -s <("$prefix/bin/pier" help --completion zsh) \
    "$prefix/share/zsh/site-functions/_pier" ||
    { echo "the zsh completion is not pier's"; exit 1; }
# man finds the page by name under the prefix.
MANPATH="$prefix/share/man" man -w pier | grep -qx "$prefix/share/man/man1/pier.1" ||
    { echo "man -w pier does not find the installed page"; exit 1; }

cat >"$tmp/app.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <pier.h>
int main(int argc, char **argv)
{
    (void)argc;
    pier_engine *e = NULL;
    pier_error err;
    int64_t wm = 0, n = 0;
    const char *row = "{\"id\":\"a\",\"n\":1}";
    if (pier_open(&e, argv[1], NULL, &err) != PIER_OK ||
        pier_insert_json(&wm, e, "things", row, strlen(row), &err) != PIER_OK ||
        pier_row_count(&n, e, "things", &err) != PIER_OK) {
        fprintf(stderr, "%s: %s\n", err.tag, err.message);
        return 1;
    }
    printf("%d rows=%lld\n", pier_version_number() == PIER_VERSION_NUMBER,
           (long long)n);
    pier_close(&e);
    return 0;
}
C
# pier.pc names the installed prefix; point pkg-config at the staged copy.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$tmp/root"
cc -std=c17 -Wall -Werror "$tmp/app.c" -o "$tmp/app-shared" \
    $(pkg-config --cflags --libs pier)
cc -std=c17 -Wall -Werror "$tmp/app.c" -o "$tmp/app-static" \
    $(pkg-config --cflags pier) "$prefix/lib/libpier.a" \
    $(pkg-config --libs --static pier | sed 's/-lpier//')

out=$(LD_LIBRARY_PATH="$prefix/lib" "$tmp/app-shared" "$tmp/lake1")
[ "$out" = "1 rows=1" ] || { echo "shared: got '$out'"; exit 1; }
out=$("$tmp/app-static" "$tmp/lake2")
[ "$out" = "1 rows=1" ] || { echo "static: got '$out'"; exit 1; }
# The static program must not need libpier.so.
if ldd "$tmp/app-static" | grep -q libpier; then
    echo "static program links libpier.so"; exit 1
fi
# The versions of the libraries pier runs on, as linked: Debian's, which
# pkg-config describes.
out=$("$prefix/bin/pier" --version)
want="pier 0.1.0
sqlite $(pkg-config --modversion sqlite3)
libpq $(pkg-config --modversion libpq)"
[ "$out" = "$want" ] || { echo "pier --version: got '$out'"; exit 1; }
echo "installed and linked: shared, static, pier, its man page and completions"
