/*
 * feed_model.c: see feed_model.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "support/feed_model.h"
#include "types/types.h"

/* ------------------------------------------------------------------ */
/* Small text buffer                                                    */

typedef struct sbuf {
    char *p;
    size_t len, cap;
} sbuf;

static void sb_add(sbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        assert_non_null(p);
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void sb_puts(sbuf *b, const char *s) { sb_add(b, s, strlen(s)); }

/* ------------------------------------------------------------------ */
/* JSON helpers                                                         */

/* `s` with every integer literal outside int64 turned into the string
 * "#i128:DIGITS". Strings are copied untouched. For free(). */
static char *quote_huge(const char *s, size_t n)
{
    sbuf b = { 0 };
    sb_add(&b, "", 0);
    size_t i = 0;
    while (i < n) {
        char c = s[i];
        if (c == '"') {
            size_t j = i + 1;
            while (j < n && s[j] != '"')
                j += s[j] == '\\' ? 2 : 1;
            j = j < n ? j + 1 : n;
            sb_add(&b, s + i, j - i);
            i = j;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            size_t j = i + 1;
            bool integer = true;
            while (j < n && strchr("0123456789.eE+-", s[j]) != NULL) {
                if (strchr(".eE", s[j]) != NULL)
                    integer = false;
                j++;
            }
            bool huge = false;
            if (integer) {
                char tmp[64];
                size_t k = j - i < sizeof tmp - 1 ? j - i : sizeof tmp - 1;
                memcpy(tmp, s + i, k);
                tmp[k] = '\0';
                errno = 0;
                (void)strtoll(tmp, NULL, 10);
                huge = errno == ERANGE || j - i >= sizeof tmp - 1;
            }
            if (huge) {
                sb_puts(&b, "\"" FM_HUGE_PREFIX);
                sb_add(&b, s + i, j - i);
                sb_puts(&b, "\"");
            } else {
                sb_add(&b, s + i, j - i);
            }
            i = j;
        } else {
            sb_add(&b, s + i, 1);
            i++;
        }
    }
    return b.p;
}

json_t *fm_parse(const char *s, size_t n)
{
    char *q = quote_huge(s, n);
    json_error_t jerr;
    json_t *v = json_loads(q, JSON_DECODE_ANY, &jerr);
    if (v == NULL)
        fail_msg("not JSON (%s): %s", jerr.text, q);
    free(q);
    return v;
}

static bool is_huge(const json_t *v)
{
    return json_is_string(v) &&
           strncmp(json_string_value(v), FM_HUGE_PREFIX,
                   strlen(FM_HUGE_PREFIX)) == 0;
}

static void escape_string(sbuf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    sb_puts(b, "\"");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': sb_puts(b, "\\\""); break;
        case '\\': sb_puts(b, "\\\\"); break;
        case '\n': sb_puts(b, "\\n"); break;
        case '\r': sb_puts(b, "\\r"); break;
        case '\t': sb_puts(b, "\\t"); break;
        case '\b': sb_puts(b, "\\b"); break;
        case '\f': sb_puts(b, "\\f"); break;
        default:
            if (c < 0x20) {
                char u[7] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15],
                              0 };
                sb_puts(b, u);
            } else {
                sb_add(b, (const char *)&s[i], 1);
            }
        }
    }
    sb_puts(b, "\"");
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A document as canonical JSON: compact, keys sorted by bytes, integers as
 * digits, reals as pier__double_format writes them. */
