/*
 * pg_catalog.c: connecting to a PostgreSQL lake and finding or making its
 * tables (pg_catalog.h; docs/architecture.md, "The PostgreSQL lake").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/pg_catalog.h"

/* The tables of a lake, created in this order (after the schema). */
static const struct {
    const char *name;
    const char *ddl;           /* %s: the quoted namespace */
} TABLES[] = {
    { "meta", "CREATE TABLE %s.meta (key text COLLATE \"C\" PRIMARY KEY, "
              "value bigint NOT NULL)" },
    { "head", "CREATE TABLE %s.head (watermark bigint NOT NULL, stamp "
              "bigint NOT NULL) WITH (fillfactor = 10)" },
    { "boards", "CREATE TABLE %s.boards (board text COLLATE \"C\" PRIMARY "
                "KEY, board_key bigint GENERATED ALWAYS AS IDENTITY UNIQUE, "
                "strict boolean NOT NULL, created_at bigint NOT NULL)" },
    { "columns", "CREATE TABLE %s.columns (column_id bigint GENERATED "
                 "ALWAYS AS IDENTITY PRIMARY KEY, board text COLLATE \"C\" "
                 "NOT NULL, position int NOT NULL, name text COLLATE \"C\" "
                 "NOT NULL, type text NOT NULL, origin text NOT NULL, "
                 "UNIQUE (board, position))" },
    { "changes", "CREATE TABLE %s.changes (watermark bigint PRIMARY KEY, "
                 "board text COLLATE \"C\" NOT NULL, kind text NOT NULL, "
                 "payload text NOT NULL, committed_at bigint NOT NULL, "
                 "stamp bigint NOT NULL)" },
};
#define NTABLES (sizeof TABLES / sizeof TABLES[0])

/* What follows the tables: names unique as Pier compares them (ASCII
 * case folded: lower() under the C collation folds ASCII only), the log
 * by board, the head's one row. */
static const char *const AFTER[] = {
    "CREATE UNIQUE INDEX ON %s.columns (board, lower(name COLLATE \"C\"))",
    "CREATE INDEX ON %s.changes (board, watermark)",
    "INSERT INTO %s.head VALUES (0, 0)",
};
#define NAFTER (sizeof AFTER / sizeof AFTER[0])

/* The first line of a libpq or server message (they end in "\n"). */
static void first_line(char *out, size_t cap, const char *msg)
{
    const char *m = msg != NULL ? msg : "";
    size_t n = strcspn(m, "\n");
    snprintf(out, cap, "%.*s", (int)n, m);
}

/* What a session of a lake needs: a UTF-8 database, spoken to in UTF-8.
 * A reset connection starts a new session, which needs it again. */
static pier_status session(PGconn *c, pier_error *err)
{
    char why[200];
    const char *enc = PQparameterStatus(c, "server_encoding");
    if (enc == NULL || strcmp(enc, "UTF8") != 0) {
        snprintf(why, sizeof why, "%s", enc != NULL ? enc : "unknown");
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "the PostgreSQL lake's database is encoded %s: "
                          "a lake needs a UTF8 database (CREATE DATABASE "
                          "... ENCODING 'UTF8')", why);
    }
    if (PQsetClientEncoding(c, "UTF8") != 0) {
        first_line(why, sizeof why, PQerrorMessage(c));
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "cannot speak UTF-8 to the PostgreSQL lake: %s",
                          why);
    }
    return PIER_OK;
}

/* The server's notices (a WARNING, a NOTICE) are not the application's
 * to see on its stderr, libpq's default. */
