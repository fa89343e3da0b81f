/*
 * test_codegen.c: pier_schema_codegen (src/migrate/codegen*.c). The JSON
 * Schema of every type, exactly; which columns each shape holds and
 * requires; the C header's members, names and helpers; refusals. Then the
 * schema meets Pier: rows that the select shapes describe are what
 * `pier sql --json` and `pier query --json` write (every row of a lake
 * holding every type validates), and a row the insert shape accepts is one
 * Pier takes, while what it refuses Pier refuses too. A small validator
 * below covers exactly the keywords the generator writes (an unknown one
 * fails the test); tests/e2e/test_codegen.sh compiles and runs the header.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "support/engine_fixture.h"

static const char decl[] =
    "CREATE TABLE everything (\n"
    "  id INT64 PRIMARY KEY AUTOINCREMENT,\n"
    "  i8 INT8, i16 INT16, i32 INT32 NOT NULL, i64 INT64,\n"
    "  u8 UINT8, u16 UINT16, u32 UINT32, u64 UINT64, i128 INT128,\n"
    "  f32 FLOAT32, f64 DOUBLE,\n"
    "  d DECIMAL(12,2) NOT NULL DEFAULT 0, d0 DECIMAL(5,0),\n"
    "  dp DECIMAL(3,3), dany DECIMAL,\n"
    "  t TEXT, v VARCHAR(3), e ENUM('open', 'done') NOT NULL DEFAULT "
    "'open',\n"
    "  b BOOLEAN, bl BLOB, u UUID, at INSTANT, dt DATE, tm TIME,\n"
    "  dtm DATETIME, iv INTERVAL, j JSON, arr TEXT[], grid INT8[][],\n"
    "  da DECIMAL(4,1)[], a ANY,\n"
    "  ro TEXT NOT NULL READONLY\n"
    ");\n"
    "CREATE TABLE tags (name TEXT PRIMARY KEY, n INT64 NOT NULL);\n"
    "CREATE VIEW summary (id INT64, d DECIMAL(12,2), twice DECIMAL(12,2),\n"
    "                     yes BOOLEAN) AS\n"
    "  SELECT id, d, decimal_add(d, d), b = 1 FROM everything;\n"
    "CREATE BOARD feed (kind text, n double, big hugeint, at timestamp,\n"
    "  doc json, qty integer, price decimal(8,2), u uint64, tags text[],\n"
    "  flag boolean, tiny tinyint, code varchar(4), st enum('a', 'b'),\n"
    "  day date) STRICT;\n"
    "CREATE BOARD loose (x bigint);\n";

static char *generate(const char *text, pier_codegen_target target,
                      const char *prefix)
{
    pier_codegen_options o = PIER_CODEGEN_OPTIONS_INIT;
    o.prefix = prefix;
    pier_error err;
    char *out = NULL;
    if (pier_schema_codegen(&out, text, strlen(text), target, &o, &err) !=
        PIER_OK)
        fail_msg("codegen: %s: %s", err.tag, err.message);
    assert_non_null(out);
    return out;
}

static void has(const char *text, const char *fragment)
{
    if (strstr(text, fragment) == NULL)
        fail_msg("missing from the output: %s", fragment);
}

static json_t *parse(const char *text)
{
    json_error_t je;
    /* the bounds of UINT64 and INT128 pass 64 bits */
    json_t *j = json_loads(text, JSON_DECODE_INT_AS_REAL, &je);
    if (j == NULL)
        fail_msg("not JSON: %s at line %d", je.text, je.line);
    return j;
}

/* ---- the validator: the keywords the generator writes ---- */

static bool integral(const json_t *v)
{
    double d = json_number_value(v);
    if (json_is_integer(v))
        return true;
    if (!isfinite(d))
        return false;
    /* past 2^53 every double is an integer; below, a cast truncates */
    return d > 9e15 || d < -9e15 || (double)(int64_t)d == d;
}

static bool has_type(const char *t, const json_t *v)
{
    if (strcmp(t, "null") == 0)
        return json_is_null(v);
    if (strcmp(t, "boolean") == 0)
        return json_is_boolean(v);
    if (strcmp(t, "integer") == 0)
        return json_is_number(v) && integral(v);
    if (strcmp(t, "number") == 0)
        return json_is_number(v);
    if (strcmp(t, "string") == 0)
        return json_is_string(v);
    if (strcmp(t, "array") == 0)
        return json_is_array(v);
    if (strcmp(t, "object") == 0)
        return json_is_object(v);
    fail_msg("unknown type %s", t);
    return false;
}

