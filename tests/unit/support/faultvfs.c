/*
 * faultvfs.c: see faultvfs.h.
 *
 * Every file opened through the shim is an fv_file: the shim's header
 * followed by the wrapped VFS's own file object, which does the real work.
 * A method first asks fault() whether this call is the one to fail, then
 * keeps the power-loss record of the file's path (a `track`) and the
 * quota, then calls the wrapped method.
 *
 * A track lives per path, not per open file: the writer and the readers
 * share the lake's file, and a write-ahead log closed without a sync
 * keeps its unsynced bytes after the close. Tracks are forgotten when
 * their file is deleted, synced (their sectors only), or reset.
 */
#include "support/faultvfs.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

/* ---- state ---- */

/* What a sector held at its file's last sync, and the bytes written to it
 * since: [lo, hi), empty when lo >= hi. */
typedef struct sector_rec {
    int64_t index;
    int lo, hi;
    unsigned char old[FAULTVFS_SECTOR];
} sector_rec;

typedef struct track {
    char *path;
    bool is_db;                /* a main database: its -shm goes at a cut */
    int64_t synced_size;       /* bytes at the last sync (or first sight) */
    sector_rec *recs;
    size_t nrecs, cap;
    size_t *slots;             /* open addressing on index: rec + 1, 0 free */
    size_t nslots;             /* a power of two, or 0 */
    struct track *next;
} track;

static struct {
    pthread_mutex_t lock;
    bool installed;
    sqlite3_vfs *root;         /* the wrapped VFS */
    long count[FAULTVFS_KINDS];
    bool armed;
    faultvfs_kind armed_kind;
    long armed_n;
    bool persistent;
    bool fired;
    char *quota_dir;           /* NULL: no quota */
    int64_t quota;
    bool no_real_sync;
    int64_t clock_ms;
    bool tracking;
    track *tracks;
    bool cut_armed;
    faultvfs_cut cut;
    long cut_writes, cut_syncs;
    long syncs_done;
} fv = { .lock = PTHREAD_MUTEX_INITIALIZER };

static const char *const kind_names[FAULTVFS_KINDS] = {
    [FAULTVFS_OPEN] = "open",         [FAULTVFS_READ] = "read",
    [FAULTVFS_WRITE] = "write",       [FAULTVFS_FULL] = "full",
    [FAULTVFS_SYNC] = "sync",         [FAULTVFS_TRUNCATE] = "truncate",
    [FAULTVFS_FILESIZE] = "filesize", [FAULTVFS_LOCK] = "lock",
    [FAULTVFS_UNLOCK] = "unlock",     [FAULTVFS_SHMMAP] = "shmmap",
    [FAULTVFS_SHMLOCK] = "shmlock",   [FAULTVFS_ACCESS] = "access",
    [FAULTVFS_DELETE] = "delete",
};

static const int kind_codes[FAULTVFS_KINDS] = {
    [FAULTVFS_OPEN] = SQLITE_CANTOPEN,
    [FAULTVFS_READ] = SQLITE_IOERR_READ,
    [FAULTVFS_WRITE] = SQLITE_IOERR_WRITE,
    [FAULTVFS_FULL] = SQLITE_FULL,
    [FAULTVFS_SYNC] = SQLITE_IOERR_FSYNC,
    [FAULTVFS_TRUNCATE] = SQLITE_IOERR_TRUNCATE,
    [FAULTVFS_FILESIZE] = SQLITE_IOERR_FSTAT,
    [FAULTVFS_LOCK] = SQLITE_IOERR_LOCK,
    [FAULTVFS_UNLOCK] = SQLITE_IOERR_UNLOCK,
    [FAULTVFS_SHMMAP] = SQLITE_IOERR_SHMMAP,
    [FAULTVFS_SHMLOCK] = SQLITE_IOERR_SHMLOCK,
    [FAULTVFS_ACCESS] = SQLITE_IOERR_ACCESS,
    [FAULTVFS_DELETE] = SQLITE_IOERR_DELETE,
};

