/*
 * output.c: how the pier command prints: diagnostics, watermarks and
 * counts, JSON strings, instants and aligned tables.
 *
 * Invariants: results go to stdout, diagnostics to stderr; every
 * diagnostic is one line of text (the usage "Try" hint aside), its
 * control bytes and invalid UTF-8 escaped; whatever bytes a message or a
 * value holds, --json output stays valid JSON and a table cell stays on
 * one line.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- UTF-8 ---- */

/* The length of the valid UTF-8 sequence at s (n bytes left), or 0 if the
 * byte at s does not start one (overlongs and surrogates are invalid). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;   /* bounds of the second byte */
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return len;
}

/* ---- JSON ---- */

void cli_json_string(FILE *f, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    for (size_t i = 0; i < len;) {
        unsigned char c = p[i];
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc(c, f);
            i++;
        } else if (c < 0x20) {
            switch (c) {
            case '\n': fputs("\\n", f); break;
            case '\r': fputs("\\r", f); break;
            case '\t': fputs("\\t", f); break;
            case '\b': fputs("\\b", f); break;
            case '\f': fputs("\\f", f); break;
            default: fprintf(f, "\\u%04x", (unsigned)c); break;
            }
            i++;
        } else {
            size_t n = utf8_len(p + i, len - i);
            if (n == 0) {
                fputs("\\ufffd", f);
                i++;
            } else {
                fwrite(p + i, 1, n, f);
                i += n;
            }
        }
    }
    fputc('"', f);
}

/* ---- diagnostics ---- */

static char *cell_text(const char *s, size_t len, size_t *width);

/* Writes a diagnostic's text with control bytes and invalid UTF-8 shown
 * as in a table cell (\n, \xHH): whatever an argument or a message
 * quotes, a diagnostic stays one line of text, and the terminal's
 * escape sequences stay inert. */
static void put_text(FILE *f, const char *s)
{
    size_t width = 0;
    char *text = cell_text(s, strlen(s), &width);
    fputs(text != NULL ? text : "(a message that could not be shown)", f);
    free(text);
}

void cli_error_init(pier_error *err)
{
    memset(err, 0, sizeof *err);
    err->offset = -1;
}

pier_status cli_error_vset(pier_error *err, pier_status status,
                           const char *fmt, va_list ap)
{
    cli_error_init(err);
    err->status = status;
    err->tag = pier_status_tag(status);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    return status;
}

pier_status cli_error_set(pier_error *err, pier_status status,
                          const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_error_vset(err, status, fmt, ap);
    va_end(ap);
    return status;
}

int cli_fail_msg(const cli_ctx *ctx, const char *tag, const char *message)
{
    if (tag == NULL)
        tag = "Unknown";
    if (message == NULL || message[0] == '\0')
        message = "unknown error";
    fflush(stdout);   /* results already printed come first on a tty */
    if (ctx != NULL && ctx->json) {
        fputs("{\"error\":", stderr);
        cli_json_string(stderr, tag, strlen(tag));
        fputs(",\"message\":", stderr);
        cli_json_string(stderr, message, strlen(message));
        fputs("}\n", stderr);
    } else {
        fputs("pier: error: ", stderr);
        put_text(stderr, tag);
        fputs(": ", stderr);
        put_text(stderr, message);
        fputc('\n', stderr);
    }
    return CLI_EXIT_FAILED;
}

int cli_fail(const cli_ctx *ctx, const pier_error *err)
{
    /* A library that failed without filling err still gets a tag. */
    const char *tag = err->tag != NULL ? err->tag
                                       : pier_status_tag(err->status);
    char message[sizeof err->message];
    memcpy(message, err->message, sizeof message);
    message[sizeof message - 1] = '\0';
    return cli_fail_msg(ctx, tag, message);
}

int cli_usage(const cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("pier: usage: ", stderr);
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (text != NULL) {
        va_start(ap, fmt);
        vsnprintf(text, (size_t)n + 1, fmt, ap);
        va_end(ap);
        put_text(stderr, text);     /* it may quote any argument */
        free(text);
    } else {
        fputs("(out of memory)", stderr);
    }
    if (cmd != NULL)
        fprintf(stderr, "\nTry 'pier %s --help'.\n", cmd->name);
    else
        fputs("\nTry 'pier --help'.\n", stderr);
    return CLI_EXIT_USAGE;
}

