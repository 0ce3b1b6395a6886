// See include/streak_wal_vfs.h.
#include "streak_wal_vfs.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

const char *const streak_wal_vfs_name = "streak-wal";

enum { LIMIT = 4 << 20, CHUNK = 124 * 1024, EXTENT = 1 << 20 };

/// Zeros for extending a log: CHUNK bytes, the most one write of the unix VFS takes.
static const unsigned char zeros[CHUNK];

typedef struct {
    sqlite3_file base;       // pMethods = &wal_methods
    sqlite3_file *real;      // the default VFS's file, right after this struct
    unsigned char *buffer;   // writes not yet handed to `real`, for offsets [start, start + length)
    sqlite3_int64 start;
    size_t length;
    size_t capacity;
    long long writes;        // writes handed to `real`
    long long extensions;    // times the log was extended with zeros
    sqlite3_int64 allocated; // the file's size when last seen or extended; -1: not known
    int failing;             // writes still to fail as on a full disk (tests)
    int lost_rc;             // not SQLITE_OK: a flush failed, and the frames from `lost_start` on are
    sqlite3_int64 lost_start; // not in the file (see `flush`)
} WalFile;

static sqlite3_vfs wal_vfs;
static sqlite3_vfs *root;

/// Writes to the log file itself, or fails as a full disk would while tests ask for it.
static int write_real(WalFile *file, const void *data, int amount, sqlite3_int64 offset) {
    int failing = __atomic_load_n(&file->failing, __ATOMIC_RELAXED);
    if (failing > 0) {
        __atomic_store_n(&file->failing, failing - 1, __ATOMIC_RELAXED);
        return SQLITE_FULL;
    }
    return file->real->pMethods->xWrite(file->real, data, amount, offset);
}

/// Makes sure the file reaches `end` before a write ends there: a write past the end of a file
/// changes its size, and then each fdatasync also writes the inode (on this project's disk a commit
/// took 0.5-1.1 ms appending against 0.3 ms overwriting). So a log about to grow is extended by
/// zeros to the next EXTENT, written (not fallocate'd: unwritten extents would need the same
/// metadata write when first written), and later commits overwrite them. SQLite's recovery stops
/// at the first frame whose salt and checksum do not match, which zeros never do, and the zeros
/// are only ever written past the file's current end, never over a frame.
static int reserve(WalFile *file, sqlite3_int64 end) {
    if (file->allocated >= end) return SQLITE_OK;
    sqlite3_int64 size = 0;
    int rc = file->real->pMethods->xFileSize(file->real, &size);
    if (rc != SQLITE_OK) return rc;
    file->allocated = size;
    if (size >= end) return SQLITE_OK;
    sqlite3_int64 target = (end + EXTENT - 1) / EXTENT * EXTENT;
    for (sqlite3_int64 offset = size; offset < target && rc == SQLITE_OK; offset += CHUNK) {
        int count = target - offset < CHUNK ? (int)(target - offset) : CHUNK;
        rc = write_real(file, zeros, count, offset);
    }
    if (rc != SQLITE_OK) {
        file->allocated = -1;
        return rc;
    }
    file->allocated = target;
    __atomic_fetch_add(&file->extensions, 1, __ATOMIC_RELAXED);
    return SQLITE_OK;
}

/// Hands the buffered writes to the file. A failure (a full disk) is reported to the call that
/// flushed, and the buffer is dropped: it only ever holds frames of the connection's transaction
/// in progress (each commit syncs, which flushes). But SQLite took those frames as written when
/// their own writes returned, and the call that flushed may be one whose error it does not act on,
/// so the loss is remembered as a hole from the buffer's start: until the connection has no
/// transaction open (`streak_wal_vfs_forget_lost_writes`) or the log is truncated there, a sync
/// (so a COMMIT) fails with the flush's error and a read of the hole fails, so that no commit can
/// stand on frames that are not in the file. Later transactions write theirs again: writes work
/// again as soon as there is room, instead of failing until the database is reopened.
static int flush(WalFile *file) {
    int rc = file->length > 0 ? reserve(file, file->start + (sqlite3_int64)file->length) : SQLITE_OK;
    // The unix VFS writes at most 128 KiB - 1 bytes per call (seekAndWriteFd masks the length).
    for (size_t done = 0; done < file->length && rc == SQLITE_OK; done += CHUNK) {
        size_t count = file->length - done < CHUNK ? file->length - done : CHUNK;
        rc = write_real(file, file->buffer + done, (int)count, file->start + (sqlite3_int64)done);
        __atomic_fetch_add(&file->writes, 1, __ATOMIC_RELAXED);
    }
    if (rc != SQLITE_OK && file->length > 0) {
        if (file->lost_rc == SQLITE_OK || file->start < file->lost_start) file->lost_start = file->start;
        file->lost_rc = rc;
    }
    file->length = 0;
    return rc;
}

