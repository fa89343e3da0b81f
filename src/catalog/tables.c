/*
 * tables.c: declared tables and their columns in memory, and the catalog's
 * list of them, sorted by name with ASCII case folded (SQL compares names
 * that way, so "Tasks" and "tasks" are one table); the commit triggers,
 * in the order they run.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"

static int fold(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int name_cmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int ca = fold((unsigned char)*a), cb = fold((unsigned char)*b);
        if (ca != cb || ca == 0)
            return ca - cb;
    }
}

pier__table *pier__table_new(const char *name)
{
    pier__table *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->name = pier__strdup(name);
    if (t->name == NULL) {
        free(t);
        return NULL;
    }
    return t;
}

static void column_release(pier__tcolumn *c)
{
    free(c->name);
    free(c->spelling);
    free(c->fill);
    free((char *)c->type.labels);
}

void pier__table_free(pier__table *t)
{
    if (t == NULL)
        return;
    for (size_t i = 0; i < t->ncolumns; i++)
        column_release(&t->columns[i]);
    free(t->columns);
    free(t->name);
    free(t);
}

pier__table *pier__table_clone(const pier__table *src)
{
    pier__table *t = pier__table_new(src->name);
    if (t == NULL)
        return NULL;
    t->id = src->id;
    for (size_t i = 0; i < src->ncolumns; i++) {
        const pier__tcolumn *c = &src->columns[i];
        if (!pier__table_append(t, c->name, c->spelling, c->readonly)) {
            pier__table_free(t);
            return NULL;
        }
        t->columns[i].id = c->id;
        t->columns[i].named = c->named;
        if (c->fill != NULL &&
            (t->columns[i].fill = pier__strdup(c->fill)) == NULL) {
            pier__table_free(t);
            return NULL;
        }
    }
    return t;
}

ptrdiff_t pier__table_find(const pier__table *t, const char *name)
{
    for (size_t i = 0; i < t->ncolumns; i++)
        if (name_cmp(t->columns[i].name, name) == 0)
            return (ptrdiff_t)i;
    return -1;
}

bool pier__table_append(pier__table *t, const char *name,
                        const char *spelling, bool readonly)
{
    pier__tcolumn c = { .readonly = readonly };
    pier__buf labels;
    pier__buf_init(&labels);
    bool ok = pier__sqltype_parse(spelling, strlen(spelling), &c.type.t,
                                  &labels, NULL) == NULL && !labels.oom;
    if (ok && c.type.t.base == PIER__B_ENUM) {
        /* The labels are NUL-terminated one after another; keep them all,
         * the last NUL included. */
        char *copy = malloc(labels.len + 1);
        ok = copy != NULL;
        if (ok) {
            memcpy(copy, labels.p, labels.len);
            copy[labels.len] = '\0';
            c.type.labels = copy;
        }
    }
    pier__buf_free(&labels);
    c.name = ok ? pier__strdup(name) : NULL;
    c.spelling = ok ? pier__strdup(spelling) : NULL;
    if (ok && t->ncolumns == t->cap) {
        size_t cap = t->cap == 0 ? 8 : t->cap * 2;
        pier__tcolumn *cols = realloc(t->columns, cap * sizeof *cols);
        if (cols != NULL) {
            t->columns = cols;
            t->cap = cap;
        }
    }
    if (c.name == NULL || c.spelling == NULL || t->ncolumns == t->cap) {
        column_release(&c);
        return false;
    }
    t->columns[t->ncolumns++] = c;
    return true;
}

/* The index where `name` is or would be inserted; *found says which. */
static size_t lower_bound(const pier__catalog *c, const char *name,
                          bool *found)
{
    size_t lo = 0, hi = c->ntables;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (name_cmp(c->tables[mid]->name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < c->ntables && name_cmp(c->tables[lo]->name, name) == 0;
    return lo;
}

pier__table *pier__catalog_find_table(const pier__catalog *c,
                                      const char *name)
{
    bool found;
    size_t i = lower_bound(c, name, &found);
    return found ? c->tables[i] : NULL;
}

bool pier__catalog_put_table(pier__catalog *c, pier__table *t)
{
    bool found;
    size_t i = lower_bound(c, t->name, &found);
    if (found) {
        pier__table_free(c->tables[i]);
        c->tables[i] = t;
        return true;
    }
    if (c->ntables == c->tables_cap) {
        size_t cap = c->tables_cap == 0 ? 16 : c->tables_cap * 2;
        pier__table **ts = realloc(c->tables, cap * sizeof *ts);
        if (ts == NULL) {
            pier__table_free(t);
            return false;
        }
        c->tables = ts;
        c->tables_cap = cap;
    }
    memmove(c->tables + i + 1, c->tables + i,
            (c->ntables - i) * sizeof *c->tables);
    c->tables[i] = t;
    c->ntables++;
    return true;
}

void pier__catalog_remove_table(pier__catalog *c, const char *name)
{
    bool found;
    size_t i = lower_bound(c, name, &found);
    if (!found)
        return;
    pier__table_free(c->tables[i]);
    memmove(c->tables + i, c->tables + i + 1,
            (c->ntables - i - 1) * sizeof *c->tables);
    c->ntables--;
}

/* ---- commit triggers ---- */

pier__commit_trigger *pier__trigger_new(const char *name, const char *sql,
                                        const char *const *tables,
                                        size_t ntables)
{
    size_t size = sizeof(pier__commit_trigger) + ntables * sizeof(char *);
    size_t strings = strlen(name) + 1 + strlen(sql) + 1;
    for (size_t i = 0; i < ntables; i++)
        strings += strlen(tables[i]) + 1;
    pier__commit_trigger *t = malloc(size + strings);
    if (t == NULL)
        return NULL;
    const char **list = (const char **)(t + 1);
    char *p = (char *)t + size;
    size_t n = strlen(name) + 1;
    t->name = memcpy(p, name, n);
    p += n;
    n = strlen(sql) + 1;
    t->sql = memcpy(p, sql, n);
    p += n;
    for (size_t i = 0; i < ntables; i++) {
        n = strlen(tables[i]) + 1;
        list[i] = memcpy(p, tables[i], n);
        p += n;
    }
    t->tables = ntables > 0 ? list : NULL;
    t->ntables = ntables;
    return t;
}

bool pier__catalog_put_trigger(pier__catalog *c, pier__commit_trigger *t)
{
    if (c->ntriggers == c->triggers_cap) {
        size_t cap = c->triggers_cap == 0 ? 4 : c->triggers_cap * 2;
        pier__commit_trigger **ts = realloc(c->triggers, cap * sizeof *ts);
        if (ts == NULL) {
            free(t);
            return false;
        }
        c->triggers = ts;
        c->triggers_cap = cap;
    }
    c->triggers[c->ntriggers++] = t;
    return true;
}

const pier__commit_trigger *pier__catalog_find_trigger(const pier__catalog *c,
                                                       const char *name)
{
    for (size_t i = 0; i < c->ntriggers; i++)
        if (name_cmp(c->triggers[i]->name, name) == 0)
            return c->triggers[i];
    return NULL;
}

bool pier__trigger_covers(const pier__commit_trigger *t, const char *name)
{
    if (t->ntables == 0)
        return true;
    for (size_t i = 0; i < t->ntables; i++)
        if (name_cmp(t->tables[i], name) == 0)
            return true;
    return false;
}
