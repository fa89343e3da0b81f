/*
 * complete.c: the candidates of the shell's Tab (complete.h).
 *
 * Pure: it reads the line and the names it is given, and allocates the
 * candidates; no I/O, no engine. A word here is a run of letters, digits,
 * '_' and bytes past ASCII (so a UTF-8 name is one word); a dot-command's
 * arguments are separated by blanks, as the shell splits them.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "complete.h"

/* The dot-commands, and what each argument is: 'b' a board, 'd' a board
 * or a declared table, 'f' a file, 'm' an output mode, 'o' on or off; a
 * final '*' repeats the kind before it. The shell's .help lists the same
 * commands (shell.c). */
static const struct {
    const char *name;
    const char *args;
} dot_commands[] = {
    { "boards", "" },   { "dump", "d" },     { "exit", "" },
    { "format", "m" },  { "headers", "o" },  { "help", "" },
    { "import", "fb" }, { "mode", "m" },     { "once", "f" },
    { "output", "f" },  { "pager", "o" },    { "param", "" },
    { "quit", "" },     { "read", "f" },     { "schema", "b" },
    { "sql", "o" },     { "tables", "" },    { "timer", "o" },
    { "use", "b" },     { "with", "b*" },    { "with-table", "t*" },
};

static const char *const modes[] = { "box", "csv", "json", "jsonl",
                                     "table" };
static const char *const on_off[] = { "off", "on" };

/* SQL words worth a Tab: those of queries, and of the dialect's
 * statements (docs/sql.md). */
static const char *const keywords[] = {
    "ALL", "ALTER", "AND", "AS", "ASC", "AVG", "BEGIN", "BETWEEN", "BY",
    "CASE", "CAST", "CHECK", "COMMIT", "CONFLICT", "COUNT", "CREATE",
    "CROSS", "DEFAULT", "DELETE", "DESC", "DISTINCT", "DROP", "ELSE", "END",
    "EXCEPT", "EXISTS", "FROM", "GLOB", "GROUP", "HAVING", "IN", "INDEX",
    "INNER", "INSERT", "INTERSECT", "INTO", "IS", "JOIN", "KEY", "LEFT",
    "LIKE", "LIMIT", "MAX", "MIN", "NOT", "NULL", "OFFSET", "ON", "OR",
    "ORDER", "PRIMARY", "REFERENCES", "RETURNING", "ROLLBACK", "SELECT",
    "SET", "SUM", "TABLE", "THEN", "UNION", "UNIQUE", "UPDATE", "USING",
    "VALUES", "VIEW", "WHEN", "WHERE", "WITH",
};

#define COUNT(a) (sizeof (a) / sizeof *(a))

/* The candidates being gathered. */
typedef struct gather {
    char **items;
    size_t n, cap;
    const char *prefix;      /* what a candidate must start with */
    size_t prefix_len;
    bool failed;             /* out of memory */
} gather;

static bool word_byte(char c)
{
    unsigned char u = (unsigned char)c;
    return u >= 0x80 || u == '_' || (u >= '0' && u <= '9') ||
           ((u | 0x20) >= 'a' && (u | 0x20) <= 'z');
}

/* Adds `head` then `tail` (may be NULL) as one candidate, if `head`
 * starts with the prefix (case aside). */
static void add2(gather *g, const char *head, const char *tail)
{
    if (g->failed || strlen(head) < g->prefix_len ||
        strncasecmp(head, g->prefix, g->prefix_len) != 0)
        return;
    if (g->n == g->cap) {
        size_t cap = g->cap > 0 ? g->cap * 2 : 16;
        char **grown = realloc(g->items, cap * sizeof *grown);
        if (grown == NULL) {
            g->failed = true;
            return;
        }
        g->items = grown;
        g->cap = cap;
    }
    size_t a = strlen(head), b = tail != NULL ? strlen(tail) : 0;
    char *s = malloc(a + b + 1);
    if (s == NULL) {
        g->failed = true;
        return;
    }
    memcpy(s, head, a);
    if (b > 0)
        memcpy(s + a, tail, b);
    s[a + b] = '\0';
    g->items[g->n++] = s;
}

static void add(gather *g, const char *word)
{
    add2(g, word, NULL);
}

static void add_all(gather *g, const char *const *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        add(g, words[i]);
}

/* A keyword, in lower case when the prefix starts in lower case. */
static void add_keyword(gather *g, const char *kw)
{
    char lower[16];
    bool low = g->prefix_len > 0 && g->prefix[0] >= 'a' &&
               g->prefix[0] <= 'z';
    size_t n = strlen(kw);
    if (!low || n >= sizeof lower) {
        add(g, kw);
        return;
    }
    for (size_t i = 0; i <= n; i++)
        lower[i] = (char)(kw[i] >= 'A' && kw[i] <= 'Z' ? kw[i] | 0x20
                                                        : kw[i]);
    add(g, lower);
}

