import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// Schedules, skips, rest periods, the day start and per-habit views through the real server.
@Suite struct ScheduleAndSkipTests {
    @Test func theWorkedExampleOverTheWire() throws {
        // One daily habit: done 1st, 2nd; skipped 3rd, 4th; done 5th; as of the 6th: current 3, longest 3.
        let harness = try ServerHarness()
        defer { harness.finish() }
        let habit = try harness.createHabit("Walk", on: day("2024-05-01"))
        for date in ["2024-05-01", "2024-05-02", "2024-05-05"] { try harness.record(habit.id, day(date)) }
        for date in ["2024-05-03", "2024-05-04"] {
            let skipped: WireCompletionResponse = try harness.call(
                .skipHabit,
                WireSkipHabitRequest.with {
                    $0.habitId = habit.id
                    $0.date = day(date)
                    $0.asOf = day("2024-05-06")
                }
            )
            #expect(skipped.changed && skipped.day?.rest == true && skipped.day?.due == 0)
            #expect(skipped.day?.skippedHabitIds == [habit.id] && skipped.day?.active == 1)
        }
        let streak: WireGetStreakResponse = try harness.call(
            .getStreak,
            WireGetStreakRequest.with { $0.asOf = day("2024-05-06") }
        )
        #expect(streak.streak?.current == 3 && streak.streak?.currentStart == day("2024-05-01"))
        #expect(streak.streak?.longest == 3 && streak.streak?.longestEnd == day("2024-05-05"))
        let detail: WireGetDayResponse = try harness.call(
            .getDay,
            WireGetDayRequest.with { $0.date = day("2024-05-03") }
        )
        #expect(
            detail.day?.accessibilityLabel == "May 3: rest day" && detail.day?.skippedHabits.map(\.id) == [habit.id]
        )
        // Skipping again changes nothing; recording on a skipped day makes it done.
        let again: WireCompletionResponse = try harness.call(
            .skipHabit,
            WireSkipHabitRequest.with {
                $0.habitId = habit.id
                $0.date = day("2024-05-03")
            }
        )
        #expect(!again.changed)
        let done = try harness.record(habit.id, day("2024-05-03"), asOf: day("2024-05-06"))
        #expect(done.changed && done.day?.skippedHabitIds == [] && done.day?.rest == false)
        #expect(done.streak?.current == 4)
    }

    @Test func schedulesFromADateAndTheirErrors() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let created: WireCreateHabitResponse = try harness.call(
            .createHabit,
            WireCreateHabitRequest.with {
                $0.name = "Gym"
                $0.createdOn = day("2024-01-01")  // a Monday
                $0.schedule = WireWeekdaySet(weekdays: [.monday, .wednesday, .friday])
            }
        )
        let gym = try #require(created.habit)
        #expect(gym.schedule.map(\.weekdays) == [[.monday, .wednesday, .friday]])
        // Tuesday the 2nd is not expected: a rest day, not a miss.
        let tuesday: WireGetDayResponse = try harness.call(
            .getDay,
            WireGetDayRequest.with { $0.date = day("2024-01-02") }
        )
        #expect(tuesday.day?.due == 0 && tuesday.day?.rest == true && tuesday.day?.active == 1)
        let changed: WireSetHabitScheduleResponse = try harness.call(
            .setHabitSchedule,
            WireSetHabitScheduleRequest.with {
                $0.habitId = gym.id
                $0.weekdays = WireWeekdaySet(weekdays: Weekday.allCases)
                $0.effectiveFrom = day("2024-01-08")
            }
        )
        #expect(changed.habit?.schedule.map(\.effectiveFrom) == [day("2024-01-01"), day("2024-01-08")])
        let before: WireGetDayResponse = try harness.call(
            .getDay,
            WireGetDayRequest.with { $0.date = day("2024-01-02") }
        )
        let after: WireGetDayResponse = try harness.call(
            .getDay,
            WireGetDayRequest.with { $0.date = day("2024-01-09") }
        )
        #expect(before.day?.due == 0 && after.day?.due == 1 && after.day?.openHabits.map(\.id) == [gym.id])

        let empty = try harness.status(
            .createHabit,
            WireCreateHabitRequest.with {
                $0.name = "x"
                $0.schedule = WireWeekdaySet()
            }
        )
        #expect(empty.code == .invalidArgument && empty.message.contains("schedule"))
        let missing = try harness.status(.setHabitSchedule, WireSetHabitScheduleRequest.with { $0.habitId = gym.id })
        #expect(missing.code == .invalidArgument && missing.message.contains("weekdays"))
        let unknown = try harness.status(
            .setHabitSchedule,
            WireSetHabitScheduleRequest.with {
                $0.habitId = 999
                $0.weekdays = WireWeekdaySet(weekdays: [.monday])
            }
        )
        #expect(unknown.code == .notFound)
        // An unknown weekday number on the wire (protobuf bytes built by hand: field 2 {field 1: 9}).
        var raw = WireSetHabitScheduleRequest.with { $0.habitId = gym.id }.serializedBytes()
        raw += [0x12, 0x02, 0x08, 0x09]
        let badWeekday = try harness.connection.rawCall(
            WireMethod.setHabitSchedule.rawValue,
            message: raw,
            token: harness.token
        ).status
        #expect(badWeekday.code == .invalidArgument && badWeekday.message.contains("weekday"))
        let list: WireListHabitsResponse = try harness.call(.listHabits, WireListHabitsRequest())
        #expect(list.habits.first?.schedule.count == 2)
    }

    @Test func aScheduleFromALaterDayThanToday() throws {
        // The change is stored and applies from its date; the days up to today are unchanged.
        let harness = try ServerHarness()
        defer { harness.finish() }
        let habit = try harness.createHabit("Read", on: day("2024-01-01"))
        let later = day("2100-01-04")  // a Monday, long after the server's today
        let changed: WireSetHabitScheduleResponse = try harness.call(
            .setHabitSchedule,
            WireSetHabitScheduleRequest.with {
                $0.habitId = habit.id
                $0.weekdays = WireWeekdaySet(weekdays: [.monday])
                $0.effectiveFrom = later
            }
        )
        #expect(changed.habit?.schedule.map(\.effectiveFrom) == [later])  // daily before it
        let tuesday: WireGetDayResponse = try harness.call(
            .getDay,
            WireGetDayRequest.with { $0.date = day("2100-01-05") }
        )
        #expect(tuesday.day?.due == 0 && tuesday.day?.rest == true)
        let earlier: WireGetDayResponse = try harness.call(
            .getDay,
            WireGetDayRequest.with { $0.date = day("2024-01-02") }
        )
        #expect(earlier.day?.due == 1)
        let _: WirePingResponse = try harness.call(.ping, WirePingRequest())
    }

    @Test func skipErrorsWriteNothing() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let habit = try harness.createHabit("Read", on: day("2024-02-01"))
        let early = try harness.status(
            .skipHabit,
            WireSkipHabitRequest.with {
                $0.habitId = habit.id
                $0.date = day("2024-01-31")
            }
        )
        #expect(early.code == .invalidArgument && early.message.contains("not active"))
        let unknown = try harness.status(.skipHabit, WireSkipHabitRequest.with { $0.habitId = 42 })
        #expect(unknown.code == .notFound)
        let detail: WireGetDayResponse = try harness.call(
            .getDay,
            WireGetDayRequest.with { $0.date = day("2024-02-01") }
        )
        #expect(detail.day?.skippedHabits.isEmpty == true && detail.day?.due == 1)
    }
}
