/*
 * program.c: tests/e2e/test_codegen.sh compiles this against the header
 * `pier schema codegen c schema.sql` writes, and runs it on a lake migrated
 * to schema.sql: it inserts, updates and reads rows of every type through
 * the generated helpers and checks every value read back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"

static int failures;

#define CHECK(cond)                                                       \
    do {                                                                  \
        if (!(cond)) {                                                    \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__,    \
                    #cond);                                               \
            failures++;                                                   \
        }                                                                 \
    } while (0)

#define OK(call)                                                          \
    do {                                                                  \
        pier_status rc_ = (call);                                         \
        if (rc_ != PIER_OK) {                                             \
            fprintf(stderr, "%s:%d: %s: %s: %s\n", __FILE__, __LINE__,    \
                    #call, err.tag, err.message);                         \
            exit(1);                                                      \
        }                                                                 \
    } while (0)

static bool same(const char *a, const char *b)
{
    return a != NULL && b != NULL && strcmp(a, b) == 0;
}

int main(int argc, char **argv)
{
    pier_engine *e = NULL;
    pier_error err;
    pier_cursor *c = NULL;
    const pier_row *row = NULL;
    if (argc != 2)
        return 2;
    OK(pier_open(&e, argv[1], NULL, &err));

    /* people: every scalar type, the generated key left out */
    struct db_people_insert p;
    memset(&p, 0, sizeof p);
    static const unsigned char avatar[] = { 0x00, 0xff, 0x10 };
    p.name = "Ada";
    p.joined = "2026-03-01T10:00:00+02:00";
    p.serial = "S-1";
    p.has.email = true;
    p.email = "ada@example.com";
    p.has.born = true;
    p.born = "1815-12-10";
    p.has.ratio = true;
    p.ratio = 0.5f;
    p.has.badge = true;
    p.badge = "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11";
    p.has.avatar = true;
    p.avatar.bytes = avatar;
    p.avatar.len = sizeof avatar;
    p.has.tiny = true;
    p.tiny = -128;
    p.has.small = true;
    p.small = 32767;
    p.has.mid = true;
    p.mid = -2147483647 - 1;
    p.has.u8 = true;
    p.u8 = 255;
    p.has.u16 = true;
    p.u16 = 65535;
    p.has.u32 = true;
    p.u32 = 4294967295u;
    p.has.u64 = true;
    p.u64 = UINT64_MAX;
    p.has.huge = true;
    p.huge.hi = INT64_MIN;          /* -2^127 */
    p.huge.lo = 0;
    p.has.class_ = true;
    p.null.class_ = true;           /* given, as null */
    int64_t ada = 0;
    OK(db_people_insert_row(&ada, e, &p, &err));
    CHECK(ada == 1);

    /* the defaults and nulls: only what is required */
    struct db_people_insert q;
    memset(&q, 0, sizeof q);
    q.name = "Bob";
    q.joined = "2026-03-02T00:00:00Z";
    q.serial = "S-2";
    int64_t bob = 0;
    OK(db_people_insert_row(&bob, e, &q, &err));
    CHECK(bob == 2);

    /* a required column given as NULL is refused by the lake */
    q.name = NULL;
    CHECK(db_people_insert_row(NULL, e, &q, &err) ==
          PIER_E_CONSTRAINT_NOT_NULL);

    OK(pier_exec(&c, e, DB_PEOPLE_SELECT_SQL " ORDER BY id", NULL, &err));
    struct db_people_select r;
    OK(pier_cursor_next(&row, c, &err));
    CHECK(row != NULL);
    OK(db_people_read(&r, row, &err));
    CHECK(r.id == 1);
    CHECK(same(r.name, "Ada"));
    CHECK(same(r.email, "ada@example.com") && !r.null.email);
    CHECK(same(r.born, "1815-12-10"));
    CHECK(same(r.joined, "2026-03-01T08:00:00.000000Z"));
    CHECK(r.score == 0);
    CHECK(r.ratio == 0.5f && !r.null.ratio);
    CHECK(r.active);
    CHECK(same(r.badge, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"));
    CHECK(r.avatar.len == 3 && memcmp(r.avatar.bytes, avatar, 3) == 0);
    CHECK(r.tiny == -128 && r.small == 32767);
    CHECK(r.mid == -2147483647 - 1);
    CHECK(r.u8 == 255 && r.u16 == 65535 && r.u32 == 4294967295u);
    CHECK(r.u64 == UINT64_MAX);
    CHECK(r.huge.hi == INT64_MIN && r.huge.lo == 0);
    CHECK(r.null.class_ && r.class_ == NULL);
    CHECK(same(r.serial, "S-1"));
    OK(pier_cursor_next(&row, c, &err));
    CHECK(row != NULL);
    OK(db_people_read(&r, row, &err));
    CHECK(r.id == 2 && same(r.name, "Bob"));
    CHECK(r.null.email && r.null.born && r.null.ratio && r.null.badge);
    CHECK(r.null.avatar && r.null.tiny && r.null.u64 && r.null.huge);
    CHECK(r.score == 0 && r.active);
    OK(pier_cursor_next(&row, c, &err));
    CHECK(row == NULL);
    pier_cursor_close(c);

    /* an update by key: set a value, clear another */
    struct db_people_key pk = { 2 };
    struct db_people_update u;
    memset(&u, 0, sizeof u);
    u.has.score = true;
    u.score = 2.5;
    u.has.email = true;
    u.email = "bob@example.com";
    u.has.active = true;
    u.active = false;
    u.has.huge = true;
    u.huge.hi = -1;
    u.huge.lo = UINT64_MAX;         /* -1 */
    int64_t changed = -1;
    OK(db_people_update_row(&changed, e, &pk, &u, &err));
    CHECK(changed == 1);
    memset(&u, 0, sizeof u);
    u.has.email = true;
    u.null.email = true;
    OK(db_people_update_row(&changed, e, &pk, &u, &err));
    CHECK(changed == 1);
    memset(&u, 0, sizeof u);
    OK(db_people_update_row(&changed, e, &pk, &u, &err));
    CHECK(changed == 0);
    OK(pier_exec(&c, e, DB_PEOPLE_SELECT_SQL " WHERE id = 2", NULL, &err));
    OK(pier_cursor_next(&row, c, &err));
    OK(db_people_read(&r, row, &err));
    CHECK(r.score == 2.5 && !r.active && r.null.email);
    CHECK(r.huge.hi == -1 && r.huge.lo == UINT64_MAX);
    pier_cursor_close(c);

    /* tickets: the exact and text-spelled types */
    struct db_tickets_insert t;
    memset(&t, 0, sizeof t);
    t.owner = ada;
    t.has.price = true;
    t.price = "12.5";
    t.has.amount = true;
    t.amount = "0.10";
    t.has.opened_at = true;
    t.opened_at = "2026-03-01 10:00:00";
    t.has.at_time = true;
    t.at_time = "10:00:00.5";
    t.has.wait = true;
    t.wait = "P1Y2M3DT4H5M6.5S";
    t.has.meta = true;
    t.meta = "{\"a\":[1,2]}";
    t.has.tags = true;
    t.tags = "[\"x\",null]";
    t.has.grid = true;
    t.grid = "[[1,2],null]";
    t.has.anything = true;
    t.anything = "any text";
    int64_t tid = 0;
    OK(db_tickets_insert_row(&tid, e, &t, &err));
    CHECK(tid == 1);
    memset(&t, 0, sizeof t);
    t.owner = bob;
    t.has.status = true;
    t.status = "closed";
    OK(db_tickets_insert_row(NULL, e, &t, &err));
    t.status = "nope";              /* not a label */
    CHECK(db_tickets_insert_row(NULL, e, &t, &err) ==
          PIER_E_COLUMN_TYPE_CONFLICT);

    OK(pier_exec(&c, e, DB_TICKETS_SELECT_SQL " ORDER BY id", NULL, &err));
    struct db_tickets_select tr;
    OK(pier_cursor_next(&row, c, &err));
    OK(db_tickets_read(&tr, row, &err));
    CHECK(tr.id == 1 && tr.owner == 1 && same(tr.status, "open"));
    CHECK(same(tr.price, "12.50") && same(tr.amount, "0.1"));
    CHECK(same(tr.opened_at, "2026-03-01T10:00:00.000000"));
    CHECK(same(tr.at_time, "10:00:00.500000"));
    CHECK(same(tr.wait, "P1Y2M3DT4H5M6.5S"));
    CHECK(same(tr.meta, "{\"a\":[1,2]}"));
    CHECK(same(tr.tags, "[\"x\",null]"));
    CHECK(same(tr.grid, "[[1,2],null]"));
    CHECK(same(tr.anything, "any text"));
    OK(pier_cursor_next(&row, c, &err));
    OK(db_tickets_read(&tr, row, &err));
    CHECK(tr.id == 2 && same(tr.status, "closed"));
    CHECK(tr.null.price && tr.null.meta && tr.null.tags && tr.null.anything);
    pier_cursor_close(c);

    /* a view: every column may be null */
    OK(pier_exec(&c, e, DB_OPEN_TICKETS_SELECT_SQL, NULL, &err));
    struct db_open_tickets_select v;
    OK(pier_cursor_next(&row, c, &err));
    OK(db_open_tickets_read(&v, row, &err));
    CHECK(v.id == 1 && !v.null.id && same(v.price, "12.50"));
    CHECK(same(v.status, "open"));
    OK(pier_cursor_next(&row, c, &err));
    CHECK(row == NULL);
    pier_cursor_close(c);

    /* a text primary key */
    struct db_notes_insert n;
    memset(&n, 0, sizeof n);
    n.code = "n1";
    n.body = "first";
    OK(db_notes_insert_row(NULL, e, &n, &err));
    struct db_notes_key nk = { "n1" };
    struct db_notes_update nu;
    memset(&nu, 0, sizeof nu);
    nu.has.body = true;
    nu.body = "second";
    OK(db_notes_update_row(&changed, e, &nk, &nu, &err));
    CHECK(changed == 1);
    nk.code = "none";
    OK(db_notes_update_row(&changed, e, &nk, &nu, &err));
    CHECK(changed == 0);
    OK(pier_exec(&c, e, DB_NOTES_SELECT_SQL, NULL, &err));
    struct db_notes_select nr;
    OK(pier_cursor_next(&row, c, &err));
    OK(db_notes_read(&nr, row, &err));
    CHECK(same(nr.code, "n1") && same(nr.body, "second"));
    pier_cursor_close(c);

    /* a board: base columns, declared ones, pier_rows underneath */
    struct db_events_insert ev;
    memset(&ev, 0, sizeof ev);
    ev.id = "e1";
    ev.has.state = true;
    ev.state = "new";
    ev.has.kind = true;
    ev.kind = "click";
    ev.has.n = true;
    ev.n = 1.5;
    ev.has.big = true;
    ev.big.hi = 1;                  /* 2^64 */
    ev.big.lo = 0;
    ev.has.at = true;
    ev.at = "2026-03-01T10:00:00+01:00";
    ev.has.doc = true;
    ev.doc = "{\"b\":1,\"a\":2}";
    ev.has.qty = true;
    ev.qty = -7;
    ev.has.price = true;
    ev.price = "3.5";
    ev.has.u = true;
    ev.u = UINT64_MAX;
    ev.has.tags = true;
    ev.tags = "[\"p\",\"q\"]";
    int64_t wm = 0;
    OK(db_events_insert_row(&wm, e, &ev, &err));
    CHECK(wm > 0);
    memset(&ev, 0, sizeof ev);
    ev.id = "e2";
    OK(db_events_insert_row(NULL, e, &ev, &err));

    struct db_events_update eu;
    memset(&eu, 0, sizeof eu);
    eu.has.state = true;
    eu.null.state = true;
    eu.has.qty = true;
    eu.qty = 8;
    OK(db_events_update_row(NULL, e, "e1", &eu, &err));
    CHECK(db_events_update_row(NULL, e, "nope", &eu, &err) ==
          PIER_E_ROW_NOT_FOUND);

    pier_row *got = NULL;
    struct db_events_select er;
    OK(pier_row_get(&got, e, DB_EVENTS_BOARD, "e1", &err));
    OK(db_events_read(&er, got, &err));
    CHECK(same(er.id, "e1") && er.updated_at != NULL && er.null.state);
    CHECK(same(er.kind, "click") && er.n == 1.5);
    CHECK(er.big.hi == 1 && er.big.lo == 0);
    CHECK(same(er.at, "2026-03-01T09:00:00.000000Z"));
    CHECK(same(er.doc, "{\"a\":2,\"b\":1}"));
    CHECK(er.qty == 8 && same(er.price, "3.50") && er.u == UINT64_MAX);
    CHECK(same(er.tags, "[\"p\",\"q\"]"));
    pier_row_free(got);

    OK(pier_query(&c, e, DB_EVENTS_BOARD, DB_EVENTS_SELECT_SQL
                  " ORDER BY id", NULL, NULL, &err));
    int rows = 0;
    for (;;) {
        OK(pier_cursor_next(&row, c, &err));
        if (row == NULL)
            break;
        OK(db_events_read(&er, row, &err));   /* valid until the next */
        if (++rows == 2)
            CHECK(same(er.id, "e2") && er.null.kind && er.null.big);
    }
    CHECK(rows == 2);
    pier_cursor_close(c);

    /* a row that lacks a column the shape has */
    OK(pier_exec(&c, e, "SELECT code FROM notes", NULL, &err));
    OK(pier_cursor_next(&row, c, &err));
    CHECK(db_notes_read(&nr, row, &err) == PIER_E_UNKNOWN_COLUMN);
    CHECK(strcmp(err.tag, "UnknownColumn") == 0);
    pier_cursor_close(c);

    pier_close(&e);
    if (failures == 0)
        printf("codegen program: every check passed\n");
    return failures == 0 ? 0 : 1;
}