static int wal_close(sqlite3_file *base) {
    WalFile *file = (WalFile *)base;
    int rc = flush(file);
    int closed = file->real->pMethods->xClose(file->real);
    free(file->buffer);
    file->buffer = NULL;
    return rc != SQLITE_OK ? rc : closed;
}

static int wal_read(sqlite3_file *base, void *out, int amount, sqlite3_int64 offset) {
    WalFile *file = (WalFile *)base;
    int rc = flush(file);
    if (rc != SQLITE_OK) return rc;
    if (file->lost_rc != SQLITE_OK && offset + amount > file->lost_start) return SQLITE_IOERR_READ;
    return file->real->pMethods->xRead(file->real, out, amount, offset);
}

static int wal_write(sqlite3_file *base, const void *data, int amount, sqlite3_int64 offset) {
    WalFile *file = (WalFile *)base;
    size_t count = (size_t)amount;
    int contiguous = file->length > 0 && offset == file->start + (sqlite3_int64)file->length;
    if ((file->length > 0 && !contiguous) || file->length + count > LIMIT) {
        int rc = flush(file);
        if (rc != SQLITE_OK) return rc;
    }
    if (count > CHUNK) {
        int rc = reserve(file, offset + amount);
        return rc != SQLITE_OK ? rc : write_real(file, data, amount, offset);
    }
    if (file->length + count > file->capacity) {
        size_t capacity = file->capacity ? file->capacity : 64 * 1024;
        while (capacity < file->length + count) capacity *= 2;
        unsigned char *grown = realloc(file->buffer, capacity);
        if (grown == NULL) {
            int rc = flush(file);
            if (rc == SQLITE_OK) rc = reserve(file, offset + amount);
            if (rc != SQLITE_OK) return rc;
            return write_real(file, data, amount, offset);
        }
        file->buffer = grown;
        file->capacity = capacity;
    }
    if (file->length == 0) file->start = offset;
    memcpy(file->buffer + file->length, data, count);
    file->length += count;
    return SQLITE_OK;
}

static int wal_truncate(sqlite3_file *base, sqlite3_int64 size) {
    WalFile *file = (WalFile *)base;
    int rc = flush(file);
    file->allocated = -1;
    if (rc == SQLITE_OK && file->lost_rc != SQLITE_OK && size <= file->lost_start) file->lost_rc = SQLITE_OK;
    return rc != SQLITE_OK ? rc : file->real->pMethods->xTruncate(file->real, size);
}

static int wal_sync(sqlite3_file *base, int flags) {
    WalFile *file = (WalFile *)base;
    int rc = flush(file);
    if (rc == SQLITE_OK) rc = file->lost_rc;
    return rc != SQLITE_OK ? rc : file->real->pMethods->xSync(file->real, flags);
}

