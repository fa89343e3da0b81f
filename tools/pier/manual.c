/*
 * manual.c: the man page pier(1) and the bash and zsh completions, made
 * from the command table and the texts of `pier --help` (main.c), so
 * that none of them can drift from what the command accepts. The build
 * runs `pier help --man` and `pier help --completion SHELL` and installs
 * their output (CMakeLists.txt).
 *
 * The completions learn each command's options and subcommands from its
 * usage line, which therefore keeps to a grammar: alternatives are
 * separated by '|'; a top-level " | " separates the forms of a command
 * whose first word is a subcommand (`schema NAME | dump | export`); an
 * option is "--name", "[--name]" (a flag) or "[--name VALUE]" (it takes
 * one); a VALUE of lowercase alternatives lists its choices, DIR names a
 * directory and FILE a file. The global options come from the lines of
 * cli_help_options that start with "  -".
 */
#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- the man page ---- */

/* Writes `s` as roff text: backslashes and hyphens escaped (a '-' is a
 * hyphen to roff, "\-" the minus of an option), a line that would start
 * with a control character guarded by "\&", '"' as "\(dq" when `quoted`
 * (inside a macro's quoted argument). */
static void roff(FILE *f, const char *s, bool quoted)
{
    bool line_start = true;
    for (; *s != '\0'; s++) {
        if (line_start && (*s == '.' || *s == '\''))
            fputs("\\&", f);
        line_start = *s == '\n';
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else if (*s == '"' && quoted)
            fputs("\\(dq", f);
        else
            fputc(*s, f);
    }
}

/* A block shown as it is in --help: its line breaks and indentation are
 * the layout. */
static void roff_block(FILE *f, const char *s)
{
    fputs(".PP\n.nf\n", f);
    roff(f, s, false);
    fputs(".fi\n", f);
}

void cli_print_man(FILE *f)
{
    size_t n = 0;
    const cli_command *const *cmds = cli_commands(&n);
    fprintf(f, ".\\\" pier(1), made by `pier help --man` from the command's "
            "own help.\n.TH PIER 1 \"\" \"pier %s\" \"User Commands\"\n"
            ".nh\n",
            pier_version());
    fputs(".SH NAME\npier \\- keep many user\\-defined tables (boards) in "
          "one data directory\n", f);
    fputs(".SH SYNOPSIS\n.B pier\n"
          "[\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]\n", f);
    fputs(".SH DESCRIPTION\n", f);
    roff(f, cli_help_intro, false);
    fputs(".PP\nResults go to stdout, diagnostics to stderr, one line "
          "each:\n.B pier: error:\n\\fITag\\fR: \\fImessage\\fR.\n"
          "Each command is described below as\n.B pier\n"
          "\\fICOMMAND\\fR \\fB\\-\\-help\\fR prints it.\n", f);
    fputs(".SH OPTIONS\nThe global options may come before the command or "
          "after it.\n", f);
    roff_block(f, cli_help_options);
    fputs(".SH COMMANDS\n", f);
    for (size_t i = 0; i < n; i++) {
        fputs(".SS \"", f);
        roff(f, cmds[i]->name, true);
        if (cmds[i]->usage[0] != '\0') {
            fputc(' ', f);
            roff(f, cmds[i]->usage, true);
        }
        fputs("\"\n", f);
        roff(f, cmds[i]->summary, false);
        fputs(".\n", f);
        roff_block(f, cmds[i]->help);
    }
    fputs(".SH ENVIRONMENT\n", f);
    roff_block(f, cli_help_environment);
    fputs(".SH EXIT STATUS\n", f);
    roff(f, cli_help_exit, false);
    fputs(".SH SEE ALSO\n.BR sqlite3 (1),\n.BR psql (1);\n"
          "Pier's documentation: docs/cli.md and docs/api.md in its "
          "sources.\n", f);
}

/* ---- what the completions know ---- */

/* Room for what the table holds now, with slack: the most options a
 * command has is 12 (query), the globals are 13, and the options that take
 * a value, over every command, 27; the longest name is 22 bytes, the
 * longest choices 18, the longest subcommands 19. A table that outgrows
 * them fails an assert when the (Debug) test build makes the scripts. */
#define MAX_OPTS 48
#define OPT_NAME 32
#define OPT_CHOICES 64
#define WORDS 96

