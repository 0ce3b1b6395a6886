import StreakCore
import Testing

@Suite("Schedules: effective-dated weekday sets")
struct ScheduleTests {
    @Test(
        "a weekday set needs at least one weekday, each 1 (Sunday)...7 (Saturday)",
        arguments: [
            ([], "a schedule needs at least one weekday"), ([0], "weekday 0 is outside 1 (Sunday)...7 (Saturday)"),
            ([2, 8], "weekday 8 is outside 1 (Sunday)...7 (Saturday)"), ([2, 4, 6], nil), ([1, 1], nil),
        ] as [([Int], String?)]
    )
    func weekdaySet(numbers: [Int], error: String?) {
        guard let error else {
            #expect((try? WeekdaySet(numbers: numbers))?.weekdays.map(\.rawValue) == Array(Set(numbers)).sorted())
            return
        }
        let thrown = #expect(throws: CoreError.self) { try WeekdaySet(numbers: numbers) }
        #expect(thrown?.code == .invalidArgument && thrown?.message == error)
    }

    /// Monday, Wednesday, Friday from 2024-03-04 (a Monday), Tuesday only from 2024-03-11.
    static let schedule = HabitSchedule([
        ScheduleEntry(effectiveFrom: day("2024-03-11"), weekdays: try! WeekdaySet([.tuesday])),
        ScheduleEntry(effectiveFrom: day("2024-03-04"), weekdays: try! WeekdaySet([.monday, .wednesday, .friday])),
    ])

    @Test(
        "the entry with the latest effective-from on or before the day applies; before the first, every day",
        arguments: [
            ("2024-03-01", true), ("2024-03-02", true), ("2024-03-03", true),  // before any entry
            ("2024-03-04", true), ("2024-03-05", false), ("2024-03-06", true), ("2024-03-09", false),
            ("2024-03-10", false), ("2024-03-11", false), ("2024-03-12", true), ("2024-03-15", false),
        ]
    )
    func effectiveDated(date: String, scheduled: Bool) {
        #expect(Self.schedule.isScheduled(on: day(date)) == scheduled)
        #expect(Self.schedule.entries.map(\.effectiveFrom) == [day("2024-03-04"), day("2024-03-11")])
    }

    @Test("a change on the same date replaces the entry; one on a later date never rewrites the days before")
    func changes() throws {
        var schedule = Self.schedule
        schedule.set(.everyDay, from: day("2024-03-11"))
        #expect(schedule.entries.count == 2 && schedule.isScheduled(on: day("2024-03-15")))
        #expect(!schedule.isScheduled(on: day("2024-03-05")))
        schedule.set(try WeekdaySet([.sunday]), from: day("2024-03-20"))
        #expect(schedule.isScheduled(on: day("2024-03-19")) && !schedule.isScheduled(on: day("2024-03-21")))
        #expect(HabitSchedule.everyDay.isEveryDay && !schedule.isEveryDay)
        var data = index(habits: [habit(1)], completions: [])
        try data.setSchedule(habitID: 1, weekdays: try WeekdaySet([.monday]), from: day("2024-03-05"))
        #expect(data.habit(id: 1)?.isScheduled(on: day("2024-03-05")) == false)
        #expect(data.habit(id: 1)?.isScheduled(on: day("2024-03-04")) == true)
        let error = #expect(throws: CoreError.self) {
            try data.setSchedule(habitID: 9, weekdays: .everyDay, from: day("2024-03-05"))
        }
        #expect(error?.code == .notFound && error?.rpcStatusCode == .notFound)
    }
}