static void quiet(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

pier_status pier__pg_connect(PGconn **out, const char *conninfo,
                             pier_error *err)
{
    *out = NULL;
    if (conninfo == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a PostgreSQL lake needs a connection string");
    /* (a keyword of the string itself wins over the ones before it) */
    const char *const keys[] = { "connect_timeout", "application_name",
                                 "dbname", NULL };
    const char *const values[] = { "10", "pier", conninfo, NULL };
    PGconn *c = PQconnectdbParams(keys, values, 1);
    if (c == NULL)
        return pier__oom(err);
    char why[200];
    if (PQstatus(c) != CONNECTION_OK) {
        first_line(why, sizeof why, PQerrorMessage(c));
        PQfinish(c);
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "cannot connect to the PostgreSQL lake: %s", why);
    }
    PQsetNoticeProcessor(c, quiet, NULL);
    pier_status rc = session(c, err);
    if (rc != PIER_OK) {
        PQfinish(c);
        return rc;
    }
    *out = c;
    return PIER_OK;
}

pier_status pier__pg_alive(PGconn *c, pier_error *err)
{
    if (c == NULL)
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "no connection to the PostgreSQL lake");
    if (PQstatus(c) == CONNECTION_OK)
        return PIER_OK;
    PQreset(c);
    if (PQstatus(c) != CONNECTION_OK) {
        char why[200];
        first_line(why, sizeof why, PQerrorMessage(c));
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "cannot connect to the PostgreSQL lake again: %s",
                          why);
    }
    return session(c, err);
}

bool pier__pg_namespace_valid(const char *ns)
{
    if (ns == NULL || ns[0] == '\0' || strlen(ns) > 63 ||
        (ns[0] >= '0' && ns[0] <= '9'))
        return false;
    for (const char *p = ns; *p != '\0'; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
              *p == '_'))
            return false;
    return true;
}

pier_status pier__pg_fail(PGresult *r, PGconn *c, pier_status status,
                          const char *what, pier_error *err)
{
    char why[160];
    const char *state = r != NULL ? PQresultErrorField(r, PG_DIAG_SQLSTATE)
                                  : NULL;
    first_line(why, sizeof why,
               r != NULL ? PQresultErrorMessage(r) : PQerrorMessage(c));
    if (why[0] == '\0')
        first_line(why, sizeof why, PQerrorMessage(c));
    return pier__fail(err, status, "%s: %s%s%s%s", what, why,
                      state != NULL ? " (SQLSTATE " : "",
                      state != NULL ? state : "", state != NULL ? ")" : "");
}

/* A failed statement of the lake's setup: LakeUnavailable. */
static pier_status failed(PGresult *r, PGconn *c, const char *what,
                          pier_error *err)
{
    return pier__pg_fail(r, c, PIER_E_LAKE_UNAVAILABLE, what, err);
}

/* Runs one statement of no rows; `what` says what failed. */
static pier_status command(PGconn *c, const char *sql, const char *what,
                           pier_error *err)
{
    PGresult *r = PQexec(c, sql);
    pier_status rc = PIER_OK;
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        rc = failed(r, c, what, err);
    PQclear(r);
    return rc;
}

/* One statement of a template, its "%s" the quoted namespace. */
static pier_status command_in(PGconn *c, const char *tmpl, const char *qns,
                              const char *what, pier_error *err)
{
    const char *at = strstr(tmpl, "%s");
    char sql[512];
    if (at == NULL)
        snprintf(sql, sizeof sql, "%s", tmpl);
    else
        snprintf(sql, sizeof sql, "%.*s%s%s", (int)(at - tmpl), tmpl, qns,
                 at + 2);
    return command(c, sql, what, err);
}

/* Which of the lake's tables exist in the namespace: a bit per TABLES
 * entry; -1 when the question failed. */
static int tables_present(PGconn *c, const char *ns, pier_error *err)
{
    const char *params[1] = { ns };
    PGresult *r = PQexecParams(c, "SELECT c.relname FROM pg_class c JOIN "
                               "pg_namespace n ON n.oid = c.relnamespace "
                               "WHERE n.nspname = $1 AND c.relkind IN "
                               "('r', 'p', 'v', 'm', 'f')", 1, NULL,
                               params, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        failed(r, c, "cannot read the PostgreSQL lake's tables", err);
        PQclear(r);
        return -1;
    }
    int bits = 0;
    for (int i = 0; i < PQntuples(r); i++)
        for (size_t k = 0; k < NTABLES; k++)
            if (strcmp(PQgetvalue(r, i, 0), TABLES[k].name) == 0)
                bits |= 1 << k;
    PQclear(r);
    return bits;
}

