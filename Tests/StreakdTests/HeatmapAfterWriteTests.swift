import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Synchronization
import Testing

/// A real streakd patches a cached GetHeatmap answer after a write of some days, and answers the
/// next GetStreak from the summary the write's answer computed; whatever the write, the answers
/// equal those built from scratch (the same requests naming every habit, which the server neither
/// patches after a change of one of them nor answers from a shared summary).
@Suite struct HeatmapAfterWriteTests {
    @Test(arguments: [UInt64(41), 42])
    func patchedAnswersEqualBuiltOnes(seed: UInt64) throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        var random = SplitMix64(seed: seed)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let start = day("2024-01-01")
        var habits: [WireHabit] = []
        for index in 0..<3 {
            let created: WireCreateHabitResponse = try harness.call(
                .createHabit,
                WireCreateHabitRequest.with {
                    $0.name = "h\(index)"
                    $0.createdOn = start
                    if index == 2 { $0.schedule = WireWeekdaySet(weekdays: [.monday, .thursday]) }
                }
            )
            habits.append(try #require(created.habit))
        }
        let _: WireBatchCompletionsResponse = try harness.call(
            .batchCompletions,
            WireBatchCompletionsRequest.with { batch in
                for offset in 0..<300 where below(2) == 0 {
                    batch.record.append(
                        WireCompletion(habitId: habits[below(3)].id, date: try? start.adding(days: offset))
                    )
                }
            }
        )
        // As of a fixed day with labels, and today's default (the writes without a date change
        // today), each classic and packed.
        let asOf = day("2024-10-31")
        let requests = [
            WireGetHeatmapRequest(
                asOf: asOf,
                weekStart: WireWeekStart(kind: .weekday(.sunday)),
                accessibilityLabels: true
            ),
            WireGetHeatmapRequest(),
            WireGetHeatmapRequest(
                asOf: asOf,
                weekStart: WireWeekStart(kind: .weekday(.saturday)),
                packed: true,
                packedMonthLabels: true
            ),
            WireGetHeatmapRequest(packed: true),
        ]
        for step in 0..<40 {
            for request in requests { let _: WireGetHeatmapResponse = try harness.call(.getHeatmap, request) }
            let habit = habits[below(3)].id
            let date: CivilDate? = below(4) == 0 ? nil : try start.adding(days: below(320))
            // The write's answer has the streak as of today or of `asOf`: the next GetStreak as of
            // that day is answered from it.
            let writeAsOf: CivilDate? = below(2) == 0 ? asOf : nil
            let writes: [(WireMethod, any WireMessage)] = [
                (.removeCompletion, WireRemoveCompletionRequest(habitId: habit, date: date, asOf: writeAsOf)),
                (.skipHabit, WireSkipHabitRequest(habitId: habit, date: date, asOf: writeAsOf)),
                (.unskipHabit, WireUnskipHabitRequest(habitId: habit, date: date, asOf: writeAsOf)),
                (.recordCompletion, WireRecordCompletionRequest(habitId: habit, date: date, asOf: writeAsOf)),
            ]
            let (method, write) = writes[below(4)]
            let _: WireCompletionResponse = try harness.call(method, write)
            for request in requests {
                var everyHabit = request
                everyHabit.habitIds = habits.map(\.id)
                let patched: WireGetHeatmapResponse = try harness.call(.getHeatmap, request)
                let built: WireGetHeatmapResponse = try harness.call(.getHeatmap, everyHabit)
                #expect(patched == built, "seed \(seed), step \(step)")
                // Not vacuous: the answers have their days, in the form asked for.
                if request.packed {
                    #expect(patched.heatmap == nil && (patched.packed?.days ?? 0) > 200)
                } else {
                    #expect(patched.packed == nil && patched.heatmap?.weeks.isEmpty == false)
                }
            }
            for streakAsOf in [nil, asOf] {
                let shared: WireGetStreakResponse = try harness.call(.getStreak, WireGetStreakRequest(asOf: streakAsOf))
                let walked: WireGetStreakResponse = try harness.call(
                    .getStreak,
                    WireGetStreakRequest(asOf: streakAsOf, habitIds: habits.map(\.id))
                )
                #expect(
                    shared == walked && shared.streak != nil,
                    "seed \(seed), step \(step), as of \(streakAsOf as Any)"
                )
            }
        }
    }

    @Test("writers and readers at once: once they stop, every cached answer equals one built from scratch")
    func concurrentWritesAndReads() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let habits = try (0..<3).map { try harness.createHabit("h\($0)", on: day("2024-01-01")) }
        let asOf = day("2024-12-31")
        let heatmaps = [
            WireGetHeatmapRequest(asOf: asOf), WireGetHeatmapRequest(asOf: asOf, accessibilityLabels: true),
            WireGetHeatmapRequest(asOf: asOf, packed: true),
        ]
        let (port, token) = (harness.server.port, harness.token)
        let failures = Mutex<[String]>([])
        let finished = Atomic<Int>(0)
        let writersDone = Atomic<Int>(0)
        // Three writers of one user, 150 writes each, and three readers that read until they end.
        let threads = (0..<6).map { index in
            Thread {
                defer { finished.add(1, ordering: .relaxed) }
                defer { if index < 3 { writersDone.add(1, ordering: .relaxed) } }
                do {
                    let connection = try TestConnection(port: port)
                    var random = SplitMix64(seed: UInt64(index))
                    var step = 0
                    while index < 3 ? step < 150 : writersDone.load(ordering: .relaxed) < 3 && step < 100_000 {
                        step += 1
                        let method: WireMethod
                        let message: [UInt8]
                        let habit = habits[Int(random.next() % 3)].id
                        let date = try day("2024-01-01").adding(days: Int(random.next() % 320))
                        if index < 3 && random.next() % 4 == 0 {
                            // Days in more columns than a patch takes: the answers are built again
                            // on the slow path while the other writers go on.
                            method = .batchCompletions
                            message = WireBatchCompletionsRequest(
                                record: try (0..<6).map {
                                    WireCompletion(habitId: habit, date: try date.adding(days: 9 * $0))
                                }
                            ).serializedBytes()
                        } else if index < 3 {
                            let remove = random.next() % 3 == 0
                            method = remove ? .removeCompletion : .recordCompletion
                            message =
                                remove
                                ? WireRemoveCompletionRequest(habitId: habit, date: date).serializedBytes()
                                : WireRecordCompletionRequest(habitId: habit, date: date).serializedBytes()
                        } else {
                            method = .getHeatmap
                            message = heatmaps[index % heatmaps.count].serializedBytes()
                        }
                        let id = try connection.sendRequest(method.rawValue, message: message, token: token)
                        let (status, _) = try connection.awaitResponse(id)
                        if status.code != .ok { failures.withLock { $0.append("\(method): \(status)") } }
                    }
                } catch {
                    failures.withLock { $0.append("client \(index): \(error)") }
                }
            }
        }
        for thread in threads { thread.start() }
        let deadline = Date().addingTimeInterval(60)
        while finished.load(ordering: .relaxed) < threads.count && Date() < deadline { usleep(1_000) }
        #expect(finished.load(ordering: .relaxed) == threads.count, "client threads still running")
        #expect(failures.withLock { $0 } == [])
        for request in heatmaps {
            var everyHabit = request
            everyHabit.habitIds = habits.map(\.id)
            let cached: WireGetHeatmapResponse = try harness.call(.getHeatmap, request)
            let built: WireGetHeatmapResponse = try harness.call(.getHeatmap, everyHabit)
            #expect(cached == built)
        }
    }
}
