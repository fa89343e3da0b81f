/*
 * tx.c: the tx command: a JSON array of operations (insert, upsert,
 * update, delete) run as one transaction.
 *
 * The whole document is read and checked before the lake is opened: a
 * malformed one (not an array, an unknown op, a missing, unknown or
 * repeated member, a member of the wrong type) is InvalidJson and nothing
 * is written. jansson parses the structure; the rows of an insert or
 * upsert and the patch of an update go to the library as the very bytes
 * of the document, found by walking its text, so that every value (a
 * hugeint beyond 64 bits, a double's digits) arrives exactly as written.
 * Numbers are parsed as doubles (JSON_DECODE_INT_AS_REAL), so that no
 * integer overflows jansson; only a number beyond the range of a double
 * (about 1.8e308) cannot be read. Strings may hold U+0000 (JSON_ALLOW_NUL)
 * as they may in rows, but not where they become C strings (op, board,
 * id, ids).
 *
 * Then one pier_tx: begin with the boards of --boards, one call per
 * operation; the first failure names its operation (counted from 1) and
 * rolls everything back; otherwise commit and print the watermark.
 */
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The most bytes of operations read: a transaction carries at most one
 * write's worth of text (PIER_MAX_BATCH_BYTES), and the CLI holds it all. */
#define TX_MAX_BYTES ((size_t)PIER_MAX_BATCH_BYTES)

/* ---- arguments ---- */

typedef struct tx_args {
    const char **boards;   /* from every --boards, pointing into argv */
    size_t nboards, cap;
} tx_args;

static const cli_optspec tx_opts[] = {
    { "--boards", true }, { NULL, false },
};

static int tx_opt(cli_ctx *ctx, const cli_command *cmd, const char *name,
                  const char *value, void *payload)
{
    (void)name;
    tx_args *a = payload;
    size_t len = strlen(value), n = 1;
    if (len == 0 || value[0] == ',' || value[len - 1] == ',' ||
        strstr(value, ",,") != NULL)
        return cli_usage(cmd, "%s: bad --boards '%s': expected "
                         "BOARD[,BOARD]...", cmd->name, value);
    for (const char *p = value; *p != '\0'; p++)
        n += *p == ',';
    if (a->nboards + n > a->cap) {
        size_t cap = (a->nboards + n) * 2;
        const char **boards = realloc(a->boards, cap * sizeof *boards);
        if (boards == NULL)
            return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                                "out of memory");
        a->boards = boards;
        a->cap = cap;
    }
    /* argv strings are the program's to modify (C17 5.1.2.2.1). */
    char *p = (char *)value;
    for (;;) {
        a->boards[a->nboards++] = p;
        char *comma = strchr(p, ',');
        if (comma == NULL)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    return 0;
}

/* ---- checking the operations ---- */

typedef enum tx_kind { TX_INSERT, TX_UPSERT, TX_UPDATE, TX_DELETE } tx_kind;

/* One checked operation. Strings are borrowed from the jansson document,
 * text from the input. */
typedef struct tx_op {
    tx_kind kind;
    const char *board;
    const char *id;        /* update */
    json_t *ids;           /* delete: an array of strings */
    size_t start, len;     /* insert, upsert: "rows"; update: "patch";
                              where its text lies in the input */
} tx_op;

/* The names of the ops, in tx_kind order. */
static const char *const kind_names[] = { "insert", "upsert", "update",
                                          "delete" };

/* The parsed document and what was found in it. */
typedef struct tx_doc {
    const char *text;      /* the whole input */
    size_t len;
    size_t skip;           /* bytes of a byte order mark, skipped */
    json_t *root;
    tx_op *ops;
    size_t nops;
    pier_error *err;
} tx_doc;

