/*
 * introspect.c: the catalog as migrations see it. `pier introspect`
 * reports every table, view, index and board with its ids, types,
 * nullability, defaults, backfills, keys, foreign keys, checks,
 * AUTOINCREMENT counters and managed flags (pier_introspect's JSON, or a
 * listing); `pier schema export` prints the lake as a declaration
 * (pier_schema_export).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"

int cli_schema_export(cli_ctx *ctx)
{
    char *text = NULL;
    pier_error err;
    cli_error_init(&err);
    if (pier_schema_export(&text, ctx->engine, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    fputs(text, stdout);
    pier_free(text);
    return CLI_EXIT_OK;
}

/* ---- the listing ---- */

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s != NULL ? s : "-";
}

static bool flag(const json_t *o, const char *key)
{
    return json_is_true(json_object_get(o, key));
}

/* Adds a row of cells to t, ending it; false if out of memory. */
static bool row(cli_table *t, const char *const *cells, size_t n)
{
    bool ok = true;
    for (size_t i = 0; i < n; i++)
        ok = cli_table_add(t, cells[i], strlen(cells[i])) && ok;
    return ok;
}

/* "a, b" of a JSON array of strings, into out. */
static void names(char *out, size_t cap, const json_t *list)
{
    size_t n = 0;
    out[0] = '\0';
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v)
        n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "%s%s",
                              i > 0 ? ", " : "", json_string_value(v));
}

static bool print_table(const json_t *t)
{
    printf("table %s (id %lld): %s\n", str(t, "name"),
           (long long)json_integer_value(json_object_get(t, "id")),
           flag(t, "managed") ? "managed" : "not managed");
    cli_table *tab = cli_table_new(7);
    if (tab == NULL)
        return false;
    static const char *const head[] = { "column", "id", "type", "null",
                                        "default", "backfill", "flags" };
    bool ok = row(tab, head, 7);
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(t, "columns"), i, c) {
        char id[24], flags[64];
        snprintf(id, sizeof id, "%lld",
                 (long long)json_integer_value(json_object_get(c, "id")));
        snprintf(flags, sizeof flags, "%s%s%s",
                 flag(c, "readonly") ? "readonly " : "",
                 flag(c, "autoincrement") ? "autoincrement " : "",
                 flag(c, "added") ? "added" : "");
        size_t fl = strlen(flags);
        while (fl > 0 && flags[fl - 1] == ' ')
            flags[--fl] = '\0';
        const char *cells[] = { str(c, "name"), id, str(c, "type"),
                                flag(c, "nullable") ? "yes" : "no",
                                str(c, "default"), str(c, "backfill"),
                                fl > 0 ? flags : "-" };
        ok = row(tab, cells, 7) && ok;
    }
    cli_table_print(tab, stdout);
    cli_table_free(tab);
    json_array_foreach(json_object_get(t, "keys"), i, c) {
        char cols[512];
        names(cols, sizeof cols, json_object_get(c, "columns"));
        bool named = json_is_string(json_object_get(c, "name"));
        printf("  %s %s%s(%s)\n", flag(c, "primary") ? "primary key"
                                                     : "unique",
               named ? str(c, "name") : "", named ? " " : "", cols);
    }
    json_array_foreach(json_object_get(t, "foreign_keys"), i, c)
        printf("  foreign key %s: %s references %s(%s) on delete %s\n",
               str(c, "name"), str(c, "column"), str(c, "table"),
               json_is_string(json_object_get(c, "parent_column"))
                   ? str(c, "parent_column") : "its key",
               str(c, "on_delete"));
    json_array_foreach(json_object_get(t, "checks"), i, c) {
        bool named = json_is_string(json_object_get(c, "name"));
        printf("  check %s%s(%s)\n", named ? str(c, "name") : "",
               named ? " " : "", str(c, "expr"));
    }
    const json_t *ai = json_object_get(t, "autoincrement");
    if (ai != NULL)
        printf("  autoincrement %s: counter %lld\n", str(ai, "column"),
               (long long)json_integer_value(json_object_get(ai,
                                                             "counter")));
    return ok;
}

