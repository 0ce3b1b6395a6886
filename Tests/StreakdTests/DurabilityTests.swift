import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Synchronization
import Testing

/// A completion that was acknowledged survives SIGKILL.
@Suite(.serialized) struct DurabilityTests {
    @Test(arguments: 1...4)
    func acknowledgedCompletionsSurviveSigkill(round: Int) throws {
        let directory = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var server = try ServerProcess.start(dataDirectory: directory)
        let token = try #require(server.token)
        let setup = try server.connect()
        let writers = 4
        let habits = try (0..<writers).map { index in
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

        // Each writer records its habit on consecutive days as fast as it can, one at a time.
        let acknowledged = Mutex<[Int64: [CivilDate]]>([:])
        let port = server.port
        let threads = habits.map { habit in
            Thread {
                guard let connection = try? TestConnection(port: port) else { return }
                var date = day("2000-01-01")
                while true {
                    let request = WireRecordCompletionRequest.with {
                        $0.habitId = habit
                        $0.date = date
                    }
                    guard let status = try? connection.status(of: .recordCompletion, request, token: token),
                        status.code == .ok
                    else { return }
                    acknowledged.withLock { $0[habit, default: []].append(date) }
                    guard let next = try? date.adding(days: 1) else { return }
                    date = next
                }
            }
        }
        for thread in threads { thread.start() }
        Thread.sleep(forTimeInterval: Double.random(in: 0.2...0.8))
        server.kill()
        // The writers see their connections fail and stop.
        Thread.sleep(forTimeInterval: 0.3)
        let acked = acknowledged.withLock { $0 }
        let total = acked.values.reduce(0) { $0 + $1.count }
        print("round \(round): \(total) completions acknowledged before SIGKILL")

        server = try ServerProcess.start(dataDirectory: directory)
        defer { server.stop() }
        let check = try server.connect()
        for (habit, dates) in acked {
            guard let last = dates.last else { continue }
            let answer: WireGetWeekdayChartResponse = try check.call(
                .getWeekdayChart,
                WireGetWeekdayChartRequest.with {
                    $0.from = day("2000-01-01")
                    $0.to = last
                    $0.asOf = last
                },
                token: token
            )
            let series = try #require(answer.chart?.series.first { $0.habitId == habit })
            let stored = series.counts.reduce(0) { $0 + Int($1.count) }
            // Writes are sequential per habit: every day up to the last acknowledged one was acknowledged.
            #expect(stored == dates.count, "habit \(habit): \(stored) stored < \(dates.count) acknowledged")
            for date in [dates[0], dates[dates.count / 2], last] {
                let dayAnswer: WireGetDayResponse = try check.call(
                    .getDay,
                    WireGetDayRequest.with { $0.date = date },
                    token: token
                )
                #expect(dayAnswer.day?.completedHabits.contains { $0.id == habit } == true)
            }
        }
        #expect(total > 0)
    }
}