/* Makes the lake's tables; the transaction is open. */
static pier_status create(PGconn *c, const char *qns, pier_error *err)
{
    pier_status rc = command_in(c, "CREATE SCHEMA IF NOT EXISTS %s", qns,
                                "cannot make the PostgreSQL lake's schema",
                                err);
    for (size_t k = 0; rc == PIER_OK && k < NTABLES; k++)
        rc = command_in(c, TABLES[k].ddl, qns,
                        "cannot make the PostgreSQL lake's tables", err);
    for (size_t k = 0; rc == PIER_OK && k < NAFTER; k++)
        rc = command_in(c, AFTER[k], qns,
                        "cannot make the PostgreSQL lake's tables", err);
    int64_t identity = 0;
    if (rc == PIER_OK && !pier__random_bytes(&identity, sizeof identity))
        rc = pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                        "no random bytes for the lake's identity");
    identity = identity < 0 ? -(identity + 1) : identity;
    if (identity == 0)
        identity = 1;
    char sql[512];
    snprintf(sql, sizeof sql, "INSERT INTO %s.meta VALUES ('format', %d), "
             "('catalog_version', 0), ('floor', 0), ('last_maintenance', "
             "0), ('identity', %" PRId64 ")", qns, PIER__PG_FORMAT,
             identity);
    if (rc == PIER_OK)
        rc = command(c, sql, "cannot make the PostgreSQL lake's tables",
                     err);
    return rc;
}

/* Reads the meta table into *out; the transaction is open. */
static pier_status read_meta(PGconn *c, const char *qns, pier__pg_meta *out,
                             pier_error *err)
{
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT key, value FROM %s.meta", qns);
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        pier_status rc = failed(r, c, "cannot read the PostgreSQL lake's "
                                "meta table", err);
        PQclear(r);
        return rc;
    }
    out->format = out->identity = out->catalog_version = -1;
    for (int i = 0; i < PQntuples(r); i++) {
        const char *key = PQgetvalue(r, i, 0);
        int64_t v = strtoll(PQgetvalue(r, i, 1), NULL, 10);
        if (strcmp(key, "format") == 0)
            out->format = v;
        else if (strcmp(key, "identity") == 0)
            out->identity = v;
        else if (strcmp(key, "catalog_version") == 0)
            out->catalog_version = v;
    }
    PQclear(r);
    if (out->format > PIER__PG_FORMAT)
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "the PostgreSQL lake is of format %" PRId64
                          ", newer than this Pier's %d: open it with a "
                          "newer Pier", out->format, PIER__PG_FORMAT);
    if (out->format < 1 || out->identity <= 0 || out->catalog_version < 0)
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "the PostgreSQL lake's meta table is damaged: "
                          "its format, identity or catalog version is "
                          "missing");
    /* Format 1 kept a column per board column; no Pier released it. */
    if (out->format < PIER__PG_FORMAT)
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "the PostgreSQL lake is of format %" PRId64
                          ", which this Pier does not read (it reads %d): "
                          "a lake made while the PostgreSQL lake was being "
                          "built; drop its namespace and make it again",
                          out->format, PIER__PG_FORMAT);
    return PIER_OK;
}