const char *faultvfs_kind_name(faultvfs_kind kind)
{
    return (unsigned)kind < FAULTVFS_KINDS ? kind_names[kind] : "?";
}

int faultvfs_code(faultvfs_kind kind)
{
    return (unsigned)kind < FAULTVFS_KINDS ? kind_codes[kind] : SQLITE_IOERR;
}

/* The counter a kind's calls go to: a full disk counts writes. */
static faultvfs_kind counter_of(faultvfs_kind kind)
{
    return kind == FAULTVFS_FULL ? FAULTVFS_WRITE : kind;
}

/* Counts a call; returns the code it must fail with, or SQLITE_OK. */
static int fault(faultvfs_kind kind)
{
    pthread_mutex_lock(&fv.lock);
    long c = ++fv.count[kind];
    int rc = SQLITE_OK;
    if (fv.armed && counter_of(fv.armed_kind) == kind &&
        (c == fv.armed_n || (fv.persistent && c > fv.armed_n))) {
        fv.fired = true;
        rc = kind_codes[fv.armed_kind];
    }
    pthread_mutex_unlock(&fv.lock);
    return rc;
}

static uint64_t next_rand(uint64_t *s)
{
    uint64_t x = *s;                              /* xorshift64* */
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * UINT64_C(2685821657736338717);
}

/* ---- tracks (fv.lock held) ---- */

static void track_free(track *t)
{
    free(t->path);
    free(t->recs);
    free(t->slots);
    free(t);
}

static void tracks_clear(void)
{
    while (fv.tracks != NULL) {
        track *t = fv.tracks;
        fv.tracks = t->next;
        track_free(t);
    }
}

static track *track_find(const char *path)
{
    for (track *t = fv.tracks; t != NULL; t = t->next)
        if (strcmp(t->path, path) == 0)
            return t;
    return NULL;
}

static void track_forget(const char *path)
{
    for (track **p = &fv.tracks; *p != NULL; p = &(*p)->next) {
        if (strcmp((*p)->path, path) == 0) {
            track *t = *p;
            *p = t->next;
            track_free(t);
            return;
        }
    }
}

/* The track of `path`, made with `size` as its synced size if missing;
 * NULL if out of memory (the test then fails on a wrong lake, loudly). */
static track *track_get(const char *path, int64_t size)
{
    track *t = track_find(path);
    if (t != NULL)
        return t;
    t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->path = strdup(path);
    if (t->path == NULL) {
        free(t);
        return NULL;
    }
    t->synced_size = size;
    t->next = fv.tracks;
    fv.tracks = t;
    return t;
}

static size_t slot_of(const track *t, int64_t index)
{
    uint64_t h = (uint64_t)index * UINT64_C(0x9e3779b97f4a7c15);
    return (size_t)(h >> 20) & (t->nslots - 1);
}

static bool rehash(track *t, size_t nslots)
{
    size_t *slots = calloc(nslots, sizeof *slots);
    if (slots == NULL)
        return false;
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    for (size_t i = 0; i < t->nrecs; i++) {
        size_t s = slot_of(t, t->recs[i].index);
        while (slots[s] != 0)
            s = (s + 1) & (nslots - 1);
        slots[s] = i + 1;
    }
    return true;
}

/* The record of sector `index`, made (with the sector's current bytes as
 * its old ones) if missing. NULL if out of memory. */
