import StreakCLI
import StreakCore
import StreakWire
import Testing

/// The line `done`, `undo`, `skip`, `unskip` and `watch` print counts a day as `day` does: done
/// of due, and `rest day` when every habit was excused.
@Suite("the day line of a completion change")
struct DayRecordLineTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var record: WireDayRecord
        var line: String
    }

    static let date = try! CivilDate(parsing: "2025-06-15")

    static let cases = [
        Case(
            testDescription: "one of two active, one due",
            record: WireDayRecord(date: date, completed: 1, active: 2, percent: 100, level: 3, due: 1),
            line: "2025-06-15  █ 1 of 1 habit (100%)  streak 2 days\n"
        ),
        Case(
            testDescription: "one of three due",
            record: WireDayRecord(date: date, completed: 1, active: 3, percent: 33, level: 1, due: 3),
            line: "2025-06-15  ░ 1 of 3 habits (33%)  streak 2 days\n"
        ),
        Case(
            testDescription: "a rest day after a skip",
            record: WireDayRecord(date: date, completed: 0, active: 2, percent: 0, level: 0, due: 0, rest: true),
            line: "2025-06-15  - rest day  streak 2 days\n"
        ),
        Case(
            testDescription: "a server without due",
            record: WireDayRecord(date: date, completed: 1, active: 2, percent: 50, level: 2),
            line: "2025-06-15  ▒ 1 of 2 habits (50%)  streak 2 days\n"
        ),
    ]

    @Test(arguments: cases)
    func countsDoneOfDueAsDayDoes(_ test: Case) {
        let line = DayRecordRenderer.render(day: test.record, streak: WireStreakSummary(current: 2), style: .plain)
        #expect(line == test.line)
    }
}

/// What `streak today` says on a day no habit is active.
@Suite("today without an active habit")
struct TodayNoHabitsTests {
    static func date(_ text: String) -> CivilDate { try! CivilDate(parsing: text) }

    @Test(
        arguments: [
            ([], "  no habits yet; add one with: streak habit add NAME"),
            (
                [WireHabit(id: 1, name: "Read", createdOn: date("2025-03-01"))],
                "  none of your habits had started by 2025-01-01 (the first starts on 2025-03-01)"
            ),
            (
                [WireHabit(id: 1, name: "Read", createdOn: date("2024-03-01"), archivedOn: date("2024-06-01"))],
                "  none of your habits is active on 2025-01-01 (they were archived before it or start after it)"
            ),
        ] as [([WireHabit], String)]
    )
    func saysWhyNoHabitIsListed(habits: [WireHabit], line: String) {
        let view = TodayView(
            date: Self.date("2025-01-01"),
            lines: [],
            day: WireDayDetail(date: Self.date("2025-01-01")),
            streak: WireStreakSummary(),
            allHabits: habits
        )
        let text = TodayRenderer.render(view, style: .plain)
        #expect(text.split(separator: "\n")[1] == line[...], "\(text)")
    }

    @Test("long names are cut with … to fit the width given, and never without one")
    func longNamesFitTheWidth() {
        let long = WireHabit(
            id: 1,
            name: "Drink water 💧 every single morning before coffee",
            createdOn: Self.date("2025-01-01")
        )
        let short = WireHabit(id: 2, name: "Read", createdOn: Self.date("2025-01-01"))
        let view = TodayView(
            date: Self.date("2025-01-02"),
            lines: [
                TodayView.Line(habit: long, state: .open, streak: WireStreakSummary(current: 12)),
                TodayView.Line(habit: short, state: .done, streak: WireStreakSummary(current: 3)),
            ],
            day: WireDayDetail(date: Self.date("2025-01-02"), completed: 1, active: 2, percent: 50, due: 2),
            streak: WireStreakSummary(current: 3),
            allHabits: [long, short]
        )
        for width in [40, 30, 60] {
            let rows = TodayRenderer.render(view, style: .plain, width: width).split(separator: "\n").dropFirst()
            #expect(rows.prefix(2).allSatisfy { DisplayWidth.of($0) <= width }, "\(width): \(rows)")
            #expect(rows.first?.contains("…") == true && rows.first?.hasSuffix("12 days") == true, "\(rows)")
        }
        let whole = TodayRenderer.render(view, style: .plain)
        #expect(whole.contains(long.name) && !whole.contains("…"))
        let list = HabitListRenderer.render([long, short], today: .min, style: .plain, width: 40)
        #expect(list.split(separator: "\n").allSatisfy { DisplayWidth.of($0) <= 40 }, "\(list)")
        #expect(list.contains("…") && list.contains("  Read  "), "\(list)")
        #expect(HabitListRenderer.render([long, short], today: .min, style: .plain).contains(long.name))
        #expect(DisplayWidth.truncated("読書読書", to: 6) == "読書…" && DisplayWidth.truncated("Read", to: 4) == "Read")
    }
}
