/*
 * memrows.c: a result held in memory, handed out through a pier_cursor.
 *
 * pier_exec runs a whole script inside one write transaction before it
 * returns, so the rows of its last statement cannot stream from SQLite the
 * way a query's do: they are decoded as they are stepped and kept here,
 * each value's text and bytes copied into the result's arena.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

struct pier__memrows {
    size_t ncolumns;
    const char **names;        /* in the arena */
    const char **types;        /* in the arena; NULL entries: computed */
    pier_value *values;        /* nrows * ncolumns */
    size_t nrows;
    size_t cap;                /* rows `values` has room for */
    size_t next;               /* the next row to hand out */
    pier__arena arena;
    pier_row row;              /* the row handed out (its arena unused) */
    int64_t changes;
    size_t bytes;              /* what the rows take: values, texts and
                                  bytes (for the memory limit) */
};

pier__memrows *pier__memrows_new(size_t ncolumns)
{
    pier__memrows *m = calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    pier__arena_init(&m->arena);
    pier__arena_init(&m->row.arena);
    m->ncolumns = ncolumns;
    if (ncolumns > 0) {
        m->names = pier__arena_alloc(&m->arena,
                                     2 * ncolumns * sizeof *m->names);
        if (m->names == NULL) {
            pier__memrows_free(m);
            return NULL;
        }
        m->types = m->names + ncolumns;
        for (size_t i = 0; i < ncolumns; i++)
            m->names[i] = m->types[i] = NULL;
    }
    m->row.ncolumns = ncolumns;
    m->row.names = m->names;
    return m;
}

void pier__memrows_free(pier__memrows *m)
{
    if (m == NULL)
        return;
    pier__arena_free(&m->arena);
    free(m->values);
    free(m);
}

pier_status pier__memrows_column(pier__memrows *m, size_t i,
                                 const char *name, const char *type,
                                 pier_error *err)
{
    m->names[i] = pier__arena_strndup(&m->arena, name, strlen(name));
    m->types[i] = type != NULL
                      ? pier__arena_strndup(&m->arena, type, strlen(type))
                      : NULL;
    if (m->names[i] == NULL || (type != NULL && m->types[i] == NULL))
        return pier__oom(err);
    return PIER_OK;
}

pier_status pier__memrows_add(pier__memrows *m, const pier_value *values,
                              pier_error *err)
{
    if (m->nrows == m->cap) {
        size_t cap = m->cap == 0 ? 16 : m->cap * 2;
        pier_value *v = m->ncolumns > 0
            ? realloc(m->values, cap * m->ncolumns * sizeof *v)
            : m->values;
        if (m->ncolumns > 0 && v == NULL)
            return pier__oom(err);
        m->values = v;
        m->cap = cap;
    }
    pier_value *row = m->ncolumns > 0 ? m->values + m->nrows * m->ncolumns
                                      : NULL;
    for (size_t i = 0; i < m->ncolumns; i++) {
        row[i] = values[i];
        if (values[i].text != NULL) {
            char *t = pier__arena_strndup(&m->arena, values[i].text,
                                          values[i].len);
            if (t == NULL)
                return pier__oom(err);
            row[i].text = t;
        }
        if (values[i].kind == PIER_KIND_BLOB && values[i].as.blob.len > 0) {
            void *p = pier__arena_alloc(&m->arena, values[i].as.blob.len);
            if (p == NULL)
                return pier__oom(err);
            memcpy(p, values[i].as.blob.bytes, values[i].as.blob.len);
            row[i].as.blob.bytes = p;
            m->bytes += values[i].as.blob.len;
        }
        m->bytes += sizeof *row + (values[i].text != NULL
                                       ? values[i].len + 1 : 0);
    }
    m->nrows++;
    return PIER_OK;
}

size_t pier__memrows_bytes(const pier__memrows *m)
{
    return m->bytes;
}

void pier__memrows_set_changes(pier__memrows *m, int64_t changes)
{
    m->changes = changes;
}

int64_t pier__memrows_changes(const pier__memrows *m)
{
    return m->changes;
}

size_t pier__memrows_column_count(const pier__memrows *m)
{
    return m->ncolumns;
}

const char *pier__memrows_column_name(const pier__memrows *m, size_t i)
{
    return i < m->ncolumns ? m->names[i] : NULL;
}

const char *pier__memrows_column_type(const pier__memrows *m, size_t i)
{
    return i < m->ncolumns ? m->types[i] : NULL;
}

const pier_row *pier__memrows_next(pier__memrows *m)
{
    if (m->next == m->nrows)
        return NULL;
    m->row.values = m->ncolumns > 0 ? m->values + m->next * m->ncolumns
                                    : NULL;
    m->next++;
    return &m->row;
}