int cli_print_watermark(const cli_ctx *ctx, int64_t watermark)
{
    if (ctx->json)
        printf("{\"watermark\":%" PRId64 "}\n", watermark);
    else
        printf("%" PRId64 "\n", watermark);
    return CLI_EXIT_OK;
}

int cli_print_number(const cli_ctx *ctx, const char *name, int64_t n)
{
    if (ctx->json)
        printf("{\"%s\":%" PRId64 "}\n", name, n);
    else
        printf("%" PRId64 "\n", n);
    return CLI_EXIT_OK;
}

pier_status cli_board_rows(int64_t *out, pier_engine *engine,
                           const char *name, pier_error *err)
{
    return pier_row_count(out, engine, name, err);
}

int cli_print_counts(cli_ctx *ctx, char **names, const char *key,
                     cli_count_fn count, pier_error *err)
{
    size_t n = 0;
    while (names != NULL && names[n] != NULL)
        n++;
    int64_t *rows = calloc(n > 0 ? n : 1, sizeof *rows);
    bool *gone = calloc(n > 0 ? n : 1, sizeof *gone);
    int rc = CLI_EXIT_OK;
    if (rows == NULL || gone == NULL) {
        rc = cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                          "out of memory");
        goto done;
    }
    /* Every count first: a failure prints nothing but the error. */
    for (size_t i = 0; i < n; i++) {
        pier_status st = count(&rows[i], ctx->engine, names[i], err);
        if (st == PIER_E_BOARD_NOT_FOUND || st == PIER_E_TABLE_NOT_FOUND) {
            gone[i] = true;
        } else if (st != PIER_OK) {
            rc = cli_fail(ctx, err);
            goto done;
        }
    }
    if (ctx->json) {
        bool first = true;
        fputc('[', stdout);
        for (size_t i = 0; i < n; i++) {
            if (gone[i])
                continue;
            printf("%s{\"%s\":", first ? "" : ",", key);
            cli_json_string(stdout, names[i], strlen(names[i]));
            printf(",\"rows\":%" PRId64 "}", rows[i]);
            first = false;
        }
        fputs("]\n", stdout);
        goto done;
    }
    cli_table *t = cli_table_new(2);
    bool ok = t != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        char num[24];
        if (gone[i])
            continue;
        int len = snprintf(num, sizeof num, "%" PRId64, rows[i]);
        ok = cli_table_add(t, names[i], strlen(names[i])) &&
             cli_table_add(t, num, (size_t)len);
    }
    if (ok)
        cli_table_print(t, stdout);
    cli_table_free(t);
    if (!ok)
        rc = cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                          "out of memory");
done:
    free(rows);
    free(gone);
    return rc;
}

/* ---- instants ---- */

/* Year, month and day of a day count from 1970-01-01, proleptic Gregorian
 * (Howard Hinnant's civil_from_days, the inverse of main.c's
 * days_from_civil). */
static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

void cli_format_instant(int64_t us, char out[CLI_INSTANT_SIZE])
{
    /* Floor division, so that instants before 1970 keep a positive
     * time of day. */
    int64_t secs = us / 1000000, frac = us % 1000000;
    if (frac < 0) {
        frac += 1000000;
        secs--;
    }
    int64_t days = secs / 86400, sod = secs % 86400;
    if (sod < 0) {
        sod += 86400;
        days--;
    }
    int64_t y;
    int m, d;
    civil_from_days(days, &y, &m, &d);
    snprintf(out, CLI_INSTANT_SIZE,
             "%04" PRId64 "-%02d-%02dT%02d:%02d:%02d.%06" PRId64 "Z", y, m,
             d, (int)(sod / 3600), (int)(sod / 60 % 60), (int)(sod % 60),
             frac);
}

/* ---- tables ---- */

struct cli_table {
    size_t ncols;
    size_t ncells;       /* cells added since the last clear, row-major */
    size_t cap;
    char **cells;        /* display text, escaped, NUL-terminated */
    size_t *widths;      /* code points of each cell */
    size_t *col_width;   /* the widest cell of each column, ever */
};

cli_table *cli_table_new(size_t ncols)
{
    cli_table *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->ncols = ncols > 0 ? ncols : 1;
    t->col_width = calloc(t->ncols, sizeof *t->col_width);
    if (t->col_width == NULL) {
        free(t);
        return NULL;
    }
    return t;
}