static int wal_file_size(sqlite3_file *base, sqlite3_int64 *size) {
    WalFile *file = (WalFile *)base;
    int rc = flush(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xFileSize(file->real, size);
}

static int wal_lock(sqlite3_file *base, int level) {
    WalFile *file = (WalFile *)base;
    int rc = flush(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xLock(file->real, level);
}

static int wal_unlock(sqlite3_file *base, int level) {
    WalFile *file = (WalFile *)base;
    int rc = flush(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xUnlock(file->real, level);
}

static int wal_check_reserved_lock(sqlite3_file *base, int *out) {
    WalFile *file = (WalFile *)base;
    return file->real->pMethods->xCheckReservedLock(file->real, out);
}

static int wal_file_control(sqlite3_file *base, int op, void *argument) {
    WalFile *file = (WalFile *)base;
    int rc = flush(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xFileControl(file->real, op, argument);
}

static int wal_sector_size(sqlite3_file *base) {
    WalFile *file = (WalFile *)base;
    return file->real->pMethods->xSectorSize(file->real);
}

static int wal_device_characteristics(sqlite3_file *base) {
    WalFile *file = (WalFile *)base;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

// A log file has no shared memory or memory map of its own; these only forward.
static int wal_shm_map(sqlite3_file *base, int page, int size, int extend, void volatile **out) {
    WalFile *file = (WalFile *)base;
    return file->real->pMethods->xShmMap(file->real, page, size, extend, out);
}

static int wal_shm_lock(sqlite3_file *base, int offset, int count, int flags) {
    WalFile *file = (WalFile *)base;
    return file->real->pMethods->xShmLock(file->real, offset, count, flags);
}

static void wal_shm_barrier(sqlite3_file *base) {
    WalFile *file = (WalFile *)base;
    file->real->pMethods->xShmBarrier(file->real);
}

static int wal_shm_unmap(sqlite3_file *base, int delete) {
    WalFile *file = (WalFile *)base;
    return file->real->pMethods->xShmUnmap(file->real, delete);
}

static int wal_fetch(sqlite3_file *base, sqlite3_int64 offset, int amount, void **out) {
    WalFile *file = (WalFile *)base;
    int rc = flush(file);
    return rc != SQLITE_OK ? rc : file->real->pMethods->xFetch(file->real, offset, amount, out);
}

static int wal_unfetch(sqlite3_file *base, sqlite3_int64 offset, void *page) {
    WalFile *file = (WalFile *)base;
    return file->real->pMethods->xUnfetch(file->real, offset, page);
}

static const sqlite3_io_methods wal_methods = {
    3,
    wal_close,
    wal_read,
    wal_write,
    wal_truncate,
    wal_sync,
    wal_file_size,
    wal_lock,
    wal_unlock,
    wal_check_reserved_lock,
    wal_file_control,
    wal_sector_size,
    wal_device_characteristics,
    wal_shm_map,
    wal_shm_lock,
    wal_shm_barrier,
    wal_shm_unmap,
    wal_fetch,
    wal_unfetch,
};

static int wal_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *base, int flags, int *out_flags) {
    (void)vfs;
    if (!(flags & SQLITE_OPEN_WAL)) {
        // Everything but a log is the default VFS's file, in place.
        return root->xOpen(root, name, base, flags, out_flags);
    }
    WalFile *file = (WalFile *)base;
    memset(file, 0, sizeof(WalFile));
    file->real = (sqlite3_file *)(file + 1);
    file->allocated = -1;
    int rc = root->xOpen(root, name, file->real, flags, out_flags);
    if (rc != SQLITE_OK) {
        // SQLite calls xClose only when pMethods is set: leave it NULL, but close the real file if it opened.
        if (file->real->pMethods) file->real->pMethods->xClose(file->real);
        return rc;
    }
    if (file->real->pMethods->iVersion < 3) {
        file->real->pMethods->xClose(file->real);
        return SQLITE_CANTOPEN;
    }
    file->base.pMethods = &wal_methods;
    return SQLITE_OK;
}

static void register_once(void) {
    root = sqlite3_vfs_find(NULL);
    if (root == NULL) return;
    wal_vfs = *root;
    wal_vfs.iVersion = root->iVersion;
    wal_vfs.szOsFile = (int)sizeof(WalFile) + root->szOsFile;
    wal_vfs.pNext = NULL;
    wal_vfs.zName = streak_wal_vfs_name;
    wal_vfs.xOpen = wal_open;
    if (sqlite3_vfs_register(&wal_vfs, 0) != SQLITE_OK) root = NULL;
}

int streak_wal_vfs_register(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, register_once);
    return root ? SQLITE_OK : SQLITE_ERROR;
}

long long streak_wal_vfs_log_writes(sqlite3 *db) {
    sqlite3_file *log = NULL;
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &log) != SQLITE_OK) return -1;
    if (log == NULL || log->pMethods != &wal_methods) return -1;
    return __atomic_load_n(&((WalFile *)log)->writes, __ATOMIC_RELAXED);
}

long long streak_wal_vfs_log_extensions(sqlite3 *db) {
    sqlite3_file *log = NULL;
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &log) != SQLITE_OK) return -1;
    if (log == NULL || log->pMethods != &wal_methods) return -1;
    return __atomic_load_n(&((WalFile *)log)->extensions, __ATOMIC_RELAXED);
}

int streak_wal_vfs_fail_log_writes(sqlite3 *db, int count) {
    sqlite3_file *log = NULL;
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &log) != SQLITE_OK) return -1;
    if (log == NULL || log->pMethods != &wal_methods) return -1;
    __atomic_store_n(&((WalFile *)log)->failing, count, __ATOMIC_RELAXED);
    return 0;
}

int streak_wal_vfs_forget_lost_writes(sqlite3 *db) {
    // A transaction still open may have taken the lost frames as written.
    if (!sqlite3_get_autocommit(db)) return 1;
    sqlite3_file *log = NULL;
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &log) != SQLITE_OK) return -1;
    if (log == NULL || log->pMethods != &wal_methods) return -1;
    ((WalFile *)log)->lost_rc = SQLITE_OK;
    return 0;
}