static void canonical(sbuf *b, const json_t *v)
{
    char num[64];
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        size_t n = json_object_size(v), i = 0;
        const char **keys = calloc(n ? n : 1, sizeof *keys);
        assert_non_null(keys);
        const char *k;
        json_t *m;
        json_object_foreach((json_t *)v, k, m)
            keys[i++] = k;
        qsort(keys, n, sizeof *keys, cmp_str);
        sb_puts(b, "{");
        for (i = 0; i < n; i++) {
            if (i > 0)
                sb_puts(b, ",");
            escape_string(b, keys[i], strlen(keys[i]));
            sb_puts(b, ":");
            canonical(b, json_object_get(v, keys[i]));
        }
        sb_puts(b, "}");
        free(keys);
        break;
    }
    case JSON_ARRAY:
        sb_puts(b, "[");
        for (size_t i = 0; i < json_array_size(v); i++) {
            if (i > 0)
                sb_puts(b, ",");
            canonical(b, json_array_get(v, i));
        }
        sb_puts(b, "]");
        break;
    case JSON_STRING:
        if (is_huge(v))
            sb_puts(b, json_string_value(v) + strlen(FM_HUGE_PREFIX));
        else
            escape_string(b, json_string_value(v), json_string_length(v));
        break;
    case JSON_INTEGER:
        snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT,
                 json_integer_value(v));
        sb_puts(b, num);
        break;
    case JSON_REAL: {
        char d[PIER__DOUBLE_BUF];
        pier__double_format(json_real_value(v), d);
        sb_puts(b, d);
        break;
    }
    case JSON_TRUE: sb_puts(b, "true"); break;
    case JSON_FALSE: sb_puts(b, "false"); break;
    case JSON_NULL: sb_puts(b, "null"); break;
    }
}

/* A value of a column of type `from` re-rendered as the canonical text
 * that widening to text stores. New reference. */
json_t *fm_as_text(const json_t *v, const char *from)
{
    char num[PIER__DOUBLE_BUF + 32];
    switch (json_typeof(v)) {
    case JSON_STRING:
        if (is_huge(v))
            return json_string(json_string_value(v) + strlen(FM_HUGE_PREFIX));
        return json_incref((json_t *)v);          /* text, timestamp */
    case JSON_INTEGER:
        snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT,
                 json_integer_value(v));
        return json_string(num);
    case JSON_REAL:
        if (strcmp(from, "float") == 0)
            pier__float_format((float)json_real_value(v), num);
        else
            pier__double_format(json_real_value(v), num);
        return json_string(num);
    case JSON_TRUE: return json_string("true");
    case JSON_FALSE: return json_string("false");
    case JSON_NULL: return json_null();
    default: {
        sbuf b = { 0 };
        canonical(&b, v);
        json_t *s = json_string(b.p);
        free(b.p);
        return s;
    }
    }
}

static bool is_real_type(const char *type)
{
    return type != NULL &&
           (strcmp(type, "double") == 0 || strcmp(type, "float") == 0);
}

/* A value as a column of this type holds it: integers (and hugeints) in a
 * double column are reals. New reference. */
json_t *fm_normalize(const json_t *v, const char *type)
{
    if (is_real_type(type)) {
        if (json_is_integer(v))
            return json_real((double)json_integer_value(v));
        if (is_huge(v))
            return json_real(strtod(json_string_value(v) +
                                    strlen(FM_HUGE_PREFIX), NULL));
    }
    return json_incref((json_t *)v);
}

void fm_format_micros(int64_t us, char out[96])
{
    time_t sec = (time_t)(us / 1000000);
    int64_t frac = us % 1000000;
    if (frac < 0) {
        frac += 1000000;
        sec -= 1;
    }
    struct tm tm;
    gmtime_r(&sec, &tm);
    snprintf(out, 96, "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ",
             tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
             tm.tm_min, tm.tm_sec, (int)frac);
}

char *fm_dump(const json_t *v)
{
    return json_dumps(v, JSON_SORT_KEYS | JSON_ENCODE_ANY | JSON_COMPACT);
}

/* ------------------------------------------------------------------ */
/* The board rebuilt from the feed                                      */


void fm_init(fm_board *m, const char *board)
{
    memset(m, 0, sizeof *m);
    m->board = board;
    m->rows = json_object();
    m->types = json_object();
    assert_non_null(m->rows);
    assert_non_null(m->types);
}

void fm_free(fm_board *m)
{
    json_decref(m->rows);
    json_decref(m->types);
}

const char *fm_type_of(const fm_board *m, const char *column)
{
    const json_t *t = json_object_get(m->types, column);
    if (t == NULL)
        fail_msg("record names column '%s', which no schema record "
                 "declared", column);
    return json_string_value(t);
}

