/*
 * write.c: the model written out as a declaration (pier schema export),
 * and a table's definition in the dialect (what migrations run). Reading
 * what is written here gives the model back: tests/unit/test_migrate_write.c
 * and the live tests plan an export against its lake to zero steps.
 */
#include <string.h>

#include "migrate/write.h"

static const char *on_delete(pier__fk_action x)
{
    switch (x) {
    case PIER__FK_CASCADE: return "CASCADE";
    case PIER__FK_SET_NULL: return "SET NULL";
    case PIER__FK_RESTRICT: return "RESTRICT";
    }
    return "RESTRICT";
}

/* The table's primary key when it is one column, else NULL. */
static const pier__mkey *single_primary(const pier__mtable *t)
{
    for (size_t k = 0; k < t->nkeys; k++)
        if (t->keys[k].primary && t->keys[k].ncolumns == 1)
            return &t->keys[k];
    return NULL;
}

/* A value of column c as SQL: a wide number as the string of its digits
 * (pier__mvalue_wide_number), which the column stores exactly. */
static void literal(pier__buf *b, const pier__mcolumn *c, const char *sql)
{
    if (pier__mvalue_wide_number(&c->type, sql))
        pier__buf_printf(b, "'%s'", sql[0] == '+' ? sql + 1 : sql);
    else
        pier__buf_puts(b, sql);
}

static void value(pier__buf *b, const pier__mcolumn *c,
                  const pier__mvalue *v)
{
    literal(b, c, v->now ? "now()" : v->sql);
}

void pier__mcolumn_write(pier__buf *b, const pier__mtable *t, size_t i,
                         const char *dflt, bool backfill)
{
    const pier__mcolumn *c = &t->columns[i];
    pier__sql_quote_ident(b, c->name);
    pier__buf_printf(b, " %s", c->spelling);
    const pier__mkey *pk = single_primary(t);
    if (pk != NULL && pk->columns[0] == i) {
        if (pk->name != NULL) {
            pier__buf_puts(b, " CONSTRAINT ");
            pier__sql_quote_ident(b, pk->name);
        }
        pier__buf_puts(b, c->autoincrement ? " PRIMARY KEY AUTOINCREMENT"
                                           : " PRIMARY KEY");
    }
    if (c->not_null)
        pier__buf_puts(b, " NOT NULL");
    if (dflt != NULL) {
        pier__buf_puts(b, " DEFAULT ");
        literal(b, c, dflt);
    }
    /* a column made nullable keeps its backfill, which a declaration
     * states only on a NOT NULL column */
    if (backfill && c->not_null &&
        (c->backfill.sql != NULL || c->backfill.now)) {
        pier__buf_puts(b, " BACKFILL ");
        value(b, c, &c->backfill);
    }
    for (size_t f = 0; f < t->nfks; f++) {
        const pier__mfk *fk = &t->fks[f];
        if (fk->column != i)
            continue;
        if (fk->name != NULL) {
            pier__buf_puts(b, " CONSTRAINT ");
            pier__sql_quote_ident(b, fk->name);
        }
        pier__buf_puts(b, " REFERENCES ");
        pier__sql_quote_ident(b, fk->table);
        if (fk->parent != NULL) {
            pier__buf_puts(b, " (");
            pier__sql_quote_ident(b, fk->parent);
            pier__buf_putc(b, ')');
        }
        pier__buf_printf(b, " ON DELETE %s", on_delete(fk->on_delete));
    }
    if (c->readonly)
        pier__buf_puts(b, " READONLY");
}

void pier__mtable_write(pier__buf *b, const pier__mtable *t, bool backfill,
                        const char *sep)
{
    pier__buf_puts(b, "CREATE TABLE ");
    pier__sql_quote_ident(b, t->name);
    pier__buf_puts(b, " (");
    for (size_t i = 0; i < t->ncolumns; i++) {
        const pier__mvalue *d = &t->columns[i].dflt;
        pier__buf_puts(b, i > 0 ? "," : "");
        pier__buf_puts(b, sep);
        pier__mcolumn_write(b, t, i, d->now ? "now()" : d->sql, backfill);
    }
    const pier__mkey *pk = single_primary(t);
    for (size_t k = 0; k < t->nkeys; k++) {
        const pier__mkey *key = &t->keys[k];
        if (key == pk)
            continue;
        pier__buf_putc(b, ',');
        pier__buf_puts(b, sep);
        if (key->name != NULL) {
            pier__buf_puts(b, "CONSTRAINT ");
            pier__sql_quote_ident(b, key->name);
            pier__buf_putc(b, ' ');
        }
        pier__buf_puts(b, key->primary ? "PRIMARY KEY (" : "UNIQUE (");
        for (size_t c = 0; c < key->ncolumns; c++) {
            if (c > 0)
                pier__buf_puts(b, ", ");
            pier__sql_quote_ident(b, t->columns[key->columns[c]].name);
        }
        pier__buf_putc(b, ')');
    }
    for (size_t k = 0; k < t->nchecks; k++) {
        pier__buf_putc(b, ',');
        pier__buf_puts(b, sep);
        if (t->checks[k].name != NULL) {
            pier__buf_puts(b, "CONSTRAINT ");
            pier__sql_quote_ident(b, t->checks[k].name);
            pier__buf_putc(b, ' ');
        }
        pier__buf_printf(b, "CHECK (%s)", t->checks[k].expr);
    }
    pier__buf_puts(b, sep[0] == '\n' ? "\n)" : ")");
}

