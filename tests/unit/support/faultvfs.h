/*
 * faultvfs.h: a SQLite VFS for tests that shims the default one and can
 * fail any of its calls, run out of disk space, or cut the power.
 *
 * faultvfs_install() registers it as SQLite's default VFS, so every
 * connection opened afterwards without a VFS name (Pier's own
 * sqlite3_open_v2(path, .., NULL), the writer and its readers alike) goes
 * through it; Pier needs no change. faultvfs_uninstall() makes the VFS it
 * wrapped the default again. Until a test arms something, every call goes
 * straight to the wrapped VFS and is only counted.
 *
 * I/O faults. faultvfs_arm(kind, n, persistent) makes the n-th call of
 * that kind (counted from the last faultvfs_reset or faultvfs_arm) fail
 * with the code a real failure of that call gives (faultvfs_code); a
 * persistent fault also fails every later call of the kind, as a device
 * that went away does (SQLite's own I/O-error tests run both). A failed
 * call does nothing: a failed write writes no byte, a failed sync syncs
 * nothing. FAULTVFS_FULL counts writes like FAULTVFS_WRITE and fails them
 * with SQLITE_FULL.
 *
 * A full disk. faultvfs_set_quota(dir, bytes) gives the files under `dir`
 * that SQLite opens by name (the lake, its write-ahead log, a rollback
 * journal) `bytes` between them: a write that would take their total
 * size past it writes the bytes that still fit and fails with
 * SQLITE_FULL, as a short write on a full file system does. Shrinking
 * writes and truncations always succeed. The -shm file, which SQLite maps
 * rather than writes, is not counted.
 *
 * Power loss. While tracking (faultvfs_track), the VFS remembers, per
 * file and sector (FAULTVFS_SECTOR bytes), the bytes each sector held at
 * the file's last xSync and the range written to it since, and the file's
 * size at that sync. faultvfs_arm_cut() then picks a moment (the k-th
 * xSync, before it syncs anything, or the k-th xWrite, after it wrote),
 * and there rewrites every file as a power cut could leave it, then ends
 * the process with _exit(FAULTVFS_CUT_EXIT), running no atexit handler and
 * closing no connection:
 *   - each file's size is its size at its last sync or its current one;
 *   - each sector written since the file's last sync is kept as written,
 *     reverted to what it held at that sync, or torn: the bytes written to
 *     it since the sync are replaced by garbage. Sectors are chosen
 *     independently, so a later write may survive an earlier one;
 *   - bytes outside the ranges written since the last sync never change
 *     (the default VFS promises "powersafe overwrite", and SQLite relies
 *     on it for the write-ahead log);
 *   - every -shm file is deleted, as a reboot loses shared memory;
 *   - a sync that returned made everything written to that file before it
 *     durable.
 * Not simulated: directory entries (a file created, deleted or renamed is
 * so at once and for good, although SQLite syncs its directory only in
 * some modes), a sector torn outside the bytes written to it, a sync that
 * reports success and lies, damage to data synced before, the real
 * file system's own behaviour (tests may skip real fsyncs: faultvfs_
 * set_real_sync), and the files SQLite opens without a name (temporary
 * files), which a restart does not read.
 *
 * The state is global to the process and guarded by a mutex: one test
 * program, one shim. Nothing here uses cmocka.
 */
#ifndef PIER_TEST_FAULTVFS_H
#define PIER_TEST_FAULTVFS_H

#include <stdbool.h>
#include <stdint.h>

/* The VFS's name, for sqlite3_vfs_find. */
#define FAULTVFS_NAME "pier-fault"
/* The granularity of power-loss damage: SQLite's default sector size. */
#define FAULTVFS_SECTOR 512
/* The exit status of a process whose power was cut. */
#define FAULTVFS_CUT_EXIT 86

