/*
 * parse.c: one versioned migration file read without touching anything:
 * its name, its sections, its checksum, and versions to and from time
 * (vfile.h says the format). Pure; tests/unit/test_vfile.c covers it.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sql/lex.h"
#include "types/codecs.h"
#include "versioned/vfile.h"

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_name_byte(char c)
{
    return (c >= 'a' && c <= 'z') || is_digit(c) || c == '_';
}

/* ---- names ---- */

pier__vfile_kind pier__vfile_name(const char *fname, char *version,
                                  const char **name, size_t *name_len,
                                  const char **why)
{
    size_t n = strlen(fname);
    if (fname[0] == '.' || n < 4 || !pier__name_eq(fname + n - 4, 4,
                                                   ".sql", 4))
        return PIER__VFILE_IGNORED;
    const size_t v = PIER__VFILE_VERSION_DIGITS;
    size_t stem = n - 4;
    size_t digits = 0;
    while (digits < stem && is_digit(fname[digits]))
        digits++;
    if (memcmp(fname + stem, ".sql", 4) != 0)
        *why = "a migration file's name ends in .sql, in lowercase";
    else if (digits != v)
        *why = "a migration file's name starts with a version of 14 "
               "digits (YYYYMMDDHHMMSS), then '_' and a name";
    else if (stem < v + 2 || fname[v] != '_')
        *why = "a migration file's version is followed by '_' and a name";
    else if (stem - v - 1 > PIER__VFILE_NAME_MAX)
        *why = "a migration file's name (after the version) is longer "
               "than 100 bytes";
    else
        *why = NULL;
    if (*why == NULL) {
        char digits_only[PIER__VFILE_VERSION_DIGITS + 1];
        int64_t seconds;
        memcpy(digits_only, fname, v);
        digits_only[v] = '\0';
        if (!pier__vfile_version_time(digits_only, &seconds))
            *why = "a migration file's version is a UTC time, "
                   "YYYYMMDDHHMMSS: a year from 0001, a month from 01 to "
                   "12, a day the month has, hours to 23, minutes and "
                   "seconds to 59";
    }
    for (size_t i = v + 1; *why == NULL && i < stem; i++)
        if (!is_name_byte(fname[i]))
            *why = "a migration file's name (after the version) holds "
                   "only lowercase letters, digits and '_'";
    if (*why != NULL)
        return PIER__VFILE_BAD;
    memcpy(version, fname, v);
    version[v] = '\0';
    *name = fname + v + 1;
    *name_len = stem - v - 1;
    return PIER__VFILE_MIGRATION;
}

const char *pier__vfile_name_clean(const char *name, char *out, size_t cap)
{
    assert(cap > PIER__VFILE_NAME_MAX);
    (void)cap;
    size_t n = 0;
    bool gap = false;            /* a '_' is due before the next byte */
    for (const char *p = name; *p != '\0'; p++) {
        char c = *p;
        if (c == '_' || c == '-' || c == ' ') {
            gap = n > 0;
            continue;
        }
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (!is_name_byte(c))
            return "a name holds only letters, digits, '_', '-' and "
                   "spaces";
        if (n + (gap ? 2 : 1) > PIER__VFILE_NAME_MAX)
            return "a name is at most 100 bytes";
        if (gap)
            out[n++] = '_';
        gap = false;
        out[n++] = c;
    }
    if (n == 0)
        return "a name holds at least one letter or digit";
    out[n] = '\0';
    return NULL;
}

/* ---- sections ---- */

/* The first byte of a statement in text[0..len) (not white space, a
 * comment or a semicolon), or len when there is none. */
static size_t first_sql(const char *text, size_t len)
{
    size_t pos = 0;
    for (;;) {
        pier__token t;
        const char *why = NULL;
        pier__tk k = pier__sql_token(text, len, pos, &t, &why);
        if (k == PIER__TK_END)
            return len;
        if (k != PIER__TK_SEMI)
            return t.start;
        pos = t.end;
    }
}

bool pier__vfile_has_sql(const char *text, size_t len)
{
    return first_sql(text, len) < len;
}

typedef enum marker {
    MARK_NONE = 0,
    MARK_UP,
    MARK_DOWN,
    MARK_UNKNOWN               /* "-- migrate:" and something else */
} marker;

/* What the line text[0..n) (its end's blanks and '\r' cut) is. */
static marker marker_of(const char *s, size_t n)
{
    static const char tag[] = "migrate:";
    const size_t taglen = sizeof tag - 1;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
                     s[n - 1] == '\r'))
        n--;
    if (n < 2 || s[0] != '-' || s[1] != '-')
        return MARK_NONE;
    size_t i = 2;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (n - i < taglen || memcmp(s + i, tag, taglen) != 0)
        return MARK_NONE;
    i += taglen;
    if (n - i == 2 && memcmp(s + i, "up", 2) == 0)
        return MARK_UP;
    if (n - i == 4 && memcmp(s + i, "down", 4) == 0)
        return MARK_DOWN;
    return MARK_UNKNOWN;
}

