/*
 * params.c: pier_params, the values a query binds to its parameters.
 *
 * A parameter is named with its prefix (":n", "$n", "@n"), named without
 * one ("n", which binds any of :n, $n and @n), or numbered ("?3" or "3",
 * which binds ?3, and an anonymous "?" that SQLite numbered 3). Setting a
 * name again replaces its value. Names and texts are copied: the caller's
 * strings may go once a setter returns. Values keep their SQLite storage
 * class (a boolean is the integer 0 or 1) and are bound, never spliced
 * into the SQL (the lake copies what it binds, so a set may change after
 * a query without changing the query).
 *
 * Setting a name that is already set allocates nothing when the new value
 * is no text or fits the old text's buffer: a loop of queries resetting
 * one parameter each time keeps one buffer. Parameters are found by a
 * hash of their key, so that setting and binding the hundreds of a
 * multi-row INSERT costs time in proportion to them, not its square.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine/engine.h"

typedef struct param {
    char prefix;          /* ':', '$', '@'; 0: bare name; '?': numbered */
    char *name;           /* without its prefix; NULL when numbered */
    long number;          /* numbered: 1 and up */
    pier__cell value;     /* TEXT and BLOB own value.p */
    size_t text_cap;      /* TEXT, BLOB: bytes value.p has room for, a NUL
                             included */
} param;

struct pier_params {
    param *v;
    size_t n;
    size_t cap;
    size_t *slots;        /* open addressing over v: index + 1, 0 empty */
    size_t nslots;        /* a power of two, more than twice n; 0: none */
};

/* FNV-1a of a key: its prefix, then its name or number. */
static size_t key_hash(char prefix, const char *name, long number)
{
    uint64_t h = UINT64_C(14695981039346656037);
    h = (h ^ (unsigned char)prefix) * UINT64_C(1099511628211);
    if (name != NULL)
        for (const char *c = name; *c != '\0'; c++)
            h = (h ^ (unsigned char)*c) * UINT64_C(1099511628211);
    else
        for (int i = 0; i < 8; i++)
            h = (h ^ (((uint64_t)number >> (8 * i)) & 0xff)) *
                UINT64_C(1099511628211);
    return (size_t)h;
}

static bool key_is(const param *p, char prefix, const char *name,
                   long number)
{
    if (p->prefix != prefix)
        return false;
    return prefix == '?' ? p->number == number : strcmp(p->name, name) == 0;
}

/* The parameter of this key, or NULL. */
static param *lookup(const pier_params *ps, char prefix, const char *name,
                     long number)
{
    if (ps->nslots == 0)
        return NULL;
    size_t mask = ps->nslots - 1;
    for (size_t s = key_hash(prefix, name, number) & mask;;
         s = (s + 1) & mask) {
        size_t i = ps->slots[s];
        if (i == 0)
            return NULL;
        if (key_is(&ps->v[i - 1], prefix, name, number))
            return &ps->v[i - 1];
    }
}

static void slot_put(size_t *slots, size_t nslots, const param *p, size_t i)
{
    size_t mask = nslots - 1;
    size_t s = key_hash(p->prefix, p->name, p->number) & mask;
    while (slots[s] != 0)
        s = (s + 1) & mask;
    slots[s] = i + 1;
}

/* Makes room in the index for `total` parameters (the first ps->n of v
 * indexed); false if out of memory, nothing changed. */
static bool index_reserve(pier_params *ps, size_t total)
{
    if (2 * total < ps->nslots)
        return true;
    size_t nslots = ps->nslots == 0 ? 32 : ps->nslots;
    while (2 * total >= nslots)
        nslots *= 2;
    size_t *slots = calloc(nslots, sizeof *slots);
    if (slots == NULL)
        return false;
    for (size_t k = 0; k < ps->n; k++)
        slot_put(slots, nslots, &ps->v[k], k);
    free(ps->slots);
    ps->slots = slots;
    ps->nslots = nslots;
    return true;
}

/* Indexes v[i], just appended; false if out of memory. */
static bool index_add(pier_params *ps, size_t i)
{
    if (!index_reserve(ps, i + 1))
        return false;
    slot_put(ps->slots, ps->nslots, &ps->v[i], i);
    return true;
}

PIER_API pier_params *pier_params_new(void)
{
    return calloc(1, sizeof(pier_params));
}

