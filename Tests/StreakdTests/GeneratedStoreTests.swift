import Foundation
import StreakCore
import StreakTestSupport
import StreakWire
import Testing

/// `streak-load generate` writes the benchmark's users straight into a store: a server on that
/// store answers exactly as one whose users got the same data through ImportData.
@Suite struct GeneratedStoreTests {
    static let users = 4
    static let asOf = try! CivilDate(year: 2026, month: 6, day: 30)

    /// Runs `streak-load ARGUMENTS` and fails the test with its error output when it fails.
    static func load(_ arguments: [String]) throws -> String {
        let run = try ServerProcess.run(arguments, executable: ServerProcess.loadBinaryURL, timeout: .seconds(120))
        guard run.status == 0 else { throw TestSupportError("streak-load \(arguments[0]) failed: \(run.error)") }
        return run.output
    }

    static func tokens(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// The answers compared, as raw response bytes (habit ids included).
    static func answers(_ connection: TestConnection, token: String) throws -> [[UInt8]] {
        let requests: [(WireMethod, any WireMessage)] = [
            (.listHabits, WireListHabitsRequest()),
            (.getHeatmap, WireGetHeatmapRequest.with { $0.asOf = asOf }),
            (
                .getHeatmap,
                WireGetHeatmapRequest.with {
                    $0.asOf = asOf
                    $0.from = try? asOf.adding(days: -500)
                }
            ),
            (.getStreak, WireGetStreakRequest.with { $0.asOf = asOf }),
            (.getWeekdayChart, WireGetWeekdayChartRequest.with { $0.asOf = asOf }),
            (.getDay, WireGetDayRequest.with { $0.date = try? asOf.adding(days: -3) }),
        ]
        return try requests.map { method, request in
            let (status, bytes) = try connection.rawCall(
                method.rawValue,
                message: request.serializedBytes(),
                token: token
            )
            guard status.code == .ok else { throw TestSupportError("\(method) failed: \(status)") }
            return bytes
        }
    }

    /// Where the generated store is: SQLite, PostgreSQL as the server's superuser (which turns
    /// the per-row triggers off while it fills), or as a role that owns the database and may not.
    enum GeneratedStore: CaseIterable, Sendable {
        case sqlite, postgres, postgresPlainRole
    }

    @Test("a generated store answers as one filled with ImportData", arguments: GeneratedStore.allCases)
    func generatedEqualsImported(store: GeneratedStore) throws {
        let databases =
            store != .sqlite && PostgresTestDatabase.serverURL != nil
            ? [try PostgresTestDatabase(plainRole: store == .postgresPlainRole), try PostgresTestDatabase()] : []
        let generated = ServerProcess.temporaryDirectory()
        let imported = ServerProcess.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: generated)
            try? FileManager.default.removeItem(at: imported)
        }
        let generatedStore = databases.first.map { ["--database-url", $0.url] } ?? []
        let importedStore = databases.last.map { ["--database-url", $0.url] } ?? []

        // Straight into the store.
        let generatedTokens = generated.appendingPathComponent("tokens").path
        let output = try Self.load(
            ["generate", "--users", "\(Self.users)", "--tokens-file", generatedTokens, "--chunk", "3"]
                + (generatedStore.isEmpty ? ["--data-dir", generated.path] : generatedStore)
        )
        #expect(output.contains("generated \(Self.users) users"), "\(output)")

        // The same users through a server, one ImportData each, in the same order.
        let names = generated.appendingPathComponent("names").path
        try (1...Self.users).map { "scale\($0)" }.joined(separator: "\n").write(
            toFile: names,
            atomically: true,
            encoding: .utf8
        )
        let created = try ServerProcess.run(["user", "import", names, "--data-dir", imported.path] + importedStore)
        #expect(created.status == 0, "\(created.error)")
        let importedTokens = created.output.split(separator: "\n").map { String($0.split(separator: " ")[1]) }
        let importedTokensFile = imported.appendingPathComponent("tokens").path
        try importedTokens.joined(separator: "\n").write(toFile: importedTokensFile, atomically: true, encoding: .utf8)
        let viaImport = try ServerProcess.start(dataDirectory: imported, extraArguments: importedStore)
        defer { viaImport.stop() }
        _ = try Self.load(
            [
                "populate", "--server", "127.0.0.1:\(viaImport.port)", "--tokens-file", importedTokensFile,
                "--connections", "1",
            ]
        )

        let viaGenerator = try ServerProcess.start(dataDirectory: generated, extraArguments: generatedStore)
        defer { viaGenerator.stop() }
        let tokens = try Self.tokens(generatedTokens)
        #expect(tokens.count == Self.users)
        let left = try viaGenerator.connect()
        let right = try viaImport.connect()
        for (index, token) in tokens.enumerated() {
            let answers = try Self.answers(left, token: token)
            #expect(answers == (try Self.answers(right, token: importedTokens[index])), "user \(index + 1)")
            // A year of five habits, not an empty account that would equal another empty one.
            let habits = try WireListHabitsResponse(serializedBytes: answers[0]).habits
            #expect(habits.map(\.name) == (1...5).map { "bench habit \($0)" })
            let streak = try WireGetStreakResponse(serializedBytes: answers[3])
            #expect((streak.streak?.longest ?? 0) > 0)
        }
        // Different users got different years.
        #expect((try Self.answers(left, token: tokens[0]))[1] != (try Self.answers(left, token: tokens[1]))[1])
    }
}
