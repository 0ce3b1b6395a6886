import StreakCore
import Testing

@Suite("Month pages")
struct MonthPageTests {
    @Test(
        "month pages: 42 days, leading days by week start, year wrap",
        arguments: [
            // month, locale, leading days, first day shown, previous, next
            (2024, 2, "en_US", 4, "2024-01-28", "2024-01", "2024-03"),
            (2024, 4, "en_GB", 0, "2024-04-01", "2024-03", "2024-05"),
            (2024, 12, "de_DE", 6, "2024-11-25", "2024-11", "2025-01"),
            (2025, 1, "en_US", 3, "2024-12-29", "2024-12", "2025-02"),
            (2024, 9, "ar_EG", 1, "2024-08-31", "2024-08", "2024-10"),
        ]
    )
    func monthPage(
        year: Int,
        month: Int,
        locale: String,
        leading: Int,
        firstShown: String,
        previous: String,
        next: String
    ) throws {
        let profile = try LocaleProfile.named(locale)
        let options = MonthPageOptions(
            weekStart: profile.firstWeekday,
            locale: profile,
            today: day("2024-02-14"),
            selected: day("2024-02-29"),
            highlighted: [day("2024-02-01")]
        )
        let page = try MonthPageBuilder.build(try YearMonth(year: year, month: month), options: options)
        #expect(page.days.count == 42)
        #expect(page.days.prefix(leading).allSatisfy { !$0.inMonth })
        #expect(page.days[leading].inMonth && page.days[leading].day == 1)
        #expect(page.days[0].date == day(firstShown))
        #expect(page.days.filter(\.inMonth).count == CivilDate.daysInMonth(year: year, month: month))
        #expect(page.previous?.description == previous)
        #expect(page.next?.description == next)
        #expect(page.weekdaySymbols.count == 7)
        if year == 2024 && month == 2 {
            #expect(page.days.filter(\.isToday).map(\.day) == [14])
            #expect(page.days.filter(\.isSelected).map(\.day) == [29])
            #expect(page.days.filter(\.isHighlighted).map(\.day) == [1])
            #expect(page.title == "February 2024")
        }
    }

    @Test("months outside 0001-01...9999-12 are refused", arguments: [(2024, 13), (2024, 0), (0, 5), (10000, 1)])
    func badMonth(year: Int, month: Int) {
        #expect(throws: CoreError.self) { try YearMonth(year: year, month: month) }
    }

    @Test(
        "pages that would reach outside 0001-01-01...9999-12-31 are refused, not clamped",
        arguments: [
            (9999, 12, Weekday.monday), (9999, 12, .sunday), (9999, 12, .saturday), (1, 1, .sunday), (1, 1, .saturday),
            (1, 1, .tuesday),
        ]
    )
    func edgeRefused(year: Int, month: Int, weekStart: Weekday) throws {
        let error = #expect(throws: CoreError.self) {
            try MonthPageBuilder.build(
                YearMonth(year: year, month: month),
                options: MonthPageOptions(weekStart: weekStart)
            )
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains(year == 1 ? "before 0001-01-01" : "after 9999-12-31") == true)
    }

    @Test(
        "the first and last pages that fit are whole: 42 distinct consecutive days",
        arguments: [
            // 0001-01-01 is a Monday; 9999-11 starts on a Monday and ends early enough for any week start.
            (1, 1, Weekday.monday, "0001-01-01"), (1, 2, .sunday, "0001-01-28"), (9999, 11, .sunday, "9999-10-31"),
            (9999, 11, .monday, "9999-11-01"),
        ]
    )
    func edgeAccepted(year: Int, month: Int, weekStart: Weekday, firstShown: String) throws {
        let page = try MonthPageBuilder.build(
            YearMonth(year: year, month: month),
            options: MonthPageOptions(weekStart: weekStart)
        )
        #expect(page.days.first?.date == day(firstShown))
        #expect(page.days.map(\.date.dayNumber) == Array(day(firstShown).dayNumber..<(day(firstShown).dayNumber + 42)))
        #expect(page.days.filter(\.inMonth).count == CivilDate.daysInMonth(year: year, month: month))
    }
}