static size_t code_points(const char *s)
{
    size_t n = 0;
    for (; *s != '\0'; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

static bool matches(const char *pattern, const char *s)
{
    regex_t re;
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
        fail_msg("pattern %s does not compile as an ERE", pattern);
    bool ok = regexec(&re, s, 0, NULL, 0) == 0;
    regfree(&re);
    return ok;
}

/* Whether `v` is valid against `schema`; *why says where it is not. */
static bool valid(const json_t *schema, const json_t *v, char *why,
                  size_t cap)
{
    const char *key;
    json_t *k;
    json_object_foreach((json_t *)schema, key, k) {
        bool ok = true;
        if (strcmp(key, "type") == 0) {
            ok = false;
            if (json_is_string(k)) {
                ok = has_type(json_string_value(k), v);
            } else {
                size_t i;
                json_t *t;
                json_array_foreach(k, i, t)
                    ok = ok || has_type(json_string_value(t), v);
            }
        } else if (strcmp(key, "enum") == 0) {
            ok = false;
            size_t i;
            json_t *e;
            json_array_foreach(k, i, e)
                ok = ok || json_equal(e, (json_t *)v);
        } else if (strcmp(key, "minimum") == 0) {
            ok = !json_is_number(v) ||
                 json_number_value(v) >= json_number_value(k);
        } else if (strcmp(key, "maximum") == 0) {
            ok = !json_is_number(v) ||
                 json_number_value(v) <= json_number_value(k);
        } else if (strcmp(key, "maxLength") == 0) {
            ok = !json_is_string(v) ||
                 code_points(json_string_value(v)) <=
                     (size_t)json_number_value(k);
        } else if (strcmp(key, "pattern") == 0) {
            ok = !json_is_string(v) ||
                 matches(json_string_value(k), json_string_value(v));
        } else if (strcmp(key, "allOf") == 0) {
            size_t i;
            json_t *s;
            json_array_foreach(k, i, s)
                ok = ok && valid(s, v, why, cap);
            if (!ok)
                return false;
        } else if (strcmp(key, "items") == 0) {
            size_t i;
            json_t *e;
            if (json_is_array(v))
                json_array_foreach((json_t *)v, i, e)
                    if (!valid(k, e, why, cap))
                        return false;
        } else if (strcmp(key, "properties") == 0) {
            const char *name;
            json_t *s;
            if (json_is_object(v))
                json_object_foreach(k, name, s) {
                    json_t *m = json_object_get(v, name);
                    if (m != NULL && !valid(s, m, why, cap)) {
                        size_t n = strlen(why);
                        snprintf(why + n, cap - n, " (member %s)", name);
                        return false;
                    }
                }
        } else if (strcmp(key, "required") == 0) {
            size_t i;
            json_t *name;
            if (json_is_object(v))
                json_array_foreach(k, i, name)
                    if (json_object_get(v, json_string_value(name)) ==
                        NULL) {
                        snprintf(why, cap, "lacks %s",
                                 json_string_value(name));
                        return false;
                    }
        } else if (strcmp(key, "additionalProperties") == 0) {
            const char *name;
            json_t *m;
            json_t *props = json_object_get(schema, "properties");
            if (json_is_object(v) && json_is_false(k))
                json_object_foreach((json_t *)v, name, m)
                    if (json_object_get(props, name) == NULL) {
                        snprintf(why, cap, "has %s, not a property", name);
                        return false;
                    }
        } else if (strcmp(key, "title") != 0 && strcmp(key, "format") != 0 &&
                   strcmp(key, "contentEncoding") != 0) {
            fail_msg("the validator does not know keyword %s", key);
        }
        if (!ok) {
            char *text = json_dumps(v, JSON_ENCODE_ANY);
            snprintf(why, cap, "%s fails %s", text, key);
            free(text);
            return false;
        }
    }
    return true;
}

static json_t *def(json_t *doc, const char *name)
{
    json_t *d = json_object_get(json_object_get(doc, "$defs"), name);
    if (d == NULL)
        fail_msg("no $defs/%s", name);
    return d;
}

static void assert_valid(json_t *doc, const char *shape, const json_t *v)
{
    char why[512] = "";
    if (!valid(def(doc, shape), v, why, sizeof why)) {
        char *text = json_dumps(v, JSON_COMPACT);
        fail_msg("%s does not validate against %s: %s", text, shape, why);
    }
}

static void assert_invalid(json_t *doc, const char *shape, const char *json)
{
    json_t *v = parse(json);
    char why[512] = "";
    if (valid(def(doc, shape), v, why, sizeof why))
        fail_msg("%s validates against %s", json, shape);
    json_decref(v);
}

/* ---- the JSON Schema, type by type ---- */

static void test_json_types(void **state)
{
    (void)state;
    char *s = generate(decl, PIER_CODEGEN_JSON_SCHEMA, NULL);
    has(s, "\"$schema\": \"https://json-schema.org/draft/2020-12/schema\"");
    /* select: what Pier's JSON writes; integers with their bounds */
    has(s, "\"i8\": {\"type\": [\"integer\", \"null\"], \"minimum\": -128, "
           "\"maximum\": 127}");
    has(s, "\"i32\": {\"type\": \"integer\", \"minimum\": -2147483648, "
           "\"maximum\": 2147483647}");
    has(s, "\"u64\": {\"type\": [\"integer\", \"null\"], \"minimum\": 0, "
           "\"maximum\": 18446744073709551615}");
    has(s, "\"i128\": {\"type\": [\"integer\", \"null\"], \"minimum\": "
           "-170141183460469231731687303715884105728, \"maximum\": "
           "170141183460469231731687303715884105727}");
    has(s, "\"f32\": {\"type\": [\"number\", \"null\"]}");
    has(s, "\"d\": {\"type\": \"string\", \"pattern\": "
           "\"^-?(0|[1-9][0-9]{0,9})\\\\.[0-9]{2}$\"}");
    has(s, "\"d0\": {\"type\": [\"string\", \"null\"], \"pattern\": "
           "\"^-?(0|[1-9][0-9]{0,4})$\"}");
    has(s, "\"dp\": {\"type\": [\"string\", \"null\"], \"pattern\": "
           "\"^-?0\\\\.[0-9]{3}$\"}");
    has(s, "\"dany\": {\"type\": [\"string\", \"null\"], \"pattern\": "
           "\"^-?(0|[1-9][0-9]*)(\\\\.[0-9]*[1-9])?$\"}");
    has(s, "\"v\": {\"type\": [\"string\", \"null\"], \"maxLength\": 3}");
    has(s, "\"e\": {\"enum\": [\"open\", \"done\"]}");
    has(s, "\"b\": {\"type\": [\"boolean\", \"null\"]}");
    has(s, "\"bl\": {\"type\": [\"string\", \"null\"], \"pattern\": "
           "\"^([0-9A-F]{2})*$\", \"contentEncoding\": \"base16\"}");
    has(s, "\"u\": {\"type\": [\"string\", \"null\"], \"pattern\": "
           "\"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-"
           "[0-9a-f]{12}$\", \"format\": \"uuid\"}");
    has(s, "\"at\": {\"type\": [\"string\", \"null\"], \"pattern\": "
           "\"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}"
           "\\\\.[0-9]{6}Z$\", \"format\": \"date-time\"}");
    has(s, "\"dt\": {\"type\": [\"string\", \"null\"], \"pattern\": "
           "\"^[0-9]{4}-[0-9]{2}-[0-9]{2}$\", \"format\": \"date\"}");
    has(s, "\"tm\": {\"type\": [\"string\", \"null\"], \"pattern\": "
           "\"^[0-9]{2}:[0-9]{2}:[0-9]{2}\\\\.[0-9]{6}$\"}");
    has(s, "\"j\": {}");
    has(s, "\"a\": {}");
    has(s, "\"arr\": {\"type\": [\"array\", \"null\"], \"items\": "
           "{\"type\": [\"string\", \"null\"]}}");
    has(s, "\"grid\": {\"type\": [\"array\", \"null\"], \"items\": "
           "{\"type\": [\"array\", \"null\"], \"items\": {\"type\": "
           "[\"integer\", \"null\"], \"minimum\": -128, \"maximum\": 127}}}");
    /* insert: what a write takes */
    has(s, "\"u64\": {\"type\": [\"integer\", \"string\", \"null\"], "
           "\"minimum\": 0, \"maximum\": 18446744073709551615, "
           "\"pattern\": \"^[0-9]{1,20}$\"}");
    has(s, "\"d\": {\"type\": \"string\", \"pattern\": \"^[+-]?(0*[0-9]"
           "{1,10}(\\\\.[0-9]{0,2}0*)?|0*\\\\.[0-9]{1,2}0*)$\"}");
    has(s, "\"j\": {\"type\": [\"object\", \"array\", \"number\", "
           "\"null\"]}");
    has(s, "\"iv\": {\"type\": [\"string\", \"null\"], \"pattern\": "
           "\"^[Pp]");
    has(s, "\"allOf\": [{\"pattern\": \"^[Pp][Tt]?[-+0-9]\"}]");
    /* a view's computed columns read as SQLite holds them */
    has(s, "\"yes\": {\"type\": [\"boolean\", \"integer\", \"null\"], "
           "\"minimum\": 0, \"maximum\": 1}");
    /* a board: its base columns, its vocabulary in the same terms */
    has(s, "\"updated_at\": {\"type\": \"string\", \"pattern\": \"^[0-9]{4}");
    has(s, "\"qty\": {\"type\": [\"integer\", \"null\"], \"minimum\": "
           "-2147483648, \"maximum\": 2147483647}");
    has(s, "\"doc\": {\"type\": [\"object\", \"array\", \"null\"]}");
    has(s, "\"st\": {\"enum\": [\"a\", \"b\", null]}");
    pier_free(s);
}

/* The names in a shape's `required`, comma-separated. */
static void required_is(json_t *doc, const char *shape, const char *want)
{
    char got[512] = "";
    size_t i;
    json_t *n;
    json_array_foreach(json_object_get(def(doc, shape), "required"), i, n) {
        if (i > 0)
            strcat(got, ",");
        strcat(got, json_string_value(n));
    }
    if (strcmp(got, want) != 0)
        fail_msg("%s requires [%s], want [%s]", shape, got, want);
}

static bool property(json_t *doc, const char *shape, const char *name)
{
    return json_object_get(json_object_get(def(doc, shape), "properties"),
                           name) != NULL;
}

static void test_json_shapes(void **state)
{
    (void)state;
    char *s = generate(decl, PIER_CODEGEN_JSON_SCHEMA, NULL);
    json_t *doc = parse(s);
    /* every def there, and only those */
    const char *want[] = {
        "everything_select", "everything_insert", "everything_update",
        "tags_select", "tags_insert", "tags_update", "summary_select",
        "feed_select", "feed_insert", "feed_update", "loose_select",
        "loose_insert", "loose_update",
    };
    assert_int_equal(json_object_size(json_object_get(doc, "$defs")),
                     sizeof want / sizeof *want);
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        def(doc, want[i]);
    /* select: every column; insert: NOT NULL without a default or a
     * generated value; update: nothing */
    required_is(doc, "everything_select",
                "id,i8,i16,i32,i64,u8,u16,u32,u64,i128,f32,f64,d,d0,dp,"
                "dany,t,v,e,b,bl,u,at,dt,tm,dtm,iv,j,arr,grid,da,a,ro");
    required_is(doc, "everything_insert", "i32,ro");
    required_is(doc, "everything_update", "");
    assert_true(property(doc, "everything_insert", "id"));
    assert_true(property(doc, "everything_insert", "ro"));
    assert_false(property(doc, "everything_update", "ro"));
    assert_true(property(doc, "everything_update", "id"));
    /* a TEXT primary key is not generated */
    required_is(doc, "tags_insert", "name,n");
    required_is(doc, "summary_select", "id,d,twice,yes");
    /* a board: id required on insert, updated_at the engine's */
    required_is(doc, "feed_select", "id,updated_at,state,kind,n,big,at,doc,"
                "qty,price,u,tags,flag,tiny,code,st,day");
    required_is(doc, "feed_insert", "id");
    assert_false(property(doc, "feed_insert", "updated_at"));
    assert_true(property(doc, "feed_insert", "state"));
    assert_false(property(doc, "feed_update", "id"));
    assert_false(property(doc, "feed_update", "updated_at"));
    assert_true(json_is_false(json_object_get(def(doc, "feed_select"),
                                              "additionalProperties")));
    /* a board that is not strict gains columns by inference */
    assert_true(json_is_true(json_object_get(def(doc, "loose_insert"),
                                             "additionalProperties")));
    assert_true(json_is_false(json_object_get(def(doc, "tags_update"),
                                              "additionalProperties")));
    json_decref(doc);
    pier_free(s);

    /* an empty declaration: no defs */
    s = generate("", PIER_CODEGEN_JSON_SCHEMA, NULL);
    doc = parse(s);
    assert_int_equal(json_object_size(json_object_get(doc, "$defs")), 0);
    json_decref(doc);
    pier_free(s);
}

/* ---- the C header ---- */

static void test_c_header(void **state)
{
    (void)state;
    char *s = generate(decl, PIER_CODEGEN_C, "shop");
    has(s, "#ifndef SHOP_PIER_SCHEMA_H\n#define SHOP_PIER_SCHEMA_H\n");
    has(s, "#include \"pier.h\"\n");
    has(s, "struct shop_everything_select {\n    int64_t id;");
    has(s, "    int8_t i8;");
    has(s, "    int16_t i16;");
    has(s, "    int32_t i32;");
    has(s, "    uint8_t u8;");
    has(s, "    uint32_t u32;");
    has(s, "    uint64_t u64;");
    has(s, "    pier_hugeint i128;");
    has(s, "    float f32;");
    has(s, "    double f64;");
    has(s, "    const char *d;                   /* DECIMAL(12,2), as text */");
    has(s, "    const char *e;                   /* ENUM('open','done') */");
    has(s, "    bool b;");
    has(s, "    struct shop_bytes bl;");
    has(s, "    const char *grid;                /* INT8[][], as JSON */");
    /* the insert shape: flags for what may be left out or null */
    has(s, "struct shop_everything_insert {");
    has(s, "    } has;\n");
    has(s, "    } null;\n");
    /* helpers */
    has(s, "static inline pier_status shop_everything_read(\n    struct "
           "shop_everything_select *out, const pier_row *row, "
           "pier_error *err)");
    has(s, "static inline pier_status shop_everything_insert_row(int64_t "
           "*rowid,\n    pier_engine *engine, const struct "
           "shop_everything_insert *row,\n    pier_error *err)");
    has(s, "struct shop_tags_key {\n    const char *name;");
    has(s, "static inline pier_status shop_tags_update_row(int64_t "
           "*changed,\n    pier_engine *engine, const struct shop_tags_key "
           "*key,\n    const struct shop_tags_update *set, pier_error *err)");
    has(s, "#define SHOP_SUMMARY_SELECT_SQL \\\n    \"SELECT \\\"id\\\", "
           "\\\"d\\\", \\\"twice\\\", \\\"yes\\\" FROM \\\"summary\\\"\"");
    has(s, "#define SHOP_FEED_BOARD \"feed\"");
    has(s, "rc = shop__set_huge(rows, \"big\", row->big, row->null.big, "
           "err);");
    has(s, "rc = shop__set_json(rows, \"tags\", row->tags, row->null.tags, "
           "err);");
    has(s, "static inline pier_status shop_feed_update_row(int64_t "
           "*watermark,\n    pier_engine *engine, const char *id, const "
           "struct shop_feed_update *set,\n    pier_error *err)");
    /* a view has no writes */
    assert_null(strstr(s, "shop_summary_insert"));
    assert_null(strstr(s, "@_"));      /* every template name filled */
    pier_free(s);

    /* names that are no C identifiers, or are taken */
    s = generate("CREATE TABLE \"my-t\" (\"a b\" INT64, \"a_b\" TEXT, "
                 "\"1st\" TEXT, \"null\" TEXT, \"int\" TEXT, \"*/\" TEXT, "
                 "\"x\"\"y\" TEXT, \"errno\" TEXT, \"INT8_MAX\" TEXT);\n"
                 "CREATE TABLE my_t (k TEXT);\n",
                 PIER_CODEGEN_C, NULL);
    has(s, "struct db_my_t_select {\n    int64_t a_b;");
    has(s, "    const char *a_b_2;               /* 'a_b' TEXT */");
    has(s, "    const char *c_1st;");
    has(s, "    const char *null_;");
    has(s, "    const char *int_;");
    has(s, "    const char *c___;                /* '* /' TEXT */");
    has(s, "    const char *x_y;                 /* 'x\"y' TEXT */");
    has(s, "    const char *errno_;");
    has(s, "    const char *INT8_MAX_;");
    has(s, "struct db_my_t_2_select {");
    has(s, "\"SELECT \\\"a b\\\", \\\"a_b\\\", \\\"1st\\\", \\\"null\\\", ");
    has(s, "\\\"*/\\\", \" \\\n    \"\\\"x\\\"\\\"y\\\"");
    has(s, "FROM \\\"my-t\\\"\"");
    pier_free(s);
}

/* ---- refusals ---- */

static void test_refusals(void **state)
{
    (void)state;
    pier_error err;
    char *out = (char *)"untouched";
    const char *bad = "CREATE TABLE t (a INT64);\nCREATE TABLE u (b NOPE);";
    for (int target = 0; target < 2; target++) {
        out = (char *)"untouched";
        assert_int_equal(pier_schema_codegen(&out, bad, strlen(bad),
                                             (pier_codegen_target)target,
                                             NULL, &err),
                         PIER_E_INVALID_SCHEMA);
        assert_null(out);
        assert_string_equal(err.tag, "InvalidSchema");
        assert_int_equal(err.offset, strstr(bad, "NOPE") - bad);
    }
    const char *insert = "INSERT INTO t VALUES (1)";
    assert_int_equal(pier_schema_codegen(&out, insert, strlen(insert),
                                         PIER_CODEGEN_C, NULL, &err),
                     PIER_E_INVALID_SCHEMA);
    assert_int_equal(err.offset, 0);

    const char *ok = "CREATE TABLE t (a INT64)";
    pier_codegen_options o = PIER_CODEGEN_OPTIONS_INIT;
    const char *prefixes[] = { "", "1a", "a-b", "a b",
                               "abcdefghijabcdefghijabcdefghijabc" };
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
        o.prefix = prefixes[i];
        assert_int_equal(pier_schema_codegen(&out, ok, strlen(ok),
                                             PIER_CODEGEN_C, &o, &err),
                         PIER_E_INVALID_ARGUMENT);
        assert_null(out);
    }
    o.prefix = NULL;
    o.version = 99;
    assert_int_equal(pier_schema_codegen(&out, ok, strlen(ok),
                                         PIER_CODEGEN_C, &o, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_schema_codegen(&out, ok, strlen(ok),
                                         (pier_codegen_target)7, NULL,
                                         &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_schema_codegen(NULL, ok, strlen(ok),
                                         PIER_CODEGEN_C, NULL, &err),
                     PIER_E_INVALID_ARGUMENT);
    assert_int_equal(pier_schema_codegen(&out, NULL, 3, PIER_CODEGEN_C,
                                         NULL, NULL),
                     PIER_E_INVALID_ARGUMENT);
    /* NULL with no length is the empty declaration */
    assert_int_equal(pier_schema_codegen(&out, NULL, 0, PIER_CODEGEN_C,
                                         NULL, &err),
                     PIER_OK);
    has(out, "#define DB_PIER_SCHEMA_H");
    pier_free(out);
}

/* ---- the schema meets Pier ---- */

static int setup(void **state)
{
    *state = fixture_open();
    return 0;
}

static int teardown(void **state)
{
    return fixture_close(*state);
}

static bool write_buf(const char *bytes, size_t len, void *payload)
{
    char **buf = payload;
    size_t n = *buf != NULL ? strlen(*buf) : 0;
    char *p = realloc(*buf, n + len + 1);
    if (p == NULL)
        return false;
    memcpy(p + n, bytes, len);
    p[n + len] = '\0';
    *buf = p;
    return true;
}

/* The cursor's rows as Pier's JSON output, parsed; `c` is closed. */
static json_t *rows_json(pier_cursor *c)
{
    char *text = NULL;
    pier_error err;
    if (pier_cursor_write(NULL, c, PIER_FORMAT_JSON, write_buf, &text,
                          &err) != PIER_OK)
        fail_msg("write: %s: %s", err.tag, err.message);
    pier_cursor_close(c);
    json_t *rows = parse(text);
    free(text);
    return rows;
}

static void every_row_valid(json_t *doc, const char *shape, json_t *rows,
                            size_t want)
{
    assert_int_equal(json_array_size(rows), want);
    size_t i;
    json_t *r;
    json_array_foreach(rows, i, r)
        assert_valid(doc, shape, r);
}

/* Inserts the JSON object `row` into table `t` through parameters, as
 * `pier sql --params` binds them. */
static pier_status insert_params(pier_engine *e, const char *t,
                                 const char *row, pier_error *err)
{
    json_t *o = parse(row);
    char cols[2048] = "", vals[2048] = "";
    const char *name;
    json_t *v;
    json_object_foreach(o, name, v) {
        snprintf(cols + strlen(cols), sizeof cols - strlen(cols), "%s%s",
                 cols[0] != '\0' ? ", " : "", name);
        snprintf(vals + strlen(vals), sizeof vals - strlen(vals), "%s:%s",
                 vals[0] != '\0' ? ", " : "", name);
    }
    json_decref(o);
    char sql[4200];
    snprintf(sql, sizeof sql, "INSERT INTO %s (%s) VALUES (%s)", t, cols,
             vals);
    pier_params *p = pier_params_new();
    pier_status rc = pier_params_set_json(p, row, strlen(row), err);
    if (rc == PIER_OK)
        rc = pier_exec(NULL, e, sql, p, err);
    pier_params_free(p);
    return rc;
}

/* A row the insert shape takes, which Pier takes too. */
static void accepted(pier_engine *e, json_t *doc, const char *t,
                     const char *row)
{
    char shape[64];
    snprintf(shape, sizeof shape, "%s_insert", t);
    json_t *v = parse(row);
    assert_valid(doc, shape, v);
    json_decref(v);
    pier_error err;
    if (insert_params(e, t, row, &err) != PIER_OK)
        fail_msg("%s: %s: %s", row, err.tag, err.message);
}

/* A row the insert shape refuses, which Pier refuses too. */
static void refused(pier_engine *e, json_t *doc, const char *t,
                    const char *row)
{
    char shape[64];
    snprintf(shape, sizeof shape, "%s_insert", t);
    assert_invalid(doc, shape, row);
    pier_error err;
    if (insert_params(e, t, row, &err) == PIER_OK)
        fail_msg("Pier took %s", row);
}

static void test_rows_validate(void **state)
{
    engine_fixture *f = *state;
    pier_engine *e = f->e;
    pier_error err;
    if (pier_migrate(NULL, e, decl, strlen(decl), NULL, NULL, &err) !=
        PIER_OK)
        fail_msg("migrate: %s: %s", err.tag, err.message);
    char *s = generate(decl, PIER_CODEGEN_JSON_SCHEMA, NULL);
    json_t *doc = parse(s);

    accepted(e, doc, "everything",
             "{\"i8\": -128, \"i16\": 32767, \"i32\": 1, "
             "\"i64\": -9223372036854775807, \"u8\": 255, \"u16\": 0, "
             "\"u32\": 4294967295, \"u64\": \"18446744073709551615\", "
             "\"i128\": \"-170141183460469231731687303715884105728\", "
             "\"f32\": 0.1, \"f64\": -2.5e-7, \"d\": \"12.5\", "
             "\"d0\": \"-99999\", \"dp\": \"0.125\", \"dany\": \"0.10\", "
             "\"t\": \"text\", \"v\": \"h\\u00e9\\u00e9\", \"e\": \"done\", "
             "\"b\": true, \"u\": \"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11\", "
             "\"at\": \"2026-03-01T10:00:00+02:00\", \"dt\": \"2024-02-29\", "
             "\"tm\": \"10:00:00.5\", \"dtm\": \"2026-03-01 10:00:00\", "
             "\"iv\": \"P1Y2M3DT4H5M6.5S\", \"j\": {\"k\": [1, null]}, "
             "\"arr\": [\"x\", null], \"grid\": [[1, -2], null], "
             "\"da\": [\"1.5\", null], \"a\": 5, \"ro\": \"r\"}");
    accepted(e, doc, "everything", "{\"i32\": 2, \"ro\": \"r\"}");
    accepted(e, doc, "everything",
             "{\"i32\": 3, \"ro\": \"r\", \"u64\": 7, \"i128\": -5, "
             "\"d\": \"-0.05\", \"iv\": \"PT0S\", \"j\": 12, "
             "\"t\": null}");
    /* the shape and Pier refuse alike */
    refused(e, doc, "everything", "{\"ro\": \"r\"}");
    refused(e, doc, "everything", "{\"i32\": 1, \"ro\": \"r\", "
                                  "\"nope\": 1}");
    refused(e, doc, "everything", "{\"i32\": 1, \"ro\": \"r\", "
                                  "\"i8\": 128}");
    refused(e, doc, "everything", "{\"i32\": 1, \"ro\": \"r\", "
                                  "\"d\": \"12.345\"}");
    refused(e, doc, "everything", "{\"i32\": 1, \"ro\": \"r\", "
                                  "\"d\": \"12345678901.5\"}");
    refused(e, doc, "everything", "{\"i32\": 1, \"ro\": \"r\", "
                                  "\"v\": \"abcd\"}");
    refused(e, doc, "everything", "{\"i32\": 1, \"ro\": \"r\", "
                                  "\"e\": \"Open\"}");
    refused(e, doc, "everything", "{\"i32\": 1, \"ro\": \"r\", "
                                  "\"u\": \"not-a-uuid\"}");
    refused(e, doc, "everything", "{\"i32\": 1, \"ro\": \"r\", "
                                  "\"at\": \"2026-03-01T10:00:00\"}");
    refused(e, doc, "everything", "{\"i32\": 1, \"ro\": \"r\", "
                                  "\"tm\": \"10:00:00Z\"}");
    refused(e, doc, "everything", "{\"i32\": 1, \"ro\": \"r\", "
                                  "\"iv\": \"1 day\"}");
    refused(e, doc, "everything", "{\"i32\": 1, \"ro\": \"r\", "
                                  "\"iv\": \"PT\"}");
    refused(e, doc, "everything", "{\"i32\": 1, \"ro\": \"r\", "
                                  "\"u64\": -1}");
    refused(e, doc, "everything", "{\"i32\": 1, \"ro\": \"r\", "
                                  "\"grid\": [[128]]}");
    refused(e, doc, "everything", "{\"i32\": 1, \"ro\": \"r\", "
                                  "\"da\": [\"1.55\"]}");
    accepted(e, doc, "tags", "{\"name\": \"a\", \"n\": 1}");
    refused(e, doc, "tags", "{\"n\": 1}");
    /* BLOB and ANY: bytes bound as a blob (no JSON form writes them) */
    pier_params *p = pier_params_new();
    assert_int_equal(pier_params_set_blob(p, ":x", "\x00\xff", 2, &err),
                     PIER_OK);
    if (pier_exec(NULL, e, "INSERT INTO everything (i32, ro, bl, a) "
                  "VALUES (4, 'r', :x, :x)", p, &err) != PIER_OK)
        fail_msg("blob: %s", err.message);
    pier_params_free(p);
    /* an update the update shape takes */
    json_t *patch = parse("{\"d\": \"1\", \"e\": \"open\", \"t\": null}");
    assert_valid(doc, "everything_update", patch);
    json_decref(patch);
    assert_invalid(doc, "everything_update", "{\"ro\": \"x\"}");

    /* `pier sql --json`: every row the select shape describes */
    pier_cursor *c = NULL;
    assert_int_equal(pier_exec(&c, e, "SELECT * FROM everything", NULL,
                               &err), PIER_OK);
    json_t *rows = rows_json(c);
    every_row_valid(doc, "everything_select", rows, 4);
    json_t *first = json_array_get(rows, 0);
    assert_string_equal(json_string_value(json_object_get(first, "d")),
                        "12.50");
    assert_string_equal(json_string_value(json_object_get(first, "at")),
                        "2026-03-01T08:00:00.000000Z");
    json_decref(rows);
    assert_int_equal(pier_exec(&c, e, "SELECT * FROM summary", NULL, &err),
                     PIER_OK);
    rows = rows_json(c);
    every_row_valid(doc, "summary_select", rows, 4);
    json_decref(rows);

    /* `pier query --json` on boards */
    const char *events[] = {
        "{\"id\": \"e1\", \"state\": \"new\", \"kind\": \"k\", \"n\": 1, "
        "\"big\": 18446744073709551616, \"at\": "
        "\"2026-03-01T10:00:00+01:00\", \"doc\": {\"b\": 1}, "
        "\"qty\": -7, \"price\": \"3.5\", \"u\": 18446744073709551615, "
        "\"tags\": [\"p\", null], \"flag\": false, \"tiny\": 1, "
        "\"code\": \"abcd\", \"st\": \"b\", \"day\": \"2026-03-01\"}",
        "{\"id\": \"e2\"}",
        "{\"id\": \"e3\", \"state\": null, \"u\": \"12\"}",
    };
    for (size_t i = 0; i < sizeof events / sizeof *events; i++) {
        json_t *v = parse(events[i]);
        assert_valid(doc, "feed_insert", v);
        json_decref(v);
        fixture_insert(e, "feed", events[i]);
    }
    assert_invalid(doc, "feed_insert", "{\"kind\": \"k\"}");
    assert_invalid(doc, "feed_insert", "{\"id\": \"x\", \"updated_at\": "
                                       "\"2026-03-01T10:00:00Z\"}");
    assert_invalid(doc, "feed_insert", "{\"id\": \"x\", \"price\": 1.5}");
    assert_invalid(doc, "feed_insert", "{\"id\": \"x\", \"code\": "
                                       "\"abcde\"}");
    const char *upd = "{\"qty\": 8, \"state\": null}";
    json_t *v = parse(upd);
    assert_valid(doc, "feed_update", v);
    json_decref(v);
    assert_int_equal(pier_update_json(NULL, e, "feed", "e1", upd,
                                      strlen(upd), &err), PIER_OK);
    assert_int_equal(pier_query(&c, e, "feed", "SELECT * FROM {{board}}",
                                NULL, NULL, &err), PIER_OK);
    rows = rows_json(c);
    every_row_valid(doc, "feed_select", rows, 3);
    json_decref(rows);
    /* a board that is not strict: inferred columns validate too */
    fixture_insert(e, "loose", "{\"id\": \"l1\", \"x\": 1, \"extra\": "
                               "\"inferred\"}");
    assert_int_equal(pier_query(&c, e, "loose", "SELECT * FROM {{board}}",
                                NULL, NULL, &err), PIER_OK);
    rows = rows_json(c);
    every_row_valid(doc, "loose_select", rows, 1);
    json_decref(rows);

    json_decref(doc);
    pier_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_types),
        cmocka_unit_test(test_json_shapes),
        cmocka_unit_test(test_c_header),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test_setup_teardown(test_rows_validate, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