static pier_status bad(tx_doc *d, size_t op, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Fails with InvalidJson; `op` counts from 1 (0: the whole document). */
static pier_status bad(tx_doc *d, size_t op, const char *fmt, ...)
{
    pier_error *err = d->err;
    cli_error_init(err);
    err->status = PIER_E_INVALID_JSON;
    err->tag = pier_status_tag(PIER_E_INVALID_JSON);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    if (op > 0) {
        size_t n = strlen(err->message);
        snprintf(err->message + n, sizeof err->message - n,
                 " (operation %zu)", op);
    }
    return PIER_E_INVALID_JSON;
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "a value";
}

/* A string of the document made fit to quote in a one-line message: at
 * most 40 bytes of it, control characters as \xHH. */
static const char *quoted(const char *s, char *buf, size_t size)
{
    size_t o = 0;
    for (size_t i = 0; s[i] != '\0' && o + 8 < size; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i == 40) {
            o += (size_t)snprintf(buf + o, size - o, "...");
            break;
        }
        if (c < 0x20 || c == 0x7F || c == '"' || c == '\\')
            o += (size_t)snprintf(buf + o, size - o, "\\x%02X", c);
        else
            buf[o++] = (char)c;
    }
    buf[o] = '\0';
    return buf;
}

/* Whether a string holds U+0000, which the library's C strings (board
 * ids, row ids) cannot carry. Rows and patches may: they go as text. */
static bool has_nul(const json_t *v)
{
    return strlen(json_string_value(v)) != json_string_length(v);
}

/* The member `name` of operation `op` (counted from 1), which must be
 * there and of `type`. */
static pier_status member(tx_doc *d, size_t op, json_t *obj,
                          const char *name, json_type type, json_t **out)
{
    static const char *const wanted[] = {
        [JSON_OBJECT] = "an object", [JSON_ARRAY] = "an array",
        [JSON_STRING] = "a string",
    };
    json_t *v = json_object_get(obj, name);
    if (v == NULL)
        return bad(d, op, "missing member '%s'", name);
    if (json_typeof(v) != type)
        return bad(d, op, "member '%s' must be %s, got %s", name,
                   wanted[type], type_name(v));
    if (type == JSON_STRING && has_nul(v))
        return bad(d, op, "member '%s' may not hold \\u0000", name);
    *out = v;
    return PIER_OK;
}

/* Where white space ends, from i. */
static size_t skip_blank(const char *s, size_t n, size_t i)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
                     s[i] == '\r'))
        i++;
    return i;
}

/* Where the JSON value that starts at i ends (jansson has checked it):
 * past its closing quote or bracket, or at the byte that ends a number or
 * literal; more than n if the text is not what jansson said. */
static size_t value_end(const char *s, size_t n, size_t i)
{
    size_t depth = 0;
    bool in_string = false;
    for (; i < n; i++) {
        char c = s[i];
        if (in_string) {
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                in_string = false;
                if (depth == 0)
                    return i + 1;
            }
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return i;
            if (--depth == 0)
                return i + 1;
        } else if (depth == 0 && (c == ',' || c == ' ' || c == '\t' ||
                                  c == '\n' || c == '\r')) {
            return i;
        }
    }
    return depth == 0 && !in_string ? n : n + 1;
}

/*
 * Walks the object that starts at *i, moves *i past it and counts its
 * members in *nmembers; with `want`, finds the text of that member.
 * jansson keeps an object's members in the order of the text, so once the
 * count shows that no member is repeated (jansson keeps one of each), the
 * k-th member in the text is the k-th of json_object_iter.
 * @return false if the text is not what jansson parsed.
 */
static bool find_member(tx_doc *d, size_t *i, json_t *obj, const char *want,
                        size_t *start, size_t *len, size_t *nmembers)
{
    const char *s = d->text;
    size_t n = d->len, k = 0;
    void *it = json_object_iter(obj);
    size_t p = skip_blank(s, n, *i);
    if (p >= n || s[p] != '{')
        return false;
    p = skip_blank(s, n, p + 1);
    if (p < n && s[p] == '}') {
        *i = p + 1;
        *nmembers = 0;
        return true;
    }
    for (;;) {
        size_t key_end = value_end(s, n, p);          /* the name */
        if (key_end >= n)
            return false;
        p = skip_blank(s, n, key_end);
        if (p >= n || s[p] != ':')
            return false;
        p = skip_blank(s, n, p + 1);
        size_t end = value_end(s, n, p);
        if (end > n || end == p)
            return false;
        if (want != NULL && it != NULL &&
            strcmp(json_object_iter_key(it), want) == 0) {
            *start = p;
            *len = end - p;
        }
        if (it != NULL)
            it = json_object_iter_next(obj, it);
        k++;
        p = skip_blank(s, n, end);
        if (p < n && s[p] == ',') {
            p = skip_blank(s, n, p + 1);
            continue;
        }
        if (p < n && s[p] == '}')
            break;
        return false;
    }
    *i = p + 1;
    *nmembers = k;
    return true;
}

