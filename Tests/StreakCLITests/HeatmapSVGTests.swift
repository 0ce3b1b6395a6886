import Foundation
import StreakCLI
import StreakCore
import StreakWire
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The SVG heatmap, parsed back as XML.
@Suite("SVG heatmap")
struct HeatmapSVGTests {
    /// Nine weeks of January and February 2024 with every level, a rest day and labelled cells.
    static var heatmap: WireHeatmap {
        var heatmap = Fixtures.heatmap(from: "2024-01-03", to: "2024-02-29") { Int32($0.day % 4) }
        for week in heatmap.weeks.indices {
            for row in heatmap.weeks[week].cells.indices where heatmap.weeks[week].cells[row].present {
                let date = heatmap.weeks[week].cells[row].date!
                heatmap.weeks[week].cells[row].accessibilityLabel = "label of \(date)"
                heatmap.weeks[week].cells[row].due = 3
                if date == Fixtures.date("2024-02-10") {
                    heatmap.weeks[week].cells[row].rest = true
                    heatmap.weeks[week].cells[row].due = 0
                }
            }
        }
        return heatmap
    }

    static let streak = WireStreakSummary(
        asOf: Fixtures.date("2024-02-29"),
        current: 12,
        currentStart: Fixtures.date("2024-02-18"),
        longest: 31,
        longestStart: Fixtures.date("2024-01-03"),
        longestEnd: Fixtures.date("2024-02-02")
    )

    static func parse(_ svg: String) throws -> XMLElement {
        let document = try XMLDocument(xmlString: svg, options: [])
        return try #require(document.rootElement())
    }

    static func elements(_ root: XMLElement, _ xpath: String) throws -> [XMLElement] {
        try root.nodes(forXPath: xpath).compactMap { $0 as? XMLElement }
    }

    /// The attribute's value (looked up by name among all of them: corelibs' `attribute(forName:)`
    /// misses attributes of an element in the SVG namespace).
    static func attribute(_ element: XMLElement, _ name: String) -> String? {
        element.attributes?.first { $0.name == name || $0.localName == name }?.stringValue
    }

    @Test func summaryForScreenReaders() throws {
        let root = try Self.parse(HeatmapSVGRenderer.render(Self.heatmap, streak: Self.streak, idPrefix: "hm"))
        #expect(root.name == "svg")
        #expect(Self.attribute(root, "role") == "img")
        let ids = try #require(Self.attribute(root, "aria-labelledby")).split(separator: " ").map(String.init)
        #expect(ids == ["hm-title", "hm-desc"])
        let title = try #require(try Self.elements(root, "*[local-name()='title']").first)
        let description = try #require(try Self.elements(root, "*[local-name()='desc']").first)
        #expect(Self.attribute(title, "id") == "hm-title")
        #expect(Self.attribute(description, "id") == "hm-desc")
        #expect(title.stringValue == "Habit heatmap, 2024-01-03 to 2024-02-29")
        let text = try #require(description.stringValue)
        #expect(text.contains("from 2024-01-03 to 2024-02-29"))
        #expect(text.contains("Current streak: 12 days, since 2024-02-18"))
        #expect(text.contains("Longest streak: 31 days, 2024-01-03 to 2024-02-02"))
    }

    @Test func oneTitledRectPerPresentDayAndNoneForAbsentDays() throws {
        let heatmap = Self.heatmap
        let root = try Self.parse(HeatmapSVGRenderer.render(heatmap))
        let cells = try Self.elements(root, "//*[@data-date]")
        let present = heatmap.weeks.flatMap(\.cells).filter(\.present)
        #expect(cells.count == present.count)
        #expect(cells.count == 58)  // 2024-01-03 ... 2024-02-29
        #expect(heatmap.weeks.flatMap(\.cells).count > present.count, "the fixture has absent cells")
        for cell in cells {
            #expect(cell.name == "rect")
            let date = try #require(Self.attribute(cell, "data-date"))
            let title = try #require(try Self.elements(cell, "*[local-name()='title']").first)
            #expect(title.stringValue == "label of \(date)")
        }
        #expect(Set(cells.compactMap { Self.attribute($0, "data-date") }).count == cells.count)
    }

