/*
 * migration.h: the plan pier_plan and pier_migrate hand out, shared by
 * api.c (planning, rendering) and apply.c (applying).
 */
#ifndef PIER_MIGRATE_MIGRATION_H
#define PIER_MIGRATE_MIGRATION_H

#include <jansson.h>

#include "migrate/plan.h"

struct pier_migration {
    pier__schema live;
    pier__schema want;
    pier__plan plan;
    char fingerprint[17];
};

/* A new, empty plan; NULL if out of memory. */
pier_migration *pier__migration_new(void);

/*
 * Plans `decl` against the lake inside the engine's open transaction (read
 * or write): reads both models, computes the fingerprint, checks
 * options->expect, counts the rows of what destructive steps destroy,
 * and makes the plan. Fails as pier_plan does.
 */
pier_status pier__migration_plan(pier_migration *m, pier_engine *e,
                                 const char *decl, size_t len,
                                 const pier_migrate_options *o,
                                 pier_error *err);

/* A step as the plan's JSON shows it, its name under `kind_key` ("step";
 * "op" in its change record); NULL if out of memory. */
json_t *pier__step_json(const pier__step *s, const char *kind_key);

#endif /* PIER_MIGRATE_MIGRATION_H */
