/*
 * codegen.h: what pier_schema_codegen's targets share: a declaration's
 * tables, views and boards as objects whose fields say which shape holds
 * them (codegen.c builds them), written as JSON Schema (codegen_json.c) or
 * as a C header (codegen_c.c).
 *
 * Every table has three shapes: select (a row as Pier reads it: every
 * column), insert (a new row: it must give its NOT NULL columns without a
 * default or a generated value, and may give the others) and update (what
 * a change may set: every column but the READONLY ones, none required). A
 * view has a select shape; a board all three, over its base columns and its
 * declared ones. Both targets read the same fields, so that the C structs
 * and the JSON Schema cannot disagree on which column a shape holds,
 * requires or lets be null.
 *
 * Pure: no engine, no I/O. Everything lives in the gen's arena.
 */
#ifndef PIER_MIGRATE_CODEGEN_H
#define PIER_MIGRATE_CODEGEN_H

#include "migrate/schema.h"

/* A column as the shapes see it. */
typedef struct pier__cgfield {
    const char *name;          /* as declared */
    char *ident;               /* a C identifier, unique in its object */
    pier__sqltype t;           /* its type; a board's in the dialect's
                                  terms (bigint is INT64, timestamp
                                  INSTANT) */
    const char *labels;        /* ENUM: NUL-separated, t.nlabels of them */
    const char *spelling;      /* the type as declared, canonical */
    bool nullable;             /* may read null */
    bool insert;               /* in the insert shape */
    bool required;             /* ... and must be given there */
    bool update;               /* in the update shape */
} pier__cgfield;

typedef enum pier__cgkind {
    PIER__CG_TABLE, PIER__CG_VIEW, PIER__CG_BOARD
} pier__cgkind;

typedef struct pier__cgobject {
    pier__cgkind kind;
    const char *name;
    char *ident;               /* a C identifier, unique in the output */
    bool strict;               /* a board's strict bit */
    pier__cgfield *fields;
    size_t nfields;
    size_t *keys;              /* a table's primary key, as field indexes */
    size_t nkeys;
} pier__cgobject;

typedef enum pier__cgshape {
    PIER__SHAPE_SELECT, PIER__SHAPE_INSERT, PIER__SHAPE_UPDATE
} pier__cgshape;

typedef struct pier__codegen {
    pier__arena arena;
    pier__cgobject *objects;   /* tables, views, boards, each in the
                                  declaration's order */
    size_t nobjects;
    const char *prefix;        /* C: every name's prefix */
    char *upper;               /* the prefix in capitals, for macros */
    pier__buf out;
} pier__codegen;

/* "table", "view", "board"; "select", "insert", "update". */
extern const char *const pier__cgkind_names[3];
extern const char *const pier__cgshape_names[3];

/* Whether the shape holds the field. */
bool pier__cgfield_in(const pier__cgfield *f, pier__cgshape s);

/* Append the whole output to g->out (whose oom latches a failure). */
void pier__codegen_json(pier__codegen *g);
void pier__codegen_c(pier__codegen *g);

#endif /* PIER_MIGRATE_CODEGEN_H */
