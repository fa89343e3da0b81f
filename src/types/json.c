/*
 * json.c: validating a JSON document and writing its canonical form.
 *
 * Canonical means one text per document, so that equal documents compare
 * equal as bytes: no white space, object keys sorted by their bytes,
 * integers as digits, reals as pier__double_format writes them. jansson
 * parses; the writer here walks the tree itself because json_dumps prints
 * reals with a fixed 17 digits, not the shortest text.
 *
 * Integers beyond 64 bits are refused rather than rounded to a double:
 * a json value keeps its numbers exactly or not at all.
 *
 * pier__json_valid checks text read back from a lake without trusting it
 * (a byte-level pass of its own: jansson would refuse those integers).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "types/sqlcol.h"
#include "types/types.h"

typedef struct member {
    const char *key;
    size_t len;
    json_t *value;
} member;

/* Bytes order, a prefix before its extensions. */
static int member_cmp(const void *pa, const void *pb)
{
    const member *a = pa, *b = pb;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->key, b->key, n);
    if (c != 0)
        return c;
    return (a->len > b->len) - (a->len < b->len);
}

static bool write_value(pier__buf *out, json_t *v);

static bool write_object(pier__buf *out, json_t *obj)
{
    size_t count = json_object_size(obj);
    if (count == 0) {
        pier__buf_append(out, "{}", 2);
        return true;
    }
    member *m = malloc(count * sizeof *m);
    if (m == NULL)
        return false;
    size_t k = 0;
    const char *key;
    json_t *value;
    json_object_foreach(obj, key, value) {
        /* The parser refuses NUL bytes in keys, so strlen is the length. */
        m[k].key = key;
        m[k].len = strlen(key);
        m[k].value = value;
        k++;
    }
    qsort(m, k, sizeof *m, member_cmp);
    bool ok = true;
    pier__buf_putc(out, '{');
    for (size_t j = 0; j < k && ok; j++) {
        if (j > 0)
            pier__buf_putc(out, ',');
        pier__buf_json_string(out, m[j].key, m[j].len);
        pier__buf_putc(out, ':');
        ok = write_value(out, m[j].value);
    }
    pier__buf_putc(out, '}');
    free(m);
    return ok;
}

/* Recursion depth is bounded by jansson's parser (2048 levels). */
static bool write_value(pier__buf *out, json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return write_object(out, v);
    case JSON_ARRAY: {
        pier__buf_putc(out, '[');
        for (size_t i = 0; i < json_array_size(v); i++) {
            if (i > 0)
                pier__buf_putc(out, ',');
            if (!write_value(out, json_array_get(v, i)))
                return false;
        }
        pier__buf_putc(out, ']');
        return true;
    }
    case JSON_STRING:
        /* json_string_length: a "\u0000" escape puts a NUL inside. */
        pier__buf_json_string(out, json_string_value(v),
                              json_string_length(v));
        return true;
    case JSON_INTEGER: {
        char digits[PIER__I128_BUF];
        size_t n = pier__i128_format(json_integer_value(v), digits);
        pier__buf_append(out, digits, n);
        return true;
    }
    case JSON_REAL: {
        char text[PIER__DOUBLE_BUF];
        size_t n = pier__double_format(json_real_value(v), text);
        pier__buf_append(out, text, n);
        return true;
    }
    case JSON_TRUE:
        pier__buf_append(out, "true", 4);
        return true;
    case JSON_FALSE:
        pier__buf_append(out, "false", 5);
        return true;
    case JSON_NULL:
        pier__buf_append(out, "null", 4);
        return true;
    }
    return true;
}

/*
 * The offset of the first byte of the fault. jansson reports the position
 * after the token it could not take, and names that token in its message
 * ("']' expected near '}'"); stepping back over it gives the offset the
 * top-level row reader reports for the same mistake.
 */
static int fault_offset(const json_error_t *je)
{
    int pos = je->position;
    const char *near = strstr(je->text, "near '");
    if (near == NULL)
        return pos;                     /* e.g. "near end of file" */
    near += strlen("near '");
    const char *end = strrchr(near, '\'');
    if (end == NULL || end < near)
        return pos;
    int token = (int)(end - near);
    return pos >= token ? pos - token : 0;
}

static pier_status parse_error(pier_error *err, const json_error_t *je)
{
    enum json_error_code code = json_error_code(je);
    if (code == json_error_out_of_memory)
        return pier__oom(err);
    int pos = fault_offset(je);
    /* jansson says "too big integer" for integers and "real number
     * overflow" for reals under the same code; only the first is ours to
     * explain specially. */
    if (code == json_error_numeric_overflow &&
        strstr(je->text, "integer") != NULL)
        pier__fail(err, PIER_E_INVALID_JSON,
                   "integer beyond 64 bits inside a json value at byte %d",
                   pos);
    else
        pier__fail(err, PIER_E_INVALID_JSON, "invalid JSON at byte %d: %s",
                   pos, je->text);
    if (err != NULL)
        err->offset = pos;
    return PIER_E_INVALID_JSON;
}

pier_status pier__json_canonical(pier__buf *out, const char *s, size_t n,
                                 pier_error *err)
{
    /* JSON_DECODE_ANY lets a scalar through so that it gets the message
     * below instead of jansson's "'[' or '{' expected"; JSON_ALLOW_NUL
     * accepts "\u0000", which is valid JSON. */
    /* jansson skips a NUL byte that follows a number or a literal ("[1\0]"
     * reads [1]); JSON never holds one, so it is refused here. */
    const char *nul = n > 0 ? memchr(s, '\0', n) : NULL;
    if (nul != NULL) {
        int64_t at = (int64_t)(nul - s);
        pier__fail(err, PIER_E_INVALID_JSON,
                   "invalid JSON at byte %lld: a NUL byte", (long long)at);
        if (err != NULL)
            err->offset = at;
        return PIER_E_INVALID_JSON;
    }
    json_error_t je;
    json_t *root = json_loadb(s, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
    if (root == NULL)
        return parse_error(err, &je);
    if (!json_is_object(root) && !json_is_array(root)) {
        json_decref(root);
        size_t at = 0;
        while (at < n && (s[at] == ' ' || s[at] == '\t' || s[at] == '\n' ||
                          s[at] == '\r'))
            at++;
        pier__fail(err, PIER_E_INVALID_JSON,
                   "a json value must be an object or an array");
        if (err != NULL)
            err->offset = (int64_t)at;
        return PIER_E_INVALID_JSON;
    }
    size_t start = out->len;
    bool ok = write_value(out, root);
    json_decref(root);
    if (!ok || out->oom) {
        /* A failed call changes nothing: drop what was appended. */
        out->len = start;
        if (out->p != NULL)
            out->p[start] = '\0';
        return pier__oom(err);
    }
    return PIER_OK;
}

/* ---- JSON read back from a lake ---- */

bool pier__json_valid(const char *s, size_t n)
{
    return s != NULL && pier__json_check(s, n) == NULL;
}

void pier__json_embed(pier__buf *b, const char *s, size_t n)
{
    if (pier__json_valid(s, n))
        pier__buf_append(b, s, n);
    else
        pier__buf_json_string(b, s != NULL ? s : "", s != NULL ? n : 0);
}
