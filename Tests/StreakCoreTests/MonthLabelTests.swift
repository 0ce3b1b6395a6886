import StreakCore
import Testing

@Suite("Month labels")
struct MonthLabelTests {
    @Test(
        "the seed examples and the three-week rule",
        arguments: [
            (["2024-01-01", "2024-01-08", "2024-01-15", "2024-02-05"], ["Jan@0", "Feb@3"]),
            (["2024-01-01", "2024-01-08", "2024-02-01", "2024-03-01"], ["Jan@0", "Mar@3"]),
            (["2024-01-29", "2024-02-05"], ["Jan@0"]),
            (["2024-12-23", "2024-12-30", "2025-01-06", "2025-01-13"], ["Dec@0"]),
            ([], []),
        ]
    )
    func seeds(starts: [String], expected: [String]) {
        let labels = MonthLabelBuilder.labels(weekStarts: starts.map(day))
        #expect(labels.map { "\($0.text)@\($0.weekIndex)" } == expected)
    }

    @Test("a change that comes too soon is skipped, not moved; the year wraps")
    func skippedNotMoved() {
        let starts = ["2024-11-25", "2024-12-02", "2024-12-09", "2024-12-16", "2024-12-23", "2024-12-30", "2025-01-06"]
            .map(day)
        #expect(MonthLabelBuilder.labels(weekStarts: starts).map(\.text) == ["Nov", "Jan"])
    }

    @Test(
        "labels in another locale are its standalone short month names, as DateFormatter's \"LLL\" writes them",
        arguments: [
            ("de_DE", ["Mär@0", "Apr@4"]),
            ("ru_RU", ["март@0", "апр.@4"]),  // not the "марта" of "5 марта"
            ("ja_JP", ["3月@0", "4月@4"]),
            ("en_US", ["Mar@0", "Apr@4"]),
        ]
    )
    func localized(identifier: String, expected: [String]) throws {
        let labels = MonthLabelBuilder.labels(
            weekStarts: ["2024-03-04", "2024-03-11", "2024-03-18", "2024-03-25", "2024-04-01"].map(day),
            locale: try LocaleProfile.named(identifier)
        )
        #expect(labels.map { "\($0.text)@\($0.weekIndex)" } == expected)
        // 2024-03-01 and 2024-04-01 are days 61 and 92 of 2024.
        #expect(labels.map(\.text) == LocaleTests.formatted("LLL", identifier, days: [61, 92]))
    }
}