/* ---- which columns ---- */

/* The owners whose columns a word may be: a set of names, small. */
typedef struct owners {
    const char *name[32];
    size_t len[32];
    size_t n;
} owners;

static void own(owners *o, const char *name, size_t len)
{
    for (size_t i = 0; i < o->n; i++)
        if (o->len[i] == len && strncasecmp(o->name[i], name, len) == 0)
            return;
    if (o->n < COUNT(o->name)) {
        o->name[o->n] = name;
        o->len[o->n++] = len;
    }
}

/* Whether `name` (len bytes) is one of `list`'s, case aside; *which
 * gets it. */
static bool listed(const char *const *list, size_t n, const char *name,
                   size_t len, const char **which)
{
    for (size_t i = 0; i < n; i++) {
        if (strlen(list[i]) == len && strncasecmp(list[i], name, len) == 0) {
            *which = list[i];
            return true;
        }
    }
    return false;
}

/* The boards and tables the line names, but for the bytes [skip_from,
 * skip_to) (the word being completed): {{board}} (the current board),
 * {{board:NAME}}, and a word that is a board's or a table's name. */
static void named_owners(owners *o, const char *line, size_t skip_from,
                         size_t skip_to, const cli_names *names)
{
    static const char tmpl[] = "{{board";
    size_t len = strlen(line);
    for (size_t i = 0; i < len;) {
        if (i == skip_from && skip_to > skip_from) {
            i = skip_to;
            continue;
        }
        if (strncmp(line + i, tmpl, sizeof tmpl - 1) == 0) {
            size_t p = i + sizeof tmpl - 1;
            if (strncmp(line + p, "}}", 2) == 0 && names->board != NULL)
                own(o, names->board, strlen(names->board));
            i = p;
            continue;
        }
        if (!word_byte(line[i])) {
            i++;
            continue;
        }
        size_t end = i;
        while (end < len && word_byte(line[end]) && end != skip_from)
            end++;
        const char *which = NULL;
        if (listed(names->boards, names->nboards, line + i, end - i,
                   &which) ||
            listed(names->tables, names->ntables, line + i, end - i,
                   &which))
            own(o, which, strlen(which));
        i = end;
    }
}

/* Adds the columns of the owners, or of all when there are none. */
static void add_columns(gather *g, const owners *o,
                        const cli_names *names)
{
    for (size_t i = 0; i < names->ncolumns; i++) {
        const cli_owned_column *c = &names->columns[i];
        bool mine = o->n == 0;
        for (size_t k = 0; !mine && k < o->n; k++)
            mine = strlen(c->owner) == o->len[k] &&
                   strncasecmp(c->owner, o->name[k], o->len[k]) == 0;
        if (mine)
            add(g, c->name);
    }
}

/* ---- the contexts ---- */

/* After a dot-command: the argument that ends at the cursor. */
static void dot_argument(gather *g, cli_completion *out, const char *line,
                         size_t cmd_start, size_t cursor,
                         const cli_names *names)
{
    size_t cmd_end = cmd_start + strcspn(line + cmd_start, " \t");
    const char *args = NULL;
    for (size_t i = 0; i < COUNT(dot_commands); i++) {
        size_t n = strlen(dot_commands[i].name);
        if (n == cmd_end - cmd_start - 1 &&
            strncmp(line + cmd_start + 1, dot_commands[i].name, n) == 0)
            args = dot_commands[i].args;
    }
    size_t start = cursor;
    while (start > cmd_end && line[start - 1] != ' ' &&
           line[start - 1] != '\t')
        start--;
    size_t index = 0;              /* arguments before this one */
    for (size_t i = cmd_end; i < start; i++)
        if ((line[i] == ' ' || line[i] == '\t') && i + 1 < start &&
            line[i + 1] != ' ' && line[i + 1] != '\t')
            index++;
    out->start = start;
    g->prefix = line + start;
    g->prefix_len = cursor - start;
    if (args == NULL)
        return;
    size_t nargs = strlen(args);
    char kind = index < nargs && args[index] != '*' ? args[index]
                : nargs >= 2 && args[nargs - 1] == '*' ? args[nargs - 2]
                                                      : '\0';
    switch (kind) {
    case 'b':
        add_all(g, names->boards, names->nboards);
        break;
    case 'd':
        add_all(g, names->boards, names->nboards);
        add_all(g, names->tables, names->ntables);
        break;
    case 't':
        add_all(g, names->tables, names->ntables);
        break;
    case 'f':
        out->kind = CLI_COMPLETE_FILES;
        break;
    case 'm':
        add_all(g, modes, COUNT(modes));
        break;
    case 'o':
        add_all(g, on_off, COUNT(on_off));
        break;
    default:
        break;
    }
}

