/*
 * fuzz_support.c: see fuzz_support.h.
 */
#include "support/fuzz_support.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/lakedir.h"

_Noreturn void fz_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "\n==%d== invariant broken at %s:%d: ", (int)getpid(),
            file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

/* ---- lakes ---- */

/* The directories made, removed at exit. */
#define MAX_DIRS 16
static char *dirs[MAX_DIRS];
static size_t ndirs;

static void remove_dirs(void)
{
    for (size_t i = 0; i < ndirs; i++) {
        lakedir_remove_tree(dirs[i]);
        free(dirs[i]);
    }
    ndirs = 0;
}

const char *fz_dir(const char *tag)
{
    FZ_CHECK(ndirs < MAX_DIRS, "more than %d directories", MAX_DIRS);
    const char *root = getenv("PIER_FUZZ_TMP");
    if (root == NULL || root[0] == '\0')
        root = "/dev/shm";
    size_t n = strlen(root) + strlen(tag) + 32;
    char *dir = malloc(n);
    FZ_CHECK(dir != NULL, "out of memory");
    snprintf(dir, n, "%s/pier-fuzz-%s-XXXXXX", root, tag);
    FZ_CHECK(mkdtemp(dir) != NULL, "cannot make a directory in %s", root);
    if (ndirs == 0)
        atexit(remove_dirs);
    dirs[ndirs++] = dir;
    return dir;
}

static int64_t fixed_clock(void *payload)
{
    (void)payload;
    return FZ_NOW;
}

pier_open_options fz_open_options(void)
{
    pier_open_options o = PIER_OPEN_OPTIONS_INIT;
    o.durability = PIER_DURABILITY_NORMAL;
    o.clock = fixed_clock;
    return o;
}

pier_engine *fz_open(const char *dir)
{
    pier_open_options o = fz_open_options();
    pier_engine *e = NULL;
    pier_error err;
    FZ_OK(pier_open(&e, dir, &o, &err), &err);
    return e;
}

void fz_reopen_empty(pier_engine **e, const char *dir)
{
    pier_error err;
    pier_close(e);
    FZ_OK(pier_reset_lake(dir, &err), &err);
    *e = fz_open(dir);
}

bool fz_recycle(pier_engine **e, const char *dir, unsigned every)
{
    static unsigned calls;
    if (++calls % every != 0)
        return false;
    fz_reopen_empty(e, dir);
    return true;
}

int64_t fz_head(pier_engine *e)
{
    int64_t head = -1;
    pier_error err;
    FZ_OK(pier_head_from_catalog(&head, e, &err), &err);
    return head;
}

/* ---- inputs ---- */

