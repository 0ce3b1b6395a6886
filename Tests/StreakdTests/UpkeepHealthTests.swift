import Foundation
import StreakStorage
import StreakTestSupport
import StreakWire
import Testing

/// A real `streakd` on PostgreSQL whose change log cannot be read (the table renamed under it,
/// as a migration gone wrong or a role's lost grant would): GetServerInfo lists the failing job,
/// with the database's code and since when, while requests keep being answered; once the table
/// is back the list is empty again.
@Suite(.enabled(if: PostgresTestDatabase.serverURL != nil || PostgresTestDatabase.required))
struct UpkeepHealthTests {
    @Test("GetServerInfo lists storage upkeep while it fails, with since when and why, and not after")
    func failingUpkeepInServerInfo() throws {
        let database = try PostgresTestDatabase()
        let server = try ServerProcess.start(extraArguments: ["--database-url", database.url])
        defer {
            server.kill()
            server.removeDataDirectory()
        }
        let token = try #require(server.token)
        let connection = try server.connect(timeout: .seconds(10))
        func failing() throws -> [WireStorageUpkeepFailure] {
            try connection.call(
                .getServerInfo,
                WireGetServerInfoRequest(),
                token: token,
                as: WireGetServerInfoResponse.self
            )
            .storageUpkeepFailing
        }
        #expect(try failing().isEmpty)

        let broken = Date()
        try PostgresTestDatabase.psql(database.url, "ALTER TABLE change_log RENAME TO change_log_away")
        // The change log is read every second.
        var failures: [WireStorageUpkeepFailure] = []
        for _ in 0..<100 where failures.isEmpty {
            usleep(100_000)
            failures = try failing()
        }
        let read = try #require(failures.first { $0.job == "read_change_log" }, "\(failures)")
        #expect(read.description == StoreUpkeep.readChangeLog.rawValue)
        #expect(read.error == "internalFailure", "the database refused the statement: \(read)")
        #expect(read.engineCode == "42P01", "undefined table: \(read)")
        #expect(!read.detail.isEmpty)
        let since = Double(read.failingSinceUnixSeconds)
        #expect(since >= broken.timeIntervalSince1970.rounded(.down) && since <= Date().timeIntervalSince1970)
        // Requests are still answered, and a later failure of the same job keeps its first time.
        #expect(try connection.status(of: .getSettings, WireGetSettingsRequest(), token: token).code == .ok)
        usleep(1_500_000)
        let later = try #require(try failing().first { $0.job == "read_change_log" })
        #expect(later.failingSinceUnixSeconds == read.failingSinceUnixSeconds)

        try PostgresTestDatabase.psql(database.url, "ALTER TABLE change_log_away RENAME TO change_log")
        for _ in 0..<100 where !failures.isEmpty {
            usleep(100_000)
            failures = try failing()
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(server.waitForLog("storage upkeep works again"), "\(server.logTail)")
    }
}
