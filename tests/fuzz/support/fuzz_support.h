/*
 * fuzz_support.h: what the libFuzzer targets of tests/fuzz share.
 *
 * - A failed invariant aborts (FZ_CHECK), which libFuzzer reports as a
 *   crash and saves the input that caused it.
 * - Lakes live in fresh directories under $PIER_FUZZ_TMP (tests/fuzz/run.sh
 *   sets it to a directory of its own in /dev/shm), else /dev/shm, and are
 *   removed when the target exits normally.
 * - Engines are opened with PIER_DURABILITY_NORMAL and a fixed clock, so
 *   that a run depends on its inputs only.
 * - JSON is judged by jansson, with the number literals checked against
 *   RFC 8259's grammar here: jansson refuses integers beyond 64 bits and
 *   reals beyond a double, which are valid JSON (and which Pier writes for
 *   hugeints and infinities). A NUL byte outside strings is refused here
 *   too: jansson 2.14 skips one after a number or a literal. And jansson
 *   refuses the escape \u0000 in an object's key, which is JSON: for the
 *   check it is read as \u0001.
 */
#ifndef PIER_FUZZ_SUPPORT_H
#define PIER_FUZZ_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "pier.h"

/* The clock of every engine a target opens: 2026-03-01T10:00:00Z. */
#define FZ_NOW INT64_C(1772359200000000)

#if defined(__GNUC__)
#define FZ_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define FZ_PRINTF(f, a)
#endif

/* Reports a broken invariant and aborts. */
_Noreturn void fz_fail(const char *file, int line, const char *fmt, ...)
    FZ_PRINTF(3, 4);
#define FZ_CHECK(cond, ...)                                               \
    do {                                                                  \
        if (!(cond))                                                      \
            fz_fail(__FILE__, __LINE__, __VA_ARGS__);                     \
    } while (0)
/* A call that must succeed (setup, or a read of a lake known good). */
#define FZ_OK(call, err)                                                  \
    do {                                                                  \
        pier_status fz_rc_ = (call);                                      \
        FZ_CHECK(fz_rc_ == PIER_OK, "%s: %s: %s", #call,                  \
                 pier_status_tag(fz_rc_), (err)->message);                \
    } while (0)

/* ---- lakes ---- */

/* A new empty directory for `tag`, removed (with what is in it) at exit.
 * The string lives until exit. */
const char *fz_dir(const char *tag);
/* Opens (creating) the lake in `dir` with the targets' options. */
pier_engine *fz_open(const char *dir);
/* The options fz_open uses, for a target that changes one. */
pier_open_options fz_open_options(void);
/* Closes *e, removes the lake in `dir` and opens a fresh one there. */
void fz_reopen_empty(pier_engine **e, const char *dir);
/* Counts a call; every `every` calls, fz_reopen_empty (and returns
 * true): a target that writes on every input keeps its lake small over
 * millions of them. */
bool fz_recycle(pier_engine **e, const char *dir, unsigned every);
/* The lake's head, read from the lake. */
int64_t fz_head(pier_engine *e);

/* ---- inputs ---- */

/* A NUL-terminated copy of the input, for APIs that take C strings
 * (malloc'ed; free it). */
char *fz_strndup(const uint8_t *data, size_t size);
/* Whether `hay` contains `needle`, found by a rolling hash so that no
 * comparison with the needle's bytes happens before a match: libFuzzer
 * learns the operands of memcmp, strstr and memmem, and must not learn a
 * planted secret from the check that looks for it. */
bool fz_contains(const char *hay, size_t n, const char *needle, size_t m);

/* ---- JSON ---- */

/*
 * Whether s[0..n) is one JSON text (RFC 8259): any value, white space
 * around it, strings with any escapes (\u0000 included). Numbers are
 * checked against the grammar here, then the structure by jansson.
 */
bool fz_json_valid(const char *s, size_t n);
/* The same, parsed by jansson with `flags` (JSON_REJECT_DUPLICATES...)
 * added: NULL if invalid. Numbers beyond what jansson holds become null.
 * Release with json_decref. */
json_t *fz_json_parse(const char *s, size_t n, size_t flags);
/* How deeply arrays and objects nest in a JSON text (strings skipped). */
size_t fz_json_depth(const char *s, size_t n);

#endif /* PIER_FUZZ_SUPPORT_H */
