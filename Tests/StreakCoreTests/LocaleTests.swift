import Foundation
import Testing

@testable import StreakCore

@Suite("Locales and the weekday chart")
struct LocaleTests {
    /// What Foundation itself says about a locale, to compare the core's order and names against:
    /// the seeds' `Calendar.shortWeekdaySymbols` (format context, as `DateFormatter`'s "EEE").
    static func foundation(_ identifier: String) -> (first: Int, names: [String]) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = Locale(identifier: identifier)
        return (calendar.firstWeekday, calendar.shortWeekdaySymbols)
    }

    /// What `DateFormatter` writes with `pattern` on the given days of January 2024 (later days
    /// roll over into the following months).
    static func formatted(_ pattern: String, _ identifier: String, days: [Int]) -> [String] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: identifier)
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = pattern
        return days.map { formatter.string(from: calendar.date(from: DateComponents(year: 2024, month: 1, day: $0))!) }
    }

    @Test(
        "weekday order and names as Foundation gives them",
        arguments: [
            ("en_US", Weekday.sunday), ("en_GB", .monday), ("de_DE", .monday), ("ar_EG", .saturday),
        ]
    )
    func weekdayOrder(identifier: String, first: Weekday) throws {
        let profile = try LocaleProfile.named(identifier)
        let reference = Self.foundation(identifier)
        #expect(profile.firstWeekday == first)
        #expect(profile.firstWeekday.rawValue == reference.first)
        let chart = try WeekdayChartBuilder.build(
            index(habits: [], completions: []),
            asOf: day("2024-03-10"),
            locale: profile
        )
        #expect(chart.weekdays.map(\.weekday) == Weekday.ordered(startingAt: first))
        #expect(chart.weekdays.map(\.shortName) == chart.weekdays.map { reference.names[$0.weekday.rawValue - 1] })
    }

    @Test(
        "the constant English tables equal what Foundation gives",
        arguments: [("en_US", "en_US"), ("en-US", "en_US"), ("en_GB", "en_GB"), ("en-GB", "en_GB"), ("en", "en")]
    )
    func englishTables(identifier: String, normalized: String) throws {
        let profile = try LocaleProfile.named(identifier)
        let locale = Locale(identifier: normalized)
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.calendar = calendar
        #expect(profile.identifier == normalized)
        #expect(profile.firstWeekday.rawValue == calendar.firstWeekday)
        #expect(profile.shortWeekdaySymbols == calendar.shortWeekdaySymbols)
        #expect(profile.veryShortWeekdaySymbols == calendar.veryShortWeekdaySymbols)
        #expect(profile.shortMonthSymbols == calendar.shortMonthSymbols)
        #expect(profile.monthSymbols == calendar.standaloneMonthSymbols)
        // In English the standalone forms are the same words.
        #expect(profile.shortWeekdaySymbols == formatter.shortStandaloneWeekdaySymbols)
        #expect(profile.shortMonthSymbols == formatter.shortStandaloneMonthSymbols)
        #expect(profile.shortStandaloneMonthSymbols == calendar.shortStandaloneMonthSymbols)
        #expect(profile.monthSymbols == formatter.monthSymbols)
        #expect(LocaleProfile.english == (try LocaleProfile.named("en_US")))
    }

    @Test(
        "names are the format-context symbols, as DateFormatter's \"EEE\" and \"MMM\" write them",
        arguments: [
            (
                "de_DE", ["So.", "Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa."],
                ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."]
            ),
            (
                "ar_EG", ["أحد", "اثنين", "ثلاثاء", "أربعاء", "خميس", "جمعة", "سبت"],
                [
                    "يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر",
                    "ديسمبر",
                ]
            ),
            ("en_US", ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"], LocaleProfile.english.shortMonthSymbols),
        ]
    )
    func formatSymbols(identifier: String, weekdays: [String], months: [String]) throws {
        let profile = try LocaleProfile.named(identifier)
        #expect(profile.shortWeekdaySymbols == weekdays)
        #expect(profile.shortMonthSymbols == months)
        // 2024-01-07 is a Sunday; the 1st of each month on day 1, 32, 60, ... of 2024.
        #expect(Self.formatted("EEE", identifier, days: Array(7...13)) == weekdays)
        let firsts = [1, 32, 61, 92, 122, 153, 183, 214, 245, 275, 306, 336]
        #expect(Self.formatted("MMM", identifier, days: firsts) == months)
    }

    @Test(
        "an unknown locale is an error, said with its name",
        arguments: ["xx_NOPE", "de_XX", "und", "root", "und_DE", "zh_Hant_XX", "de_DE@calendar=japanese", "_DE", "e"]
    )
    func unknownLocale(identifier: String) {
        #expect(throws: CoreError(.unknownIdentifier, "unknown locale \(identifier)")) {
            try LocaleProfile.named(identifier)
        }
    }

    @Test("an empty locale says so")
    func emptyLocale() {
        #expect(throws: CoreError(.unknownIdentifier, "the locale is empty")) { try LocaleProfile.named("") }
        #expect(throws: CoreError(.unknownIdentifier, "the week start's locale is empty")) {
            try WeekStartChoice.locale("").resolve()
        }
    }

    @Test(
        "common identifiers Foundation understands are read as the locale they stand for",
        arguments: [
            // (asked for, the listed locale it stands for)
            ("zh_CN", "zh_Hans_CN"), ("zh_TW", "zh_Hant_TW"), ("zh-TW", "zh_Hant_TW"), ("zh_HK", "zh_Hant_HK"),
            ("sr_RS", "sr_Cyrl_RS"), ("az_AZ", "az_Latn_AZ"), ("pa_IN", "pa_Guru_IN"), ("bs_BA", "bs_Latn_BA"),
            ("uz_UZ", "uz_Latn_UZ"), ("ur_PK", "ur_Aran_PK"), ("no_NO", "no"), ("ks_IN", "ks_Aran_IN"),
            ("iw_IL", "he_IL"), ("in_ID", "id_ID"),
            ("tl_PH", "fil_PH"), ("de_DE", "de_DE"), ("zh_Hans_CN", "zh_Hans_CN"),
        ]
    )
    func aliases(identifier: String, listed: String) throws {
        let profile = try LocaleProfile.named(identifier)
        let reference = try LocaleProfile.named(listed)
        // The profile keeps the identifier it was asked for; everything else is the listed locale's.
        #expect(profile.identifier == identifier.replacing("-", with: "_"))
        #expect(profile.firstWeekday == reference.firstWeekday)
        #expect(profile.shortWeekdaySymbols == reference.shortWeekdaySymbols)
        #expect(profile.monthSymbols == reference.monthSymbols)
        #expect(profile.yearMonthPattern == reference.yearMonthPattern)
        #expect(Locale.availableIdentifiers.contains(listed) || listed == "en_US_POSIX")
    }

    @Test("the weekday chart counts per habit and in total, zeros included, in locale order")
    func chart() throws {
        // 2024-03-04 is a Monday, 2024-03-09 a Saturday, 2024-03-10 a Sunday.
        let data = index(
            habits: [(1, "2024-01-01"), (2, "2024-01-01")],
            completions: ["1@2024-03-04", "1@2024-03-11", "2@2024-03-09", "1@2024-03-10"]
        )
        let chart = try WeekdayChartBuilder.build(
            data,
            asOf: day("2024-03-31"),
            locale: try LocaleProfile.named("ar_EG"),
            includeTotal: true
        )
        // ar_EG: Sat Sun Mon Tue Wed Thu Fri
        #expect(chart.series.map(\.counts) == [[0, 1, 2, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0], [1, 1, 2, 0, 0, 0, 0]])
        #expect(chart.series.map(\.habitID) == [1, 2, nil])
        #expect(chart.from == day("2024-03-04"))
        let march = try WeekdayChartBuilder.build(
            data,
            asOf: day("2024-03-31"),
            from: day("2024-03-05"),
            to: day("2024-03-10"),
            locale: try LocaleProfile.named("en_US")
        )
        #expect(march.series.map(\.counts) == [[1, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 1]])
    }

    @Test("the weekday chart counts a completion only when its habit was active that day, like the day records")
    func chartIgnoresInactiveDays() throws {
        // Habit 1 is active 2024-03-04 (Monday) ... 2024-03-07; completions before and after its window
        // can be held in an index (e.g. recorded before the habit was archived from an earlier day).
        let data = index(
            habits: [(1, "2024-03-04"), (2, "2024-03-01")],
            archived: [1: "2024-03-08"],
            completions: [
                "1@2024-03-03", "1@2024-03-04", "1@2024-03-07", "1@2024-03-08", "1@2024-03-11", "2@2024-03-08",
            ]
        )
        let chart = try WeekdayChartBuilder.build(
            data,
            asOf: day("2024-03-31"),
            from: day("2024-03-01"),
            locale: try LocaleProfile.named("en_GB"),
            includeTotal: true
        )
        // en_GB: Mon Tue Wed Thu Fri Sat Sun
        #expect(chart.series.map(\.counts) == [[1, 0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 1, 0, 0], [1, 0, 0, 1, 1, 0, 0]])
        var fromRecords = [Int](repeating: 0, count: 7)
        for offset in 0...30 {
            let date = try day("2024-03-01").adding(days: offset)
            fromRecords[date.weekday.offset(from: .monday)] += data.record(on: date).completed
        }
        #expect(chart.series.last?.counts == fromRecords)
    }
}

