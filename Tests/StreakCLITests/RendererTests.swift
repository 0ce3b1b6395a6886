import StreakCLI
import StreakCore
import StreakWire
import Testing

@Suite("Renderers (no server)")
struct RendererTests {
    @Test func heatmapPlainShowsLabelsWeekdaysLevelsAndLegend() {
        let heatmap = Fixtures.heatmap(from: "2024-01-03", to: "2024-02-20") { Int32($0.day % 4) }
        let text = HeatmapRenderer.render(heatmap, style: .plain)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "  Jan       Feb")
        #expect(lines[1] == "M   · █ ▒ ░ ░ · █")
        #expect(lines[2] == "    ░ · █ ▒ ▒ ░ ·")
        #expect(lines[3].hasPrefix("W █ "))
        #expect(lines[5].hasPrefix("F "))
        #expect(lines[7].hasPrefix("  "))
        #expect(lines[9] == "  Less · ░ ▒ █ More")
        #expect(!text.contains("\u{1B}"))
    }

    @Test func heatmapColorUsesGreensAndNoPlainGlyphs() {
        let heatmap = Fixtures.heatmap(from: "2024-01-01", to: "2024-01-31") { _ in 3 }
        let text = HeatmapRenderer.render(heatmap, style: .color)
        #expect(text.contains("\u{1B}[38;5;40m■\u{1B}[0m"))
        #expect(!text.contains("█"))
    }

    @Test func overlappingMonthLabelsAreDropped() {
        var heatmap = Fixtures.heatmap(from: "2024-01-01", to: "2024-03-31") { _ in 0 }
        heatmap.monthLabels = [WireMonthLabel(label: "Jan", weekIndex: 0), WireMonthLabel(label: "Feb", weekIndex: 1)]
        #expect(HeatmapRenderer.labelLine(heatmap) == "  Jan")
    }

    @Test(arguments: [
        (Int32(42), "42 days"), (1, "1 day"), (0, "0 days"),
    ])
    func streakCounter(current: Int32, expected: String) {
        let streak = WireStreakSummary(
            asOf: Fixtures.date("2024-05-01"),
            current: current,
            currentStart: current > 0 ? Fixtures.date("2024-03-20") : nil,
            longest: 67,
            longestStart: Fixtures.date("2024-01-03"),
            longestEnd: Fixtures.date("2024-03-09")
        )
        let lines = StreakRenderer.render(streak, style: .plain).split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix(expected) == true)
        #expect(lines.last == "longest 67 days (2024-01-03 – 2024-03-09)")
    }

    @Test func weekdayChartKeepsLocaleOrderAndScalesBars() {
        let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let counts = [0, 10, 5, 1, 0, 0, 2]
        let series = WireWeekdaySeries(
            habitId: 0,
            name: "Total",
            total: true,
            counts: (0..<7).map {
                WireWeekdayCount(weekday: Weekday(rawValue: $0 + 1), shortName: names[$0], count: Int32(counts[$0]))
            }
        )
        let text = WeekdayChartRenderer.render(WireWeekdayChart(series: [series]), width: 10, style: .plain)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "Total", "  Sun 0", "  Mon ██████████ 10", "  Tue █████ 5", "  Wed █ 1", "  Thu 0", "  Fri 0",
                "  Sat ██ 2",
            ]
        )
    }

    @Test func monthPageLooksLikeCalWithMarks() {
        let text = MonthPageRenderer.render(Fixtures.february2024, style: .plain)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "       February 2024")
        #expect(lines[1] == "Mo  Tu  We  Th  Fr  Sa  Su")
        #expect(lines[2] == "             1   2   3   4")
        #expect(lines[4] == "12* 13* 14+ 15  16  17  18")
        #expect(lines[6] == "26  27  28  29")
        #expect(!text.contains("\u{1B}"))
    }

    @Test func monthPageColorUsesReverseVideo() {
        let text = MonthPageRenderer.render(Fixtures.february2024, style: .color)
        #expect(text.contains("\u{1B}[7m12\u{1B}[0m"))
        #expect(!text.contains("*"))
    }

    @Test(arguments: [
        (TerminalStyle.ColorChoice.auto, true, [String: String](), true),
        (.auto, false, [:], false),
        (.auto, true, ["NO_COLOR": "1"], false),
        (.auto, true, ["NO_COLOR": ""], true),
        (.auto, true, ["TERM": "dumb"], false),
        (.always, false, [:], true),
        (.always, true, ["NO_COLOR": "yes"], false),
        (.never, true, [:], false),
    ])
    func colorDecision(
        choice: TerminalStyle.ColorChoice,
        isTerminal: Bool,
        environment: [String: String],
        expected: Bool
    ) {
        #expect(TerminalStyle.resolve(choice, isTerminal: isTerminal, environment: environment).usesColor == expected)
    }

    @Test func habitTableAndEmptyHint() {
        let habits = [
            WireHabit(id: 1, name: "Read", createdOn: Fixtures.date("2024-01-01")),
            WireHabit(
                id: 12,
                name: "Morning run",
                createdOn: Fixtures.date("2024-02-01"),
                archivedOn: Fixtures.date("2024-03-01")
            ),
        ]
        #expect(
            HabitListRenderer.render(habits, today: .min, style: .plain) == """
                ID  NAME         CREATED     ARCHIVED
                 1  Read         2024-01-01
                12  Morning run  2024-02-01  2024-03-01

                """
        )
        #expect(HabitListRenderer.render([], today: .min, style: .plain).contains("streak habit add"))
    }

    @Test("a habit's schedule: the entry in effect on the day given, then the next change")
    func scheduleInEffect() {
        let habit = WireHabit(
            id: 3,
            name: "Gym",
            createdOn: Fixtures.date("2024-01-01"),
            schedule: [
                WireScheduleEntry(effectiveFrom: Fixtures.date("2024-02-01"), weekdays: [.monday, .friday]),
                WireScheduleEntry(effectiveFrom: Fixtures.date("2024-03-01"), weekdays: Weekday.allCases),
                WireScheduleEntry(effectiveFrom: Fixtures.date("2024-04-01"), weekdays: [.saturday]),
            ]
        )
        let cases: [(String, String)] = [
            ("2024-01-15", "daily, then mon,fri from 2024-02-01"),
            ("2024-02-01", "mon,fri since 2024-02-01, then daily from 2024-03-01"),
            ("2024-03-31", "daily since 2024-03-01, then sat from 2024-04-01"),
            ("2024-04-01", "sat since 2024-04-01"),
        ]
        for (day, expected) in cases {
            #expect(HabitListRenderer.schedule(habit, on: Fixtures.date(day)) == expected, "\(day)")
        }
        #expect(HabitListRenderer.schedule(WireHabit(id: 1, name: "Read"), on: .min) == "daily")
    }

    @Test func dayDetailAndDayRecord() {
        let day = WireDayDetail(
            date: Fixtures.date("2024-03-05"),
            completedHabits: [WireHabit(id: 2, name: "Read")],
            completed: 1,
            active: 2,
            percent: 50,
            level: 2,
            contributing: true
        )
        #expect(DayRenderer.render(day, style: .plain).hasPrefix("2024-03-05  1 of 2 habits (50%)\n"))
        let record = WireDayRecord(date: Fixtures.date("2024-03-05"), completed: 1, active: 2, percent: 50, level: 2)
        let line = DayRecordRenderer.render(
            day: record,
            streak: WireStreakSummary(current: 3),
            changed: false,
            style: .plain
        )
        #expect(line == "2024-03-05  ▒ 1 of 2 habits (50%)  streak 3 days  (unchanged)\n")
    }
}