/* Sets (or, for null, clears) a column of a rebuilt row. */
static void set_cell(fm_board *m, json_t *row, const char *column,
                     const json_t *v)
{
    const char *type = fm_type_of(m, column);
    if (json_is_null(v))
        json_object_del(row, column);
    else
        assert_int_equal(json_object_set_new(row, column,
                                             fm_normalize(v, type)), 0);
}

static void stamp(json_t *row, int64_t committed_at)
{
    char ts[96];
    fm_format_micros(committed_at, ts);
    assert_int_equal(json_object_set_new(row, "updated_at", json_string(ts)),
                     0);
}

static void schema_column(fm_board *m, const json_t *col)
{
    const char *name = json_string_value(json_object_get(col, "name"));
    const char *type = json_string_value(json_object_get(col, "type"));
    assert_non_null(name);
    assert_non_null(type);
    assert_true(json_is_integer(json_object_get(col, "id")));
    assert_int_equal(json_object_set_new(m->types, name, json_string(type)),
                     0);
}

static void apply_schema(fm_board *m, const json_t *p)
{
    const char *op = json_string_value(json_object_get(p, "op"));
    assert_non_null(op);
    if (m->dropped && strcmp(op, "create_board") != 0)
        fail_msg("schema record '%s' follows the drop of board '%s'", op,
                 m->board);
    if (strcmp(op, "create_board") == 0) {
        json_t *cols = json_object_get(p, "columns");
        assert_true(json_is_array(cols));
        json_object_clear(m->types);
        json_object_clear(m->rows);
        for (size_t i = 0; i < json_array_size(cols); i++)
            schema_column(m, json_array_get(cols, i));
        m->created = true;
        m->dropped = false;
    } else if (strcmp(op, "add_column") == 0) {
        json_t *col = json_object_get(p, "column");
        const char *name = json_string_value(json_object_get(col, "name"));
        assert_non_null(name);
        assert_null(json_object_get(m->types, name));
        schema_column(m, col);
    } else if (strcmp(op, "widen_column") == 0) {
        json_t *col = json_object_get(p, "column");
        const char *name = json_string_value(json_object_get(col, "name"));
        const char *to = json_string_value(json_object_get(col, "type"));
        const char *from = json_string_value(json_object_get(p, "from"));
        assert_non_null(name);
        assert_non_null(to);
        assert_non_null(from);
        assert_string_equal(fm_type_of(m, name), from);
        schema_column(m, col);
        const char *id;
        json_t *row;
        json_object_foreach(m->rows, id, row) {
            json_t *v = json_object_get(row, name);
            if (v == NULL)
                continue;
            json_t *w = strcmp(to, "text") == 0 ? fm_as_text(v, from)
                                                : fm_normalize(v, to);
            assert_int_equal(json_object_set_new(row, name, w), 0);
        }
    } else {
        fail_msg("unknown schema op '%s'", op);
    }
}

/* A complete row from an insert or upsert record. New reference. */
static json_t *whole_row(fm_board *m, const json_t *src, int64_t at)
{
    assert_true(json_is_object(src));
    assert_true(json_is_string(json_object_get(src, "id")));
    assert_null(json_object_get(src, "updated_at"));
    json_t *row = json_object();
    assert_non_null(row);
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)src, k, v) {
        if (json_is_null(v))
            fail_msg("a row in a record holds a null (column '%s')", k);
        set_cell(m, row, k, v);
    }
    stamp(row, at);
    return row;
}

/* pier_change_to_json says the same as the struct. */
static void check_record_json(const pier_change *c)
{
    char *text = pier_change_to_json(c);
    assert_non_null(text);
    json_t *r = fm_parse(text, strlen(text));
    pier_free(text);
    assert_int_equal(json_integer_value(json_object_get(r, "watermark")),
                     c->watermark);
    assert_string_equal(json_string_value(json_object_get(r, "board")),
                        c->board);
    assert_string_equal(json_string_value(json_object_get(r, "kind")),
                        c->kind);
    char at[96];
    fm_format_micros(c->committed_at, at);
    assert_string_equal(json_string_value(json_object_get(r,
                                                          "committed_at")),
                        at);
    json_t *p = fm_parse(c->payload, c->payload_len);
    assert_true(json_equal(p, json_object_get(r, "payload")));
    json_decref(p);
    json_decref(r);
}