static sector_rec *sector_get(track *t, sqlite3_file *real, int64_t index)
{
    if (t->nslots > 0) {
        for (size_t s = slot_of(t, index); t->slots[s] != 0;
             s = (s + 1) & (t->nslots - 1))
            if (t->recs[t->slots[s] - 1].index == index)
                return &t->recs[t->slots[s] - 1];
    }
    if (t->nrecs == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        sector_rec *p = realloc(t->recs, cap * sizeof *p);
        if (p == NULL)
            return NULL;
        t->recs = p;
        t->cap = cap;
    }
    if ((t->nrecs + 1) * 2 > t->nslots &&
        !rehash(t, t->nslots ? t->nslots * 2 : 128))
        return NULL;
    sector_rec *r = &t->recs[t->nrecs];
    r->index = index;
    r->lo = FAULTVFS_SECTOR;
    r->hi = 0;
    /* A short read fills the rest with zeros: a sector past the end of
     * the file held nothing. */
    memset(r->old, 0, sizeof r->old);
    int rc = real->pMethods->xRead(real, r->old, FAULTVFS_SECTOR,
                                   index * FAULTVFS_SECTOR);
    if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ)
        memset(r->old, 0, sizeof r->old);
    size_t s = slot_of(t, index);
    while (t->slots[s] != 0)
        s = (s + 1) & (t->nslots - 1);
    t->slots[s] = ++t->nrecs;
    return r;
}

/* Remembers that [off, off + n) is about to change. */
static void track_range(track *t, sqlite3_file *real, int64_t off,
                        int64_t n)
{
    if (n <= 0)
        return;
    for (int64_t s = off / FAULTVFS_SECTOR;
         s <= (off + n - 1) / FAULTVFS_SECTOR; s++) {
        sector_rec *r = sector_get(t, real, s);
        if (r == NULL)
            return;
        int64_t base = s * FAULTVFS_SECTOR;
        int lo = (int)((off > base ? off : base) - base);
        int64_t end = off + n < base + FAULTVFS_SECTOR
                          ? off + n : base + FAULTVFS_SECTOR;
        int hi = (int)(end - base);
        if (lo < r->lo)
            r->lo = lo;
        if (hi > r->hi)
            r->hi = hi;
    }
}

/* ---- the cut ---- */

/* Rewrites one file as the power cut leaves it. */
static void cut_file(const track *t, uint64_t *rng)
{
    struct stat st;
    if (stat(t->path, &st) != 0)
        return;
    int64_t size = (int64_t)st.st_size;
    int64_t final = next_rand(rng) % 2 ? t->synced_size : size;
    int fd = open(t->path, O_WRONLY);
    if (fd < 0)
        return;
    if (final != size && ftruncate(fd, (off_t)final) != 0)
        final = size;
    for (size_t i = 0; i < t->nrecs; i++) {
        const sector_rec *r = &t->recs[i];
        int64_t base = r->index * FAULTVFS_SECTOR;
        if (base >= final)
            continue;
        int64_t room = final - base;
        int fate = (int)(next_rand(rng) % 100);
        if (fate < fv.cut.keep_percent) {
            continue;
        } else if (fate < fv.cut.keep_percent + fv.cut.tear_percent) {
            unsigned char junk[FAULTVFS_SECTOR];
            for (size_t j = 0; j < sizeof junk; j++)
                junk[j] = (unsigned char)next_rand(rng);
            int hi = room < r->hi ? (int)room : r->hi;
            if (r->lo < hi && pwrite(fd, junk + r->lo, (size_t)(hi - r->lo),
                                     (off_t)(base + r->lo)) < 0)
                break;
        } else {
            size_t n = room < FAULTVFS_SECTOR ? (size_t)room
                                              : FAULTVFS_SECTOR;
            if (pwrite(fd, r->old, n, (off_t)base) < 0)
                break;
        }
    }
    close(fd);
    if (t->is_db) {
        size_t n = strlen(t->path);
        char *shm = malloc(n + sizeof "-shm");
        if (shm != NULL) {
            memcpy(shm, t->path, n);
            memcpy(shm + n, "-shm", sizeof "-shm");
            unlink(shm);
            free(shm);
        }
    }
}

/* Cuts the power: never returns. fv.lock held; the hook runs without it
 * (it may ask the shim for its counters). */
static void cut_now(void)
{
    if (fv.cut.before != NULL) {
        pthread_mutex_unlock(&fv.lock);
        fv.cut.before(fv.cut.payload);
        pthread_mutex_lock(&fv.lock);
    }
    uint64_t rng = fv.cut.seed | 1;
    for (const track *t = fv.tracks; t != NULL; t = t->next)
        cut_file(t, &rng);
    _exit(FAULTVFS_CUT_EXIT);
}

