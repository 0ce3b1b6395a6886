import StreakCLI
import StreakCore
import Testing

@Suite("Relative dates as people type them")
struct DateExpressionTests {
    static func day(_ text: String) -> CivilDate { try! CivilDate(parsing: text) }

    /// (typed, today, expected): today 2024-03-01 is a Friday after a leap day; 2025-01-01 a Wednesday.
    static let table: [(String, String, String)] = [
        ("today", "2024-03-01", "2024-03-01"),
        ("Today", "2024-03-01", "2024-03-01"),
        ("yesterday", "2024-03-01", "2024-02-29"),
        ("-1", "2024-03-01", "2024-02-29"),
        ("-0", "2024-03-01", "2024-03-01"),
        ("-366", "2024-12-31", "2023-12-31"),
        ("-1", "2025-01-01", "2024-12-31"),
        ("friday", "2024-03-01", "2024-03-01"),  // the most recent Friday is today
        ("thursday", "2024-03-01", "2024-02-29"),
        ("sat", "2024-03-01", "2024-02-24"),
        ("Mon", "2025-01-01", "2024-12-30"),
        ("wed", "2025-01-01", "2025-01-01"),
        ("2023-02-28", "2024-03-01", "2023-02-28"),
        (" 2024-02-29 ", "2024-03-01", "2024-02-29"),
    ]

    /// (typed, today, message): a relative day before the calendar's first date names the form and the limit.
    static let beforeFirstDateCases: [(String, String, String)] = [
        (
            "yesterday", "0001-01-01",
            "yesterday is before 0001-01-01, the first date there is (today counts as 0001-01-01)"
        ),
        (
            "-3", "0001-01-02",
            "-3 (3 days ago) is before 0001-01-01, the first date there is (today counts as 0001-01-02)"
        ),
        (
            "sunday", "0001-01-01",
            "the last sunday is before 0001-01-01, the first date there is (today counts as 0001-01-01)"
        ),
    ]

    @Test("a day before 0001-01-01 names the form and the limit", arguments: beforeFirstDateCases)
    func beforeTheFirstDate(typed: String, today: String, message: String) throws {
        let expression = try DateExpression(parsing: typed)
        #expect {
            _ = try expression.resolve(today: Self.day(today))
        } throws: { error in
            (error as? CoreError)?.message == message
        }
        #expect(
            try DateExpression(parsing: "yesterday").resolve(today: Self.day("0001-01-02")) == Self.day("0001-01-01")
        )
    }

    @Test("resolves against the given today", arguments: table)
    func resolves(typed: String, today: String, expected: String) throws {
        let expression = try DateExpression(parsing: typed)
        #expect(try expression.resolve(today: Self.day(today)) == Self.day(expected))
    }

    @Test(
        "refuses what is not a date, naming the forms",
        arguments: ["2023-02-29", "tomorrowish", "-x", "+1", "", "-99999", "2024-13-01"]
    )
    func refuses(typed: String) {
        #expect(throws: CoreError.self) { try DateExpression(parsing: typed) }
        do {
            _ = try DateExpression(parsing: typed)
        } catch {
            #expect(error.message.contains(typed.isEmpty ? "" : typed) || error.message.contains("YYYY"))
        }
    }

    @Test func onlyISODatesAreAbsolute() throws {
        #expect(try !DateExpression(parsing: "2024-01-01").isRelative)
        #expect(try DateExpression(parsing: "yesterday").isRelative)
        #expect(try DateExpression(parsing: "monday").isRelative)
    }

    @Test func goingBackPastTheCalendarIsAnError() throws {
        #expect(throws: CoreError.self) { try DateExpression(parsing: "-5").resolve(today: Self.day("0001-01-03")) }
    }
}

@Suite("Display width of names in terminal columns")
struct DisplayWidthTests {
    static let table: [(String, Int)] = [
        ("Read", 4),
        ("Café", 4),  // precomposed é
        ("Cafe\u{301}", 4),  // e + combining acute accent
        ("読書", 4),
        ("🏃 Run", 6),
        ("🏃‍♀️", 2),  // ZWJ sequence with a variation selector
        ("👍🏽", 2),  // skin tone modifier
        ("🇩🇪", 2),  // a flag
        ("❤️", 2),  // text heart made emoji by U+FE0F
        ("운동", 4),
        ("ｶﾀｶﾅ", 4),  // half-width katakana stays narrow
        ("Ｆｕｌｌ", 8),  // full-width Latin
        ("\u{1B}[1mbold\u{1B}[0m", 4),  // escapes take no columns
    ]

    @Test("columns", arguments: table)
    func columns(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width)
    }

    @Test func paddingAndPrefixesCountColumns() {
        #expect(DisplayWidth.padRight("読書", to: 6) == "読書  ")
        #expect(DisplayWidth.padLeft("🏃", to: 3) == " 🏃")
        #expect(DisplayWidth.prefix("周一", fitting: 2) == "周")
        #expect(DisplayWidth.prefix("Mon", fitting: 2) == "Mo")
    }
}

@Suite("Did you mean")
struct CommandSuggestionTests {
    static let commands = ["today", "habit", "done", "undo", "day", "heatmap", "streak", "weekdays", "calendar"]

    @Test(
        "suggests the closest command",
        arguments: [
            ("heatmp", "heatmap"), ("haetmap", "heatmap"), ("calender", "calendar"), ("dne", "done"),
            ("streka", "streak"), ("habits", "habit"), ("week", "weekdays"),
        ]
    )
    func suggests(typed: String, expected: String) {
        #expect(CommandSuggestion.closest(to: typed, among: Self.commands) == expected)
    }

    @Test func nothingCloseIsNoSuggestion() {
        #expect(CommandSuggestion.closest(to: "frobnicate", among: Self.commands) == nil)
        #expect(CommandSuggestion.distance("abc", "acb") == 1)
        #expect(CommandSuggestion.distance("", "abc") == 3)
    }
}
