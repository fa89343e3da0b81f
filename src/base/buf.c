/*
 * buf.c: growable byte buffers. A buffer latches its first allocation
 * failure in `oom`, so that a long run of appends is checked once at the
 * end instead of after every call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

void pier__buf_init(pier__buf *b)
{
    b->p = NULL;
    b->len = 0;
    b->cap = 0;
    b->oom = false;
}

void pier__buf_free(pier__buf *b)
{
    free(b->p);
    pier__buf_init(b);
}

void pier__buf_reset(pier__buf *b)
{
    b->len = 0;
    b->oom = false;
    if (b->p != NULL)
        b->p[0] = '\0';
}

bool pier__buf_reserve(pier__buf *b, size_t extra)
{
    if (b->oom)
        return false;
    if (extra < b->cap - b->len)      /* room for extra bytes and the NUL */
        return true;
    size_t need = b->len + extra + 1;
    if (need < b->len) {
        b->oom = true;
        return false;
    }
    size_t cap = b->cap < 64 ? 64 : b->cap;
    while (cap < need)
        cap = cap * 2 > cap ? cap * 2 : need;
    char *p = realloc(b->p, cap);
    if (p == NULL) {
        b->oom = true;
        return false;
    }
    b->p = p;
    b->cap = cap;
    return true;
}

void pier__buf_append(pier__buf *b, const void *p, size_t n)
{
    if (!pier__buf_reserve(b, n))
        return;
    if (n > 0)
        memcpy(b->p + b->len, p, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void pier__buf_puts(pier__buf *b, const char *s)
{
    pier__buf_append(b, s, strlen(s));
}

void pier__buf_putc(pier__buf *b, char c)
{
    pier__buf_append(b, &c, 1);
}

void pier__buf_vprintf(pier__buf *b, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n < 0 || !pier__buf_reserve(b, (size_t)n)) {
        b->oom = true;
        va_end(again);
        return;
    }
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, again);
    va_end(again);
    b->len += (size_t)n;
}

void pier__buf_printf(pier__buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pier__buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void pier__buf_json_string(pier__buf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    /* Worst case every byte becomes \u00XX; reserve the common case. */
    if (!pier__buf_reserve(b, n + 2))
        return;
    pier__buf_putc(b, '"');
    size_t run = 0;                   /* bytes copied verbatim, pending */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80) {
            /* Valid UTF-8 goes as it is; a byte that is none becomes
             * U+FFFD, so that the output is always valid JSON (a TEXT
             * value of SQLite may hold any bytes). */
            size_t k = pier__utf8_seq(s + i, n - i);
            if (k > 0) {
                i += k - 1;
                continue;
            }
            pier__buf_append(b, s + run, i - run);
            pier__buf_append(b, "\xef\xbf\xbd", 3);
            run = i + 1;
            continue;
        }
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        pier__buf_append(b, s + run, i - run);
        run = i + 1;
        switch (c) {
        case '"': pier__buf_append(b, "\\\"", 2); break;
        case '\\': pier__buf_append(b, "\\\\", 2); break;
        case '\n': pier__buf_append(b, "\\n", 2); break;
        case '\r': pier__buf_append(b, "\\r", 2); break;
        case '\t': pier__buf_append(b, "\\t", 2); break;
        case '\b': pier__buf_append(b, "\\b", 2); break;
        case '\f': pier__buf_append(b, "\\f", 2); break;
        default: {
            char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
            pier__buf_append(b, u, sizeof u);
        }
        }
    }
    pier__buf_append(b, s + run, n - run);
    pier__buf_putc(b, '"');
}

char *pier__buf_detach(pier__buf *b)
{
    if (b->oom || !pier__buf_reserve(b, 0)) {
        pier__buf_free(b);
        return NULL;
    }
    b->p[b->len] = '\0';
    char *p = b->p;
    pier__buf_init(b);
    return p;
}
