import Foundation
import StreakCLI
import StreakCore
import StreakWire
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The HTML page, parsed back (it is written so that it is well-formed XML as well as HTML).
@Suite("HTML report")
struct HTMLReportTests {
    static var chart: WireWeekdayChart {
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        func counts(_ values: [Int32]) -> [WireWeekdayCount] {
            zip(names, values).enumerated().map { index, pair in
                WireWeekdayCount(weekday: Weekday(rawValue: (index + 1) % 7 + 1), shortName: pair.0, count: pair.1)
            }
        }
        return WireWeekdayChart(
            from: Fixtures.date("2024-01-01"),
            to: Fixtures.date("2024-02-29"),
            series: [
                WireWeekdaySeries(
                    habitId: 2,
                    name: "Tom & <Jerry>",
                    total: false,
                    counts: counts([1, 0, 2, 0, 1, 0, 0])
                ),
                WireWeekdaySeries(habitId: 0, name: "Total", total: true, counts: counts([4, 3, 2, 5, 1, 0, 8])),
            ]
        )
    }

    static var report: HTMLReport {
        HTMLReport(
            heatmap: HeatmapSVGTests.heatmap,
            streak: HeatmapSVGTests.streak,
            monthPage: Fixtures.february2024,
            weekdayChart: chart
        )
    }

    static func parse(_ html: String) throws -> XMLElement {
        try #require(try XMLDocument(xmlString: html, options: []).rootElement())
    }

    static func all(_ root: XMLElement, _ name: String) throws -> [XMLElement] {
        try root.nodes(forXPath: "//*[local-name()='\(name)']").compactMap { $0 as? XMLElement }
    }

    @Test func aPageWithLanguageTitleHeadingsAndTheInlineHeatmap() throws {
        let html = HTMLReportRenderer.render(Self.report)
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        let root = try Self.parse(html)
        #expect(try Self.all(root, "title").first?.stringValue == "Streakd: habits up to 2024-02-29")
        #expect(try Self.all(root, "h1").map(\.stringValue) == ["Habits up to 2024-02-29"])
        #expect(
            try Self.all(root, "h2").map(\.stringValue)
                == ["Heatmap", "Streak", "February 2024", "Completions by weekday"]
        )
        let svg = try #require(try Self.all(root, "svg").first)
        #expect(HeatmapSVGTests.attribute(svg, "role") == "img")
        #expect(try Self.all(root, "main").count == 1)
        // The svg's own title and the page's: ids are unique.
        let ids = try root.nodes(forXPath: "//@id").compactMap(\.stringValue)
        #expect(Set(ids).count == ids.count)
    }

    @Test func selfContained() {
        let html = HTMLReportRenderer.render(Self.report)
        for needle in ["<script", "src=", "href=", "@import", "<link", "url(http", "<img"] {
            #expect(!html.contains(needle), "the page has \(needle)")
        }
        let urls = html.components(separatedBy: "http").count - 1
        #expect(urls == 1, "only the SVG namespace: \(urls) http")
    }

    @Test func streakInWords() throws {
        let root = try Self.parse(HTMLReportRenderer.render(Self.report))
        let paragraphs = try Self.all(root, "p").compactMap(\.stringValue)
        #expect(paragraphs.contains("12 days since 2024-02-18"))
        #expect(paragraphs.contains("Longest: 31 days (2024-01-03 – 2024-02-02)"))
    }

    @Test func monthPageIsATableWithColumnHeadersAndTheDaysInWords() throws {
        let root = try Self.parse(HTMLReportRenderer.render(Self.report))
        let table = try #require(try Self.all(root, "table").first)
        #expect(HeatmapSVGTests.attribute(table, "class") == "month")
        let headers = try table.nodes(forXPath: ".//*[local-name()='th']").compactMap { $0 as? XMLElement }
        #expect(headers.map(\.stringValue) == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
        #expect(headers.allSatisfy { HeatmapSVGTests.attribute($0, "scope") == "col" })
        let rows = try table.nodes(forXPath: ".//*[local-name()='tbody']/*").compactMap { $0 as? XMLElement }
        #expect(rows.count == 5)  // 2024-01-29 ... 2024-03-03; the sixth row has no day of February
        let cells = rows.flatMap { ($0.children ?? []).compactMap { $0 as? XMLElement } }
        #expect(cells.count == 35)
        let today = try #require(cells.first { HeatmapSVGTests.attribute($0, "aria-current") == "date" })
        #expect(today.stringValue?.hasPrefix("14: level 0 of 3, counts towards the streak, today") == true)
        #expect(cells.first?.stringValue == "")  // 29 January is not in the month
        #expect(cells[2].stringValue == "")
        #expect(cells[3].stringValue?.hasPrefix("1: level 0 of 3") == true)  // Thursday 1 February
    }

    @Test func weekdayChartIsATableTotalFirstInTheChartsOrder() throws {
        let root = try Self.parse(HTMLReportRenderer.render(Self.report))
        let table = try #require(try Self.all(root, "table").last)
        let rows = try table.nodes(forXPath: ".//*[local-name()='tr']").compactMap { $0 as? XMLElement }
        let texts = rows.map { ($0.children ?? []).compactMap(\.stringValue) }
        #expect(texts[0] == ["Habit", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
        #expect(texts[1] == ["Total", "4", "3", "2", "5", "1", "0", "8"])
        #expect(texts[2] == ["Tom & <Jerry>", "1", "0", "2", "0", "1", "0", "0"])
    }

    @Test func otherLocalesMarkTheirWordsAndThemesColourThePage() throws {
        var report = Self.report
        report.locale = "de_DE"
        report.theme = .dark
        let html = HTMLReportRenderer.render(report)
        #expect(html.contains("<div class=\"heatmap\" lang=\"de-DE\">"))
        #expect(html.contains("background: \(HeatmapPalette.dark.background)"))
        #expect(html.contains("content=\"dark\""))
        // The month page: the title and weekday names in German, the caption's words and the
        // days' words in the page's English.
        #expect(html.contains("<table class=\"month\">"))
        #expect(html.contains("<caption>Days of <span lang=\"de-DE\">"))
        #expect(html.contains("<th scope=\"col\" lang=\"de-DE\">"))
        report.locale = "x\"y"
        #expect(report.languageTag == "en")
        report.locale = "en_US"
        #expect(report.languageTag == "en-US")
        #expect(!HTMLReportRenderer.render(report).contains("<div class=\"heatmap\" lang="))
    }

    @Test func theHeatmapAloneIsAPageToo() throws {
        let root = try Self.parse(HTMLReportRenderer.render(HTMLReport(heatmap: HeatmapSVGTests.heatmap)))
        #expect(try Self.all(root, "h2").map(\.stringValue) == ["Heatmap"])
        #expect(try Self.all(root, "table").isEmpty)
    }
}