/* ---- files ---- */

typedef struct fv_file {
    sqlite3_file base;         /* pMethods: &fv_io */
    sqlite3_file *real;        /* the wrapped VFS's file, right after */
    char *path;                /* NULL for a temporary file */
} fv_file;

/* Where the wrapped file starts: past the header, aligned. */
#define FV_REAL_OFFSET ((sizeof(fv_file) + 15) & ~(size_t)15)

static int64_t real_size(sqlite3_file *real)
{
    sqlite3_int64 n = 0;
    if (real->pMethods->xFileSize(real, &n) != SQLITE_OK)
        return 0;
    return (int64_t)n;
}

static int fv_close(sqlite3_file *file)
{
    fv_file *f = (fv_file *)file;
    int rc = f->real->pMethods->xClose(f->real);
    free(f->path);
    f->path = NULL;
    return rc;
}

static int fv_read(sqlite3_file *file, void *buf, int amt,
                   sqlite3_int64 off)
{
    fv_file *f = (fv_file *)file;
    int rc = fault(FAULTVFS_READ);
    if (rc != SQLITE_OK)
        return rc;
    return f->real->pMethods->xRead(f->real, buf, amt, off);
}

/* The bytes of the quota's files on disk. fv.lock held. */
static int64_t quota_used_locked(void)
{
    if (fv.quota_dir == NULL)
        return 0;
    DIR *d = opendir(fv.quota_dir);
    if (d == NULL)
        return 0;
    int64_t used = 0;
    struct dirent *ent;
    size_t dn = strlen(fv.quota_dir);
    while ((ent = readdir(d)) != NULL) {
        size_t n = strlen(ent->d_name);
        if (n >= 4 && strcmp(ent->d_name + n - 4, "-shm") == 0)
            continue;
        char *p = malloc(dn + n + 2);
        if (p == NULL)
            continue;
        memcpy(p, fv.quota_dir, dn);
        p[dn] = '/';
        memcpy(p + dn + 1, ent->d_name, n + 1);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
            used += (int64_t)st.st_size;
        free(p);
    }
    closedir(d);
    return used;
}

/* Whether a file counts against the quota. fv.lock held. */
static bool under_quota_dir(const char *path)
{
    if (fv.quota_dir == NULL || path == NULL)
        return false;
    size_t n = strlen(fv.quota_dir);
    return strncmp(path, fv.quota_dir, n) == 0 && path[n] == '/';
}

static int fv_write(sqlite3_file *file, const void *buf, int amt,
                    sqlite3_int64 off)
{
    fv_file *f = (fv_file *)file;
    int rc = fault(FAULTVFS_WRITE);
    if (rc != SQLITE_OK)
        return rc;
    int n = amt;
    pthread_mutex_lock(&fv.lock);
    if (under_quota_dir(f->path)) {
        int64_t size = real_size(f->real);
        int64_t growth = off + amt > size ? off + amt - size : 0;
        int64_t room = fv.quota - quota_used_locked();
        if (growth > (room > 0 ? room : 0)) {
            /* A short write: what still fits, then a full disk. */
            int64_t fits = size + (room > 0 ? room : 0) - off;
            n = fits <= 0 ? 0 : fits < amt ? (int)fits : amt;
            rc = SQLITE_FULL;
        }
    }
    bool cut = false;
    if (fv.tracking && f->path != NULL && n > 0) {
        track *t = track_get(f->path, real_size(f->real));
        if (t != NULL)
            track_range(t, f->real, off, n);
        fv.cut_writes++;
        cut = fv.cut_armed && !fv.cut.at_sync &&
              fv.cut_writes == fv.cut.k;
    }
    pthread_mutex_unlock(&fv.lock);
    if (n > 0) {
        int wrc = f->real->pMethods->xWrite(f->real, buf, n, off);
        if (wrc != SQLITE_OK)
            rc = wrc;
    }
    if (cut) {
        pthread_mutex_lock(&fv.lock);
        cut_now();
    }
    return rc;
}

