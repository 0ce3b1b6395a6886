import Foundation
import StreakCore
import StreakFraming
import StreakStorage
import StreakTestSupport
import StreakWire
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real `streakd` on a real PostgreSQL that stops answering (behind a proxy that freezes, as a
/// hung database host does): requests fail with UNAVAILABLE within `--database-timeout`, except
/// GetServerInfo with a token the server accepted before, which lists the failing upkeep; and
/// SIGTERM still ends the process within the grace period and that timeout.
@Suite(.enabled(if: PostgresTestDatabase.serverURL != nil || PostgresTestDatabase.required))
struct PostgresOutageTests {
    @Test("a stalled PostgreSQL: UNAVAILABLE within the timeout, then SIGTERM exits (0) in bounded time")
    func stalledDatabase() throws {
        let database = try PostgresTestDatabase()
        let (proxy, url) = try FreezableProxy.start(for: database.url)
        defer { proxy.stop() }
        let server = try ServerProcess.start(
            extraArguments: ["--database-url", url, "--database-timeout", "1", "--shutdown-grace", "1"]
        )
        defer {
            proxy.thaw()
            server.kill()
            server.removeDataDirectory()
        }
        let token = try #require(server.token)
        // A user whose token this server has never seen.
        let stranger = try ServerProcess.run(["user", "add", "stranger", "--database-url", database.url])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let connection = try server.connect(timeout: .seconds(10))
        #expect(try connection.status(of: .getSettings, WireGetSettingsRequest(), token: token).code == .ok)

        proxy.freeze()
        // Past the token cache's 2 s: every request checks its token with the store again.
        usleep(2_500_000)
        for (method, bearer, expected) in [
            (WireMethod.getSettings, token, Status.Code.unavailable),
            (.getServerInfo, stranger, .unavailable),
            (.getServerInfo, token, .ok),
        ] {
            let started = Date()
            let status =
                method == .getServerInfo
                ? try connection.status(of: method, WireGetServerInfoRequest(), token: bearer)
                : try connection.status(of: method, WireGetSettingsRequest(), token: bearer)
            let seconds = Date().timeIntervalSince(started)
            #expect(status.code == expected, "\(method): \(status)")
            #expect(seconds < 4, "\(method) answered after \(seconds) s")
        }
        // The server's log says that following the other servers fails, once, not every second.
        #expect(server.waitForLog("storage upkeep is failing"), "\(server.logTail)")
        let failing = server.log.components(separatedBy: "\n").filter { $0.contains("storage upkeep is failing") }
        #expect(failing.contains { $0.contains("reading the change log") }, "\(failing)")
        #expect(failing.count <= StoreUpkeep.allCases.count, "\(failing)")
        // GetServerInfo, with the token the server knows, says so too.
        let info = try connection.call(
            .getServerInfo,
            WireGetServerInfoRequest(),
            token: token,
            as: WireGetServerInfoResponse.self
        )
        #expect(info.storageUpkeepFailing.contains { $0.job == "read_change_log" }, "\(info.storageUpkeepFailing)")

        // SIGTERM with a request in flight, PostgreSQL still silent.
        _ = try connection.sendRequest(
            WireMethod.getStreak.rawValue,
            message: WireGetStreakRequest().serializedBytes(),
            token: token
        )
        let signalled = Date()
        kill(server.pid, SIGTERM)
        guard server.waitForExit(timeout: .seconds(15)) else {
            Issue.record("still running 15 s after SIGTERM (grace 1 s, database timeout 1 s); \(server.logTail)")
            return
        }
        let seconds = Date().timeIntervalSince(signalled)
        #expect(seconds < 8, "exited \(seconds) s after SIGTERM")
        #expect(server.exitStatus == 0, "exit status \(server.exitStatus); \(server.logTail)")
    }
}