/* The calls a fault can hit. */
typedef enum faultvfs_kind {
    FAULTVFS_OPEN = 0,      /* xOpen: SQLITE_CANTOPEN */
    FAULTVFS_READ,          /* xRead: SQLITE_IOERR_READ */
    FAULTVFS_WRITE,         /* xWrite: SQLITE_IOERR_WRITE */
    FAULTVFS_FULL,          /* xWrite: SQLITE_FULL (counts writes) */
    FAULTVFS_SYNC,          /* xSync: SQLITE_IOERR_FSYNC */
    FAULTVFS_TRUNCATE,      /* xTruncate: SQLITE_IOERR_TRUNCATE */
    FAULTVFS_FILESIZE,      /* xFileSize: SQLITE_IOERR_FSTAT */
    FAULTVFS_LOCK,          /* xLock: SQLITE_IOERR_LOCK */
    FAULTVFS_UNLOCK,        /* xUnlock: SQLITE_IOERR_UNLOCK */
    FAULTVFS_SHMMAP,        /* xShmMap: SQLITE_IOERR_SHMMAP */
    FAULTVFS_SHMLOCK,       /* xShmLock taking a lock (releasing one never
                               fails: SQLite ignores its result):
                               SQLITE_IOERR_SHMLOCK */
    FAULTVFS_ACCESS,        /* xAccess: SQLITE_IOERR_ACCESS */
    FAULTVFS_DELETE,        /* xDelete: SQLITE_IOERR_DELETE */
    FAULTVFS_KINDS
} faultvfs_kind;

/* "read", "full"...; for messages and tables. */
const char *faultvfs_kind_name(faultvfs_kind kind);
/* The SQLite result code a fault of this kind returns. */
int faultvfs_code(faultvfs_kind kind);

/* Registers the shim as the default VFS (once; later calls do nothing).
 * Returns SQLITE_OK or SQLite's code. */
int faultvfs_install(void);
/* Makes the wrapped VFS the default again and unregisters the shim. Files
 * still open through it keep working. */
void faultvfs_uninstall(void);

/* Disarms every fault and the cut, lifts the quota, zeroes the counters,
 * stops tracking and forgets what it remembered. */
void faultvfs_reset(void);

/* Calls of each kind since the last reset or arm. */
long faultvfs_count(faultvfs_kind kind);

/* Arms one fault (replacing any other) and zeroes the counters. */
void faultvfs_arm(faultvfs_kind kind, long n, bool persistent);
/* Disarms it. Returns whether it fired (the n-th call happened). */
bool faultvfs_disarm(void);

/* Files under `dir` may hold `bytes` between them; bytes < 0 lifts the
 * quota. */
void faultvfs_set_quota(const char *dir, int64_t bytes);
/* The bytes the quota counts now (the files' sizes on disk). */
int64_t faultvfs_quota_used(void);

/* Whether xSync calls the wrapped VFS's (a real fsync). On by default;
 * power-loss and fault tests turn it off, since the cut they simulate
 * does not depend on what reached the platter. */
void faultvfs_set_real_sync(bool on);

/* SQLite's clock (date('now'), julianday('now')) reads `unix_ms` while it
 * is not 0, so runs that must match byte for byte can. */
void faultvfs_set_clock(int64_t unix_ms);

/* Starts (or stops) remembering unsynced writes for a power cut. */
void faultvfs_track(bool on);

/* Where and how the power is cut. */
typedef struct faultvfs_cut {
    bool at_sync;             /* the k-th xSync, else the k-th xWrite */
    long k;                   /* counted from the arming, from 1 */
    uint64_t seed;            /* chooses each sector's fate and the sizes */
    int keep_percent;         /* a written sector's chance to be kept */
    int tear_percent;         /* ... to be torn; reverted otherwise */
    /* Called at the cut, before the files are rewritten (may be NULL):
     * a test reports what it needs to its parent here. */
    void (*before)(void *payload);
    void *payload;
} faultvfs_cut;

/* Arms the cut (tracking must be on) and zeroes the counters. A cut
 * counts only the writes and syncs of named files while tracking. */
void faultvfs_arm_cut(const faultvfs_cut *cut);
/* The writes and syncs a cut counts, since tracking started or the cut
 * was armed: a run without a cut tells how many moments there are. */
void faultvfs_cut_points(long *writes, long *syncs);
/* Syncs that returned since the cut was armed (or the last reset). */
long faultvfs_syncs_done(void);

#endif /* PIER_TEST_FAULTVFS_H */