static int fv_truncate(sqlite3_file *file, sqlite3_int64 size)
{
    fv_file *f = (fv_file *)file;
    int rc = fault(FAULTVFS_TRUNCATE);
    if (rc != SQLITE_OK)
        return rc;
    pthread_mutex_lock(&fv.lock);
    if (fv.tracking && f->path != NULL) {
        int64_t cur = real_size(f->real);
        track *t = track_get(f->path, cur);
        if (t != NULL && cur > size)
            track_range(t, f->real, size, cur - size);
    }
    pthread_mutex_unlock(&fv.lock);
    return f->real->pMethods->xTruncate(f->real, size);
}

static int fv_sync(sqlite3_file *file, int flags)
{
    fv_file *f = (fv_file *)file;
    int rc = fault(FAULTVFS_SYNC);
    if (rc != SQLITE_OK)
        return rc;
    pthread_mutex_lock(&fv.lock);
    if (fv.tracking && f->path != NULL) {
        fv.cut_syncs++;
        if (fv.cut_armed && fv.cut.at_sync && fv.cut_syncs == fv.cut.k)
            cut_now();
    }
    bool real = !fv.no_real_sync;
    pthread_mutex_unlock(&fv.lock);
    if (real && (rc = f->real->pMethods->xSync(f->real, flags)) !=
                    SQLITE_OK)
        return rc;
    pthread_mutex_lock(&fv.lock);
    fv.syncs_done++;
    if (fv.tracking && f->path != NULL) {
        track *t = track_get(f->path, 0);
        if (t != NULL) {
            t->nrecs = 0;
            if (t->nslots > 0)
                memset(t->slots, 0, t->nslots * sizeof *t->slots);
            t->synced_size = real_size(f->real);
        }
    }
    pthread_mutex_unlock(&fv.lock);
    return SQLITE_OK;
}

static int fv_file_size(sqlite3_file *file, sqlite3_int64 *size)
{
    fv_file *f = (fv_file *)file;
    int rc = fault(FAULTVFS_FILESIZE);
    if (rc != SQLITE_OK)
        return rc;
    return f->real->pMethods->xFileSize(f->real, size);
}

static int fv_lock(sqlite3_file *file, int level)
{
    fv_file *f = (fv_file *)file;
    int rc = fault(FAULTVFS_LOCK);
    if (rc != SQLITE_OK)
        return rc;
    return f->real->pMethods->xLock(f->real, level);
}

static int fv_unlock(sqlite3_file *file, int level)
{
    fv_file *f = (fv_file *)file;
    int rc = fault(FAULTVFS_UNLOCK);
    if (rc != SQLITE_OK)
        return rc;
    return f->real->pMethods->xUnlock(f->real, level);
}

static int fv_check_reserved(sqlite3_file *file, int *out)
{
    fv_file *f = (fv_file *)file;
    return f->real->pMethods->xCheckReservedLock(f->real, out);
}

static int fv_file_control(sqlite3_file *file, int op, void *arg)
{
    fv_file *f = (fv_file *)file;
    return f->real->pMethods->xFileControl(f->real, op, arg);
}

static int fv_sector_size(sqlite3_file *file)
{
    fv_file *f = (fv_file *)file;
    return f->real->pMethods->xSectorSize(f->real);
}

static int fv_device(sqlite3_file *file)
{
    fv_file *f = (fv_file *)file;
    return f->real->pMethods->xDeviceCharacteristics(f->real);
}

static int fv_shm_map(sqlite3_file *file, int page, int size, int extend,
                      void volatile **out)
{
    fv_file *f = (fv_file *)file;
    int rc = fault(FAULTVFS_SHMMAP);
    if (rc != SQLITE_OK)
        return rc;
    return f->real->pMethods->xShmMap(f->real, page, size, extend, out);
}