void fm_apply(fm_board *m, const pier_change *c)
{
    check_record_json(c);
    assert_string_equal(c->board, m->board);
    assert_true(c->watermark > m->last);
    assert_int_equal(strlen(c->payload), c->payload_len);
    /* A dropped board's feed goes on only with its creation again. */
    if (m->dropped && strcmp(c->kind, "schema") != 0)
        fail_msg("record %lld (%s) follows the drop of board '%s'",
                 (long long)c->watermark, c->kind, m->board);
    m->last = c->watermark;
    m->records++;
    if (m->first_at == 0)
        m->first_at = c->committed_at;
    else if (m->first_at != c->committed_at)
        m->same_at = false;
    json_t *p = fm_parse(c->payload, c->payload_len);
    assert_true(json_is_object(p));
    if (strcmp(c->kind, "schema") == 0) {
        apply_schema(m, p);
    } else if (strcmp(c->kind, "insert") == 0 ||
               strcmp(c->kind, "upsert") == 0) {
        bool insert = strcmp(c->kind, "insert") == 0;
        json_t *rows = json_object_get(p, "rows");
        assert_true(json_is_array(rows));
        assert_true(json_array_size(rows) > 0);
        for (size_t i = 0; i < json_array_size(rows); i++) {
            json_t *src = json_array_get(rows, i);
            const char *id = json_string_value(json_object_get(src, "id"));
            assert_non_null(id);
            if (insert && json_object_get(m->rows, id) != NULL)
                fail_msg("insert record for row '%s', which is there", id);
            assert_int_equal(json_object_set_new(
                                 m->rows, id,
                                 whole_row(m, src, c->committed_at)), 0);
        }
    } else if (strcmp(c->kind, "update") == 0) {
        const char *id = json_string_value(json_object_get(p, "id"));
        json_t *patch = json_object_get(p, "patch");
        assert_non_null(id);
        assert_true(json_is_object(patch));
        json_t *row = json_object_get(m->rows, id);
        if (row == NULL)
            fail_msg("update record for row '%s', which is not there", id);
        const char *k;
        json_t *v;
        json_object_foreach(patch, k, v) {
            if (strcmp(k, "id") == 0) {
                assert_string_equal(json_string_value(v), id);
                continue;
            }
            assert_string_not_equal(k, "updated_at");
            set_cell(m, row, k, v);
        }
        stamp(row, c->committed_at);
    } else if (strcmp(c->kind, "delete") == 0) {
        json_t *ids = json_object_get(p, "ids");
        assert_true(json_is_array(ids));
        assert_true(json_array_size(ids) > 0);
        for (size_t i = 0; i < json_array_size(ids); i++) {
            const char *id = json_string_value(json_array_get(ids, i));
            assert_non_null(id);
            json_object_del(m->rows, id);
        }
    } else if (strcmp(c->kind, "truncate") == 0) {
        assert_int_equal(json_object_size(p), 0);
        json_object_clear(m->rows);
    } else if (strcmp(c->kind, "drop") == 0) {
        assert_true(json_is_true(json_object_get(p, "drop")));
        json_object_clear(m->rows);
        json_object_clear(m->types);
        m->dropped = true;
    } else {
        fail_msg("unknown record kind '%s'", c->kind);
    }
    json_decref(p);
}

void fm_apply_page(fm_board *m, const pier_changes_page *page)
{
    assert_false(page->resync);
    for (size_t i = 0; i < page->nrecords; i++)
        fm_apply(m, &page->records[i]);
    if (page->nrecords > 0)
        assert_int_equal(page->next, page->records[page->nrecords - 1]
                                         .watermark);
    assert_true(page->next >= m->after);
    m->after = page->next;
}

/* Starts counting whether the next records share one committed_at. */
void fm_mark(fm_board *m)
{
    m->first_at = 0;
    m->same_at = true;
}

/* ------------------------------------------------------------------ */
/* What the engine stores                                               */

typedef struct collected {
    char **rows;
    size_t n, cap;
    bool oom;
} collected;

