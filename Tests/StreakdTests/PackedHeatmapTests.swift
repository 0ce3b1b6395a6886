import Foundation
import StreakClient
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// The packed heatmap against a real streakd: on random histories (schedules, skips, rest periods,
/// archived habits) and random ranges, "today"s, week starts and habit subsets, the packed answer
/// unpacks to exactly the classic one, for GetHeatmap and BuildHeatmap; the compact BuildHeatmap
/// input gives the same answers as the classic one, and its bad forms are refused.
@Suite struct PackedHeatmapTests {
    /// Writes a random history through the server and returns what was written, for BuildHeatmap.
    private static func randomHistory(
        _ harness: ServerHarness,
        _ random: inout SplitMix64
    ) throws -> (habits: [WireHabit], completions: [WireCompletion], skips: [WireSkip], periods: [WireRestPeriod]) {
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let start = day("2023-06-01")
        var habits: [WireHabit] = []
        for index in 0..<(1 + below(4)) {
            let created: WireCreateHabitResponse = try harness.call(
                .createHabit,
                WireCreateHabitRequest.with {
                    $0.name = "h\(index)"
                    $0.createdOn = try? start.adding(days: below(200))
                    if below(2) == 0 {
                        $0.schedule = WireWeekdaySet(
                            weekdays: Weekday.allCases.filter { _ in below(2) == 0 } + [.friday]
                        )
                    }
                }
            )
            habits.append(try #require(created.habit))
        }
        var completions: [WireCompletion] = []
        var skips: [WireSkip] = []
        var batch = WireBatchCompletionsRequest()
        for offset in 0..<420 {
            let date = try start.adding(days: offset)
            for habit in habits where habit.createdOn.map({ $0 <= date }) ?? false {
                switch below(7) {
                case 0, 1, 2, 3:
                    batch.record.append(WireCompletion(habitId: habit.id, date: date))
                    completions.append(WireCompletion(habitId: habit.id, date: date))
                case 4 where below(3) == 0:
                    skips.append(WireSkip(habitId: habit.id, date: date))
                default: break
                }
            }
        }
        let _: WireBatchCompletionsResponse = try harness.call(.batchCompletions, batch)
        for skip in skips {
            let _: WireCompletionResponse = try harness.call(
                .skipHabit,
                WireSkipHabitRequest.with {
                    $0.habitId = skip.habitId
                    $0.date = skip.date
                }
            )
        }
        if habits.count > 1 && below(2) == 0 {
            let archived: WireArchiveHabitResponse = try harness.call(
                .archiveHabit,
                WireArchiveHabitRequest(habitId: habits[0].id, archivedOn: try start.adding(days: 300 + below(100)))
            )
            habits[0] = try #require(archived.habit)
            // BuildHeatmap refuses a skip on a day its habit is not active.
            let end = try #require(habits[0].archivedOn)
            skips.removeAll { $0.habitId == habits[0].id && $0.date.map { $0 >= end } ?? false }
        }
        var periods: [WireRestPeriod] = []
        for _ in 0..<(1 + below(3)) {
            let from = try start.adding(days: below(400))
            let added: WireAddRestPeriodResponse = try harness.call(
                .addRestPeriod,
                WireAddRestPeriodRequest.with {
                    $0.from = from
                    $0.to = try? from.adding(days: below(15))
                }
            )
            periods.append(try #require(added.restPeriod))
        }
        return (habits, completions, skips, periods)
    }

    @Test(arguments: [UInt64(21), 22, 23, 24])
    func packedGetHeatmapUnpacksToTheClassicAnswer(seed: UInt64) throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        var random = SplitMix64(seed: seed)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let history = try Self.randomHistory(harness, &random)
        let start = day("2023-06-01")
        for _ in 0..<30 {
            var request = WireGetHeatmapRequest()
            let from = try start.adding(days: below(420) - 20)
            request.from = below(6) == 0 ? nil : from
            request.to = below(6) == 0 ? nil : try from.adding(days: below(400))
            request.asOf = try from.adding(days: below(450) - 20)
            switch below(4) {
            case 0: request.weekStart = nil
            case 1: request.weekStart = WireWeekStart(kind: .locale(["en_US", "de_DE", "ar_EG"][below(3)]))
            default: request.weekStart = WireWeekStart(kind: .weekday(Weekday.allCases[below(7)]))
            }
            request.locale = ["", "fr_FR", "en_GB"][below(3)]
            request.accessibilityLabels = below(2) == 0
            if below(3) == 0 { request.habitIds = history.habits.filter { _ in below(2) == 0 }.map(\.id) }
            let classicStatus = try harness.status(.getHeatmap, request)
            request.packed = true
            request.packedMonthLabels = true
            guard classicStatus.code == .ok else {
                // A range the server refuses is refused the same way when packed.
                #expect(try harness.status(.getHeatmap, request) == classicStatus)
                continue
            }
            request.packed = false
            let classic: WireGetHeatmapResponse = try harness.call(.getHeatmap, request)
            request.packed = true
            let packed: WireGetHeatmapResponse = try harness.call(.getHeatmap, request)
            #expect(packed.heatmap == nil)
            let unpacked = try #require(packed.packed).unpacked(accessibilityLabels: request.accessibilityLabels)
            #expect(unpacked == classic.heatmap, "\(request)")
            // Without month labels only the labels go.
            request.packedMonthLabels = false
            let bare: WireGetHeatmapResponse = try harness.call(.getHeatmap, request)
            var withoutLabels = try #require(classic.heatmap)
            withoutLabels.monthLabels = []
            #expect(
                try #require(bare.packed).unpacked(accessibilityLabels: request.accessibilityLabels) == withoutLabels
            )
        }
    }

