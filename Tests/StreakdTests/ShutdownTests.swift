import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Graceful shutdown: signals, the database closed cleanly.
@Suite struct ShutdownTests {
    @Test func sigtermRightAfterTheListeningLineExitsZero() throws {
        for round in 1...5 {
            let server = try ServerProcess.start()
            defer { server.removeDataDirectory() }
            kill(server.pid, SIGTERM)
            guard server.waitForExit(timeout: .seconds(20)) else {
                server.kill()
                Issue.record("round \(round): still running 20 s after SIGTERM; \(server.logTail)")
                continue
            }
            #expect(server.exitStatus == 0, "round \(round): exit status \(server.exitStatus); \(server.logTail)")
        }
    }

    @Test func sigintShutsDownGracefully() throws {
        let harness = try ServerHarness()
        defer { harness.server.removeDataDirectory() }
        _ = try harness.createHabit("h", on: day("2024-01-01"))
        let status = harness.server.stop(signal: SIGINT)
        #expect(status == 0, "exit status \(status); \(harness.server.logTail)")
        let frames = harness.connection.framesUntilClose()
        #expect(frames.contains { if case .goAway(_, let s) = $0 { s.code == .unavailable } else { false } })
    }

    @Test func sighupLeavesAPlaintextServerServing() throws {
        let harness = try ServerHarness()
        defer { harness.server.removeDataDirectory() }
        kill(harness.server.pid, SIGHUP)
        #expect(harness.server.waitForLog("nothing to reload; ignored"), "\(harness.server.logTail)")
        // The same connection still gets answers, and the server still shuts down gracefully.
        _ = try harness.createHabit("after the hangup", on: day("2024-01-01"))
        let status = harness.server.stop()
        #expect(status == 0, "exit status \(status); \(harness.server.logTail)")
    }

    @Test func sigtermClosesTheDatabaseCleanly() throws {
        let harness = try ServerHarness()
        defer { harness.server.removeDataDirectory() }
        let habit = try harness.createHabit("h", on: day("2024-01-01"))
        for offset in 0..<20 {
            try harness.record(habit.id, try day("2024-01-01").adding(days: offset))
        }
        let database = harness.server.dataDirectory.appendingPathComponent("streakd.sqlite3").path
        #expect(Self.size(of: database + "-wal") ?? 0 > 0, "writes should be in the WAL while the server runs")
        let status = harness.server.stop()
        #expect(status == 0, "exit status \(status); \(harness.server.logTail)")
        // Checkpointed into the database file and truncated (or removed by the last close).
        #expect((Self.size(of: database + "-wal") ?? 0) == 0)

        let again = try ServerProcess.start(dataDirectory: harness.server.dataDirectory)
        defer { again.stop() }
        let connection = try again.connect()
        let chart: WireGetWeekdayChartResponse = try connection.call(
            .getWeekdayChart,
            WireGetWeekdayChartRequest.with {
                $0.from = day("2024-01-01")
                $0.to = day("2024-01-31")
                $0.asOf = day("2024-01-31")
            },
            token: harness.token
        )
        #expect(chart.chart?.series.first { $0.habitId == habit.id }?.counts.reduce(0) { $0 + $1.count } == 20)
    }

    static func size(of path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }
}
