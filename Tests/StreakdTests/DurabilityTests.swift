import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Synchronization
import Testing

/// A completion that was acknowledged survives SIGKILL: 100 kills of one server, each at a random
/// moment while four connections record completions as fast as they are answered.
@Suite(.serialized) struct DurabilityTests {
    static let trials = 100
    static let writers = 4

    @Test func acknowledgedCompletionsSurviveSigkill() throws {
        try killRepeatedly(trials: Self.trials)
    }

    /// The same on PostgreSQL, where a write is acknowledged after its COMMIT answered (the last
    /// statement of the flight that also carries the completions and the change notices).
    @Test(.enabled(if: PostgresTestDatabase.serverURL != nil || PostgresTestDatabase.required))
    func acknowledgedCompletionsSurviveSigkillOnPostgres() throws {
        let database = try PostgresTestDatabase()
        try killRepeatedly(trials: Self.postgresTrials, extraArguments: ["--database-url", database.url])
    }

    static let postgresTrials = 30

    private func killRepeatedly(trials: Int, extraArguments: [String] = []) throws {
        let directory = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var server = try ServerProcess.start(dataDirectory: directory, extraArguments: extraArguments)
        defer { server.stop() }
        let token = try #require(server.token)
        let setup = try server.connect()
        let habits = try (0..<Self.writers).map { index in
            let answer: WireCreateHabitResponse = try setup.call(
                .createHabit,
                WireCreateHabitRequest.with {
                    $0.name = "h\(index)"
                    $0.createdOn = day("2000-01-01")
                },
                token: token
            )
            return try #require(answer.habit).id
        }
        setup.close()

        // Days stored per habit: each habit is recorded on consecutive days from 2000-01-01.
        var stored = Dictionary(uniqueKeysWithValues: habits.map { ($0, 0) })
        var acknowledgedInAll = 0
        for trial in 1...trials {
            let acknowledged = record(habits, from: stored, port: server.port, token: token) {
                // Kill at a random moment: early in the first write, or after dozens of commits.
                Thread.sleep(forTimeInterval: Double.random(in: 0.005...0.15))
                server.kill()
            }
            server = try ServerProcess.start(dataDirectory: directory, extraArguments: extraArguments)
            let check = try server.connect()
            let written = habits.map { (stored[$0] ?? 0) + (acknowledged[$0] ?? 0) }.max() ?? 0
            let counts = try storedCounts(check, token: token, through: try day("2000-01-01").adding(days: written + 1))
            check.close()
            for habit in habits {
                let before = stored[habit] ?? 0
                let acked = acknowledged[habit] ?? 0
                let now = counts[habit] ?? 0
                // Every acknowledged day is there; at most one more (in flight when killed) may be.
                #expect(
                    now >= before + acked && now <= before + acked + 1,
                    "trial \(trial), habit \(habit): \(now) stored, \(before + acked) acknowledged"
                )
                stored[habit] = now
                acknowledgedInAll += acked
            }
        }
        print("\(trials) SIGKILLs: \(acknowledgedInAll) completions acknowledged, none lost")
        #expect(acknowledgedInAll > 0)
    }

    /// Records each habit on the days after those stored, one write at a time per habit, until
    /// `kill` ended the server; returns how many writes of each habit were acknowledged.
    private func record(
        _ habits: [Int64],
        from stored: [Int64: Int],
        port: Int,
        token: String,
        kill: () -> Void
    ) -> [Int64: Int] {
        let acknowledged = Mutex<[Int64: Int]>([:])
        let finished = DispatchGroup()
        for habit in habits {
            finished.enter()
            let first = try? day("2000-01-01").adding(days: stored[habit] ?? 0)
            Thread {
                defer { finished.leave() }
                guard var date = first, let connection = try? TestConnection(port: port) else { return }
                defer { connection.close() }
                while true {
                    let request = WireRecordCompletionRequest.with {
                        $0.habitId = habit
                        $0.date = date
                    }
                    guard let status = try? connection.status(of: .recordCompletion, request, token: token),
                        status.code == .ok
                    else { return }
                    acknowledged.withLock { $0[habit, default: 0] += 1 }
                    guard let next = try? date.adding(days: 1) else { return }
                    date = next
                }
            }.start()
        }
        kill()
        // The writers see their connections fail and stop.
        finished.wait()
        return acknowledged.withLock { $0 }
    }

    /// The number of completions stored per habit (each habit has at most one a day).
    private func storedCounts(
        _ connection: TestConnection,
        token: String,
        through last: CivilDate
    ) throws -> [Int64: Int] {
        let answer: WireGetWeekdayChartResponse = try connection.call(
            .getWeekdayChart,
            WireGetWeekdayChartRequest.with {
                $0.from = day("2000-01-01")
                $0.to = last
                $0.asOf = last
            },
            token: token
        )
        var counts: [Int64: Int] = [:]
        for series in answer.chart?.series ?? [] {
            counts[series.habitId] = series.counts.reduce(0) { $0 + Int($1.count) }
        }
        return counts
    }
}
