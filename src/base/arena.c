/*
 * arena.c: a bump allocator for the many small, short-lived pieces of one
 * write or one row (names, strings, rendered values), all freed together.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

/* 32 KiB blocks: a typical row of a few dozen short values fits in one, and
 * the waste at the end of a block stays small next to it. */
#define BLOCK_SIZE (32 * 1024)

struct pier__arena_block {
    pier__arena_block *next;
    size_t used;
    size_t cap;
    max_align_t data[];
};

void pier__arena_init(pier__arena *a)
{
    a->head = NULL;
}

void pier__arena_free(pier__arena *a)
{
    pier__arena_block *b = a->head;
    while (b != NULL) {
        pier__arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
}

void pier__arena_reset(pier__arena *a)
{
    pier__arena_block *keep = NULL;
    pier__arena_block *b = a->head;
    while (b != NULL) {
        pier__arena_block *next = b->next;
        if (keep == NULL && b->cap == BLOCK_SIZE) {
            keep = b;
            keep->next = NULL;
            keep->used = 0;
        } else {
            free(b);
        }
        b = next;
    }
    a->head = keep;
}

void *pier__arena_alloc(pier__arena *a, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    if (n == 0)
        n = 8;
    pier__arena_block *b = a->head;
    if (b == NULL || b->cap - b->used < n) {
        /* A request larger than a block gets a block of its own, placed
         * behind the current one so that the current one keeps filling. */
        size_t cap = n > BLOCK_SIZE ? n : BLOCK_SIZE;
        if (cap > SIZE_MAX - sizeof *b)
            return NULL;
        pier__arena_block *nb = malloc(sizeof *nb + cap);
        if (nb == NULL)
            return NULL;
        nb->used = 0;
        nb->cap = cap;
        if (cap > BLOCK_SIZE && b != NULL) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->head = nb;
        }
        b = nb;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    return p;
}

char *pier__arena_strndup(pier__arena *a, const char *s, size_t n)
{
    char *p = pier__arena_alloc(a, n + 1);
    if (p == NULL)
        return NULL;
    if (n > 0)
        memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void *pier__arena_grow(pier__arena *a, void *items, size_t n, size_t *cap,
                       size_t size)
{
    if (n < *cap)
        return items;
    size_t ncap = *cap > 0 ? *cap * 2 : 8;
    if (ncap > SIZE_MAX / size)
        return NULL;
    void *m = pier__arena_alloc(a, ncap * size);
    if (m == NULL)
        return NULL;
    if (n > 0)
        memcpy(m, items, n * size);
    *cap = ncap;
    return m;
}