static int fv_shm_lock(sqlite3_file *file, int offset, int n, int flags)
{
    fv_file *f = (fv_file *)file;
    /* Only taking a lock fails: SQLite ignores what releasing one returns
     * (the kernel releases it whatever it reports), so a failed release
     * would leave a lock held that nothing ever frees. */
    if (flags & SQLITE_SHM_LOCK) {
        int rc = fault(FAULTVFS_SHMLOCK);
        if (rc != SQLITE_OK)
            return rc;
    }
    return f->real->pMethods->xShmLock(f->real, offset, n, flags);
}

static void fv_shm_barrier(sqlite3_file *file)
{
    fv_file *f = (fv_file *)file;
    f->real->pMethods->xShmBarrier(f->real);
}

static int fv_shm_unmap(sqlite3_file *file, int delete_flag)
{
    fv_file *f = (fv_file *)file;
    return f->real->pMethods->xShmUnmap(f->real, delete_flag);
}

/* Version 2: shared memory (WAL) but no xFetch, so SQLite reads through
 * xRead rather than a memory map the shim could not see. */
static const sqlite3_io_methods fv_io = {
    .iVersion = 2,
    .xClose = fv_close,
    .xRead = fv_read,
    .xWrite = fv_write,
    .xTruncate = fv_truncate,
    .xSync = fv_sync,
    .xFileSize = fv_file_size,
    .xLock = fv_lock,
    .xUnlock = fv_unlock,
    .xCheckReservedLock = fv_check_reserved,
    .xFileControl = fv_file_control,
    .xSectorSize = fv_sector_size,
    .xDeviceCharacteristics = fv_device,
    .xShmMap = fv_shm_map,
    .xShmLock = fv_shm_lock,
    .xShmBarrier = fv_shm_barrier,
    .xShmUnmap = fv_shm_unmap,
};

/* ---- the VFS ---- */

static int fv_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file,
                   int flags, int *out_flags)
{
    (void)vfs;
    fv_file *f = (fv_file *)file;
    memset(f, 0, sizeof *f);
    int rc = fault(FAULTVFS_OPEN);
    if (rc != SQLITE_OK)
        return rc;
    f->real = (sqlite3_file *)((char *)file + FV_REAL_OFFSET);
    memset(f->real, 0, (size_t)fv.root->szOsFile);
    rc = fv.root->xOpen(fv.root, name, f->real, flags, out_flags);
    if (rc != SQLITE_OK) {
        if (f->real->pMethods != NULL)
            f->real->pMethods->xClose(f->real);
        return rc;
    }
    if (name != NULL && (f->path = strdup(name)) == NULL) {
        f->real->pMethods->xClose(f->real);
        return SQLITE_NOMEM;
    }
    pthread_mutex_lock(&fv.lock);
    if (fv.tracking && name != NULL) {
        track *t = track_get(name, real_size(f->real));
        if (t != NULL && (flags & SQLITE_OPEN_MAIN_DB))
            t->is_db = true;
    }
    pthread_mutex_unlock(&fv.lock);
    f->base.pMethods = &fv_io;
    return SQLITE_OK;
}

static int fv_delete(sqlite3_vfs *vfs, const char *name, int dir_sync)
{
    (void)vfs;
    int rc = fault(FAULTVFS_DELETE);
    if (rc != SQLITE_OK)
        return rc;
    rc = fv.root->xDelete(fv.root, name, dir_sync);
    if (rc == SQLITE_OK) {
        pthread_mutex_lock(&fv.lock);
        track_forget(name);
        pthread_mutex_unlock(&fv.lock);
    }
    return rc;
}

static int fv_access(sqlite3_vfs *vfs, const char *name, int flags,
                     int *out)
{
    (void)vfs;
    int rc = fault(FAULTVFS_ACCESS);
    if (rc != SQLITE_OK)
        return rc;
    return fv.root->xAccess(fv.root, name, flags, out);
}

static int fv_full_pathname(sqlite3_vfs *vfs, const char *name, int n,
                            char *out)
{
    (void)vfs;
    return fv.root->xFullPathname(fv.root, name, n, out);
}