@Suite("Month titles in the locale's own year-month form")
struct YearMonthTitleTests {
    @Test(
        "titles",
        arguments: [
            ("en_US", "October 2026"), ("en_GB", "October 2026"), ("de_DE", "Oktober 2026"),
            ("ja_JP", "2026年10月"), ("zh_Hans_CN", "2026年10月"), ("ko_KR", "2026년 10월"),
            ("ru_RU", "октябрь 2026\u{202F}г."),  // CLDR puts a narrow no-break space before "г."
            ("hu_HU", "2026. október"), ("pl_PL", "październik 2026"),
            ("lt_LT", "2026 m. spalis"),
        ]
    )
    func title(locale: String, expected: String) throws {
        #expect(try LocaleProfile.named(locale).yearMonthTitle(year: 2026, month: 10) == expected)
    }

    @Test(
        "titles are Gregorian whatever the locale's own calendar, and never show a pattern letter",
        arguments: [
            ("ar_SA", "مارس 2024"), ("fa_IR", "مارس 2024"), ("ps_AF", "2024 مارچ"), ("ckb_IR", "2024 ئازار"),
            ("uz_Arab_AF", "2024 مارچ"), ("lrc_IR", "2024 مارس"), ("th_TH", "มีนาคม 2024"), ("ja_JP", "2024年3月"),
            ("ru_RU", "март 2024\u{202F}г."), ("de_DE", "März 2024"), ("en_US", "March 2024"),
        ]
    )
    func gregorianTitle(locale: String, expected: String) throws {
        let profile = try LocaleProfile.named(locale)
        let title = profile.yearMonthTitle(year: 2024, month: 3)
        #expect(title == expected)
        #expect(!title.contains("G"))
        #expect(!profile.yearMonthPattern.contains("G"))
    }

