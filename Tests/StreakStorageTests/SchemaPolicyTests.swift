import Foundation
import StreakCore
import StreakTestSupport
import Testing

@testable import StreakStorage

/// Opening a store of an older schema: administrative commands refuse it and leave it as it is, a
/// server upgrades it and reports what it applied; the upgrade renames habit names the current
/// rule refuses, which earlier versions accepted.
@Suite("Schema upgrades: who may apply them, what they report, the names they repair")
struct SchemaPolicyTests {
    /// A database of `engine` at the schema before this version's, with `rows` in it; `open`
    /// opens it as a store (the caller closes it), `version` reads its schema version.
    final class OldDatabase: @unchecked Sendable {
        let engine: Engine
        let directory = NSTemporaryDirectory() + "streakd-old-schema-\(UUID().uuidString)"
        private let database: PostgresTestDatabase?

        init(_ engine: Engine, rows: String = "") throws {
            self.engine = engine
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            switch engine {
            case .sqlite:
                database = nil
                let old = try SQLiteConnection(path: directory + "/" + SQLiteStore.fileName)
                try Migration.migrate(old, migrations: Array(Migration.all.dropLast()))
                if !rows.isEmpty { try old.execute(rows) }
                old.close()
            case .postgres:
                let database = try PostgresTestDatabase()
                self.database = database
                let old = try PostgresConnection(url: database.url)
                try Migration.migrate(old, migrations: Array(Migration.postgres.dropLast()))
                if !rows.isEmpty { try old.execute(rows) }
                old.close()
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        /// The schema version before this version's, and this version's.
        var versions: (old: Int, new: Int) {
            let migrations = engine == .sqlite ? Migration.all : Migration.postgres
            return (migrations.dropLast().last!.version, migrations.last!.version)
        }

        func open(_ policy: MigrationPolicy) throws(StorageError) -> SQLStore {
            switch engine {
            case .sqlite: try SQLiteStore(directory: directory, policy: policy)
            case .postgres: try PostgresStore(url: database!.url, policy: policy)
            }
        }

        /// Runs `body` on a connection of its own to the database.
        func withConnection<T>(_ body: (any SQLSession) throws -> T) throws -> T {
            switch engine {
            case .sqlite:
                let connection = try SQLiteConnection(path: directory + "/" + SQLiteStore.fileName)
                defer { _ = connection.close() }
                return try body(connection)
            case .postgres:
                let connection = try PostgresConnection(url: database!.url)
                defer { connection.close() }
                return try body(connection)
            }
        }

        func version() throws -> Int {
            try withConnection { connection in try Migration.version(of: connection) }
        }
    }

    /// What opening `store` did to its schema.
    static func report(_ store: SQLStore) throws -> MigrationReport {
        try #require((store as? SQLiteStore)?.migrationReport ?? (store as? PostgresStore)?.migrationReport)
    }

    @Test(
        "an administrative open refuses an older schema, says how to upgrade, and leaves it unchanged",
        arguments: Engine.available
    )
    func refusesAnOlderSchema(engine: Engine) throws {
        let old = try OldDatabase(engine)
        let (before, after) = old.versions
        let refused = #expect(throws: StorageError.self) { try old.open(.refuseUpgrade) }
        #expect(refused?.code == .failedPrecondition)
        #expect(
            refused?.message.hasPrefix(
                "the database has schema version \(before), older than this streakd's (\(after)), and this "
                    + "command does not upgrade it: starting this version's streakd server does"
            ) == true,
            "\(refused!)"
        )
        #expect(try old.version() == before)

        // The server's open upgrades it and says what it applied; the next open applies nothing.
        let store = try old.open(.upgrade)
        let report = try Self.report(store)
        store.close()
        #expect(report == MigrationReport(before: before, after: after, applied: ["5 (\(Migration.habitNamesName))"]))
        let again = try old.open(.refuseUpgrade)
        let none = try Self.report(again)
        again.close()
        #expect(none == MigrationReport(before: after, after: after, applied: []))
    }