    @Test(arguments: HeatmapTheme.allCases)
    func levelsUseThePaletteAndLevelThreeAndRestDaysCarryAMark(theme: HeatmapTheme) throws {
        let palette = theme.palette
        let root = try Self.parse(HeatmapSVGRenderer.render(Self.heatmap, theme: theme, idPrefix: "x"))
        for cell in try Self.elements(root, "//*[@data-date]") {
            let fill = Self.attribute(cell, "fill")
            if Self.attribute(cell, "data-rest") == "true" {
                #expect(fill == "url(#x-rest)")
                #expect(Self.attribute(cell, "data-date") == "2024-02-10")
                continue
            }
            let level = try #require(Self.attribute(cell, "data-level").flatMap { Int($0) })
            #expect(fill == (level == 3 ? "url(#x-level3)" : palette.fill(level: level).hex))
        }
        let full = try #require(try Self.elements(root, "//*[local-name()='pattern'][@id='x-level3']").first)
        #expect(
            try Self.elements(full, "*[local-name()='circle']").first.flatMap { Self.attribute($0, "fill") }
                == palette.mark.hex
        )
        let rest = try #require(try Self.elements(root, "//*[local-name()='pattern'][@id='x-rest']").first)
        let fills = try Self.elements(rest, "*[local-name()='rect']").compactMap { Self.attribute($0, "fill") }
        #expect(fills == [palette.rest.hex, palette.mark.hex])
        #expect(try Self.elements(root, "//*[@data-legend-rest]").count == 1)
        let background = try #require(try Self.elements(root, "*[local-name()='rect']").first)
        #expect(Self.attribute(background, "fill") == palette.background.hex)
    }

    @Test func legendRunsFromLessToMoreAndShowsRestOnlyWhenThereIsOne() throws {
        let plain = Fixtures.heatmap(from: "2024-01-01", to: "2024-01-31") { _ in 1 }
        let root = try Self.parse(HeatmapSVGRenderer.render(plain))
        let swatches = try Self.elements(root, "//*[@data-legend-level]")
        #expect(swatches.compactMap { Self.attribute($0, "data-legend-level") } == ["0", "1", "2", "3"])
        let words = try Self.elements(root, "//*[local-name()='g'][@class='legend']/*[local-name()='text']")
        #expect(words.map(\.stringValue) == ["Less", "More"])
        #expect(try Self.elements(root, "//*[@data-legend-rest]").isEmpty)
    }

    @Test func monthLabelsSitAboveTheirWeek() throws {
        let heatmap = Self.heatmap
        let root = try Self.parse(HeatmapSVGRenderer.render(heatmap))
        let labels = try Self.elements(root, "//*[local-name()='g'][@class='months']/*")
        #expect(labels.map(\.stringValue) == heatmap.monthLabels.map(\.label))
        #expect(labels.map(\.stringValue) == ["Jan", "Feb"])
        for (element, label) in zip(labels, heatmap.monthLabels) {
            let cellsOfWeek = try Self.elements(root, "//*[@data-date]").filter {
                Self.attribute($0, "x") == Self.attribute(element, "x")
            }
            // The week the label is over holds the days of that column.
            let week = heatmap.weeks[Int(label.weekIndex)]
            #expect(
                Set(cellsOfWeek.compactMap { Self.attribute($0, "data-date") })
                    == Set(week.cells.filter(\.present).compactMap { $0.date?.description })
            )
        }
    }

    @Test func weekdayNamesStartAtTheWeekStart() throws {
        var heatmap = Fixtures.heatmap(from: "2024-01-01", to: "2024-01-31") { _ in 0 }
        heatmap.weekStart = .sunday
        let german = ["So.", "Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa."]
        let root = try Self.parse(HeatmapSVGRenderer.render(heatmap, weekdayNames: german))
        let labels = try Self.elements(root, "//*[local-name()='g'][@class='weekdays']/*")
        #expect(labels.map(\.stringValue) == german)
        heatmap.weekStart = .saturday
        let saturday = try Self.parse(HeatmapSVGRenderer.render(heatmap, weekdayNames: german))
        let names = try Self.elements(saturday, "//*[local-name()='g'][@class='weekdays']/*").map(\.stringValue)
        #expect(names == ["Sa.", "So.", "Mo.", "Di.", "Mi.", "Do.", "Fr."])
    }

    @Test func textIsEscaped() throws {
        var heatmap = Fixtures.heatmap(from: "2024-01-01", to: "2024-01-07") { _ in 2 }
        heatmap.weeks[0].cells[0].accessibilityLabel = "<b>\"Tom & Jerry's\"</b>"
        heatmap.monthLabels = [WireMonthLabel(label: "J<n", weekIndex: 0)]
        let svg = HeatmapSVGRenderer.render(heatmap)
        #expect(svg.contains("&lt;b&gt;&quot;Tom &amp; Jerry&#39;s&quot;&lt;/b&gt;"))
        let root = try Self.parse(svg)
        let cell = try #require(try Self.elements(root, "//*[@data-date='2024-01-01']/*").first)
        #expect(cell.stringValue == "<b>\"Tom & Jerry's\"</b>")
        #expect(XMLText.escape("a\u{1}b") == "a\u{FFFD}b")
    }

    @Test func withoutServerLabelsTheCellsGetTheSameWords() throws {
        var heatmap = Fixtures.heatmap(from: "2024-03-05", to: "2024-03-05") { _ in 2 }
        heatmap.weeks[0].cells[1].completed = 4
        heatmap.weeks[0].cells[1].active = 5
        heatmap.weeks[0].cells[1].due = 5
        let root = try Self.parse(HeatmapSVGRenderer.render(heatmap))
        let title = try #require(try Self.elements(root, "//*[@data-date='2024-03-05']/*").first)
        #expect(title.stringValue == "March 5: 80% completed, 4 of 5 habits")
    }

    @Test func outputIsDeterministicAndFitsItsViewBox() throws {
        let first = HeatmapSVGRenderer.render(Self.heatmap, streak: Self.streak, theme: .dark)
        #expect(first == HeatmapSVGRenderer.render(Self.heatmap, streak: Self.streak, theme: .dark))
        #expect(first != HeatmapSVGRenderer.render(Self.heatmap, streak: Self.streak, theme: .light))
        let root = try Self.parse(first)
        let width = try #require(Self.attribute(root, "width").flatMap { Int($0) })
        let height = try #require(Self.attribute(root, "height").flatMap { Int($0) })
        #expect(Self.attribute(root, "viewBox") == "0 0 \(width) \(height)")
        for rect in try Self.elements(root, "//*[local-name()='rect'][@x]") where Self.attribute(rect, "width") == "11"
        {
            let x = try #require(Self.attribute(rect, "x").flatMap { Int($0) })
            let y = try #require(Self.attribute(rect, "y").flatMap { Int($0) })
            #expect(x >= 0 && x + 11 <= width && y >= 0 && y + 11 <= height)
        }
    }
}