@Suite("Width-aware renderers")
struct WidthAwareRendererTests {
    @Test func habitListPadsByDisplayWidth() {
        let habits = [
            WireHabit(id: 1, name: "Read", createdOn: try! CivilDate(parsing: "2024-01-01")),
            WireHabit(id: 2, name: "🏃 Run", createdOn: try! CivilDate(parsing: "2024-01-01")),
            WireHabit(id: 3, name: "読書", createdOn: try! CivilDate(parsing: "2024-01-01")),
            WireHabit(id: 4, name: "Cafe\u{301}", createdOn: try! CivilDate(parsing: "2024-01-01")),
        ]
        let lines = HabitListRenderer.render(habits, today: .min, style: .plain).split(separator: "\n").map(String.init)
        // Every CREATED column starts at the same terminal column.
        let columns = lines.dropFirst().map { line in DisplayWidth.of(line.components(separatedBy: "2024")[0]) }
        #expect(Set(columns).count == 1, "\(lines)")
    }

    @Test func chineseWeekdayHeadersLineUpOverTheirDays() {
        let page = Fixtures.plainMonthPage(
            year: 2026,
            month: 10,
            title: "2026年10月",
            weekdaySymbols: ["周一", "周二", "周三", "周四", "周五", "周六", "周日"]
        )
        let lines = MonthPageRenderer.render(page, style: .plain).split(separator: "\n").map(String.init)
        #expect(lines[1] == "一  二  三  四  五  六  日")
        // Six cells of three columns and a space, then the last symbol's two columns.
        #expect(DisplayWidth.of(lines[1]) == 6 * 4 + 2)
        #expect(lines[0].trimmingCharacters(in: .whitespaces) == "2026年10月")
        #expect(DisplayWidth.of(lines[0]) <= 27)
    }
}