/* Whether a value's bytes are the parameters' own copy. */
static bool owns_bytes(pier__storage st)
{
    return st == PIER__ST_TEXT || st == PIER__ST_BLOB;
}

static void param_release(param *p)
{
    free(p->name);
    if (owns_bytes(p->value.st))
        free((char *)p->value.p);
}

PIER_API void pier_params_free(pier_params *params)
{
    if (params == NULL)
        return;
    for (size_t i = 0; i < params->n; i++)
        param_release(&params->v[i]);
    free(params->v);
    free(params->slots);
    free(params);
}

/* Parses a parameter's name into its prefix, name and number. The name is
 * `name`'s own, borrowed: set() copies it when it keeps it. */
static pier_status parse_name(param *out, const char *name, pier_error *err)
{
    memset(out, 0, sizeof *out);
    if (name == NULL || name[0] == '\0')
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a query parameter needs a name");
    size_t n = strlen(name);
    const char *digits = name[0] == '?' ? name + 1 : name;
    if (name[0] == '?' || (digits[0] >= '0' && digits[0] <= '9')) {
        long v = 0;
        bool ok = digits[0] != '\0';
        for (const char *p = digits; ok && *p != '\0'; p++) {
            ok = *p >= '0' && *p <= '9' && v <= (INT_MAX - 9) / 10;
            v = v * 10 + (*p - '0');
        }
        if (!ok || v < 1)
            return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                              "query parameter '%s' is not a number from 1 "
                              "up ('?1' or '1')", name);
        out->prefix = '?';
        out->number = v;
        return PIER_OK;
    }
    const char *bare = name;
    if (name[0] == ':' || name[0] == '$' || name[0] == '@') {
        out->prefix = name[0];
        bare++;
        n--;
    }
    bool ok = n > 0 && pier__utf8_valid(bare, n);
    for (size_t i = 0; ok && i < n; i++)
        ok = (unsigned char)bare[i] > ' ' && bare[i] != 0x7f;
    if (!ok)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "query parameter name '%s' is empty or holds "
                          "white space or control characters", name);
    out->name = (char *)bare;
    return PIER_OK;
}

/* The named parameter spelled exactly `name` (":id" or "id"), if it is
 * set: a spelling that was parsed and checked once need not be again. */
static param *find_spelled(pier_params *params, const char *name)
{
    if (name == NULL)
        return NULL;
    char c = name[0];
    bool prefixed = c == ':' || c == '$' || c == '@';
    return prefixed ? lookup(params, c, name + 1, 0)
                    : lookup(params, 0, name, 0);
}

/* Sets `name` to `value` (whose text, if any, is copied). */
static pier_status set(pier_params *params, const char *name,
                       pier__cell value, pier_error *err)
{
    pier__error_clear(err);
    if (params == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "no parameters to set");
    param p = { 0 };
    param *old = find_spelled(params, name);
    if (old == NULL) {
        pier_status rc = parse_name(&p, name, err);
        if (rc != PIER_OK)
            return rc;
        old = lookup(params, p.prefix, p.name, p.number);
    }
    if (owns_bytes(value.st)) {
        if (old != NULL && owns_bytes(old->value.st) &&
            old->text_cap > value.n) {
            char *t = (char *)old->value.p;
            if (value.n > 0)                 /* it may be this very text */
                memmove(t, value.p, value.n);
            t[value.n] = '\0';
            old->value.st = value.st;
            old->value.n = value.n;
            return PIER_OK;
        }
        char *copy = pier__strndup(value.n > 0 ? value.p : "", value.n);
        if (copy == NULL)
            return pier__oom(err);
        value.p = copy;
        p.text_cap = value.n + 1;
    }
    if (old != NULL) {
        if (owns_bytes(old->value.st))
            free((char *)old->value.p);
        old->value = value;
        old->text_cap = p.text_cap;
        return PIER_OK;
    }
    p.value = value;
    if (p.name != NULL) {
        p.name = pier__strdup(p.name);
        if (p.name == NULL) {
            param_release(&p);
            return pier__oom(err);
        }
    }
    if (params->n == params->cap) {
        size_t cap = params->cap == 0 ? 8 : params->cap * 2;
        param *v = realloc(params->v, cap * sizeof *v);
        if (v == NULL) {
            param_release(&p);
            return pier__oom(err);
        }
        params->v = v;
        params->cap = cap;
    }
    params->v[params->n] = p;
    if (!index_add(params, params->n)) {
        param_release(&p);
        return pier__oom(err);
    }
    params->n++;
    return PIER_OK;
}