static void print_listing(const json_t *root)
{
    size_t i;
    json_t *o;
    bool first = true;
    json_array_foreach(json_object_get(root, "tables"), i, o) {
        printf("%s", first ? "" : "\n");
        first = false;
        print_table(o);
    }
    json_array_foreach(json_object_get(root, "views"), i, o) {
        printf("%sview %s: %s\n", first ? "" : "\n", str(o, "name"),
               flag(o, "managed") ? "managed" : "not managed");
        first = false;
        size_t k;
        json_t *c;
        json_array_foreach(json_object_get(o, "columns"), k, c)
            printf("  %s %s\n", str(c, "name"), str(c, "type"));
        printf("  AS %s\n", str(o, "sql"));
    }
    json_array_foreach(json_object_get(root, "indexes"), i, o) {
        printf("%sindex %s: %s\n  %sON %s %s\n", first ? "" : "\n",
               str(o, "name"), flag(o, "managed") ? "managed"
                                                  : "not managed",
               flag(o, "unique") ? "UNIQUE " : "", str(o, "table"),
               str(o, "sql"));
        first = false;
    }
    json_array_foreach(json_object_get(root, "boards"), i, o) {
        printf("%sboard %s: %s%s\n", first ? "" : "\n", str(o, "name"),
               flag(o, "managed") ? "managed" : "not managed",
               flag(o, "strict") ? ", strict" : "");
        first = false;
        size_t k;
        json_t *c;
        json_array_foreach(json_object_get(o, "columns"), k, c)
            printf("  %s %lld %s %s\n", str(c, "name"),
                   (long long)json_integer_value(json_object_get(c, "id")),
                   str(c, "type"), str(c, "origin"));
    }
    json_array_foreach(json_object_get(root, "opaque"), i, o) {
        printf("%s%s %s: not stated (%s)\n", first ? "" : "\n",
               flag(o, "view") ? "view" : "table", str(o, "name"),
               str(o, "why"));
        first = false;
    }
    if (first)
        printf("(no tables, views, indexes or boards)\n");
}

static const cli_optspec introspect_opts[] = {
    { "--json", false },
    { NULL, false },
};

static int introspect_opt(cli_ctx *ctx, const cli_command *cmd,
                          const char *name, const char *value, void *payload)
{
    (void)cmd, (void)name, (void)value, (void)payload;
    ctx->json = true;           /* --json, after the command too */
    return 0;
}

static int run_introspect(cli_ctx *ctx, const cli_command *cmd, int argc,
                          char **argv)
{
    ctx->opts.must_exist = true;     /* (a read makes no lake) */
    int rc = cli_args(ctx, cmd, argc, argv, introspect_opts, introspect_opt,
                      NULL, NULL, 0, 0, NULL);
    if (rc != CLI_CONTINUE)
        return rc;
    if ((rc = cli_open(ctx)) != CLI_EXIT_OK)
        return rc;
    char *json = NULL;
    pier_error err;
    cli_error_init(&err);
    if (pier_introspect(&json, ctx->engine, &err) != PIER_OK)
        return cli_fail(ctx, &err);
    if (ctx->json) {
        printf("%s\n", json);
        pier_free(json);
        return CLI_EXIT_OK;
    }
    json_error_t je;
    json_t *root = json_loads(json, 0, &je);
    pier_free(json);
    if (root == NULL)
        return cli_fail_msg(ctx, pier_status_tag(PIER_E_OUT_OF_MEMORY),
                            "out of memory");
    print_listing(root);
    json_decref(root);
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_introspect = {
    "introspect", "Report the catalog as migrations see it",
    "[--json]",
    "Reports every declared table (its id, columns with their ids, types,\n"
    "nullability, defaults and backfills, READONLY and AUTOINCREMENT, keys,\n"
    "foreign keys with their names, checks, the AUTOINCREMENT counter),\n"
    "view (declared columns, body), index and board (columns with ids,\n"
    "types and origins), each marked managed when a migration made it (a\n"
    "declaration that owns the lake may drop it) or not managed (made\n"
    "with pier sql or by a first write: no declaration drops it). Objects\n"
    "a declaration cannot state are listed with why.\n"
    "\n"
    "Output: a listing; with --json {\"tables\":[...],\"views\":[...],\n"
    "\"indexes\":[...],\"boards\":[...],\"opaque\":[...]} on one line\n"
    "(docs/migrations.md, \"Seeing the catalog\").\n",
    run_introspect,
};
