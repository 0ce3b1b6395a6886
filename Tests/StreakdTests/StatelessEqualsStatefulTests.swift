import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// A compact client that keeps its own data gets exactly the stateful answers: random histories
/// with schedules, skips and rest periods are written to a real server, then sent to BuildHeatmap.
@Suite struct StatelessEqualsStatefulTests {
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func buildHeatmapEqualsGetHeatmap(seed: UInt64) throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        var random = SplitMix64(seed: seed)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let start = day("2024-01-01")
        let asOf = try start.adding(days: 120)
        var habits: [WireHabit] = []
        for index in 0..<(1 + below(3)) {
            let created: WireCreateHabitResponse = try harness.call(
                .createHabit,
                WireCreateHabitRequest.with {
                    $0.name = "h\(index)"
                    $0.createdOn = try? start.adding(days: below(30))
                    if below(2) == 0 {
                        $0.schedule = WireWeekdaySet(
                            weekdays: Weekday.allCases.filter { _ in below(2) == 0 } + [.monday]
                        )
                    }
                }
            )
            var habit = try #require(created.habit)
            if below(2) == 0 {
                let changed: WireSetHabitScheduleResponse = try harness.call(
                    .setHabitSchedule,
                    WireSetHabitScheduleRequest.with {
                        $0.habitId = habit.id
                        $0.weekdays = WireWeekdaySet(weekdays: [.tuesday, .saturday])
                        $0.effectiveFrom = try? start.adding(days: 40 + below(40))
                    }
                )
                habit = try #require(changed.habit)
            }
            habits.append(habit)
        }
        var completions: [WireCompletion] = []
        var skips: [WireSkip] = []
        for offset in 30...120 {
            let date = try start.adding(days: offset)
            for habit in habits {
                switch below(5) {
                case 0, 1:
                    try harness.record(habit.id, date)
                    completions.append(WireCompletion(habitId: habit.id, date: date))
                case 2:
                    let _: WireCompletionResponse = try harness.call(
                        .skipHabit,
                        WireSkipHabitRequest.with {
                            $0.habitId = habit.id
                            $0.date = date
                        }
                    )
                    skips.append(WireSkip(habitId: habit.id, date: date))
                default: break
                }
            }
        }
        var periods: [WireRestPeriod] = []
        for _ in 0..<below(3) {
            let from = try start.adding(days: 30 + below(80))
            let added: WireAddRestPeriodResponse = try harness.call(
                .addRestPeriod,
                WireAddRestPeriodRequest.with {
                    $0.from = from
                    $0.to = try? from.adding(days: below(10))
                }
            )
            periods.append(try #require(added.restPeriod))
        }
        let stateful: WireGetHeatmapResponse = try harness.call(
            .getHeatmap,
            WireGetHeatmapRequest.with {
                $0.from = start
                $0.asOf = asOf
                $0.accessibilityLabels = true
            }
        )
        let streak: WireGetStreakResponse = try harness.call(.getStreak, WireGetStreakRequest.with { $0.asOf = asOf })
        let built: WireBuildHeatmapResponse = try harness.call(
            .buildHeatmap,
            WireBuildHeatmapRequest.with {
                $0.habits = habits
                $0.completions = completions
                $0.skips = skips
                $0.restPeriods = periods
                $0.from = start
                $0.asOf = asOf
                $0.accessibilityLabels = true
            }
        )
        #expect(built.heatmap == stateful.heatmap)
        #expect(built.streak == streak.streak)
        #expect((stateful.heatmap?.weeks ?? []).flatMap(\.cells).contains { $0.due != $0.active } || skips.isEmpty)
    }
}