typedef struct opt_info {
    char name[OPT_NAME];        /* "--after", "-f" */
    bool valued;                /* takes the next argument */
    char kind;                  /* its value: 'd' a directory, 'f' a file,
                                   'c' one of `choices`, 0 anything */
    char choices[OPT_CHOICES];  /* space-separated */
} opt_info;

typedef struct cmd_info {
    opt_info opts[MAX_OPTS];
    size_t nopts;
    char words[WORDS];          /* its subcommands, space-separated */
    bool board;                 /* its first argument names a board */
    int max_args;               /* the arguments it takes; -1: any number */
} cmd_info;

/* Copies the word [s, e) into out (`size` bytes) after a space unless it
 * is already there. */
static void add_word(char *out, size_t size, const char *s, size_t len)
{
    size_t have = strlen(out);
    for (const char *p = out; *p != '\0';) {
        size_t w = strcspn(p, " ");
        if (w == len && strncmp(p, s, len) == 0)
            return;
        p += w + (p[w] == ' ');
    }
    assert(have + len + 2 <= size);
    if (have + len + 2 > size)
        return;
    if (have > 0)
        out[have++] = ' ';
    memcpy(out + have, s, len);
    out[have + len] = '\0';
}

static bool lower_word(const char *s, size_t len)
{
    if (len == 0 || !islower((unsigned char)s[0]))
        return false;
    for (size_t i = 0; i < len; i++)
        if (!islower((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) &&
            s[i] != '-' && s[i] != '_')
            return false;
    return true;
}

/* The kind of value a placeholder asks for; choices go to `choices`. */
static char value_kind(const char *v, size_t len, char *choices)
{
    if (len >= 3 && strncmp(v, "DIR", 3) == 0)
        return 'd';
    if (len >= 4 && strncmp(v, "FILE", 4) == 0)
        return 'f';
    size_t i = 0;
    bool any = false;
    while (i < len) {
        size_t w = i;
        while (w < len && v[w] != '|')
            w++;
        if (!lower_word(v + i, w - i))
            return 0;
        add_word(choices, OPT_CHOICES, v + i, w - i);
        any = true;
        i = w + 1;
    }
    return any ? 'c' : 0;
}

static opt_info *add_opt(cmd_info *c, const char *name, size_t len)
{
    assert(len < OPT_NAME);
    if (len >= OPT_NAME)
        return NULL;
    for (size_t i = 0; i < c->nopts; i++)
        if (strlen(c->opts[i].name) == len &&
            strncmp(c->opts[i].name, name, len) == 0)
            return &c->opts[i];
    assert(c->nopts < MAX_OPTS);
    if (c->nopts == MAX_OPTS)
        return NULL;
    opt_info *o = &c->opts[c->nopts++];
    memset(o, 0, sizeof *o);
    memcpy(o->name, name, len);
    return o;
}

/* A token of a usage line: [s, s + len), brackets and "..." stripped;
 * `open` says it had a '[' without its ']'. */
typedef struct token {
    const char *s;
    size_t len;
    bool bracketed, open;
    bool many;              /* it ended with "...": it may repeat */
} token;

static size_t next_token(const char *u, size_t i, token *t)
{
    while (u[i] == ' ')
        i++;
    size_t start = i;
    while (u[i] != '\0' && u[i] != ' ')
        i++;
    const char *s = u + start;
    size_t len = i - start;
    t->bracketed = len > 0 && s[0] == '[';
    if (t->bracketed) {
        s++;
        len--;
    }
    t->many = len >= 3 && strncmp(s + len - 3, "...", 3) == 0;
    while (len >= 3 && strncmp(s + len - 3, "...", 3) == 0)
        len -= 3;
    bool closed = len > 0 && s[len - 1] == ']';
    if (closed)
        len--;
    while (len >= 3 && strncmp(s + len - 3, "...", 3) == 0)
        len -= 3;
    t->open = t->bracketed && !closed;
    t->s = s;
    t->len = len;
    return i;
}

/* Reads a command's options, subcommands and whether its first argument
 * is a board from its usage line (the grammar at the top). */
static void read_usage(cmd_info *c, const char *u)
{
    token t, v;
    bool segment_start = true, first = true;
    size_t i = 0;
    c->max_args = 0;
    while (u[i] != '\0') {
        i = next_token(u, i, &t);
        if (t.len == 0)
            continue;
        if (t.len == 1 && t.s[0] == '|' && !t.bracketed) {
            segment_start = true;
            c->max_args = -1;       /* forms of their own: any */
            continue;
        }
        if (c->max_args >= 0 && t.s[0] != '-')
            c->max_args = t.many ? -1 : c->max_args + 1;
        /* The alternatives of this token. */
        opt_info *last = NULL;
        for (size_t a = 0; a < t.len;) {
            size_t w = a;
            while (w < t.len && t.s[w] != '|')
                w++;
            const char *alt = t.s + a;
            size_t alen = w - a;
            size_t eq = 0;
            while (eq < alen && alt[eq] != '=')
                eq++;
            size_t letter = alen > 1 && alt[1] == '-' ? 2 : 1;
            if (alen > letter && alt[0] == '-' &&
                isalpha((unsigned char)alt[letter]))
                last = add_opt(c, alt, eq);
            else if (segment_start && lower_word(alt, alen))
                add_word(c->words, WORDS, alt, alen);
            else if (first && ((alen == 5 && strncmp(alt, "BOARD", 5) == 0) ||
                               (alen == 4 && strncmp(alt, "NAME", 4) == 0)))
                c->board = true;
            a = w + 1;
        }
        first = false;
        segment_start = false;
        /* An option that takes the next token as its value. */
        if (last != NULL && (t.open || (!t.bracketed && u[i] != '\0'))) {
            size_t j = next_token(u, i, &v);
            if (v.len > 0 && v.s[0] != '-' && !(v.len == 1 && v.s[0] == '|')
                && (t.open || !v.bracketed)) {
                last->valued = true;
                last->kind = value_kind(v.s, v.len, last->choices);
                i = j;
            }
        }
    }
}

/* The global options, from the lines of cli_help_options that name one:
 * "  --data DIR", "  --auto-create=on-write|never", "  --json". */
static void read_globals(cmd_info *g)
{
    memset(g, 0, sizeof *g);
    for (const char *p = cli_help_options; *p != '\0';) {
        size_t len = strcspn(p, "\n");
        if (len > 3 && strncmp(p, "  -", 3) == 0) {
            const char *s = p + 2;
            size_t n = strcspn(s, " =\n");
            opt_info *o = add_opt(g, s, n);
            bool valued = s[n] == '=' || (s[n] == ' ' && s[n + 1] != ' ');
            if (o != NULL && valued) {
                const char *v = s + n + 1;
                o->valued = true;
                o->kind = value_kind(v, strcspn(v, " \n"), o->choices);
            }
        }
        p += len + (p[len] == '\n');
    }
}

/* The names of `c`'s options, space-separated; with `valued`, only those
 * that take a value. */
static void print_names(FILE *f, const cmd_info *c, bool valued)
{
    bool any = false;
    for (size_t i = 0; i < c->nopts; i++) {
        if (valued && !c->opts[i].valued)
            continue;
        fprintf(f, "%s%s", any ? " " : "", c->opts[i].name);
        any = true;
    }
}

/* Every option of the globals and the commands that takes a value, once,
 * with its kind (the first definition of a name wins). */
static void collect_valued(cmd_info *all, const cmd_info *g,
                           const cmd_info *cmds, size_t n)
{
    memset(all, 0, sizeof *all);
    for (size_t k = 0; k <= n; k++) {
        const cmd_info *c = k == 0 ? g : &cmds[k - 1];
        for (size_t i = 0; i < c->nopts; i++) {
            const opt_info *o = &c->opts[i];
            if (!o->valued)
                continue;
            size_t before = all->nopts;
            opt_info *to = add_opt(all, o->name, strlen(o->name));
            if (to != NULL && all->nopts > before)
                *to = *o;
        }
    }
}

/* The case arms that complete an option's value, one line each. */
static void print_value_arms(FILE *f, const cmd_info *all)
{
    const char *kinds = "dfc";
    for (const char *k = kinds; *k != '\0'; k++) {
        for (size_t i = 0; i < all->nopts; i++) {
            const opt_info *o = &all->opts[i];
            if (o->kind != *k)
                continue;
            fprintf(f, "        %s)", o->name);
            if (*k == 'c')
                fprintf(f, " _pier_add \"%s\"", o->choices);
            else
                fprintf(f, " _pier_files -%c", *k);
            fputs(" ;;\n", f);
        }
    }
}

/* `case $cmd in NAME) opts=...; words=...; board=...;; esac`. */
static void print_command_arms(FILE *f, const cli_command *const *cmds,
                               const cmd_info *info, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "    %s) opts=\"", cmds[i]->name);
        print_names(f, &info[i], false);
        fprintf(f, "\"; words=\"%s\"; board=%d; max=%d ;;\n",
                info[i].words, info[i].board ? 1 : 0, info[i].max_args);
    }
}