void pier__mview_write(pier__buf *b, const pier__mview *v)
{
    pier__buf_puts(b, "CREATE VIEW ");
    pier__sql_quote_ident(b, v->name);
    pier__buf_puts(b, " (");
    for (size_t i = 0; i < v->ncolumns; i++) {
        if (i > 0)
            pier__buf_puts(b, ", ");
        pier__sql_quote_ident(b, v->columns[i].name);
        pier__buf_printf(b, " %s", v->columns[i].spelling);
    }
    pier__buf_printf(b, ") AS %s", v->body);
}

void pier__mindex_write(pier__buf *b, const pier__mindex *x)
{
    pier__buf_printf(b, "CREATE %sINDEX ", x->unique ? "UNIQUE " : "");
    pier__sql_quote_ident(b, x->name);
    pier__buf_puts(b, " ON ");
    pier__sql_quote_ident(b, x->table);
    pier__buf_printf(b, " %s", x->body);
}

void pier__mboard_write(pier__buf *b, const pier__mboard *bd)
{
    pier__buf_printf(b, "CREATE BOARD %s", bd->id);
    if (bd->ncolumns > 0) {
        pier__buf_puts(b, " (");
        for (size_t i = 0; i < bd->ncolumns; i++) {
            if (i > 0)
                pier__buf_puts(b, ", ");
            pier__sql_quote_ident(b, bd->columns[i].name);
            pier__buf_printf(b, " %s", pier__type_name(bd->columns[i].type));
        }
        pier__buf_putc(b, ')');
    }
    if (bd->strict)
        pier__buf_puts(b, " STRICT");
}

/* "-- managed ..." or "-- not managed ...": who may drop the object. */
static void managed(pier__buf *b, bool m, const char *what, const char *name)
{
    pier__buf_printf(b, "-- %s ", what);
    pier__sql_quote_ident(b, name);
    pier__buf_puts(b, m ? ": managed (a migration made it; a declaration "
                          "that owns the database drops it when it is no "
                          "longer declared)\n"
                        : ": not managed (made outside migrations; no "
                          "declaration drops it)\n");
}

void pier__schema_write(pier__buf *b, const pier__schema *s)
{
    pier__buf_puts(b, "-- The lake as a declaration (pier schema export): "
                      "pier migrate of this file\n-- makes no step.\n");
    for (size_t i = 0; i < s->ntables; i++) {
        pier__buf_putc(b, '\n');
        managed(b, s->tables[i].managed, "table", s->tables[i].name);
        pier__mtable_write(b, &s->tables[i], true, "\n    ");
        pier__buf_puts(b, ";\n");
    }
    for (size_t i = 0; i < s->nindexes; i++) {
        pier__buf_putc(b, '\n');
        managed(b, s->indexes[i].managed, "index", s->indexes[i].name);
        pier__mindex_write(b, &s->indexes[i]);
        pier__buf_puts(b, ";\n");
    }
    for (size_t i = 0; i < s->nviews; i++) {
        pier__buf_putc(b, '\n');
        managed(b, s->views[i].managed, "view", s->views[i].name);
        pier__mview_write(b, &s->views[i]);
        pier__buf_puts(b, ";\n");
    }
    for (size_t i = 0; i < s->nboards; i++) {
        pier__buf_putc(b, '\n');
        managed(b, s->boards[i].managed, "board", s->boards[i].id);
        pier__mboard_write(b, &s->boards[i]);
        pier__buf_puts(b, ";\n");
    }
    for (size_t i = 0; i < s->nopaque; i++) {
        pier__buf_printf(b, "\n-- %s ", s->opaque[i].view ? "view" : "table");
        pier__sql_quote_ident(b, s->opaque[i].name);
        pier__buf_printf(b, " is not stated here: %s (pier schema dump "
                         "shows its SQL)\n", s->opaque[i].why);
    }
}
