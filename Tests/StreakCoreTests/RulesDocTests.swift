import Foundation
import StreakCore
import Testing

/// Keeps the worked examples of docs/RULES.md honest: each table there is read from the file and
/// checked against the core, so the page cannot drift from the code.
@Suite("docs/RULES.md")
struct RulesDocTests {
    /// The rows of the table whose header line starts with `header`, cells trimmed.
    static func table(startingWith header: String) throws -> [[String]] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/RULES.md")
        let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix(header) }, "no table '\(header)' in docs/RULES.md")
        let rows = lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
        try #require(!rows.isEmpty, "the table '\(header)' has no rows")
        return rows
    }

    /// "4 of 5" as (4, 5).
    static func counts(_ text: String) throws -> (completed: Int, active: Int) {
        let parts = text.components(separatedBy: " of ").compactMap { Int($0) }
        try #require(parts.count == 2, "'\(text)' is not 'N of M'")
        return (parts[0], parts[1])
    }

    @Test func percentageTable() throws {
        for row in try Self.table(startingWith: "| completed of active | exact | shown |") {
            let (completed, active) = try Self.counts(row[0])
            #expect(Percentage.shown(completed: completed, active: active) == Int(row[2]), "\(row)")
        }
    }

    @Test func contributingTable() throws {
        for row in try Self.table(startingWith: "| min_percent | completed of active | contributes |") {
            let threshold = try StreakThreshold(minPercent: row[0] == "unset" ? nil : Int(row[0]))
            let (completed, active) = try Self.counts(row[1])
            #expect(threshold.contributes(completed: completed, active: active) == row[2].hasPrefix("yes"), "\(row)")
        }
    }

    @Test func streakTable() throws {
        let data = index(
            habits: [(1, "2024-01-01")],
            completions: ["1@2024-03-01", "1@2024-03-02", "1@2024-03-03"]
        )
        for row in try Self.table(startingWith: "| as_of | current | start | today_pending |") {
            let summary = StreakCalculator.summary(data, asOf: day(row[0]))
            #expect(summary.current == Int(row[1]), "\(row)")
            #expect(summary.currentStart?.description ?? "—" == row[2], "\(row)")
            #expect(summary.todayPending == (row[3] == "yes"), "\(row)")
        }
    }

    @Test func monthLabelTable() throws {
        for row in try Self.table(startingWith: "| column starts (2024) | labels |") {
            let starts = row[0].components(separatedBy: ", ").map { day("2024-" + $0) }
            let labels = MonthLabelBuilder.labels(weekStarts: starts).map { "\($0.text)@\($0.weekIndex)" }
            #expect(labels.joined(separator: ", ") == row[1], "\(row)")
        }
    }

    @Test func monthPageTable() throws {
        for row in try Self.table(startingWith: "| month | week order | leading days | first day shown |") {
            let locale = try LocaleProfile.named(String(row[1].prefix { $0 != " " }))
            let parts = row[0].split(separator: "-").compactMap { Int($0) }
            let page = try MonthPageBuilder.build(
                try YearMonth(year: parts[0], month: parts[1]),
                options: MonthPageOptions(weekStart: locale.firstWeekday, locale: locale)
            )
            #expect(page.days.count == 42)
            #expect(page.days.prefix { !$0.inMonth }.count == Int(row[2]), "\(row)")
            #expect(page.days.first?.date == day(row[3]), "\(row)")
        }
    }
}
