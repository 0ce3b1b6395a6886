import FoundationEssentials

/// A named, versioned schema change. Migrations are only ever appended, never edited.
struct Migration: Sendable {
    /// The version this migration brings the schema to, counting from 1.
    let version: Int
    /// A name for logs and the migrations table.
    let name: String
    /// The SQL that applies it.
    let sql: String
    /// What SQL cannot do, run after `sql` in the same transaction (data rules written in Swift).
    var data: (@Sendable (any SQLSession) throws(StorageError) -> Void)? = nil

    /// Every migration of the SQLite schema, in order (PostgreSQL's: `Migration.postgres`).
    static let all: [Migration] = [
        Migration(
            version: 1,
            name: "users, habits, completions, settings",
            sql: """
                CREATE TABLE users (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    token_hash BLOB,
                    created_at INTEGER NOT NULL,
                    revoked INTEGER NOT NULL DEFAULT 0
                );
                CREATE UNIQUE INDEX users_by_token_hash ON users (token_hash);
                CREATE TABLE habits (
                    user_id INTEGER NOT NULL REFERENCES users (id),
                    id INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    created_on INTEGER NOT NULL,
                    archived_on INTEGER,
                    PRIMARY KEY (user_id, id)
                ) WITHOUT ROWID;
                CREATE TABLE completions (
                    user_id INTEGER NOT NULL,
                    habit_id INTEGER NOT NULL,
                    day INTEGER NOT NULL,
                    PRIMARY KEY (user_id, habit_id, day),
                    FOREIGN KEY (user_id, habit_id) REFERENCES habits (user_id, id)
                ) WITHOUT ROWID;
                CREATE TABLE settings (
                    user_id INTEGER PRIMARY KEY REFERENCES users (id),
                    time_zone TEXT NOT NULL,
                    locale TEXT NOT NULL,
                    week_start INTEGER NOT NULL,
                    min_percent INTEGER
                );
                """
        ),
        // Habit ids become unique per store (new ids are the store-wide maximum plus one), so an id
        // names one habit everywhere. Not a UNIQUE index: databases created by version 1 may hold
        // the same id for two users; every query is keyed by (user_id, id), so those stay correct.
        Migration(
            version: 2,
            name: "habit ids unique per store",
            sql: "CREATE INDEX habits_by_id ON habits (id);"
        ),
        // Schedules, skips, rest periods and the day's start. A completion recorded on a skipped
        // day replaces the skip: a trigger keeps "done, skipped or nothing" true for every writer
        // (a plain completion write runs no extra statement for it).
        Migration(
            version: 3,
            name: "schedules, skips, rest periods, day start",
            sql: """
                CREATE TABLE schedules (
                    user_id INTEGER NOT NULL,
                    habit_id INTEGER NOT NULL,
                    effective_from INTEGER NOT NULL,
                    weekdays INTEGER NOT NULL,
                    PRIMARY KEY (user_id, habit_id, effective_from),
                    FOREIGN KEY (user_id, habit_id) REFERENCES habits (user_id, id)
                ) WITHOUT ROWID;
                CREATE TABLE skips (
                    user_id INTEGER NOT NULL,
                    habit_id INTEGER NOT NULL,
                    day INTEGER NOT NULL,
                    PRIMARY KEY (user_id, habit_id, day),
                    FOREIGN KEY (user_id, habit_id) REFERENCES habits (user_id, id)
                ) WITHOUT ROWID;
                CREATE TABLE rest_periods (
                    user_id INTEGER NOT NULL REFERENCES users (id),
                    id INTEGER NOT NULL,
                    from_day INTEGER NOT NULL,
                    to_day INTEGER NOT NULL,
                    note TEXT NOT NULL DEFAULT '',
                    PRIMARY KEY (user_id, id)
                ) WITHOUT ROWID;
                CREATE INDEX rest_periods_by_id ON rest_periods (id);
                ALTER TABLE settings ADD COLUMN day_start_minutes INTEGER NOT NULL DEFAULT 0;
                CREATE TRIGGER completions_clear_skip AFTER INSERT ON completions BEGIN
                    DELETE FROM skips WHERE user_id = NEW.user_id AND habit_id = NEW.habit_id AND day = NEW.day;
                END;
                """
        ),
        // Ids are never handed out again: a new id is past every id in use and every id deleted
        // since this version (the maximum plus one alone reused the id of the newest habit or
        // rest period once it was deleted). Triggers record the deleted ids for every writer.
        Migration(
            version: 4,
            name: "deleted ids are not reused",
            sql: """
                CREATE TABLE retired_ids (
                    kind TEXT PRIMARY KEY,
                    max_id INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TRIGGER habits_retire_id AFTER DELETE ON habits BEGIN
                    INSERT INTO retired_ids (kind, max_id) VALUES ('habit', OLD.id)
                        ON CONFLICT (kind) DO UPDATE SET max_id = MAX(max_id, excluded.max_id);
                END;
                CREATE TRIGGER rest_periods_retire_id AFTER DELETE ON rest_periods BEGIN
                    INSERT INTO retired_ids (kind, max_id) VALUES ('rest_period', OLD.id)
                        ON CONFLICT (kind) DO UPDATE SET max_id = MAX(max_id, excluded.max_id);
                END;
                """
        ),
        // Habit names the current rule refuses are repaired (`renameRefusedHabitNames`): the first
        // versions accepted some (white space only, too long), and an export holding one could not
        // be imported.
        Migration(
            version: 5,
            name: Migration.habitNamesName,
            sql: "",
            data: Migration.renameRefusedHabitNamesStep
        ),
    ]