/* Finds or makes the lake; the transaction is open. */
static pier_status ensure(PGconn *c, const char *ns, const char *qns,
                          bool create_it, pier__pg_meta *out,
                          pier_error *err)
{
    /* nodes opening the same lake wait for each other here, so that one
     * makes it and the others find all of it */
    const char *params[1] = { ns };
    PGresult *r = PQexecParams(c, "SELECT pg_advisory_xact_lock("
                               "hashtext('pier lake ' || $1))", 1, NULL,
                               params, NULL, NULL, 0);
    pier_status rc = PIER_OK;
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        rc = failed(r, c, "cannot lock the PostgreSQL lake", err);
    PQclear(r);
    int have = rc == PIER_OK ? tables_present(c, ns, err) : -1;
    if (have < 0)
        return rc != PIER_OK ? rc : PIER_E_LAKE_UNAVAILABLE;
    if (have == 0 && !create_it) {
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE, "no lake in "
                          "namespace '%s' of the PostgreSQL database (a "
                          "read makes no lake)", ns);
    } else if (have == 0) {
        rc = create(c, qns, err);
        out->created = rc == PIER_OK;
    } else if (have != (1 << NTABLES) - 1) {
        /* some of the names, not all: another's tables, or a lake that
         * lost some */
        char names[128] = "";
        for (size_t k = 0; k < NTABLES; k++)
            if (!(have & (1 << k)))
                snprintf(names + strlen(names), sizeof names - strlen(names),
                         "%s%s", names[0] != '\0' ? ", " : "",
                         TABLES[k].name);
        return pier__fail(err, PIER_E_LAKE_UNAVAILABLE,
                          "namespace '%s' holds some of a lake's tables "
                          "but not %s: it is not a PostgreSQL lake, or a "
                          "damaged one (name another namespace)", ns,
                          names);
    }
    if (rc == PIER_OK)
        rc = read_meta(c, qns, out, err);
    return rc;
}

pier_status pier__pg_catalog_ensure(PGconn *c, const char *ns,
                                    pier__pg_meta *out, pier_error *err)
{
    return pier__pg_catalog_open(c, ns, true, out, err);
}

pier_status pier__pg_catalog_open(PGconn *c, const char *ns, bool create,
                                  pier__pg_meta *out, pier_error *err)
{
    *out = (pier__pg_meta){ .format = 0 };
    if (!pier__pg_namespace_valid(ns))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "'%s' cannot name a PostgreSQL lake's namespace: "
                          "use lower-case letters, digits and '_' (63 at "
                          "most, not first a digit)", ns != NULL ? ns : "");
    char qns[80];
    snprintf(qns, sizeof qns, "\"%s\"", ns);
    pier_status rc = command(c, "BEGIN", "cannot open the PostgreSQL lake",
                             err);
    if (rc != PIER_OK)
        return rc;
    rc = ensure(c, ns, qns, create, out, err);
    if (rc == PIER_OK)
        rc = command(c, "COMMIT", "cannot make the PostgreSQL lake", err);
    if (rc != PIER_OK) {
        PQclear(PQexec(c, "ROLLBACK"));        /* (nothing half-made) */
        out->created = false;
    }
    return rc;
}

/* ---- the change log ---- */

/* Appends strings as a PostgreSQL array literal of text:
 * {"a","b\"c"}. */
static void array_literal(pier__buf *b, const pier__pg_record *recs,
                          size_t n, size_t field)
{
    pier__buf_putc(b, '{');
    for (size_t i = 0; i < n; i++) {
        const char *s = field == 0   ? recs[i].board
                        : field == 1 ? recs[i].kind
                                     : recs[i].payload;
        pier__buf_puts(b, i > 0 ? ",\"" : "\"");
        for (const char *p = s != NULL ? s : ""; *p != '\0'; p++) {
            if (*p == '"' || *p == '\\')
                pier__buf_putc(b, '\\');
            pier__buf_putc(b, *p);
        }
        pier__buf_putc(b, '"');
    }
    pier__buf_putc(b, '}');
}