void cli_table_clear(cli_table *t)
{
    for (size_t i = 0; i < t->ncells; i++)
        free(t->cells[i]);
    t->ncells = 0;
}

void cli_table_free(cli_table *t)
{
    if (t == NULL)
        return;
    cli_table_clear(t);
    free(t->cells);
    free(t->widths);
    free(t->col_width);
    free(t);
}

/* Escapes s for one table cell into a new string; *width gets its code
 * points. NULL if out of memory. */
static char *cell_text(const char *s, size_t len, size_t *width)
{
    const unsigned char *p = (const unsigned char *)s;
    /* The worst case is "\xHH", four bytes for each byte. */
    if (len > (SIZE_MAX - 1) / 4)
        return NULL;
    char *out = malloc(len * 4 + 1);
    if (out == NULL)
        return NULL;
    size_t o = 0, w = 0;
    for (size_t i = 0; i < len;) {
        unsigned char c = p[i];
        size_t n = c < 0x20 || c == 0x7F ? 0 : utf8_len(p + i, len - i);
        if (n == 0) {
            if (c == '\n')
                o += (size_t)sprintf(out + o, "\\n");
            else if (c == '\t')
                o += (size_t)sprintf(out + o, "\\t");
            else if (c == '\r')
                o += (size_t)sprintf(out + o, "\\r");
            else
                o += (size_t)sprintf(out + o, "\\x%02X", (unsigned)c);
            w += c == '\n' || c == '\t' || c == '\r' ? 2 : 4;
            i++;
        } else {
            memcpy(out + o, p + i, n);
            o += n;
            w++;
            i += n;
        }
    }
    out[o] = '\0';
    *width = w;
    return out;
}

bool cli_table_add(cli_table *t, const char *s, size_t len)
{
    if (t->ncells == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        char **cells = realloc(t->cells, cap * sizeof *cells);
        if (cells == NULL)
            return false;
        t->cells = cells;
        size_t *widths = realloc(t->widths, cap * sizeof *widths);
        if (widths == NULL)
            return false;
        t->widths = widths;
        t->cap = cap;
    }
    size_t w = 0;
    char *cell = cell_text(s != NULL ? s : "", s != NULL ? len : 0, &w);
    if (cell == NULL)
        return false;
    t->cells[t->ncells] = cell;
    t->widths[t->ncells] = w;
    size_t c = t->ncells % t->ncols;
    if (w > t->col_width[c])
        t->col_width[c] = w;
    t->ncells++;
    return true;
}

void cli_table_print(const cli_table *t, FILE *f)
{
    for (size_t i = 0; i < t->ncells; i++) {
        size_t c = i % t->ncols;
        bool last = c + 1 == t->ncols || i + 1 == t->ncells;
        fputs(t->cells[i], f);
        if (last) {
            fputc('\n', f);
            continue;
        }
        for (size_t k = t->widths[i]; k < t->col_width[c] + 2; k++)
            fputc(' ', f);
    }
}

/* One rule of a box: `left`, then each column's width plus its two
 * spaces of padding in '─', joined by `mid`, then `right`. */
static void box_rule(const cli_table *t, FILE *f, const char *left,
                     const char *mid, const char *right)
{
    fputs(left, f);
    for (size_t c = 0; c < t->ncols; c++) {
        for (size_t k = 0; k < t->col_width[c] + 2; k++)
            fputs("\u2500", f);                     /* ─ */
        fputs(c + 1 == t->ncols ? right : mid, f);
    }
    fputc('\n', f);
}

void cli_table_print_box(const cli_table *t, FILE *f, size_t header_rows)
{
    box_rule(t, f, "\u250C", "\u252C", "\u2510");  /* ┌ ┬ ┐ */
    size_t nrows = t->ncells / t->ncols;
    for (size_t r = 0; r < nrows; r++) {
        if (r == header_rows && r > 0)
            box_rule(t, f, "\u251C", "\u253C", "\u2524");  /* ├ ┼ ┤ */
        for (size_t c = 0; c < t->ncols; c++) {
            size_t i = r * t->ncols + c;
            fputs("\u2502 ", f);                    /* │ */
            fputs(t->cells[i], f);
            for (size_t k = t->widths[i]; k < t->col_width[c] + 1; k++)
                fputc(' ', f);
        }
        fputs("\u2502\n", f);
    }
    box_rule(t, f, "\u2514", "\u2534", "\u2518");  /* └ ┴ ┘ */
}