    /// The schema version of the database behind `connection` (0 when empty).
    static func version(of connection: any SQLSession) throws(StorageError) -> Int {
        let exists = try connection.query(connection.dialect.migrationsTableExists)
        guard !exists.isEmpty else { return 0 }
        let rows = try connection.query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        return Int(rows.first?.first?.integer ?? 0)
    }

    /// Applies every migration newer than the database's version, all in one transaction.
    ///
    /// The version is read inside the transaction after taking the database's write lock (SQLite:
    /// `BEGIN IMMEDIATE`; PostgreSQL: an advisory lock), so two processes opening one new database
    /// at once (two servers, or a server and `streakd user add`) cannot both apply a migration.
    /// - Returns: the versions before and after, and the migrations applied.
    /// - Throws: `.corrupt` for a database whose schema is newer than this binary knows (it was
    ///   written by a later streakd: running on would misread it); `.failedPrecondition` for one
    ///   whose schema is older when `policy` is `.refuseUpgrade` (left unchanged).
    @discardableResult
    static func migrate(
        _ connection: any SQLSession,
        migrations: [Migration],
        policy: MigrationPolicy = .upgrade
    ) throws(StorageError) -> MigrationReport {
        try connection.execute(connection.dialect.beginMigration)
        do throws(StorageError) {
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL
                )
                """
            )
            let current = try version(of: connection)
            let known = migrations.last?.version ?? 0
            guard current <= known else {
                throw StorageError(
                    .corrupt,
                    "the database has schema version \(current), newer than this streakd knows (\(known)); "
                        + "use a newer streakd"
                )
            }
            if policy == .refuseUpgrade, current > 0, current < known {
                throw StorageError(.failedPrecondition, Self.upgradeRefusal(current, known, connection.dialect))
            }
            let now = Int64(Date().timeIntervalSince1970)
            var applied: [String] = []
            for migration in migrations where migration.version > current {
                do throws(StorageError) {
                    if !migration.sql.isEmpty { try connection.execute(migration.sql) }
                    try migration.data?(connection)
                    try connection.query(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                        [.integer(Int64(migration.version)), .text(migration.name), .integer(now)]
                    )
                } catch {
                    throw StorageError(
                        error.code,
                        "migration \(migration.version) (\(migration.name)) failed: \(error.message)",
                        cause: error
                    )
                }
                applied.append("\(migration.version) (\(migration.name))")
            }
            try connection.execute("COMMIT")
            return MigrationReport(before: current, after: max(current, known), applied: applied)
        } catch {
            connection.rollBack()
            throw error
        }
    }

    /// Why an administrative command does not open a database of an older schema, and what to do instead.
    static func upgradeRefusal(_ current: Int, _ known: Int, _ dialect: SQLDialect) -> String {
        let servers =
            switch dialect {
            case .sqlite: "stop the older server first"
            // Before the change log (PostgreSQL schema 4), servers older than 2026-11-25 (commit
            // 805767c) understood only the first notice format: they would not see the new writes.
            case .postgres where current < 4:
                "older servers sharing it cannot restart once it is upgraded, and those built before "
                    + "2026-11-25 (commit 805767c) would not see the new server's writes: stop them first"
            case .postgres: "older servers sharing it keep serving but cannot restart once it is upgraded"
            }
        return "the database has schema version \(current), older than this streakd's (\(known)), and this "
            + "command does not upgrade it: starting this version's streakd server does (\(servers); see "
            + "Upgrading in docs/OPERATIONS.md), or use the streakd of the version that serves it"
    }
}