pier_status pier__pg_log_append(PGconn *c, const char *ns,
                                const pier__pg_record *recs, size_t n,
                                int64_t committed_at, int64_t stamp,
                                int64_t *first, pier_error *err)
{
    *first = 0;
    if (n == 0 || !pier__pg_namespace_valid(ns))
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "a change log append needs records and a lake");
    char sql[640];
    snprintf(sql, sizeof sql,
             "WITH h AS (UPDATE \"%s\".head SET watermark = watermark + "
             "$1, stamp = greatest(stamp, $2) RETURNING watermark) "
             "INSERT INTO \"%s\".changes (watermark, board, kind, payload, "
             "committed_at, stamp) SELECT h.watermark - $1 + r.ord, "
             "r.board, r.kind, r.payload, $3, $2 FROM h, unnest($4::text[], "
             "$5::text[], $6::text[]) WITH ORDINALITY AS r(board, kind, "
             "payload, ord) RETURNING watermark", ns, ns);
    pier__buf arrays[3];
    char nums[3][24];
    snprintf(nums[0], sizeof nums[0], "%zu", n);
    snprintf(nums[1], sizeof nums[1], "%" PRId64, stamp);
    snprintf(nums[2], sizeof nums[2], "%" PRId64, committed_at);
    bool oom = false;
    for (size_t k = 0; k < 3; k++) {
        pier__buf_init(&arrays[k]);
        array_literal(&arrays[k], recs, n, k);
        oom = oom || arrays[k].oom;
    }
    pier_status rc = PIER_OK;
    if (oom) {
        rc = pier__oom(err);
    } else {
        const char *params[6] = { nums[0], nums[1], nums[2], arrays[0].p,
                                  arrays[1].p, arrays[2].p };
        PGresult *r = PQexecParams(c, sql, 6, NULL, params, NULL, NULL, 0);
        if (PQresultStatus(r) != PGRES_TUPLES_OK ||
            PQntuples(r) != (int)n) {
            rc = pier__pg_fail(r, c, PIER_E_WRITE_FAILED, "cannot append "
                               "to the PostgreSQL lake's change log", err);
        } else {
            /* (RETURNING's order is not promised: the least) */
            *first = INT64_MAX;
            for (int i = 0; i < PQntuples(r); i++) {
                int64_t w = strtoll(PQgetvalue(r, i, 0), NULL, 10);
                if (w < *first)
                    *first = w;
            }
        }
        PQclear(r);
    }
    for (size_t k = 0; k < 3; k++)
        pier__buf_free(&arrays[k]);
    return rc;
}

pier_status pier__pg_log_after(PGconn *c, const char *ns, const char *board,
                               int64_t after, int64_t limit,
                               bool (*fn)(void *payload,
                                          const pier__pg_change *rec),
                               void *payload, int64_t *head,
                               pier_error *err)
{
    *head = 0;
    if (!pier__pg_namespace_valid(ns) || board == NULL)
        return pier__fail(err, PIER_E_INVALID_ARGUMENT,
                          "reading a change log needs a lake and a board");
    char sql[512];
    /* one statement: one snapshot for the head and the records */
    snprintf(sql, sizeof sql,
             "SELECT h.watermark, c.watermark, c.kind, c.payload, "
             "c.committed_at, c.stamp FROM \"%s\".head h LEFT JOIN LATERAL "
             "(SELECT watermark, kind, payload, committed_at, stamp FROM "
             "\"%s\".changes WHERE board = $1 AND watermark > $2 ORDER BY "
             "watermark LIMIT $3) c ON true ORDER BY c.watermark", ns, ns);
    char a[24], l[24];
    snprintf(a, sizeof a, "%" PRId64, after);
    snprintf(l, sizeof l, "%" PRId64, limit);
    const char *params[3] = { board, a, l };
    PGresult *r = PQexecParams(c, sql, 3, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        pier__pg_fail(r, c, PIER_E_READ_FAILED, "cannot read the "
                      "PostgreSQL lake's change log", err);
        PQclear(r);
        return PIER_E_READ_FAILED;
    }
    for (int i = 0; i < PQntuples(r); i++) {
        *head = strtoll(PQgetvalue(r, i, 0), NULL, 10);
        if (PQgetisnull(r, i, 1))
            continue;                   /* (no records: the head alone) */
        pier__pg_change rec = {
            .watermark = strtoll(PQgetvalue(r, i, 1), NULL, 10),
            .kind = PQgetvalue(r, i, 2),
            .payload = PQgetvalue(r, i, 3),
            .len = (size_t)PQgetlength(r, i, 3),
            .committed_at = strtoll(PQgetvalue(r, i, 4), NULL, 10),
            .stamp = strtoll(PQgetvalue(r, i, 5), NULL, 10),
        };
        if (!fn(payload, &rec))
            break;
    }
    PQclear(r);
    return PIER_OK;
}