/* The logic both shells share, in the syntax both accept: `ws` holds the
 * words of the line (ws[0] the program), `cw` the index of the one being
 * completed; _pier_add, _pier_files and _pier_boards_add are the
 * shell's own. */
static void print_body(FILE *f, const cli_command *const *cmds,
                       const cmd_info *info, size_t n, const cmd_info *g,
                       const cmd_info *all)
{
    fputs("    local cur=${ws[cw]} prev= opt= w cmd= at=0 i npos=0\n"
          "    local opts= words= board=0 max=-1\n", f);
    fputs("    local globals=\"", f);
    print_names(f, g, false);
    fputs("\"\n    local valued=\" ", f);
    print_names(f, all, true);
    fputs(" \"\n    local commands=\"", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s", i > 0 ? " " : "", cmds[i]->name);
    fputs("\"\n", f);
    /* bash splits "--opt=value" at '=': the option is before it. */
    fputs("    (( cw > 0 )) && prev=${ws[cw-1]}\n"
          "    if [[ $cur == = ]]; then\n"
          "        opt=$prev; cur=\n"
          "    elif [[ $prev == = ]] && (( cw > 1 )); then\n"
          "        opt=${ws[cw-2]}\n"
          "    elif [[ $cur == -*=* ]]; then\n"
          "        opt=${cur%%=*}; cur=${cur#*=}\n"
          "    else\n"
          "        opt=$prev\n"
          "    fi\n", f);
    fputs("    if [[ $valued == *\" $opt \"* ]]; then\n"
          "        case $opt in\n", f);
    print_value_arms(f, all);
    fputs("        esac\n        return 0\n    fi\n", f);
    /* The command, and the arguments before the word completed. */
    fputs("    for (( i = 1; i < cw; i++ )); do\n"
          "        w=${ws[i]}\n"
          "        if [[ $w == -* ]]; then\n"
          "            if [[ ${ws[i+1]} == = ]]; then\n"
          "                (( i += 2 ))\n"
          "            elif [[ $valued == *\" $w \"* ]]; then\n"
          "                (( i += 1 ))\n"
          "            fi\n"
          "        elif [[ -z $cmd ]]; then\n"
          "            cmd=$w; at=$i\n"
          "        else\n"
          "            (( npos += 1 ))\n"
          "        fi\n"
          "    done\n", f);
    fputs("    if [[ -z $cmd ]]; then\n"
          "        if [[ $cur == -* ]]; then _pier_add \"$globals\"\n"
          "        else _pier_add \"$commands\"; fi\n"
          "        return 0\n"
          "    fi\n"
          "    case $cmd in\n", f);
    print_command_arms(f, cmds, info, n);
    fputs("    *) return 0 ;;\n    esac\n", f);
    fputs("    if [[ $cur == -* ]]; then\n"
          "        _pier_add \"$opts $globals\"\n"
          "    elif [[ $cmd == help ]]; then\n"
          "        (( npos == 0 )) && _pier_add \"$commands\"\n"
          "    elif (( npos == 0 )) && [[ -n $words || $board == 1 ]]; then\n"
          "        [[ -n $words ]] && _pier_add \"$words\"\n"
          "        (( board )) && _pier_boards_add\n"
          "        [[ -z $words ]] && (( ! board )) && _pier_files -f\n"
          "    elif (( max >= 0 && npos >= max )); then\n"
          "        :\n"
          "    else\n"
          "        _pier_files -f\n"
          "    fi\n"
          "    return 0\n", f);
}

/* The boards of the lake the line names (--data, --lake, --cache-dir),
 * from `pier boards`; nothing when there is no such lake. */
static const char boards_fn[] =
    "_pier_boards()\n"
    "{\n"
    "    local -a where\n"
    "    local i w\n"
    "    where=()\n"
    "    for (( i = 1; i < cw; i++ )); do\n"
    "        w=${ws[i]}\n"
    "        case $w in\n"
    "        --data|--lake|--cache-dir)\n"
    "            if [[ ${ws[i+1]} == = ]]; then\n"
    "                where+=(\"$w\" \"${ws[i+2]}\"); (( i += 2 ))\n"
    "            else\n"
    "                where+=(\"$w\" \"${ws[i+1]}\"); (( i += 1 ))\n"
    "            fi ;;\n"
    "        --data=*|--lake=*|--cache-dir=*) where+=(\"$w\") ;;\n"
    "        esac\n"
    "    done\n"
    "    \"${ws[0]}\" \"${where[@]}\" boards 2>/dev/null\n"
    "}\n";

static void print_bash(FILE *f, const cmd_info *info, size_t n,
                               const cmd_info *g, const cmd_info *all)
{
    size_t ncmds = 0;
    const cli_command *const *cmds = cli_commands(&ncmds);
    fputs("# bash completion for pier(1), made by `pier help --completion "
          "bash`\n# from the command's own table: commands, global "
          "options, each\n# command's options and subcommands, and the "
          "boards of the lake\n# that --data or --lake on the line names "
          "(else $PIER_DATA's).\n\n", f);
    fputs("_pier_add()\n{\n"
          "    local IFS=$' \\t\\n'\n"
          "    COMPREPLY+=($(compgen -W \"$1\" -- \"$cur\"))\n}\n\n", f);
    fputs("_pier_files()\n{\n"
          "    local IFS=$'\\n'\n"
          "    COMPREPLY+=($(compgen \"$1\" -- \"$cur\"))\n}\n\n", f);
    fputs(boards_fn, f);
    fputs("\n_pier_boards_add()\n{\n"
          "    local IFS=$'\\n'\n"
          "    COMPREPLY+=($(compgen -W \"$(_pier_boards)\" -- \"$cur\"))\n"
          "}\n\n", f);
    fputs("_pier()\n{\n"
          "    local -a ws=(\"${COMP_WORDS[@]}\")\n"
          "    local cw=$COMP_CWORD\n"
          "    COMPREPLY=()\n", f);
    print_body(f, cmds, info, n, g, all);
    fputs("}\n\ncomplete -F _pier pier\n", f);
}

static void print_zsh(FILE *f, const cmd_info *info, size_t n,
                              const cmd_info *g, const cmd_info *all)
{
    size_t ncmds = 0;
    const cli_command *const *cmds = cli_commands(&ncmds);
    fputs("#compdef pier\n"
          "# zsh completion for pier(1), made by `pier help --completion "
          "zsh`\n# from the command's own table (see the bash one).\n\n",
          f);
    fputs("_pier_add() { compadd -- ${=1} }\n"
          "_pier_files() {\n"
          "    if [[ $1 == -d ]]; then _directories; else _files; fi\n"
          "}\n\n", f);
    fputs(boards_fn, f);
    fputs("\n_pier_boards_add() {\n"
          "    local -a b\n"
          "    b=(${(f)\"$(_pier_boards)\"})\n"
          "    (( ${#b[@]} )) && compadd -- \"${b[@]}\"\n"
          "}\n\n", f);
    fputs("_pier() {\n"
          "    emulate -L zsh\n"
          "    setopt ksh_arrays\n"
          "    local -a ws\n"
          "    ws=(\"${words[@]}\")\n"
          "    local cw=$(( CURRENT - 1 ))\n", f);
    print_body(f, cmds, info, n, g, all);
    fputs("}\n\n"
          "if [[ ${funcstack[1]} == _pier ]]; then\n"
          "    _pier \"$@\"\n"
          "else\n"
          "    compdef _pier pier\n"
          "fi\n", f);
}

int cli_print_completion(FILE *f, const char *shell)
{
    size_t n = 0;
    const cli_command *const *cmds = cli_commands(&n);
    cmd_info *info = calloc(n, sizeof *info);
    cmd_info *g = malloc(sizeof *g), *all = malloc(sizeof *all);
    int rc = 0;
    if (info == NULL || g == NULL || all == NULL) {
        rc = -1;
        goto done;
    }
    read_globals(g);
    for (size_t i = 0; i < n; i++)
        read_usage(&info[i], cmds[i]->usage);
    collect_valued(all, g, info, n);
    if (strcmp(shell, "bash") == 0)
        print_bash(f, info, n, g, all);
    else
        print_zsh(f, info, n, g, all);
done:
    free(info);
    free(g);
    free(all);
    return rc;
}
