/*
 * plan.h: the migration planner, a pure function from (the live catalog's
 * model, a declaration's model, options) to the steps that make the first
 * into the second (plan.c).
 *
 * Objects are matched by name (ASCII case), or through RENAMED FROM; once
 * a rename has run, the new name matches and the clause is inert, so that
 * a second run plans zero steps. Columns of a matched table are matched
 * the same way and compared field by field. What cannot be a step (a type
 * change off the lattice, a key, check or foreign key changed on an
 * existing table, a NOT NULL column added without a backfill...) is
 * collected, every one of them, into a refusal: nothing is applied.
 *
 * Steps come in a fixed order: renames, creations (parents before the
 * tables that reference them), changes to existing tables and boards,
 * views, indexes, then drops (indexes, views, columns, then tables, the
 * tables that reference others first, and boards); within a phase, in
 * declaration order (drops in the live catalog's order).
 */
#ifndef PIER_MIGRATE_PLAN_H
#define PIER_MIGRATE_PLAN_H

#include "migrate/schema.h"

typedef enum pier__step_kind {
    PIER__STEP_RENAME_TABLE,
    PIER__STEP_RENAME_COLUMN,
    PIER__STEP_CREATE_TABLE,
    PIER__STEP_CREATE_BOARD,
    PIER__STEP_ADD_COLUMN,
    PIER__STEP_DROP_NOT_NULL,
    PIER__STEP_SET_NOT_NULL,
    PIER__STEP_WIDEN_ENUM,
    PIER__STEP_WIDEN_COLUMN,
    PIER__STEP_SET_DEFAULT,
    PIER__STEP_DROP_DEFAULT,
    PIER__STEP_SET_READONLY,
    PIER__STEP_DROP_READONLY,
    PIER__STEP_ADOPT_AUTOINCREMENT,
    PIER__STEP_DROP_AUTOINCREMENT,
    PIER__STEP_CREATE_VIEW,
    PIER__STEP_REPLACE_VIEW,
    PIER__STEP_CREATE_INDEX,
    PIER__STEP_REPLACE_INDEX,
    PIER__STEP_DROP_INDEX,
    PIER__STEP_DROP_VIEW,
    PIER__STEP_DROP_COLUMN,
    PIER__STEP_DROP_TABLE,
    PIER__STEP_DROP_BOARD
} pier__step_kind;

typedef enum pier__step_class {
    PIER__CLASS_METADATA,      /* the catalog only, O(1) in rows */
    PIER__CLASS_PROVED,        /* reads what its proof needs, writes no row */
    PIER__CLASS_BUILD,         /* reads the rows once to build an index */
    PIER__CLASS_DESTRUCTIVE    /* destroys what the caller must agree to */
} pier__step_class;

/* What a step is on. */
typedef enum pier__object_kind {
    PIER__OBJ_TABLE,
    PIER__OBJ_VIEW,
    PIER__OBJ_INDEX,
    PIER__OBJ_BOARD
} pier__object_kind;

typedef struct pier__step {
    pier__step_kind kind;
    pier__object_kind on;
    const char *object;        /* the table, view, index or board (its new
                                  name for a rename) */
    const char *column;        /* a column step's column (its new name) */
    const char *from;          /* a rename: the old name; a widening: the
                                  old type; set_default: the old default
                                  (or NULL) */
    const char *to;            /* a widening: the new type; set_default:
                                  the new default */
    int64_t table_id;          /* the live table's id, or 0 */
    int64_t column_id;         /* the live column's id, or 0 */
    int64_t rows;              /* destructive: the rows it destroys (a
                                  table's; a column's values), -1 unknown */
    bool rewrite;              /* the step rewrites the stored rows */
    /* The declared object the step makes or changes (NULL for drops). */
    const pier__mtable *table;
    const pier__mcolumn *def;
    const pier__mcolumn *was;  /* a column step's live column, or NULL */
    const pier__mview *view;
    const pier__mindex *index;
    const pier__mboard *board;
    const pier__mbcol *bcol;
} pier__step;

typedef struct pier__plan_options {
    bool allow_destructive;
    bool schema_owns_database;
} pier__plan_options;

typedef struct pier__plan {
    pier__step *steps;
    size_t nsteps;
    char **refusals;           /* every change that cannot be a step */
    size_t nrefusals;
    char **destroys;           /* what the destructive steps destroy */
    size_t ndestroys;
    pier__arena arena;
} pier__plan;

void pier__plan_init(pier__plan *p);
void pier__plan_free(pier__plan *p);

/*
 * Plans the migration of `live` to `want`. The steps refer into both
 * models, which must outlive the plan.
 * @return PIER_OK (the steps, possibly none);
 *         PIER_E_INVALID_SCHEMA for a declaration that cannot mean
 *         anything against this catalog (a reference to a table neither
 *         declared nor there, or to a column that is not its table's
 *         unique key; an index on a table that is neither), err->offset
 *         in the declaration;
 *         PIER_E_MIGRATION_REFUSED naming every change that cannot be a
 *         step (also in p->refusals);
 *         PIER_E_DESTRUCTIVE_CHANGE when steps destroy something and
 *         options do not allow it, naming it (also in p->destroys; the
 *         steps are in the plan);
 *         PIER_E_OUT_OF_MEMORY.
 */
pier_status pier__plan_make(pier__plan *p, const pier__schema *live,
                            const pier__schema *want,
                            const pier__plan_options *options,
                            pier_error *err);

/*
 * Whether a declared table's column of type `from` may become `to` with
 * no stored value touched: every value of `from`, stored as it is, is a
 * value of `to`, in the same storage. *enum_step: the widening is an
 * ENUM's (labels added, or relaxed to TEXT).
 */
bool pier__coltype_widens(const pier__coltype *from,
                          const pier__coltype *to, bool *enum_step);

/* The JSON name of a step ("add_column") and of a class ("metadata"). */
const char *pier__step_name(pier__step_kind kind);
const char *pier__class_name(pier__step_class c);
pier__step_class pier__step_class_of(const pier__step *s);

#endif /* PIER_MIGRATE_PLAN_H */