/* Checks operation `k` (from 0) and fills d->ops[k]; *i is where its
 * object starts in the text, and moves past it. */
static pier_status check_op(tx_doc *d, size_t k, size_t *i)
{
    size_t no = k + 1;
    json_t *obj = json_array_get(d->root, k), *v = NULL;
    tx_op *op = &d->ops[k];
    char q[64];
    if (!json_is_object(obj))
        return bad(d, no, "an operation must be an object, got %s",
                   type_name(obj));
    size_t at = *i, nmembers = 0;
    if (!find_member(d, i, obj, NULL, NULL, NULL, &nmembers))
        return bad(d, no, "cannot follow the text of this operation");
    if (nmembers != json_object_size(obj))
        return bad(d, no, "a member appears twice");
    pier_status rc = member(d, no, obj, "op", JSON_STRING, &v);
    if (rc != PIER_OK)
        return rc;
    const char *kind = json_string_value(v);
    size_t kn = 0;
    while (kn < 4 && strcmp(kind, kind_names[kn]) != 0)
        kn++;
    if (kn == 4)
        return bad(d, no, "unknown op \"%s\": expected insert, upsert, "
                   "update or delete", quoted(kind, q, sizeof q));
    op->kind = (tx_kind)kn;
    if ((rc = member(d, no, obj, "board", JSON_STRING, &v)) != PIER_OK)
        return rc;
    op->board = json_string_value(v);
    /* The members of each kind, besides "op" and "board"; text_member is
     * the one whose text goes to the library. */
    const char *text_member = NULL;
    if (op->kind == TX_INSERT || op->kind == TX_UPSERT) {
        rc = member(d, no, obj, "rows", JSON_ARRAY, &v);
        text_member = "rows";
    } else if (op->kind == TX_UPDATE) {
        rc = member(d, no, obj, "id", JSON_STRING, &v);
        if (rc == PIER_OK) {
            op->id = json_string_value(v);
            rc = member(d, no, obj, "patch", JSON_OBJECT, &v);
        }
        text_member = "patch";
    } else {
        rc = member(d, no, obj, "ids", JSON_ARRAY, &v);
        size_t j;
        json_t *id;
        if (rc == PIER_OK) {
            op->ids = v;
            json_array_foreach(v, j, id) {
                if (!json_is_string(id))
                    return bad(d, no, "member 'ids' must hold strings, got "
                               "%s at index %zu", type_name(id), j);
                if (has_nul(id))
                    return bad(d, no, "member 'ids' may not hold \\u0000 "
                               "(index %zu)", j);
            }
        }
    }
    if (rc != PIER_OK)
        return rc;
    const char *name;
    json_object_foreach(obj, name, v) {
        bool known = strcmp(name, "op") == 0 || strcmp(name, "board") == 0 ||
                     (text_member != NULL && strcmp(name, text_member) == 0) ||
                     (op->kind == TX_UPDATE && strcmp(name, "id") == 0) ||
                     (op->kind == TX_DELETE && strcmp(name, "ids") == 0);
        if (!known)
            return bad(d, no, "unknown member '%s' in a%s %s operation",
                       quoted(name, q, sizeof q),
                       op->kind == TX_INSERT || op->kind == TX_UPSERT ||
                       op->kind == TX_UPDATE ? "n" : "", kind_names[kn]);
    }
    op->start = op->len = 0;
    if (text_member != NULL &&
        !find_member(d, &at, obj, text_member, &op->start, &op->len,
                     &nmembers))
        return bad(d, no, "cannot follow the text of this operation");
    return PIER_OK;
}

