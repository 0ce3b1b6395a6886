import Foundation

/// A new, empty database on the PostgreSQL server that `STREAKD_TEST_POSTGRES_URL` names
/// (`scripts/test.sh` starts a throwaway one with `scripts/postgres-test-server.sh`); dropped at
/// deinit. Created and dropped with `psql`, so tests need no PostgreSQL code of their own.
public final class PostgresTestDatabase: @unchecked Sendable {
    /// The server's URL, when one is configured.
    public static var serverURL: String? {
        ProcessInfo.processInfo.environment["STREAKD_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the run must include the PostgreSQL tests (`scripts/test.sh` sets
    /// `STREAKD_REQUIRE_POSTGRES=1`, so that a missing server fails instead of skipping them).
    public static var required: Bool {
        ProcessInfo.processInfo.environment["STREAKD_REQUIRE_POSTGRES"] == "1"
    }

    /// The new database's URL.
    public let url: String
    private let server: String
    private let name: String

    /// The role that owns the database and that `url` connects as, when made for it (`plainRole`).
    private let role: String?

    /// Creates the database. - Throws: `TestSupportError` when no server is configured or psql fails.
    /// - Parameters:
    ///   - plainRole: Whether `url` connects as a new role that owns the database but is not a
    ///     superuser (the server's own role usually is), to test what such a role may not do.
    ///   - createNow: false to only name it: until `create()`, connecting to `url` fails (the
    ///     database does not exist), as a client started before its database sees.
    public init(plainRole: Bool = false, createNow: Bool = true) throws {
        guard let server = Self.serverURL, let slash = server.lastIndex(of: "/") else {
            throw TestSupportError("STREAKD_TEST_POSTGRES_URL is not set")
        }
        self.server = server
        name = "streakd_test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        role = plainRole ? name + "_owner" : nil
        if let role { try Self.psql(server, "CREATE ROLE \(role) LOGIN NOSUPERUSER") }
        var base = String(server[..<slash])
        if let role, let scheme = base.range(of: "://"),
            let at = base.range(of: "@", range: scheme.upperBound..<base.endIndex)
        {
            base.replaceSubrange(scheme.upperBound..<at.lowerBound, with: role)
        }
        url = base + "/" + name
        if createNow { try create() }
    }

    /// Creates the database (once: made with `createNow: false`).
    public func create() throws {
        try Self.psql(server, "CREATE DATABASE \(name)" + (role.map { " OWNER \($0)" } ?? ""))
    }

    deinit {
        try? Self.psql(server, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        if let role { try? Self.psql(server, "DROP ROLE IF EXISTS \(role)") }
    }

    /// Runs one SQL command on the database at `url` with `psql`.
    public static func psql(_ url: String, _ command: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", "--no-psqlrc", "--quiet", "--set", "ON_ERROR_STOP=1", url, "--command", command]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestSupportError("psql \(command) failed: \(String(decoding: message, as: UTF8.self))")
        }
    }
}
