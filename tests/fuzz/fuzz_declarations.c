/*
 * fuzz_declarations.c: declarations (the text of pier plan and pier
 * migrate), read, planned and applied on a lake in /dev/shm that starts
 * empty for every input.
 *
 * Input: the declaration's text, whole.
 *
 * Invariants:
 * - reading it (pier__schema_from_declaration) answers OK or InvalidSchema
 *   with an offset inside the input, and twice the same;
 * - pier_plan on the empty lake answers OK, InvalidSchema (offset inside
 *   the input) or MigrationRefused (a table a declaration names twice in
 *   a rename chain...); a plan creates exactly what the declaration states
 *   (a step per table, view, board and index, no other), its JSON is
 *   valid JSON and its text is one line a step; planning writes nothing;
 * - pier_migrate of the same text either succeeds or fails with a
 *   documented status (SQLite may refuse a view's body or a check, a
 *   view's body may not read as its declared columns, a step may not be
 *   built yet) leaving the lake empty; after it succeeds, planning the
 *   same text again is zero steps (a migration is idempotent) and the
 *   lake's schema is the one Pier made.
 */
#include <stdlib.h>
#include <string.h>

#include "migrate/schema.h"
#include "support/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pier_engine *engine;
static const char *dir;

static bool migrate_status(pier_status rc)
{
    switch (rc) {
    case PIER_OK:
    case PIER_E_INVALID_SCHEMA:
    case PIER_E_MIGRATION_REFUSED:
    case PIER_E_QUERY_FAILED:          /* SQLite refused a body or check */
    case PIER_E_ENTITY_NOT_ALLOWED:    /* a view's body names the engine's */
    case PIER_E_UNKNOWN_TYPE:
    case PIER_E_LIMIT_EXCEEDED:
    case PIER_E_COLUMN_TYPE_CONFLICT:  /* a default that is not the type's */
    case PIER_E_VIEW_MISMATCH:         /* a view's body, not its columns */
        return true;
    default:
        return false;
    }
}

/* How many tables the lake has, and whether it has no board. */
static size_t objects(void)
{
    pier_error err;
    char **t = NULL, **b = NULL;
    FZ_OK(pier_table_list(&t, engine, &err), &err);
    FZ_OK(pier_board_list(&b, engine, &err), &err);
    size_t n = 0;
    while (t[n] != NULL)
        n++;
    for (size_t i = 0; b[i] != NULL; i++)
        n++;
    pier_strings_free(t);
    pier_strings_free(b);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (engine == NULL) {
        dir = fz_dir("declarations");
        engine = fz_open(dir);
    }
    const char *text = (const char *)data;
    pier__schema s, again;
    pier_error err;
    pier_status rc = pier__schema_from_declaration(&s, text, size, &err);
    pier_status rc2 = pier__schema_from_declaration(&again, text, size,
                                                    NULL);
    FZ_CHECK(rc == rc2, "read twice: %s then %s", pier_status_tag(rc),
             pier_status_tag(rc2));
    FZ_CHECK(rc == PIER_OK || rc == PIER_E_INVALID_SCHEMA,
             "reading answered %s: %s", pier_status_tag(rc), err.message);
    if (rc == PIER_E_INVALID_SCHEMA)
        FZ_CHECK(err.offset >= 0 && (uint64_t)err.offset <= size,
                 "offset %lld of %zu bytes", (long long)err.offset, size);
    size_t declared = s.ntables + s.nviews + s.nboards + s.nindexes;
    pier__schema_free(&s);
    pier__schema_free(&again);
    if (rc != PIER_OK)
        return 0;

    pier_migration *m = NULL;
    rc = pier_plan(&m, engine, text, size, NULL, &err);
    FZ_CHECK(rc == PIER_OK || rc == PIER_E_INVALID_SCHEMA ||
                 rc == PIER_E_MIGRATION_REFUSED,
             "planning answered %s: %s", pier_status_tag(rc), err.message);
    if (rc == PIER_E_INVALID_SCHEMA)
        FZ_CHECK(err.offset >= 0 && (uint64_t)err.offset <= size,
                 "offset %lld of %zu bytes", (long long)err.offset, size);
    FZ_CHECK(objects() == 0, "planning wrote to the lake");
    if (rc != PIER_OK)
        return 0;
    FZ_CHECK(pier_migration_steps(m) == declared, "%zu steps for %zu "
             "objects declared", pier_migration_steps(m), declared);
    char *json = pier_migration_to_json(m), *lines = pier_migration_to_text(m);
    FZ_CHECK(json != NULL && lines != NULL, "out of memory");
    FZ_CHECK(fz_json_valid(json, strlen(json)), "plan JSON: %s", json);
    size_t nl = 0;
    for (const char *p = lines; *p != '\0'; p++)
        nl += *p == '\n';
    FZ_CHECK(nl == declared, "%zu lines for %zu steps", nl, declared);
    pier_free(json);
    pier_free(lines);
    pier_migration_free(m);

    rc = pier_migrate(NULL, engine, text, size, NULL, NULL, &err);
    FZ_CHECK(migrate_status(rc), "migrating answered %s: %s",
             pier_status_tag(rc), err.message);
    if (rc != PIER_OK) {
        FZ_CHECK(objects() == 0, "a failed migration left objects: %s",
                 err.message);
        return 0;
    }
    rc = pier_plan(&m, engine, text, size, NULL, &err);
    FZ_CHECK(rc == PIER_OK, "planning after the migration: %s: %s",
             pier_status_tag(rc), err.message);
    FZ_CHECK(pier_migration_steps(m) == 0, "%zu steps after the migration",
             pier_migration_steps(m));
    pier_migration_free(m);
    FZ_OK(pier_schema_check(engine, &err), &err);
    fz_reopen_empty(&engine, dir);
    return 0;
}