/* Parses and checks the whole document. */
static pier_status check_doc(tx_doc *d)
{
    static const unsigned char bom[3] = { 0xEF, 0xBB, 0xBF };
    if (d->len >= 3 && memcmp(d->text, bom, 3) == 0)
        d->skip = 3;   /* as insert and the library do */
    json_error_t jerr;
    d->root = json_loadb(d->text + d->skip, d->len - d->skip,
                         JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL, &jerr);
    if (d->root == NULL) {
        char q[sizeof jerr.text];
        size_t o = 0;
        for (size_t i = 0; jerr.text[i] != '\0' && o + 1 < sizeof q; i++) {
            unsigned char c = (unsigned char)jerr.text[i];
            q[o++] = c < 0x20 || c == 0x7F ? '?' : (char)c;
        }
        q[o] = '\0';
        size_t at = d->skip + (jerr.position > 0 ? (size_t)jerr.position : 0);
        pier_status rc = bad(d, 0, "%s at byte %zu", q, at);
        d->err->offset = (int64_t)at;
        return rc;
    }
    if (!json_is_array(d->root))
        return bad(d, 0, "the operations must be a JSON array, got %s",
                   type_name(d->root));
    d->nops = json_array_size(d->root);
    d->ops = calloc(d->nops > 0 ? d->nops : 1, sizeof *d->ops);
    if (d->ops == NULL) {
        cli_error_init(d->err);
        d->err->status = PIER_E_OUT_OF_MEMORY;
        d->err->tag = pier_status_tag(PIER_E_OUT_OF_MEMORY);
        snprintf(d->err->message, sizeof d->err->message, "out of memory");
        return PIER_E_OUT_OF_MEMORY;
    }
    /* The text position of each operation's object: after '[', then
     * after each ','. */
    size_t i = skip_blank(d->text, d->len, d->skip);
    if (i >= d->len || d->text[i] != '[')
        return bad(d, 0, "cannot follow the text of the operations");
    i++;
    for (size_t k = 0; k < d->nops; k++) {
        pier_status rc = check_op(d, k, &i);
        if (rc != PIER_OK)
            return rc;
        i = skip_blank(d->text, d->len, i);
        if (i < d->len && d->text[i] == ',')
            i++;
    }
    return PIER_OK;
}

/* ---- running them ---- */

/* Runs operation `k` (from 0) in the transaction. */
static pier_status run_op(pier_tx *tx, const tx_doc *d, size_t k,
                          pier_error *err)
{
    const tx_op *op = &d->ops[k];
    const char *text = d->text + op->start;
    switch (op->kind) {
    case TX_INSERT:
        return pier_tx_insert_json(tx, op->board, text, op->len, err);
    case TX_UPSERT:
        return pier_tx_upsert_json(tx, op->board, text, op->len, err);
    case TX_UPDATE:
        return pier_tx_update_json(tx, op->board, op->id, text, op->len,
                                   err);
    case TX_DELETE:
        break;
    }
    size_t nids = json_array_size(op->ids);
    const char **ids = malloc((nids > 0 ? nids : 1) * sizeof *ids);
    if (ids == NULL) {
        cli_error_init(err);
        err->status = PIER_E_OUT_OF_MEMORY;
        err->tag = pier_status_tag(PIER_E_OUT_OF_MEMORY);
        snprintf(err->message, sizeof err->message, "out of memory");
        return PIER_E_OUT_OF_MEMORY;
    }
    for (size_t j = 0; j < nids; j++)
        ids[j] = json_string_value(json_array_get(op->ids, j));
    pier_status rc = pier_tx_delete_many(tx, op->board, ids, nids, err);
    free(ids);
    return rc;
}

