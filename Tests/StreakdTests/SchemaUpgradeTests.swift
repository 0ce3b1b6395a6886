import Foundation
import StreakTestSupport
import Testing

@testable import StreakStorage

/// A store made by the previous version of streakd: `streakd user ...` refuses it and leaves it
/// as it is (servers of that version may be serving it), the server upgrades it and logs that
/// once, and the export of a habit whose name the previous version accepted imports again.
@Suite("Upgrading a store made by the previous version")
struct SchemaUpgradeTests {
    enum Engine: String, Sendable, CustomTestStringConvertible {
        case sqlite
        case postgres

        /// SQLite, and PostgreSQL when a test server is configured (or required).
        static var available: [Engine] {
            PostgresTestDatabase.serverURL == nil && !PostgresTestDatabase.required ? [.sqlite] : [.sqlite, .postgres]
        }

        var testDescription: String { rawValue }
    }

    /// A data directory (and on PostgreSQL a database) at the schema before this version's,
    /// holding user "a" with two habits: "Read", and "   ", a name only the first version accepted.
    final class OldStore: @unchecked Sendable {
        let engine: Engine
        let directory = ServerProcess.temporaryDirectory()
        private let database: PostgresTestDatabase?
        /// User "a"'s token.
        let token = TokenHasher.generate()
        let oldVersion: Int
        let newVersion: Int

        init(_ engine: Engine) throws {
            self.engine = engine
            let migrations = engine == .sqlite ? Migration.all : Migration.postgres
            oldVersion = migrations.dropLast().last!.version
            newVersion = migrations.last!.version
            database = engine == .postgres ? try PostgresTestDatabase() : nil
            try withConnection { connection in
                try Migration.migrate(connection, migrations: Array(migrations.dropLast()))
                try connection.query(
                    "INSERT INTO users (id, name, token_hash, created_at) VALUES (1, 'a', ?, 0)",
                    [.blob(TokenHasher.hash(token))]
                )
                try connection.execute(
                    """
                    INSERT INTO habits (user_id, id, name, created_on) VALUES (1, 1, 'Read', 19723), (1, 2, '   ', 19723);
                    INSERT INTO completions (user_id, habit_id, day) VALUES (1, 1, 19724), (1, 2, 19725)
                    """
                )
                if engine == .postgres { try connection.query("SELECT setval('habit_ids', 10)") }
            }
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        /// `--data-dir DIR`, and `--database-url URL` on PostgreSQL.
        var arguments: [String] {
            ["--data-dir", directory.path] + (database.map { ["--database-url", $0.url] } ?? [])
        }

        func withConnection<T>(_ body: (any SQLSession) throws -> T) throws -> T {
            if let database {
                let connection = try PostgresConnection(url: database.url)
                defer { connection.close() }
                return try body(connection)
            }
            let connection = try SQLiteConnection(path: directory.appendingPathComponent(SQLiteStore.fileName).path)
            defer { _ = connection.close() }
            return try body(connection)
        }

        func version() throws -> Int {
            try withConnection { connection in try Migration.version(of: connection) }
        }
    }

    @Test(
        "streakd user add, import, list and revoke refuse the older schema and leave it as it is",
        arguments: Engine.available
    )
    func adminCommandsDoNotUpgrade(engine: Engine) throws {
        let old = try OldStore(engine)
        let names = old.directory.appendingPathComponent("names.txt")
        try "erin\n".write(to: names, atomically: true, encoding: .utf8)
        let commands = [
            ["user", "list"], ["user", "add", "dave"], ["user", "revoke", "a"], ["user", "import", names.path],
        ]
        for command in commands {
            let result = try ServerProcess.run(command + old.arguments)
            #expect(result.status == 1 && result.output.isEmpty, "\(command): \(result)")
            #expect(
                result.error.hasPrefix(
                    "streakd: the database has schema version \(old.oldVersion), older than this streakd's "
                        + "(\(old.newVersion)), and this command does not upgrade it: starting this version's "
                        + "streakd server does ("
                ),
                "\(command): \(result.error)"
            )
            #expect(try old.version() == old.oldVersion, "\(command) changed the schema")
        }
        let users = try old.withConnection { connection in
            try connection.query("SELECT name FROM users ORDER BY id").map { $0[0].text ?? "" }
        }
        #expect(users == ["a"])
    }

    @Test(
        "the server upgrades the store and logs it once; the blank habit name becomes one an import takes",
        arguments: Engine.available
    )
    func serverUpgradesAndLogs(engine: Engine) throws {
        let old = try OldStore(engine)
        let server = try ServerProcess.start(
            dataDirectory: old.directory,
            extraArguments: Array(old.arguments.dropFirst(2))
        )
        let upgraded =
            "from=\(old.oldVersion) migrations=\(old.newVersion) (\(Migration.habitNamesName)) "
            + "to=\(old.newVersion) [streakd] upgraded the store's schema"
        #expect(server.log.contains("notice streakd: " + upgraded), "\(server.log)")
        #expect(try old.version() == old.newVersion)

        // The export of the renamed habit imports into a new account.
        let streak = ServerProcess.binaryURL.deletingLastPathComponent().appendingPathComponent("streak")
        let file = old.directory.appendingPathComponent("export.json").path
        let address = ["--server", "127.0.0.1:\(server.port)"]
        let export = try ServerProcess.run(address + ["--token", old.token, "export", file], executable: streak)
        #expect(export.status == 0, "\(export)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\"name\": \"Unnamed habit 2\""))
        let target = try ServerProcess.start()
        defer {
            target.stop()
            target.removeDataDirectory()
        }
        let targetAddress = ["--server", "127.0.0.1:\(target.port)", "--token", target.token ?? ""]
        let imported = try ServerProcess.run(targetAddress + ["import", file], executable: streak)
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.output.hasPrefix("imported: 2 habits created, 0 matched"), "\(imported.output)")

        // A start with nothing to migrate says nothing about it.
        #expect(server.stop() == 0)
        let restarted = try ServerProcess.start(
            dataDirectory: old.directory,
            extraArguments: Array(old.arguments.dropFirst(2))
        )
        #expect(restarted.stop() == 0)
        #expect(restarted.log.components(separatedBy: "store's schema").count == 2, "\(restarted.log)")
        #expect(restarted.log.components(separatedBy: "listening").count == 3, "\(restarted.log)")
    }
}
