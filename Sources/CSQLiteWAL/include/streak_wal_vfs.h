#pragma once

/// A SQLite VFS named "streak-wal" over the default one that gathers the writes of a
/// write-ahead log until SQLite syncs it, then hands them to the kernel in one pwrite.
///
/// SQLite writes each WAL frame with two calls (its 24-byte header, then the page), so a commit
/// of a dozen pages costs two dozen system calls before its fsync. Under this VFS those writes
/// land in a buffer of the log's file handle and reach the file as one contiguous write (one per
/// 124 KiB: the unix VFS writes at most 128 KiB - 1 bytes a call) when
/// SQLite syncs the log (COMMIT with `synchronous = FULL`), or earlier when anything else touches
/// that handle (a read, the size, a truncate, a lock change, a file control) or the buffer would
/// pass 4 MiB. Other files (the database, its shared memory) use the default VFS unchanged.
///
/// A log about to grow past the end of its file is first extended with zeros to the next MiB, so
/// that commits overwrite blocks that exist instead of appending: an append changes the file's
/// size, and then every fdatasync writes the inode too.
///
/// Only a connection with `PRAGMA synchronous = FULL` may use it: a commit must sync its log
/// before SQLite publishes it to other connections, and the sync is what empties the buffer.

/// Registers the VFS (not as the default); safe to call more than once and from several threads.
/// Returns SQLITE_OK or a SQLite error code.
int streak_wal_vfs_register(void);

/// The VFS's name, for sqlite3_open_v2.
extern const char *const streak_wal_vfs_name;

typedef struct sqlite3 sqlite3;

/// The writes this VFS made to the connection's log so far (for tests), or -1 when the
/// connection's log is not open or not under this VFS.
long long streak_wal_vfs_log_writes(sqlite3 *db);

/// How many times this VFS extended the connection's log with zeros (for tests), or -1 when the
/// connection's log is not open or not under this VFS.
long long streak_wal_vfs_log_extensions(sqlite3 *db);

/// Makes the next `count` writes to the connection's log fail with SQLITE_FULL, as on a full disk
/// (0 stops it; for tests). Returns 0, or -1 when the connection's log is not open or not under
/// this VFS.
int streak_wal_vfs_fail_log_writes(sqlite3 *db, int count);

/// Forgets the log writes a failed flush lost (see `flush` in streak_wal_vfs.c) once the
/// connection has no transaction open: the transaction that took them as written was rolled
/// back, so later commits may succeed again. Until then every sync of the log fails. Returns 0
/// when forgotten (or nothing was lost), 1 while a transaction is open, -1 when the connection's
/// log is not open or not under this VFS.
int streak_wal_vfs_forget_lost_writes(sqlite3 *db);