PIER_API pier_status pier_params_set_null(pier_params *params,
                                          const char *name, pier_error *err)
{
    return set(params, name, (pier__cell){ .st = PIER__ST_NULL }, err);
}

PIER_API pier_status pier_params_set_bool(pier_params *params,
                                          const char *name, bool value,
                                          pier_error *err)
{
    return set(params, name, (pier__cell){ .st = PIER__ST_INT, .i = value },
               err);
}

PIER_API pier_status pier_params_set_int64(pier_params *params,
                                           const char *name, int64_t value,
                                           pier_error *err)
{
    return set(params, name, (pier__cell){ .st = PIER__ST_INT, .i = value },
               err);
}

PIER_API pier_status pier_params_set_double(pier_params *params,
                                            const char *name, double value,
                                            pier_error *err)
{
    if (!isfinite(value)) {
        pier__fail(err, PIER_E_INVALID_ARGUMENT,
                   "query parameter '%s' is not a finite number",
                   name != NULL ? name : "");
        return PIER_E_INVALID_ARGUMENT;
    }
    return set(params, name, (pier__cell){ .st = PIER__ST_REAL, .d = value },
               err);
}

PIER_API pier_status pier_params_set_text(pier_params *params,
                                          const char *name, const char *text,
                                          pier_error *err)
{
    if (text == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "query parameter '%s' has no text (set null "
                          "with pier_params_set_null)",
                          name != NULL ? name : "");
    size_t n = strlen(text);
    if (!pier__utf8_valid(text, n))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "query parameter '%s' is not valid UTF-8",
                          name != NULL ? name : "");
    return set(params, name,
               (pier__cell){ .st = PIER__ST_TEXT, .p = text, .n = n }, err);
}

PIER_API pier_status pier_params_set_blob(pier_params *params,
                                          const char *name, const void *bytes,
                                          size_t len, pier_error *err)
{
    if (bytes == NULL && len > 0)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "query parameter '%s' has %zu bytes but no "
                          "pointer to them", name != NULL ? name : "", len);
    return set(params, name,
               (pier__cell){ .st = PIER__ST_BLOB, .p = bytes, .n = len },
               err);
}

/* Sets one JSON value under `name`. */
static pier_status set_json_value(pier_params *params, const char *name,
                                  json_t *v, pier_error *err)
{
    switch (json_typeof(v)) {
    case JSON_NULL:
        return pier_params_set_null(params, name, err);
    case JSON_TRUE:
    case JSON_FALSE:
        return pier_params_set_bool(params, name, json_is_true(v), err);
    case JSON_INTEGER:
        return pier_params_set_int64(params, name,
                                     (int64_t)json_integer_value(v), err);
    case JSON_REAL:
        return pier_params_set_double(params, name, json_real_value(v), err);
    case JSON_STRING:
        return set(params, name,
                   (pier__cell){ .st = PIER__ST_TEXT,
                                 .p = json_string_value(v),
                                 .n = json_string_length(v) }, err);
    default: {                        /* objects and arrays: their text */
        char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        if (text == NULL)
            return pier__oom(err);
        pier__buf canon;
        pier__buf_init(&canon);
        pier_status rc = pier__json_canonical(&canon, text, strlen(text),
                                              err);
        if (rc == PIER_OK && canon.oom)
            rc = pier__oom(err);
        if (rc == PIER_OK)
            rc = set(params, name,
                     (pier__cell){ .st = PIER__ST_TEXT, .p = canon.p,
                                   .n = canon.len }, err);
        pier__buf_free(&canon);
        free(text);
        return rc;
    }
    }
}

/* Parses the JSON text given to pier_params_set_json (name NULL) or
 * pier_params_set_json_value, for json_decref(). */