const char *pier__vfile_sections(const char *text, size_t len,
                                 pier__vsections *out, size_t *at)
{
    memset(out, 0, sizeof *out);
    *at = (size_t)-1;
    const char *nul = memchr(text, '\0', len);
    if (nul != NULL) {
        *at = (size_t)(nul - text);
        return "the file holds a NUL byte";
    }
    bool has_up = false;
    size_t up_line = 0;          /* where the up marker's line starts */
    size_t down_line = len;
    /* a UTF-8 byte order mark, which editors may write, is not part of
     * the first line */
    size_t bom = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    for (size_t ls = bom; ls < len;) {
        const char *nl = memchr(text + ls, '\n', len - ls);
        size_t le = nl != NULL ? (size_t)(nl - text) : len;
        size_t next = nl != NULL ? le + 1 : len;
        marker m = marker_of(text + ls, le - ls);
        if (m == MARK_UNKNOWN) {
            *at = ls;
            return "an unknown marker line: the markers are "
                   "'-- migrate:up' and '-- migrate:down', each alone on "
                   "its line";
        }
        if (m == MARK_UP) {
            if (has_up) {
                *at = ls;
                return "a second '-- migrate:up' line: a file has one";
            }
            if (out->has_down) {
                *at = down_line;
                return "'-- migrate:down' comes before '-- migrate:up'";
            }
            has_up = true;
            up_line = ls;
            out->up = next;
        } else if (m == MARK_DOWN) {
            if (out->has_down) {
                *at = ls;
                return "a second '-- migrate:down' line: a file has at "
                       "most one";
            }
            out->has_down = true;
            down_line = ls;
            out->down = next;
        }
        ls = next;
    }
    if (!has_up) {
        if (out->has_down) {
            *at = down_line;
            return "'-- migrate:down' comes before '-- migrate:up'";
        }
        return "no '-- migrate:up' line: a migration file has a "
               "'-- migrate:up' section of SQL to apply";
    }
    /* Before the up marker: comments only (and the byte order mark). */
    size_t start = bom;
    if (start < up_line) {
        size_t stray = start + first_sql(text + start, up_line - start);
        if (stray < up_line) {
            *at = stray;
            return "SQL before '-- migrate:up', which would never run";
        }
    }
    out->up_len = (out->has_down ? down_line : len) - out->up;
    if (!out->has_down)
        out->down = len;
    out->down_len = len - out->down;
    out->up_line = up_line;
    out->applies = pier__vfile_has_sql(text + out->up, out->up_len);
    out->reversible = pier__vfile_has_sql(text + out->down, out->down_len);
    return NULL;
}

/* ---- checksums ---- */

void pier__vfile_checksum(const char *text, size_t len, char *out)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)text[i];
        h *= UINT64_C(0x100000001b3);
    }
    snprintf(out, 17, "%016" PRIx64, h);
}

/* ---- versions and time ---- */

bool pier__vfile_version_of(int64_t seconds, char *version)
{
    int64_t days = seconds / 86400, rest = seconds % 86400;
    if (rest < 0) {
        rest += 86400;
        days--;
    }
    int64_t y;
    int m, d;
    pier__civil_from_days(days, &y, &m, &d);
    if (y < 1 || y > 9999)
        return false;
    snprintf(version, PIER__VFILE_VERSION_DIGITS + 1,
             "%04d%02d%02d%02d%02d%02d", (int)y, m, d, (int)(rest / 3600),
             (int)(rest / 60 % 60), (int)(rest % 60));
    return true;
}

/* The number of `n` digits at s. */
static int digits_at(const char *s, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++)
        v = v * 10 + (s[i] - '0');
    return v;
}

bool pier__vfile_version_time(const char *version, int64_t *seconds)
{
    for (int i = 0; i < PIER__VFILE_VERSION_DIGITS; i++)
        if (!is_digit(version[i]))
            return false;
    if (version[PIER__VFILE_VERSION_DIGITS] != '\0')
        return false;
    int y = digits_at(version, 4), m = digits_at(version + 4, 2),
        d = digits_at(version + 6, 2), h = digits_at(version + 8, 2),
        mi = digits_at(version + 10, 2), s = digits_at(version + 12, 2);
    if (y < 1 || m < 1 || m > 12 || d < 1 || h > 23 || mi > 59 || s > 59)
        return false;
    /* A day the month does not have comes back as another date. */
    int64_t days = pier__days_from_civil(y, m, d), yy;
    int mm, dd;
    pier__civil_from_days(days, &yy, &mm, &dd);
    if (yy != y || mm != m || dd != d)
        return false;
    *seconds = days * 86400 + h * 3600 + mi * 60 + s;
    return true;
}