    @Test("an administrative open of an empty database creates the schema", arguments: Engine.available)
    func createsANewSchema(engine: Engine) throws {
        let directory = NSTemporaryDirectory() + "streakd-new-schema-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = engine == .postgres ? try PostgresTestDatabase() : nil
        let store: SQLStore =
            if let database {
                try PostgresStore(url: database.url, policy: .refuseUpgrade)
            } else {
                try SQLiteStore(directory: directory, policy: .refuseUpgrade)
            }
        defer { store.close() }
        let migrations = engine == .sqlite ? Migration.all : Migration.postgres
        let report = try Self.report(store)
        #expect(report.before == 0 && report.after == migrations.last!.version)
        #expect(report.applied.count == migrations.count)
        #expect(try store.users().isEmpty)
    }

    /// `count` characters of two Unicode scalars each: "e" and a combining acute accent.
    static func accented(_ count: Int) -> String {
        String(repeating: "e\u{301}", count: count)
    }

    @Test(
        "a refused name is cut to whole characters within the limit, or named after its habit when blank",
        arguments: [
            ("Read", nil),
            (" Run ", nil),
            ("", "Unnamed habit 7"),
            ("   ", "Unnamed habit 7"),
            ("\u{3000}\u{A0}", "Unnamed habit 7"),
            (String(repeating: "é", count: 200), nil),
            (SchemaPolicyTests.accented(150), SchemaPolicyTests.accented(100)),
            ("a" + SchemaPolicyTests.accented(100), "a" + SchemaPolicyTests.accented(99)),
            (String(repeating: " ", count: 250), "Unnamed habit 7"),
        ] as [(String, String?)]
    )
    func repairedName(name: String, repaired: String?) {
        #expect(Migration.repairedName(name, habitID: 7) == repaired)
        if let repaired { #expect(HabitName.problem(repaired) == nil) }
    }

    @Test(
        "the upgrade repairs the habit names and notes the current rules refuse, reading the habits page by page",
        arguments: Engine.available
    )
    func refusedNamesAreRenamed(engine: Engine) throws {
        // Names the first version accepted ("   ", an ideographic space) beside names that stay.
        let old = try OldDatabase(
            engine,
            rows: """
                INSERT INTO users (id, name, token_hash, created_at) VALUES (1, 'a', NULL, 0), (2, 'b', NULL, 0);
                INSERT INTO habits (user_id, id, name, created_on) VALUES
                    (1, 1, 'Read', 19723), (1, 2, '   ', 19723), (1, 3, ' Run ', 19723),
                    (2, 4, '\u{3000}', 19723), (2, 5, 'Walk', 19723), (2, 6, '\(Self.accented(150))', 19723);
                INSERT INTO completions (user_id, habit_id, day) VALUES (1, 2, 19724);
                INSERT INTO rest_periods (user_id, id, from_day, to_day, note) VALUES
                    (1, 1, 19730, 19731, '\(Self.accented(101))'), (1, 2, 19740, 19741, 'Trip');
                """
        )
        let store = try old.open(.upgrade)
        defer { store.close() }
        #expect(try store.habits(of: 1).map(\.name) == ["Read", "Unnamed habit 2", " Run "])
        #expect(try store.habits(of: 2).map(\.name) == ["Unnamed habit 4", "Walk", Self.accented(100)])
        #expect(try store.completions(of: 1) == [Completion(habitID: 2, date: day("2024-01-02"))])
        #expect(try store.restPeriods(of: 1).map(\.note) == [Self.accented(100), "Trip"])

        // Page boundaries: every size finds the same habits.
        for page in 1...7 {
            try old.withConnection { connection in
                try connection.execute("UPDATE habits SET name = '  ' WHERE id IN (1, 5)")
                try Migration.renameRefusedHabitNames(connection, page: page)
                let names = try connection.query("SELECT name FROM habits ORDER BY id").map { $0[0].text ?? "" }
                #expect(
                    names == [
                        "Unnamed habit 1", "Unnamed habit 2", " Run ", "Unnamed habit 4", "Unnamed habit 5",
                        Self.accented(100),
                    ],
                    "page \(page)"
                )
                try connection.execute("UPDATE habits SET name = 'Read' WHERE id = 1")
                try connection.execute("UPDATE habits SET name = 'Walk' WHERE id = 5")
            }
        }
    }
}