char *fz_strndup(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    FZ_CHECK(s != NULL, "out of memory");
    if (size > 0)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

bool fz_contains(const char *hay, size_t n, const char *needle, size_t m)
{
    if (m == 0)
        return true;
    if (n < m)
        return false;
    /* Rabin-Karp, base 257, modulo 2^64. */
    const uint64_t base = 257;
    uint64_t want = 0, have = 0, top = 1;
    for (size_t i = 0; i < m; i++) {
        want = want * base + (unsigned char)needle[i];
        have = have * base + (unsigned char)hay[i];
        if (i > 0)
            top *= base;
    }
    for (size_t i = 0;; i++) {
        if (have == want) {
            size_t k = 0;
            while (k < m && hay[i + k] == needle[k])
                k++;
            if (k == m)
                return true;
        }
        if (i + m >= n)
            return false;
        have = (have - top * (unsigned char)hay[i]) * base +
               (unsigned char)hay[i + m];
    }
}

/* ---- JSON ---- */

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The length of the JSON number at s[0..n) by RFC 8259's grammar, or 0. */
static size_t number_len(const char *s, size_t n, bool *integral)
{
    size_t p = 0;
    *integral = true;
    if (p < n && s[p] == '-')
        p++;
    if (p >= n || !is_digit(s[p]))
        return 0;
    if (s[p] == '0')
        p++;
    else
        while (p < n && is_digit(s[p]))
            p++;
    if (p < n && s[p] == '.') {
        *integral = false;
        p++;
        if (p >= n || !is_digit(s[p]))
            return 0;
        while (p < n && is_digit(s[p]))
            p++;
    }
    if (p < n && (s[p] == 'e' || s[p] == 'E')) {
        *integral = false;
        p++;
        if (p < n && (s[p] == '+' || s[p] == '-'))
            p++;
        if (p >= n || !is_digit(s[p]))
            return 0;
        while (p < n && is_digit(s[p]))
            p++;
    }
    /* A number runs into no letter or digit ("01", "1x"). */
    if (p < n && (is_digit(s[p]) || s[p] == '.' || s[p] == 'e' ||
                  s[p] == 'E' || s[p] == '+' || s[p] == '-' ||
                  (s[p] >= 'a' && s[p] <= 'z') ||
                  (s[p] >= 'A' && s[p] <= 'Z')))
        return 0;
    return p;
}

/* Whether jansson holds the number as it is (an integer within 64 bits,
 * a real within a double's range). */
static bool jansson_holds(const char *s, size_t n, bool integral)
{
    char buf[400];
    if (n >= sizeof buf)
        return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    errno = 0;
    if (integral) {
        (void)strtoll(buf, NULL, 10);
        return errno == 0;
    }
    double d = strtod(buf, NULL);
    return errno != ERANGE || (d != HUGE_VAL && d != -HUGE_VAL);
}

/*
 * Copies s[0..n) with every number outside strings checked by the grammar
 * and replaced: by 0 when `all`, else only those jansson cannot hold, by
 * null. False if a number breaks the grammar.
 */
static bool tame_numbers(const char *s, size_t n, bool all, char **out,
                         size_t *out_len)
{
    char *d = malloc(n * 4 + 1);
    FZ_CHECK(d != NULL, "out of memory");
    size_t k = 0;
    size_t p = 0;
    while (p < n) {
        char c = s[p];
        if (c == '"') {
            d[k++] = s[p++];
            while (p < n && s[p] != '"') {
                /* jansson refuses \u0000 in a key, which is JSON; for
                 * the check it becomes \u0001. */
                if (all && n - p >= 6 && memcmp(s + p, "\\u0000", 6) == 0) {
                    memcpy(d + k, "\\u0001", 6);
                    k += 6;
                    p += 6;
                    continue;
                }
                if (s[p] == '\\' && p + 1 < n)
                    d[k++] = s[p++];
                d[k++] = s[p++];
            }
            if (p < n)
                d[k++] = s[p++];
        } else if (c == '\0') {
            /* jansson skips one after a number or a literal. */
            free(d);
            return false;
        } else if (c == '-' || is_digit(c)) {
            bool integral;
            size_t len = number_len(s + p, n - p, &integral);
            if (len == 0) {
                free(d);
                return false;
            }
            if (all) {
                d[k++] = '0';
            } else if (jansson_holds(s + p, len, integral)) {
                memcpy(d + k, s + p, len);
                k += len;
            } else {
                memcpy(d + k, "null", 4);
                k += 4;
            }
            p += len;
        } else {
            d[k++] = s[p++];
        }
    }
    d[k] = '\0';
    *out = d;
    *out_len = k;
    return true;
}

static const size_t json_flags = JSON_DECODE_ANY | JSON_ALLOW_NUL;

bool fz_json_valid(const char *s, size_t n)
{
    char *t;
    size_t tn;
    if (!tame_numbers(s, n, true, &t, &tn))
        return false;
    json_error_t jerr;
    json_t *j = json_loadb(t, tn, json_flags, &jerr);
    free(t);
    bool ok = j != NULL;
    json_decref(j);
    return ok;
}

json_t *fz_json_parse(const char *s, size_t n, size_t flags)
{
    char *t;
    size_t tn;
    if (!tame_numbers(s, n, false, &t, &tn))
        return NULL;
    json_error_t jerr;
    json_t *j = json_loadb(t, tn, json_flags | flags, &jerr);
    free(t);
    return j;
}

size_t fz_json_depth(const char *s, size_t n)
{
    size_t depth = 0, most = 0;
    for (size_t p = 0; p < n; p++) {
        if (s[p] == '"') {
            for (p++; p < n && s[p] != '"'; p++)
                if (s[p] == '\\')
                    p++;
        } else if (s[p] == '[' || s[p] == '{') {
            if (++depth > most)
                most = depth;
        } else if ((s[p] == ']' || s[p] == '}') && depth > 0) {
            depth--;
        }
    }
    return most;
}
