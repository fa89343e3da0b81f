/*
 * fuzz_history_files.c: the readers of changesets (src/store/
 * sqlite_history.c: pier__changeset_why, pier__changeset_walk,
 * pier_changeset_to_json) and of versioned migration files
 * (src/versioned/parse.c: names, sections, checksums), pure, no lake.
 *
 * The first byte picks what the rest is (c, f, n; another byte modulo 3):
 *   c  changeset bytes
 *   f  a migration file's text
 *   n  a directory entry's name (also cleaned as a NAME for `new`)
 *
 * Invariants:
 * - changesets: bytes the check accepts are walked to the end, the walk
 *   and the count agree, and pier_changeset_to_json of them gives one
 *   valid JSON object a line, one per change; bytes the check refuses are
 *   refused by the walk and the JSON too, never read past their end.
 * - files: the sections split or refuse; split, each range lies in the
 *   text, in order (up before down), and applies/reversible say whether
 *   each holds a statement; refused, the byte at fault is in the text or
 *   nowhere (-1). The checksum is 16 hexadecimal digits, the same for the
 *   same bytes, and another for another byte.
 * - names: a migration's version is 14 digits and its NAME a part of the
 *   name; a NAME cleaned is cleaned again to itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/lake.h"
#include "support/fuzz_support.h"
#include "versioned/vfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count_cb(const pier__change *c, void *payload)
{
    size_t *n = payload;
    FZ_CHECK(c->op == 'i' || c->op == 'u' || c->op == 'd',
             "a change of kind '%c'", c->op);
    FZ_CHECK(c->table != NULL, "a change without a table");
    (*n)++;
    return 0;
}

static void changeset(const uint8_t *p, size_t n)
{
    const char *why = pier__changeset_why(p, n);
    size_t walked = 0;
    pier_error err;
    pier_status rc = pier__changeset_walk(p, n, count_cb, &walked, &err);
    char *json = NULL;
    pier_status jrc = pier_changeset_to_json(&json, NULL, p, n, &err);
    if (why != NULL) {
        FZ_CHECK(rc != PIER_OK, "a walk of bytes refused (%s)", why);
        FZ_CHECK(jrc != PIER_OK, "JSON of bytes refused (%s)", why);
        FZ_CHECK(json == NULL, "JSON handed out on a refusal");
        return;
    }
    FZ_CHECK(rc == PIER_OK, "a changeset accepted, its walk refused: %s",
             err.message);
    int64_t count = -1;
    FZ_OK(pier__changeset_count(p, n, &count, &err), &err);
    FZ_CHECK(count == (int64_t)walked, "count %lld, walked %zu",
             (long long)count, walked);
    FZ_CHECK(jrc == PIER_OK && json != NULL, "no JSON of a changeset: %s",
             err.message);
    size_t lines = 0;
    for (char *line = json; *line != '\0';) {
        char *end = strchr(line, '\n');
        FZ_CHECK(end != NULL, "a JSON line without its newline");
        json_error_t je;
        json_t *v = json_loadb(line, (size_t)(end - line), JSON_ALLOW_NUL,
                               &je);
        FZ_CHECK(json_is_object(v), "line %zu is no JSON object: %s", lines,
                 je.text);
        json_decref(v);
        lines++;
        line = end + 1;
    }
    FZ_CHECK(lines == walked, "%zu JSON lines for %zu changes", lines,
             walked);
    pier_free(json);
}

static void file(const uint8_t *p, size_t n)
{
    const char *text = (const char *)p;
    pier__vsections s;
    size_t at = 0;
    const char *why = pier__vfile_sections(text, n, &s, &at);
    if (why != NULL) {
        FZ_CHECK(at == (size_t)-1 || at <= n, "a fault at %zu of %zu", at,
                 n);
    } else {
        FZ_CHECK(s.up_line <= s.up && s.up + s.up_len <= n,
                 "up %zu+%zu of %zu", s.up, s.up_len, n);
        FZ_CHECK(s.down + s.down_len <= n, "down %zu+%zu of %zu", s.down,
                 s.down_len, n);
        FZ_CHECK(!s.has_down || s.up + s.up_len <= s.down,
                 "down before the end of up");
        FZ_CHECK(s.applies == pier__vfile_has_sql(text + s.up, s.up_len),
                 "applies says otherwise");
        FZ_CHECK(s.reversible ==
                     (s.has_down &&
                      pier__vfile_has_sql(text + s.down, s.down_len)),
                 "reversible says otherwise");
    }
    char a[17], b[17];
    pier__vfile_checksum(text, n, a);
    pier__vfile_checksum(text, n, b);
    FZ_CHECK(strlen(a) == 16 && strspn(a, "0123456789abcdef") == 16 &&
                 strcmp(a, b) == 0, "checksum '%s' then '%s'", a, b);
    if (n > 0) {
        char *other = malloc(n);
        FZ_CHECK(other != NULL, "out of memory");
        memcpy(other, text, n);
        other[n / 2] ^= 1;
        pier__vfile_checksum(other, n, b);
        free(other);
        FZ_CHECK(strcmp(a, b) != 0, "one byte changed, the same checksum");
    }
}

static void name(const uint8_t *p, size_t n)
{
    char *fname = malloc(n + 1);
    FZ_CHECK(fname != NULL, "out of memory");
    memcpy(fname, p, n);
    fname[n] = '\0';
    char version[15];
    const char *part = NULL, *why = NULL;
    size_t part_len = 0;
    pier__vfile_kind k = pier__vfile_name(fname, version, &part, &part_len,
                                          &why);
    if (k == PIER__VFILE_MIGRATION) {
        FZ_CHECK(strlen(version) == 14 &&
                     strspn(version, "0123456789") == 14,
                 "version '%s'", version);
        FZ_CHECK(part != NULL && part >= fname &&
                     part + part_len <= fname + strlen(fname),
                 "NAME outside the name");
    }
    char clean[PIER__VFILE_NAME_MAX + 1], again[PIER__VFILE_NAME_MAX + 1];
    if (pier__vfile_name_clean(fname, clean, sizeof clean) == NULL) {
        FZ_CHECK(pier__vfile_name_clean(clean, again, sizeof again) ==
                         NULL &&
                     strcmp(clean, again) == 0,
                 "'%s' cleaned to '%s', then to '%s'", fname, clean, again);
    }
    free(fname);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const uint8_t *p = data + 1;
    size_t n = size - 1;
    int form = data[0] == 'c' ? 0 : data[0] == 'f' ? 1
             : data[0] == 'n' ? 2 : data[0] % 3;
    if (form == 0)
        changeset(p, n);
    else if (form == 1)
        file(p, n);
    else
        name(p, n);
    return 0;
}