/// The text heatmap at a given width: the most recent weeks, labels moved with them.
@Suite("Text heatmap width")
struct HeatmapWidthTests {
    static let year = Fixtures.heatmap(from: "2024-07-01", to: "2025-06-15") { Int32($0.day % 4) }

    static func displayWidth(_ line: Substring) -> Int {
        // Escape sequences take no columns; every other character here takes one.
        var width = 0
        var inEscape = false
        for character in line {
            if character == "\u{1B}" {
                inEscape = true
            } else if inEscape {
                if character.isLetter { inEscape = false }
            } else {
                width += 1
            }
        }
        return width
    }

    @Test(arguments: [4, 11, 12, 18, 19, 20, 40, 41, 80, 120, 200])
    func noLineIsWiderThanTheTerminal(width: Int) {
        for style in [TerminalStyle.plain, .color] {
            let text = HeatmapRenderer.render(Self.year, style: style, theme: .light, width: width)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.allSatisfy { Self.displayWidth($0) <= width }, "\(width): \(lines.map(Self.displayWidth))")
            let weeks = min(Self.year.weeks.count, HeatmapRenderer.weeksThatFit(width: width))
            // The Monday row holds one glyph per week shown (the first week starts on a Monday).
            #expect(Self.displayWidth(lines[1]) == 2 + 2 * weeks - 1)
        }
    }

    /// (width, legend shown, rest day's key shown): the legend takes 19 columns, the key 12.
    @Test(arguments: [(4, false, false), (11, false, false), (12, false, true), (18, false, true), (19, true, true)])
    func theLegendIsLeftOutWhereItDoesNotFit(width: Int, legend: Bool, restKey: Bool) {
        var year = Self.year
        year.weeks[year.weeks.count - 1].cells[0].rest = true
        let text = HeatmapRenderer.render(year, style: .plain, width: width)
        #expect(text.contains("Less · ░ ▒ █ More") == legend, "\(width): \(text)")
        #expect(text.contains("  - rest day") == restKey, "\(width): \(text)")
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).allSatisfy { $0.count <= width })
    }

    @Test("a kept streak on a day with nothing due is worded so, not as not done")
    func pendingOnADayWithNothingDue() throws {
        var year = Self.year
        let week = year.weeks.count - 1
        let index = try #require(year.weeks[week].cells.lastIndex { $0.present })
        let day = try #require(year.weeks[week].cells[index].date)
        year.weeks[week].cells[index].due = 1
        let streak = WireStreakSummary(asOf: day, current: 4, todayPending: true)
        #expect(!StreakRenderer.nothingDue(on: day, in: year))
        #expect(HeatmapSummary.description(year, streak: streak, palette: .light).contains("(today is not done yet)"))
        year.weeks[week].cells[index].due = 0
        year.weeks[week].cells[index].rest = true
        #expect(StreakRenderer.nothingDue(on: day, in: year))
        #expect(HeatmapSummary.description(year, streak: streak, palette: .light).contains("(nothing is due today)"))
        #expect(
            StreakRenderer.render(streak, style: .plain, nothingDueToday: true)
                .contains("nothing is due today; the streak carries on\n")
        )
        #expect(!StreakRenderer.nothingDue(on: try CivilDate(parsing: "1999-01-01"), in: year), "a day not shown")
    }

    @Test(
        "a month cut at the left edge labels the first column only where the next label leaves room",
        arguments: [nil, "szept."]
    )
    func aCutMonthNeverPushesOutAMonthInView(longLabel: String?) {
        var year = Self.year
        // Six-column labels (Hungarian's September) need four weeks before the next one.
        if let longLabel {
            year.monthLabels = year.monthLabels.map { WireMonthLabel(label: longLabel, weekIndex: $0.weekIndex) }
        }
        for count in 1..<year.weeks.count {
            let trimmed = HeatmapRenderer.trimmed(year, toWeeks: count)
            let dropped = year.weeks.count - count
            let inView = year.monthLabels.filter { Int($0.weekIndex) >= dropped }
            let carried = trimmed.monthLabels.count > inView.count
            let moved = carried ? Array(trimmed.monthLabels.dropFirst()) : trimmed.monthLabels
            // Every label of a month that starts in view stays over its week...
            #expect(moved.map(\.label) == inView.map(\.label), "\(count) weeks")
            #expect(moved.map { Int($0.weekIndex) + dropped } == inView.map { Int($0.weekIndex) }, "\(count) weeks")
            // ...and is drawn: none is left out for a label before it.
            let line = HeatmapRenderer.labelLine(trimmed)
            for label in moved {
                let column = 2 + 2 * Int(label.weekIndex)
                #expect(line.dropFirst(column).hasPrefix(label.label), "\(count) weeks: \(line)")
            }
            // The first column carries its month's label when the next one is 3 weeks or more away
            // and after its text.
            let firstInView = inView.first.map { Int($0.weekIndex) - dropped }
            let width = DisplayWidth.of(year.monthLabels.first?.label ?? "")
            #expect(
                carried == (firstInView.map { $0 >= 3 && 2 * $0 >= width + 1 } ?? true),
                "\(count) weeks: \(trimmed.monthLabels)"
            )
            if carried, longLabel == nil, let first = trimmed.weeks.first?.start {
                #expect(trimmed.monthLabels.first?.label == Fixtures.monthName(first.month), "\(count) weeks")
            }
        }
        // A label of a week before the heatmap (a negative index) is not carried.
        var odd = year
        odd.monthLabels = [WireMonthLabel(label: "Odd", weekIndex: -1)] + year.monthLabels.filter { $0.weekIndex > 0 }
        #expect(!HeatmapRenderer.trimmed(odd, toWeeks: year.weeks.count - 1).monthLabels.contains { $0.label == "Odd" })
    }

    @Test func theMostRecentWeeksAreKeptWithTheirLabels() {
        let trimmed = HeatmapRenderer.trimmed(Self.year, toWeeks: 10)
        #expect(trimmed.weeks.count == 10)
        #expect(trimmed.weeks.last == Self.year.weeks.last)
        #expect(trimmed.from == trimmed.weeks.first?.start)
        let kept = Self.year.monthLabels.filter { Int($0.weekIndex) >= Self.year.weeks.count - 10 }
        #expect(trimmed.monthLabels.suffix(kept.count).map(\.label) == kept.map(\.label))
        #expect(trimmed.monthLabels.allSatisfy { $0.weekIndex >= 0 && $0.weekIndex < 10 })
        #expect(HeatmapRenderer.trimmed(Self.year, toWeeks: 100) == Self.year)
        #expect(HeatmapRenderer.weeksThatFit(width: 80) == 39)
        #expect(HeatmapRenderer.weeksThatFit(width: 3) == 1)
    }

    @Test func withoutAWidthNothingIsCut() {
        let text = HeatmapRenderer.render(Self.year, style: .plain)
        #expect(text == HeatmapRenderer.render(Self.year, style: .plain, theme: .dark, width: 1000))
        #expect(text.split(separator: "\n")[1].count == 2 + 2 * Self.year.weeks.count - 1)
    }

    @Test func coloursFollowTheTheme() {
        let light = HeatmapRenderer.render(Self.year, style: .color, theme: .light)
        #expect(light.contains("\u{1B}[38;5;253m■"))
        #expect(!light.contains("\u{1B}[38;5;238m■"))
        let plainLight = HeatmapRenderer.render(Self.year, style: .plain, theme: .light)
        #expect(plainLight == HeatmapRenderer.render(Self.year, style: .plain, theme: .dark))
    }
}