static int collect(const pier_row *row, void *payload)
{
    collected *c = payload;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 16;
        char **p = realloc(c->rows, cap * sizeof *p);
        if (p == NULL) {
            c->oom = true;
            return 1;
        }
        c->rows = p;
        c->cap = cap;
    }
    char *s = pier_row_to_json(row);
    if (s == NULL) {
        c->oom = true;
        return 1;
    }
    c->rows[c->n++] = s;
    return 0;
}

/* The board's columns and types as the engine describes them. */
json_t *fm_stored_types(pier_engine *e, const char *board)
{
    pier_board_info *info = NULL;
    pier_error err;
    assert_int_equal(pier_board_describe(&info, e, board, &err), PIER_OK);
    json_t *t = json_object();
    for (size_t i = 0; i < info->ncolumns; i++)
        json_object_set_new(t, info->columns[i].name,
                            json_string(info->columns[i].type));
    pier_board_info_free(info);
    return t;
}

/* The board's rows as the engine stores them: id -> row, nulls left out,
 * each value as its column's type holds it. */
json_t *fm_stored_rows(pier_engine *e, const char *board,
                       const json_t *types)
{
    collected c = { 0 };
    pier_error err;
    assert_int_equal(pier_board_scan(e, board, collect, &c, &err), PIER_OK);
    assert_false(c.oom);
    json_t *rows = json_object();
    for (size_t i = 0; i < c.n; i++) {
        json_t *r = fm_parse(c.rows[i], strlen(c.rows[i]));
        pier_free(c.rows[i]);
        json_t *row = json_object();
        const char *k;
        json_t *v;
        size_t ncols = 0;
        json_object_foreach(r, k, v) {
            ncols++;
            const json_t *type = json_object_get(types, k);
            if (type == NULL)
                fail_msg("a stored row has column '%s', which the board "
                         "does not describe", k);
            if (!json_is_null(v))
                json_object_set_new(row, k,
                                    fm_normalize(v, json_string_value(type)));
        }
        assert_int_equal(ncols, json_object_size(types));
        const char *id = json_string_value(json_object_get(r, "id"));
        assert_non_null(id);
        assert_null(json_object_get(rows, id));
        json_object_set_new(rows, id, row);
        json_decref(r);
    }
    free(c.rows);
    return rows;
}

/* The rebuilt board equals the stored one: same columns and types, same
 * ids, same values (updated_at included). */
void fm_compare(fm_board *m, pier_engine *e, const char *when)
{
    bool has = false;
    pier_error err;
    assert_int_equal(pier_board_has(&has, e, m->board, &err), PIER_OK);
    if (m->dropped || !m->created) {
        if (has)
            fail_msg("%s: board '%s' is stored, but its feed %s", when,
                     m->board, m->dropped ? "dropped it" : "never made it");
        return;
    }
    if (!has)
        fail_msg("%s: board '%s' is not stored, but its feed made it", when,
                 m->board);
    json_t *types = fm_stored_types(e, m->board);
    if (!json_equal(types, m->types)) {
        char *a = fm_dump(m->types), *b = fm_dump(types);
        print_error("%s: columns from the feed %s\n   stored %s\n", when, a,
                    b);
        free(a);
        free(b);
        fail();
    }
    json_t *rows = fm_stored_rows(e, m->board, types);
    if (!json_equal(rows, m->rows)) {
        const char *id;
        json_t *row;
        json_object_foreach(rows, id, row) {
            json_t *mine = json_object_get(m->rows, id);
            if (mine != NULL && json_equal(mine, row))
                continue;
            char *a = mine ? fm_dump(mine) : NULL, *b = fm_dump(row);
            print_error("%s: row '%s'\n  from the feed %s\n  stored %s\n",
                        when, id, a ? a : "(absent)", b);
            free(a);
            free(b);
        }
        json_object_foreach(m->rows, id, row) {
            if (json_object_get(rows, id) == NULL) {
                char *a = fm_dump(row);
                print_error("%s: row '%s' from the feed %s is not stored\n",
                            when, id, a);
                free(a);
            }
        }
        fail_msg("%s: the board rebuilt from the feed differs from the "
                 "stored board", when);
    }
    int64_t count = 0;
    assert_int_equal(pier_row_count(&count, e, m->board, &err), PIER_OK);
    assert_int_equal(count, (int64_t)json_object_size(m->rows));
    json_decref(rows);
    json_decref(types);
}

