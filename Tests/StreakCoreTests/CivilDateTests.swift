import StreakCore
import Testing

@Suite("Civil dates")
struct CivilDateTests {
    @Test(
        "impossible dates are errors, not normalised",
        arguments: [
            (2024, 2, 30), (2023, 2, 29), (2024, 13, 1), (2024, 0, 1), (2024, 1, 0), (0, 1, 1), (10000, 1, 1),
            (2100, 2, 29),
        ]
    )
    func invalid(year: Int, month: Int, dayOfMonth: Int) {
        #expect(throws: CoreError.self) { try CivilDate(year: year, month: month, day: dayOfMonth) }
    }

    @Test("real edge dates are accepted", arguments: ["2024-02-29", "2000-02-29", "0001-01-01", "9999-12-31"])
    func valid(text: String) throws {
        #expect(try CivilDate(parsing: text).description == text)
    }

    @Test(
        "day arithmetic crosses months, years and leap days",
        arguments: [
            ("2024-02-28", 1, "2024-02-29"), ("2024-02-29", 1, "2024-03-01"), ("2023-02-28", 1, "2023-03-01"),
            ("2024-12-31", 1, "2025-01-01"), ("2025-03-01", -1, "2025-02-28"), ("2024-01-01", 366, "2025-01-01"),
        ]
    )
    func arithmetic(start: String, days: Int, expected: String) throws {
        #expect(try day(start).adding(days: days) == day(expected))
        #expect(day(start).days(to: day(expected)) == days)
    }

    @Test(
        "weekdays follow Foundation's numbering",
        arguments: [
            ("2025-01-01", Weekday.wednesday), ("2024-02-29", .thursday), ("2018-11-04", .sunday),
            ("2000-01-01", .saturday),
        ]
    )
    func weekday(text: String, expected: Weekday) {
        #expect(day(text).weekday == expected)
    }
}