    @Test(.ownThreads) func theSwiftClientUnpacksForTheCaller() async throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        var random = SplitMix64(seed: 5)
        _ = try Self.randomHistory(harness, &random)
        let client = StreakClient(
            configuration: ClientConfiguration(
                server: ServerAddress(host: "127.0.0.1", port: harness.server.port),
                token: harness.token
            )
        )
        defer { client.close() }
        var request = WireGetHeatmapRequest(from: day("2023-07-01"), asOf: day("2024-06-30"), accessibilityLabels: true)
        let classic = try await client.heatmap(request)
        request.packed = true
        request.packedMonthLabels = true
        #expect(try await client.heatmap(request) == classic)
        let packed = try await client.packedHeatmap(WireGetHeatmapRequest(asOf: day("2024-06-30")))
        #expect(packed.days == 366)  // 2023-07-01 ... 2024-06-30
        // Random skips and rest periods cost a few bytes each (section 9.7), so no fixed bound here.
        let classicBytes = WireGetHeatmapResponse(
            heatmap: try await client.heatmap(WireGetHeatmapRequest(asOf: day("2024-06-30")))
        )
        let packedBytes = WireGetHeatmapResponse(packed: packed).serializedBytes().count
        #expect(packedBytes * 8 < classicBytes.serializedBytes().count, "\(packedBytes) bytes packed")
    }

    @Test(arguments: [UInt64(31), 32, 33])
    func packedBuildHeatmapWithCompactInputEqualsTheClassicAnswer(seed: UInt64) throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        var random = SplitMix64(seed: seed)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let history = try Self.randomHistory(harness, &random)
        for _ in 0..<10 {
            var classic = WireBuildHeatmapRequest()
            classic.habits = history.habits
            classic.completions = history.completions
            classic.skips = history.skips
            classic.restPeriods = history.periods
            let from = try day("2023-06-01").adding(days: below(400))
            classic.from = from
            classic.to = try from.adding(days: below(380))
            classic.asOf = try from.adding(days: below(400))
            classic.weekStart = WireWeekStart(kind: .weekday(Weekday.allCases[below(7)]))
            classic.minPercent = [0, 50, 100][below(3)]
            classic.accessibilityLabels = below(2) == 0
            let expected: WireBuildHeatmapResponse = try harness.call(.buildHeatmap, classic)

            // The same completions as days per habit, some left in `completions`: both count.
            var compact = classic
            let split = below(history.completions.count + 1)
            compact.completions = Array(history.completions[..<split])
            let byHabit = Dictionary(grouping: history.completions[split...], by: \.habitId)
            compact.completionDays = byHabit.keys.sorted().map { id in
                WireHabitDays(habitId: id, days: byHabit[id]!.compactMap(\.date))
            }
            compact.packed = true
            compact.packedMonthLabels = true
            let packed: WireBuildHeatmapResponse = try harness.call(.buildHeatmap, compact)
            #expect(packed.heatmap == nil)
            #expect(packed.streak == expected.streak)
            #expect(
                try #require(packed.packed).unpacked(accessibilityLabels: classic.accessibilityLabels)
                    == expected.heatmap
            )
            compact.packed = false
            let unpackedAnswer: WireBuildHeatmapResponse = try harness.call(.buildHeatmap, compact)
            #expect(unpackedAnswer == expected)
        }
    }

    @Test func badCompactInputIsRefusedNamingTheHabitAndByte() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        var request = WireBuildHeatmapRequest()
        request.asOf = day("2024-03-31")
        request.habits = [WireHabit(id: 1, name: "Read", createdOn: day("2024-01-01"))]
        let good = WireHabitDays(habitId: 1, days: [day("2024-03-01"), day("2024-03-02")])
        let cases: [([UInt8], String)] = [
            (
                good.dayDeltas + [0x00],
                "completion_days[1] (habit 1): day_deltas: a gap of 0 at byte 4 (days must ascend)"
            ),
            (
                good.dayDeltas + [0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
                "completion_days[1] (habit 1): day_deltas: overlong varint at byte 4"
            ),
            (good.dayDeltas + [0x81], "completion_days[1] (habit 1): day_deltas: truncated varint at byte 4"),
        ]
        for (deltas, message) in cases {
            request.completionDays = [good, WireHabitDays(habitId: 1, dayDeltas: deltas)]
            let status = try harness.status(.buildHeatmap, request)
            #expect(status.code == .invalidArgument)
            #expect(status.message == message)
        }
        // The server still answers on the same connection.
        request.completionDays = [good]
        let answer: WireBuildHeatmapResponse = try harness.call(.buildHeatmap, request)
        #expect(answer.streak?.longest == 2)
    }

    /// 1,300,000 completions in one BuildHeatmap request: ten times what the classic form fits in
    /// the request decoder's 16 MiB budget. 100 habits, every day from 1990-01-01 for 13,000 days.
    @Test func oneMillionThreeHundredThousandCompactCompletionsInOneRequest() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let first = day("1990-01-01")
        let last = try first.adding(days: 12_999)
        var request = WireBuildHeatmapRequest()
        request.asOf = last
        request.packed = true
        request.habits = (1...100).map { WireHabit(id: Int64($0), name: "h\($0)", createdOn: first) }
        request.completionDays = (1...100).map {
            WireHabitDays(habitId: Int64($0), dayNumbers: first.dayNumber...last.dayNumber)
        }
        let started = ContinuousClock.now
        let answer: WireBuildHeatmapResponse = try harness.call(.buildHeatmap, request)
        let elapsed = ContinuousClock.now - started
        #expect(answer.streak?.current == 13_000)
        #expect(answer.streak?.longest == 13_000)
        let packed = try #require(answer.packed)
        let cells = try packed.unpacked().weeks.flatMap(\.cells).filter(\.present)
        #expect(cells.count == Int(packed.days) && cells.allSatisfy { $0.completed == 100 && $0.level == 3 })
        print("BuildHeatmap with 1,300,000 compact completions (\(request.serializedBytes().count) bytes): \(elapsed)")
    }
}