static pier_status load_json(json_t **out, const pier_params *params,
                             const char *json, size_t len, const char *name,
                             pier_error *err)
{
    pier__error_clear(err);
    if (params == NULL || json == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "no parameters or no JSON text");
    /* jansson skips a NUL byte that follows a number or a literal ("1\0"
     * reads 1); JSON never holds one. */
    const char *nul = len > 0 ? memchr(json, '\0', len) : NULL;
    if (nul != NULL) {
        size_t at = (size_t)(nul - json);
        if (name == NULL)
            pier__fail(err, PIER_E_INVALID_JSON,
                       "query parameters: a NUL byte at byte %zu", at);
        else
            pier__fail(err, PIER_E_INVALID_JSON,
                       "query parameter '%s': a NUL byte at byte %zu", name,
                       at);
        if (err != NULL)
            err->offset = (int64_t)at;
        return PIER_E_INVALID_JSON;
    }
    json_error_t jerr;
    *out = json_loadb(json, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY,
                      &jerr);
    if (*out != NULL)
        return PIER_OK;
    if (name == NULL)
        pier__fail(err, PIER_E_INVALID_JSON, "query parameters: %s",
                   jerr.text);
    else
        pier__fail(err, PIER_E_INVALID_JSON, "query parameter '%s': %s",
                   name, jerr.text);
    if (err != NULL)
        err->offset = jerr.position;
    return PIER_E_INVALID_JSON;
}

PIER_API pier_status pier_params_set_json(pier_params *params,
                                          const char *json, size_t len,
                                          pier_error *err)
{
    json_t *root = NULL;
    pier_status rc = load_json(&root, params, json, len, NULL, err);
    if (rc != PIER_OK)
        return rc;
    /* Into a set of their own first, so that a failure changes nothing. */
    pier_params fresh = { NULL, 0, 0, NULL, 0 };
    if (json_is_object(root)) {
        const char *key;
        json_t *v;
        json_object_foreach(root, key, v) {
            rc = set_json_value(&fresh, key, v, err);
            if (rc != PIER_OK)
                break;
        }
    } else if (json_is_array(root)) {
        size_t i;
        json_t *v;
        json_array_foreach(root, i, v) {
            char name[24];
            snprintf(name, sizeof name, "%zu", i + 1);
            rc = set_json_value(&fresh, name, v, err);
            if (rc != PIER_OK)
                break;
        }
    } else {
        rc = pier__fail(err, PIER_E_INVALID_ARGUMENT,
                        "query parameters are a JSON object (named) or "
                        "array (numbered)");
    }
    json_decref(root);
    if (rc == PIER_OK && params->cap - params->n < fresh.n) {
        size_t cap = params->n + fresh.n;
        param *v = realloc(params->v, cap * sizeof *v);
        if (v == NULL) {
            rc = pier__oom(err);
        } else {
            params->v = v;
            params->cap = cap;
        }
    }
    /* room made first: the merge below cannot fail half-way */
    if (rc == PIER_OK && !index_reserve(params, params->n + fresh.n))
        rc = pier__oom(err);
    for (size_t i = 0; rc == PIER_OK && i < fresh.n; i++) {
        const param *f = &fresh.v[i];
        param *old = lookup(params, f->prefix, f->name, f->number);
        if (old != NULL) {
            param_release(old);
            *old = fresh.v[i];
        } else {
            params->v[params->n] = fresh.v[i];
            index_add(params, params->n);   /* reserved: cannot fail */
            params->n++;
        }
        fresh.v[i] = (param){ 0 };
    }
    for (size_t i = 0; i < fresh.n; i++)
        param_release(&fresh.v[i]);
    free(fresh.v);
    free(fresh.slots);
    return rc;
}

PIER_API pier_status pier_params_set_json_value(pier_params *params,
                                                const char *name,
                                                const char *json, size_t len,
                                                pier_error *err)
{
    json_t *v = NULL;
    pier_status rc = load_json(&v, params, json, len,
                               name != NULL ? name : "", err);
    if (rc != PIER_OK)
        return rc;
    rc = set_json_value(params, name, v, err);
    json_decref(v);
    return rc;
}

const pier__cell *pier__params_find(const pier_params *params,
                                    const char *name, int index)
{
    if (params == NULL)
        return NULL;
    const param *p;
    if (name == NULL || name[0] == '?') {
        p = lookup(params, '?', NULL,
                   name == NULL || name[1] == '\0' ? index : atol(name + 1));
        return p != NULL ? &p->value : NULL;
    }
    p = lookup(params, name[0], name + 1, 0);     /* the exact spelling */
    if (p == NULL)
        p = lookup(params, 0, name + 1, 0);       /* else the bare name */
    return p != NULL ? &p->value : NULL;
}
