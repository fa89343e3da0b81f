/*
 * write.h: the migrations' model written out as text (write.c). Pure.
 */
#ifndef PIER_MIGRATE_WRITE_H
#define PIER_MIGRATE_WRITE_H

#include "migrate/schema.h"

/*
 * Appends column i of table t as a declaration states it: name, type,
 * PRIMARY KEY [AUTOINCREMENT] when it is the key alone, NOT NULL,
 * DEFAULT `dflt` (SQL text, or NULL for none), BACKFILL when `backfill`
 * (declarations; the dialect takes none), its foreign key, READONLY.
 */
void pier__mcolumn_write(pier__buf *b, const pier__mtable *t, size_t i,
                         const char *dflt, bool backfill);
/* Appends CREATE TABLE with every column, key and check, each definition
 * after `sep` (", " on one line; "\n    " one a line); no ';'. */
void pier__mtable_write(pier__buf *b, const pier__mtable *t, bool backfill,
                        const char *sep);
void pier__mview_write(pier__buf *b, const pier__mview *v);
void pier__mindex_write(pier__buf *b, const pier__mindex *x);
void pier__mboard_write(pier__buf *b, const pier__mboard *bd);
/* Appends the whole model as a declaration: tables, indexes, views, then
 * boards, each after a comment saying whether a migration made it, then
 * a comment for each object the model cannot state. */
void pier__schema_write(pier__buf *b, const pier__schema *s);

#endif /* PIER_MIGRATE_WRITE_H */
