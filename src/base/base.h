/*
 * base.h: small pieces every layer shares: the error struct's helpers,
 * growable buffers, a bump arena, UTF-8 checks, the clock, randomness.
 *
 * Library-internal names start with pier__. Nothing here does I/O beyond
 * reading the system clock and the kernel's random bytes.
 */
#ifndef PIER_BASE_H
#define PIER_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pier.h"

#if defined(__GNUC__)
#define PIER__PRINTF(f, a) __attribute__((format(printf, f, a)))
#define PIER__UNUSED __attribute__((unused))
#else
#define PIER__PRINTF(f, a)
#define PIER__UNUSED
#endif

/* A 128-bit signed integer for internal arithmetic. __extension__ keeps
 * -Wpedantic quiet: gcc and clang support it on every 64-bit target. */
__extension__ typedef __int128 pier__i128;
__extension__ typedef unsigned __int128 pier__u128;

/* ---- errors (status.c, error.c) ---- */

/*
 * Fills `err` (which may be NULL) with `status`, its tag and a formatted
 * message; clears the structured fields. Returns `status`, so that a caller
 * can write `return pier__fail(err, PIER_E_..., "...")`.
 */
pier_status pier__fail(pier_error *err, pier_status status, const char *fmt,
                       ...) PIER__PRINTF(3, 4);
pier_status pier__failv(pier_error *err, pier_status status, const char *fmt,
                        va_list ap) PIER__PRINTF(3, 0);
/* Sets structured fields after pier__fail; NULL-safe, NULL value ignored. */
void pier__error_board(pier_error *err, const char *board);
void pier__error_column(pier_error *err, const char *column);
void pier__error_types(pier_error *err, const char *column_type,
                       const char *value_type);
/* Resets `err` to "no error" (status PIER_OK, tag "OK"). */
void pier__error_clear(pier_error *err);
/* Out of memory: needs no allocation to report. */
pier_status pier__oom(pier_error *err);

/* ---- buffers (buf.c) ---- */

/* A growable byte buffer, always NUL-terminated once anything was added.
 * `oom` latches the first allocation failure; later appends do nothing. */
typedef struct pier__buf {
    char *p;
    size_t len;
    size_t cap;
    bool oom;
} pier__buf;

void pier__buf_init(pier__buf *b);
void pier__buf_free(pier__buf *b);
void pier__buf_reset(pier__buf *b);            /* len = 0, keeps memory */
bool pier__buf_reserve(pier__buf *b, size_t extra);
void pier__buf_append(pier__buf *b, const void *p, size_t n);
void pier__buf_puts(pier__buf *b, const char *s);
void pier__buf_putc(pier__buf *b, char c);
void pier__buf_printf(pier__buf *b, const char *fmt, ...) PIER__PRINTF(2, 3);
void pier__buf_vprintf(pier__buf *b, const char *fmt, va_list ap)
    PIER__PRINTF(2, 0);
/* Appends `s` as a JSON string literal, quotes included. A byte that is
 * not part of well-formed UTF-8 becomes U+FFFD, so that the output is
 * always valid JSON. */
void pier__buf_json_string(pier__buf *b, const char *s, size_t n);
/* Hands the buffer's memory to the caller (for pier_free); NULL on OOM. */
char *pier__buf_detach(pier__buf *b);

/* ---- arena (arena.c) ---- */

/* A bump allocator: many small allocations, freed together. */
typedef struct pier__arena_block pier__arena_block;
typedef struct pier__arena {
    pier__arena_block *head;
} pier__arena;

void pier__arena_init(pier__arena *a);
void pier__arena_free(pier__arena *a);
void pier__arena_reset(pier__arena *a);        /* frees all but one block */
void *pier__arena_alloc(pier__arena *a, size_t n);   /* 8-aligned; NULL=OOM */
char *pier__arena_strndup(pier__arena *a, const char *s, size_t n);
/* Room for one more of `size`-byte items in an array of the arena holding
 * n of them in *cap: the array itself, or when full a copy twice as large
 * (the old one stays in the arena, unused; doubling bounds that waste by
 * what is kept). NULL when out of memory. */
void *pier__arena_grow(pier__arena *a, void *items, size_t n, size_t *cap,
                       size_t size);

/* ---- UTF-8 and names (utf8.c) ---- */

/* The length of the well-formed UTF-8 sequence at the start of s[0..n) (1
 * for ASCII), or 0 if there is none: no overlongs, no surrogates, nothing
 * beyond U+10FFFF. */
size_t pier__utf8_seq(const char *s, size_t n);
/* Whether s[0..n) is well-formed UTF-8 (no overlongs, no surrogates). */
bool pier__utf8_valid(const char *s, size_t n);
/* ASCII case-insensitive equality of two byte strings, as SQLite compares
 * identifiers. */
bool pier__name_eq(const char *a, size_t an, const char *b, size_t bn);
/* strdup/strndup that report failure as NULL. */
char *pier__strdup(const char *s);
char *pier__strndup(const char *s, size_t n);
/* Copies `src` into a fixed field, truncating at a UTF-8 boundary. */
void pier__copy_field(char *dst, size_t cap, const char *src);

/* ---- numbers in the "C" locale (cnum.c) ---- */

/* strtod, strtof and snprintf reading and writing '.' as the decimal
 * point whatever locale the application set (setlocale, uselocale). */
double pier__strtod(const char *s, char **end);
float pier__strtof(const char *s, char **end);
int pier__snprintf_c(char *buf, size_t size, const char *fmt, ...)
    PIER__PRINTF(3, 4);

/* ---- clock (clock.c) ---- */

/* The system clock: microseconds since the Unix epoch, UTC. */
int64_t pier__clock_system(void *payload);
/* A clock that never steps back, in microseconds from an arbitrary
 * origin, at the resolution of the kernel's tick (milliseconds): for
 * measuring how long something took. */
int64_t pier__clock_monotonic(void);

/* ---- directories (fs.c) ---- */

/* Makes `dir` and its missing parents (mode `mode`, less the umask), as
 * mkdir -p does; one that exists is no error. @return 0, or the errno of
 * the step that failed. */
int pier__mkdir_p(const char *dir, unsigned mode);

/* ---- randomness (random.c) ---- */

/* Fills buf with n bytes from the kernel's cryptographic generator
 * (getrandom(2), else /dev/urandom); false if neither gives them. */
bool pier__random_bytes(void *buf, size_t n);

#endif /* PIER_BASE_H */