static void *fv_dl_open(sqlite3_vfs *vfs, const char *name)
{
    (void)vfs;
    return fv.root->xDlOpen(fv.root, name);
}

static void fv_dl_error(sqlite3_vfs *vfs, int n, char *out)
{
    (void)vfs;
    fv.root->xDlError(fv.root, n, out);
}

static void (*fv_dl_sym(sqlite3_vfs *vfs, void *h, const char *sym))(void)
{
    (void)vfs;
    return fv.root->xDlSym(fv.root, h, sym);
}

static void fv_dl_close(sqlite3_vfs *vfs, void *h)
{
    (void)vfs;
    fv.root->xDlClose(fv.root, h);
}

static int fv_randomness(sqlite3_vfs *vfs, int n, char *out)
{
    (void)vfs;
    return fv.root->xRandomness(fv.root, n, out);
}

static int fv_sleep(sqlite3_vfs *vfs, int us)
{
    (void)vfs;
    return fv.root->xSleep(fv.root, us);
}

/* Milliseconds from the Julian day 0 to the Unix epoch. */
#define JULIAN_UNIX_MS INT64_C(210866760000000)

static int fv_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out)
{
    (void)vfs;
    pthread_mutex_lock(&fv.lock);
    int64_t ms = fv.clock_ms;
    pthread_mutex_unlock(&fv.lock);
    if (ms != 0) {
        *out = ms + JULIAN_UNIX_MS;
        return SQLITE_OK;
    }
    return fv.root->xCurrentTimeInt64(fv.root, out);
}

static int fv_current_time(sqlite3_vfs *vfs, double *out)
{
    sqlite3_int64 ms = 0;
    int rc = fv_current_time_int64(vfs, &ms);
    *out = (double)ms / 86400000.0;
    return rc;
}

static int fv_last_error(sqlite3_vfs *vfs, int n, char *out)
{
    (void)vfs;
    return fv.root->xGetLastError(fv.root, n, out);
}

static int fv_set_syscall(sqlite3_vfs *vfs, const char *name,
                          sqlite3_syscall_ptr p)
{
    (void)vfs;
    return fv.root->xSetSystemCall(fv.root, name, p);
}

static sqlite3_syscall_ptr fv_get_syscall(sqlite3_vfs *vfs, const char *name)
{
    (void)vfs;
    return fv.root->xGetSystemCall(fv.root, name);
}

static const char *fv_next_syscall(sqlite3_vfs *vfs, const char *name)
{
    (void)vfs;
    return fv.root->xNextSystemCall(fv.root, name);
}

static sqlite3_vfs fv_vfs = {
    .iVersion = 3,
    .zName = FAULTVFS_NAME,
    .xOpen = fv_open,
    .xDelete = fv_delete,
    .xAccess = fv_access,
    .xFullPathname = fv_full_pathname,
    .xDlOpen = fv_dl_open,
    .xDlError = fv_dl_error,
    .xDlSym = fv_dl_sym,
    .xDlClose = fv_dl_close,
    .xRandomness = fv_randomness,
    .xSleep = fv_sleep,
    .xCurrentTime = fv_current_time,
    .xGetLastError = fv_last_error,
    .xCurrentTimeInt64 = fv_current_time_int64,
    .xSetSystemCall = fv_set_syscall,
    .xGetSystemCall = fv_get_syscall,
    .xNextSystemCall = fv_next_syscall,
};

int faultvfs_install(void)
{
    if (fv.installed)
        return SQLITE_OK;
    int rc = sqlite3_initialize();
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_vfs *root = sqlite3_vfs_find(NULL);
    if (root == NULL || root->iVersion < 3)
        return SQLITE_ERROR;
    fv.root = root;
    fv_vfs.szOsFile = (int)(FV_REAL_OFFSET + (size_t)root->szOsFile);
    fv_vfs.mxPathname = root->mxPathname;
    rc = sqlite3_vfs_register(&fv_vfs, 1);
    if (rc == SQLITE_OK)
        fv.installed = true;
    return rc;
}

