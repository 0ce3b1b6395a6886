import Foundation
import StreakTestSupport
import Testing

/// `streak` with neither --server nor --token: the environment and the local data directory.
/// (CLIRunner removes these variables from the environment it inherits; each test sets its own.)
@Suite("streak finds the server and the token without flags", .serialized)
struct CLIEnvironmentTests {
    @Test func serverFromTheEnvironmentAndTokenFromTheDataDirectory() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        // What a user of a local streakd has: its data directory (token file inside) and, here
        // because the port is not 7411, STREAK_SERVER.
        let environment = [
            "STREAKD_DATA_DIR": server.dataDirectory.path,
            "STREAK_SERVER": "127.0.0.1:\(server.port)",
        ]
        let added = try CLIRunner.run(["--as-of", "2025-06-15", "habit", "add", "Read"], environment: environment)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasSuffix(" 'Read' from 2025-06-15\n"), "\(added.stdout)")
        let done = try CLIRunner.run(["--as-of", "2025-06-15", "done", "Read"], environment: environment)
        #expect(done.status == 0, "\(done.stderr)")
        let streak = try CLIRunner.run(["--as-of", "2025-06-15", "streak"], environment: environment)
        #expect(streak.status == 0, "\(streak.stderr)")
        #expect(streak.stdout.hasPrefix("1 day"), "\(streak.stdout)")

        // The same without the data directory: no token at all.
        let anonymous = try CLIRunner.run(["streak"], environment: ["STREAK_SERVER": "127.0.0.1:\(server.port)"])
        #expect(anonymous.status == 77, "\(anonymous.stderr)")
    }

    @Test func tokenFromTheEnvironmentAndFlagsWin() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let token = try #require(server.token)
        let wrong = "stk_" + String(repeating: "0", count: 64)
        let refused = try ReservedPort()
        let address = "127.0.0.1:\(server.port)"

        let fromEnvironment = try CLIRunner.run(
            ["--as-of", "2025-06-15", "streak"],
            environment: ["STREAK_SERVER": address, "STREAK_TOKEN": token]
        )
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stdout.hasPrefix("0 days"), "\(fromEnvironment.stdout)")

        // STREAK_TOKEN comes before the data directory's token file.
        let environmentOverFile = try CLIRunner.run(
            ["streak"],
            environment: [
                "STREAK_SERVER": address, "STREAK_TOKEN": wrong, "STREAKD_DATA_DIR": server.dataDirectory.path,
            ]
        )
        #expect(environmentOverFile.status == 77, "\(environmentOverFile.stderr)")

        // --server and --token come before STREAK_SERVER and STREAK_TOKEN.
        let flags = try CLIRunner.run(
            ["--server", address, "--token", token, "streak"],
            environment: ["STREAK_SERVER": "127.0.0.1:\(refused.port)", "STREAK_TOKEN": wrong]
        )
        #expect(flags.status == 0, "\(flags.stderr)")
    }
}