    @Test(
        "February 2024 in the Arabic and Persian Gregorian month names (docs/RULES.md's examples)",
        arguments: [("ar_SA", "فبراير 2024"), ("fa_IR", "فوریهٔ 2024"), ("en_US", "February 2024")]
    )
    func februaryTitle(locale: String, expected: String) throws {
        #expect(try LocaleProfile.named(locale).yearMonthTitle(year: 2024, month: 2) == expected)
    }

    @Test("a pattern letter the title does not know is left out, not copied")
    func unknownLettersLeftOut() throws {
        #expect(LocaleProfile.english.title(pattern: "MMMM y G", year: 2024, month: 3) == "March 2024")
        #expect(LocaleProfile.english.title(pattern: "G y MMMM", year: 2024, month: 3) == "2024 March")
        #expect(LocaleProfile.english.title(pattern: "'G' y LLL", year: 2024, month: 3) == "G 2024 Mar")
    }

    @Test("no locale Foundation lists gets an era or any other stray letter in its title")
    func noStrayLetters() throws {
        for identifier in Locale.availableIdentifiers {
            let profile = try LocaleProfile.named(identifier)
            let unquoted = profile.yearMonthPattern.split(separator: "'", omittingEmptySubsequences: false)
                .enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined()
            let letters = Set(unquoted.filter { $0.isASCII && $0.isLetter })
            #expect(letters.isSubset(of: ["y", "M", "L"]), "\(identifier): \(profile.yearMonthPattern)")
        }
    }

    @Test func englishPatternNeedsNoFormatter() {
        #expect(LocaleProfile.english.yearMonthPattern == "MMMM y")
        #expect(LocaleProfile.english.yearMonthTitle(year: 999, month: 2) == "February 999")
    }
}