void faultvfs_uninstall(void)
{
    if (!fv.installed)
        return;
    sqlite3_vfs_register(fv.root, 1);
    sqlite3_vfs_unregister(&fv_vfs);
    fv.installed = false;
}

void faultvfs_reset(void)
{
    pthread_mutex_lock(&fv.lock);
    memset(fv.count, 0, sizeof fv.count);
    fv.armed = false;
    fv.fired = false;
    free(fv.quota_dir);
    fv.quota_dir = NULL;
    fv.quota = -1;
    fv.tracking = false;
    tracks_clear();
    fv.cut_armed = false;
    fv.cut_writes = fv.cut_syncs = fv.syncs_done = 0;
    pthread_mutex_unlock(&fv.lock);
}

long faultvfs_count(faultvfs_kind kind)
{
    if ((unsigned)kind >= FAULTVFS_KINDS)
        return 0;
    pthread_mutex_lock(&fv.lock);
    long n = fv.count[counter_of(kind)];
    pthread_mutex_unlock(&fv.lock);
    return n;
}

void faultvfs_arm(faultvfs_kind kind, long n, bool persistent)
{
    pthread_mutex_lock(&fv.lock);
    memset(fv.count, 0, sizeof fv.count);
    fv.armed = (unsigned)kind < FAULTVFS_KINDS && n > 0;
    fv.armed_kind = kind;
    fv.armed_n = n;
    fv.persistent = persistent;
    fv.fired = false;
    pthread_mutex_unlock(&fv.lock);
}

bool faultvfs_disarm(void)
{
    pthread_mutex_lock(&fv.lock);
    bool fired = fv.fired;
    fv.armed = false;
    fv.fired = false;
    pthread_mutex_unlock(&fv.lock);
    return fired;
}

void faultvfs_set_quota(const char *dir, int64_t bytes)
{
    pthread_mutex_lock(&fv.lock);
    free(fv.quota_dir);
    fv.quota_dir = NULL;
    fv.quota = bytes;
    if (bytes >= 0 && dir != NULL) {
        fv.quota_dir = strdup(dir);
        size_t n = fv.quota_dir != NULL ? strlen(fv.quota_dir) : 0;
        while (n > 1 && fv.quota_dir[n - 1] == '/')
            fv.quota_dir[--n] = '\0';
    }
    pthread_mutex_unlock(&fv.lock);
}

int64_t faultvfs_quota_used(void)
{
    pthread_mutex_lock(&fv.lock);
    int64_t used = quota_used_locked();
    pthread_mutex_unlock(&fv.lock);
    return used;
}

void faultvfs_set_real_sync(bool on)
{
    pthread_mutex_lock(&fv.lock);
    fv.no_real_sync = !on;
    pthread_mutex_unlock(&fv.lock);
}

void faultvfs_set_clock(int64_t unix_ms)
{
    pthread_mutex_lock(&fv.lock);
    fv.clock_ms = unix_ms;
    pthread_mutex_unlock(&fv.lock);
}

void faultvfs_track(bool on)
{
    pthread_mutex_lock(&fv.lock);
    fv.tracking = on;
    if (!on)
        tracks_clear();
    pthread_mutex_unlock(&fv.lock);
}

void faultvfs_arm_cut(const faultvfs_cut *cut)
{
    pthread_mutex_lock(&fv.lock);
    fv.cut = *cut;
    fv.cut_armed = fv.tracking && cut->k > 0;
    fv.cut_writes = fv.cut_syncs = fv.syncs_done = 0;
    memset(fv.count, 0, sizeof fv.count);
    pthread_mutex_unlock(&fv.lock);
}

void faultvfs_cut_points(long *writes, long *syncs)
{
    pthread_mutex_lock(&fv.lock);
    *writes = fv.cut_writes;
    *syncs = fv.cut_syncs;
    pthread_mutex_unlock(&fv.lock);
}

long faultvfs_syncs_done(void)
{
    pthread_mutex_lock(&fv.lock);
    long n = fv.syncs_done;
    pthread_mutex_unlock(&fv.lock);
    return n;
}
