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

    @Test("labels in another locale")
    func localized() throws {
        let labels = MonthLabelBuilder.labels(
            weekStarts: ["2024-03-04", "2024-03-11", "2024-03-18", "2024-03-25", "2024-04-01"].map(day),
            locale: try LocaleProfile.named("de_DE")
        )
        // "MMM" in de_DE, the format context: "März" and "Apr.", not the standalone "Mär" and "Apr".
        #expect(labels.map { "\($0.text)@\($0.weekIndex)" } == ["März@0", "Apr.@4"])
    }
}