/* In a query or statement: the word that ends at the cursor. */
static void sql_word(gather *g, cli_completion *out, const char *line,
                     size_t cursor, const cli_names *names)
{
    static const char tmpl[] = "{{board:";
    size_t start = cursor;
    while (start > 0 && word_byte(line[start - 1]))
        start--;
    out->start = start;
    g->prefix = line + start;
    g->prefix_len = cursor - start;
    size_t t = sizeof tmpl - 1;
    if (start >= t && strncmp(line + start - t, tmpl, t) == 0) {
        for (size_t i = 0; i < names->nboards; i++)
            add2(g, names->boards[i], "}}");
        return;
    }
    if (start >= 2 && strncmp(line + start - 2, "{{", 2) == 0) {
        add(g, "board}}");
        for (size_t i = 0; i < names->nboards; i++) {
            size_t n = strlen(names->boards[i]);
            char *s = malloc(n + sizeof "board:}}");
            if (s == NULL) {
                g->failed = true;
                return;
            }
            memcpy(s, "board:", 6);
            memcpy(s + 6, names->boards[i], n);
            memcpy(s + 6 + n, "}}", 3);
            add(g, s);
            free(s);
        }
        return;
    }
    owners o = { .n = 0 };
    bool qualified = start > 0 && line[start - 1] == '.';
    if (qualified) {               /* NAME.col: NAME's columns if known */
        size_t q = start - 1;
        while (q > 0 && word_byte(line[q - 1]))
            q--;
        const char *which = NULL;
        if (listed(names->boards, names->nboards, line + q, start - 1 - q,
                   &which) ||
            listed(names->tables, names->ntables, line + q, start - 1 - q,
                   &which))
            own(&o, which, strlen(which));
    }
    if (o.n == 0)
        named_owners(&o, line, start, cursor, names);
    if (o.n == 0 && !names->sql_mode && names->board != NULL)
        own(&o, names->board, strlen(names->board));
    add_columns(g, &o, names);
    if (qualified)
        return;
    for (size_t i = 0; i < COUNT(keywords); i++)
        add_keyword(g, keywords[i]);
    add_all(g, names->boards, names->nboards);
    add_all(g, names->tables, names->ntables);
}

static int by_bytes(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool cli_complete(cli_completion *out, const char *line, size_t cursor,
                  const cli_names *names)
{
    memset(out, 0, sizeof *out);
    size_t len = strlen(line);
    if (cursor > len)
        cursor = len;
    gather g = { .prefix = "" };
    size_t lead = strspn(line, " \t");
    if (lead < cursor && line[lead] == '.') {
        size_t cmd_end = lead + strcspn(line + lead, " \t");
        if (cursor <= cmd_end) {   /* the command itself */
            out->start = lead;
            g.prefix = line + lead;
            g.prefix_len = cursor - lead;
            for (size_t i = 0; i < COUNT(dot_commands); i++) {
                char dotted[16] = ".";
                strncat(dotted, dot_commands[i].name, sizeof dotted - 2);
                add(&g, dotted);
            }
        } else {
            dot_argument(&g, out, line, lead, cursor, names);
        }
    } else {
        sql_word(&g, out, line, cursor, names);
    }
    if (g.failed) {
        for (size_t i = 0; i < g.n; i++)
            free(g.items[i]);
        free(g.items);
        memset(out, 0, sizeof *out);
        return false;
    }
    if (g.n > 1)
        qsort(g.items, g.n, sizeof *g.items, by_bytes);
    size_t kept = 0;
    for (size_t i = 0; i < g.n; i++) {
        if (kept > 0 && strcmp(g.items[kept - 1], g.items[i]) == 0)
            free(g.items[i]);
        else
            g.items[kept++] = g.items[i];
    }
    out->items = kept > 0 ? g.items : NULL;
    if (kept == 0)
        free(g.items);
    out->n = kept;
    out->closed = out->kind == CLI_COMPLETE_WORDS;
    return true;
}

void cli_completion_free(cli_completion *c)
{
    if (c == NULL)
        return;
    for (size_t i = 0; i < c->n; i++)
        free(c->items[i]);
    free(c->items);
    memset(c, 0, sizeof *c);
}