static int run_tx_ops(cli_ctx *ctx, const tx_args *a, const tx_doc *d,
                      const char *where)
{
    pier_tx *tx = NULL;
    pier_error err;
    cli_error_init(&err);
    if (pier_tx_begin(&tx, ctx->engine, a->boards, a->nboards, &err) !=
        PIER_OK)
        return cli_fail(ctx, &err);
    for (size_t k = 0; k < d->nops; k++) {
        pier_status rc = run_op(tx, d, k, &err);
        if (rc == PIER_OK)
            continue;
        if (d->ops[k].kind != TX_DELETE)
            cli_relocate(&err, (int64_t)d->ops[k].start, 0, where);
        pier_tx_rollback(tx);
        char msg[sizeof err.message + 64];
        snprintf(msg, sizeof msg, "%s (operation %zu)", err.message, k + 1);
        const char *tag = err.tag != NULL ? err.tag : pier_status_tag(rc);
        return cli_fail_msg(ctx, tag, msg);
    }
    int64_t wm = 0;
    if (pier_tx_commit(&wm, tx, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    /* An empty transaction commits nothing and has no watermark of its
     * own (the library answers 0): print the head, as an empty insert
     * does. */
    if (wm == 0 && pier_head_from_catalog(&wm, ctx->engine, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    return cli_print_watermark(ctx, wm);
}

static const char *const tx_names[] = { "FILE|-" };

static int run_tx(cli_ctx *ctx, const cli_command *cmd, int argc,
                  char **argv)
{
    tx_args a = { NULL, 0, 0 };
    tx_doc d;
    memset(&d, 0, sizeof d);
    pier_error err;
    cli_error_init(&err);
    d.err = &err;
    char *text = NULL;
    char *file = NULL;
    int rc = cli_args(ctx, cmd, argc, argv, tx_opts, tx_opt, &a, tx_names,
                      1, 1, &file);
    if (rc != CLI_CONTINUE)
        goto done;
    if (a.nboards == 0) {
        rc = cli_usage(cmd, "%s: missing option --boards", cmd->name);
        goto done;
    }
    /* The name of the input in messages: stdin, or 'FILE'. */
    char where[160];
    bool from_stdin = strcmp(file, "-") == 0;
    if (from_stdin)
        snprintf(where, sizeof where, "stdin");
    else
        snprintf(where, sizeof where, "'%.150s'", file);
    FILE *in = from_stdin ? stdin : fopen(file, "rb");
    if (in == NULL) {
        char msg[sizeof err.message];
        snprintf(msg, sizeof msg, "cannot open %s: %s", where,
                 strerror(errno));
        rc = cli_fail_msg(ctx, pier_status_tag(PIER_E_READ_FAILED), msg);
        goto done;
    }
    pier_status st = cli_read_all(in, where, "a transaction's operations",
                                  TX_MAX_BYTES, &text, &d.len, &err);
    if (!from_stdin)
        fclose(in);
    if (st == PIER_OK) {
        d.text = text;
        st = check_doc(&d);
    }
    if (st != PIER_OK) {
        rc = cli_fail(ctx, &err);
        goto done;
    }
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        goto done;
    rc = run_tx_ops(ctx, &a, &d, where);
done:
    free(d.ops);
    json_decref(d.root);
    free(text);
    free(a.boards);
    return rc;
}

const cli_command cli_cmd_tx = {
    "tx", "Run a list of writes as one transaction",
    "--boards BOARD[,BOARD]... FILE|-",
    "Reads a JSON array of operations from FILE (or stdin, with '-') and\n"
    "runs them, in order, as one atomic write with one watermark:\n"
    "  {\"op\":\"insert\",\"board\":B,\"rows\":[{...},...]}\n"
    "  {\"op\":\"upsert\",\"board\":B,\"rows\":[{...},...]}\n"
    "  {\"op\":\"update\",\"board\":B,\"id\":ID,\"patch\":{...}}\n"
    "  {\"op\":\"delete\",\"board\":B,\"ids\":[ID,...]}\n"
    "Each works as the command of its name, and every row written shares\n"
    "one updated_at. --boards names every board the operations may write,\n"
    "up front; writing another fails with EntityNotAllowed. A board an\n"
    "operation creates exists only once the transaction commits. An empty\n"
    "array writes nothing and prints the current head.\n"
    "\n"
    "If an operation fails, nothing of the transaction is written: the\n"
    "error ends with \"(operation N)\", counted from 1, and its byte\n"
    "offsets count from the start of the input. A malformed document (not\n"
    "an array, an unknown op, a missing, unknown or repeated member, a\n"
    "member of the wrong type) is InvalidJson, and nothing is written. A\n"
    "number beyond the range of a double (about 1.8e308) cannot be read;\n"
    "every other value reaches the board exactly as written. The input may\n"
    "take up to 64 MiB.\n"
    "\n"
    "Options:\n"
    "  --boards BOARD[,BOARD]...\n"
    "                      The boards the operations may write (required;\n"
    "                      repeatable)\n"
    "\n"
    "Output: the watermark; with --json, {\"watermark\":N}.\n",
    run_tx,
};
