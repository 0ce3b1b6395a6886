import Foundation
import StreakCLI
import StreakCore
import StreakWire
import Testing

/// The text renderers with other locales' names: wide characters, long and look-alike names.
@Suite("Localized text rendering")
struct LocalizedRenderingTests {
    /// A year of weeks (from 2024-04-01, a Monday) labelled with `locale`'s month labels, as the
    /// server builds them.
    static func year(_ identifier: String) throws -> WireHeatmap {
        let locale = try LocaleProfile.named(identifier)
        var heatmap = Fixtures.heatmap(from: "2024-04-01", to: "2025-03-20") { Int32($0.day % 4) }
        let starts = heatmap.weeks.map { $0.start ?? CivilDate.min }
        heatmap.monthLabels = MonthLabelBuilder.labels(weekStarts: starts, locale: locale).map {
            WireMonthLabel(label: $0.text, weekIndex: Int32($0.weekIndex))
        }
        return heatmap
    }

    /// The terminal column at which each label starts on the line.
    static func labelColumns(_ line: String) -> [Int] {
        var columns: [Int] = []
        var column = 0
        var previous: Character = " "
        for character in line {
            if character != " " && previous == " " { columns.append(column) }
            column += DisplayWidth.of(character)
            previous = character
        }
        return columns
    }

    @Test(
        "month labels stand above their week's column and no line is wider than the terminal",
        arguments: ["ja_JP", "ko_KR", "zh_Hant_TW", "ar_EG", "he_IL", "en_US"],
        [nil, 60, 41]
    )
    func labelsByDisplayColumn(identifier: String, width: Int?) throws {
        let full = try Self.year(identifier)
        let heatmap =
            width.map { HeatmapRenderer.trimmed(full, toWeeks: HeatmapRenderer.weeksThatFit(width: $0)) } ?? full
        let line = HeatmapRenderer.labelLine(heatmap, width: width)
        // Every label drawn starts at its week's column (a label too close to the one before is
        // left out), and most are drawn.
        let columns = Self.labelColumns(line)
        let weekColumns = Set(heatmap.monthLabels.map { 2 + 2 * Int($0.weekIndex) })
        #expect(columns.allSatisfy(weekColumns.contains), "\(line)")
        #expect(columns.count * 2 >= heatmap.monthLabels.count, "\(line)")
        #expect(!columns.isEmpty)
        if width == nil { #expect(columns.first == 2) }
        let lines = HeatmapRenderer.render(full, style: .plain, width: width).split(separator: "\n")
        if let width {
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(lines)")
        }
    }

    @Test("a wide label cut at the width is cut before a whole character, never inside one")
    func cutBeforeAWideCharacter() {
        var heatmap = Fixtures.heatmap(from: "2024-03-04", to: "2024-03-24") { _ in 1 }
        heatmap.monthLabels = [WireMonthLabel(label: "12月", weekIndex: 0), WireMonthLabel(label: "3月", weekIndex: 3)]
        // Columns 0-1 margin, "12月" at 2-5, "3月" at 8-10.
        #expect(HeatmapRenderer.labelLine(heatmap, width: 11) == "  12月  3月")
        #expect(HeatmapRenderer.labelLine(heatmap, width: 10) == "  12月  3")
        #expect(HeatmapRenderer.labelLine(heatmap, width: 8) == "  12月")
        #expect(HeatmapRenderer.labelLine(heatmap, width: 5) == "  12")
    }

    @Test(
        "calendar headers: seven distinct, recognisable names, as narrow as the locale allows",
        arguments: [
            // (locale, header Sunday first, the columns each takes)
            ("en_US", ["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"], 2),
            ("de_DE", ["So", "Mo", "Di", "Mi", "Do", "Fr", "Sa"], 2),
            ("ja_JP", ["日", "月", "火", "水", "木", "金", "土"], 2),
            ("zh_Hans_CN", ["日", "一", "二", "三", "四", "五", "六"], 2),
            ("vi_VN", ["CN", "T2", "T3", "T4", "T5", "T6", "T7"], 2),
            ("he_IL", ["א׳", "ב׳", "ג׳", "ד׳", "ה׳", "ו׳", "ש׳"], 2),
            ("lv_LV", ["svē", "pir", "otr", "tre", "cet", "pie", "ses"], 3),
            ("pt_BR", ["dom", "seg", "ter", "qua", "qui", "sex", "sáb"], 3),
            ("id_ID", ["Min", "Sen", "Sel", "Rab", "Kam", "Jum", "Sab"], 3),
            ("hy_AM", ["կիր", "երկ", "երք", "չրք", "հնգ", "ուր", "շբթ"], 3),
            ("sw_KE", ["Jumapil", "Jumatat", "Jumanne", "Jumatan", "Alhamis", "Ijumaa", "Jumamos"], 7),
        ]
    )
    func namedHeaders(identifier: String, expected: [String], width: Int) throws {
        let locale = try LocaleProfile.named(identifier)
        let short = locale.shortWeekdaySymbols
        let fit = WeekdayHeader.fit(
            short: short,
            veryShort: WeekdayHeader.veryShortSymbols(matching: short, in: locale)
        )
        #expect(fit.symbols == expected)
        #expect(fit.width == width)
    }

    @Test("every locale Foundation knows gets seven distinct header names, each within its columns")
    func everyLocaleHasDistinctHeaders() throws {
        for identifier in Locale.availableIdentifiers {
            let locale = try LocaleProfile.named(identifier)
            let short = Weekday.ordered(startingAt: locale.firstWeekday).map(locale.shortName(of:))
            let veryShort = WeekdayHeader.veryShortSymbols(matching: short, in: locale)
            for fit in [WeekdayHeader.fit(short: short, veryShort: veryShort), WeekdayHeader.fit(short: short)] {
                #expect(Set(fit.symbols).count == 7, "\(identifier): \(short) -> \(fit.symbols)")
                #expect(
                    fit.symbols.allSatisfy { !$0.isEmpty && DisplayWidth.of($0) <= fit.width },
                    "\(identifier): \(fit.symbols)"
                )
            }
        }
    }

    @Test("without very short names, a word all seven share is left out (周一 … 周日: 一 … 日)")
    func sharedWord() {
        let fit = WeekdayHeader.fit(short: ["周一", "周二", "周三", "周四", "周五", "周六", "周日"])
        #expect(fit.symbols == ["一", "二", "三", "四", "五", "六", "日"])
        // Hebrew's Saturday shares no word with the others: the names widen instead of losing it.
        let hebrew = WeekdayHeader.fit(short: ["יום א׳", "יום ב׳", "יום ג׳", "יום ד׳", "יום ה׳", "יום ו׳", "שבת"])
        #expect(hebrew.symbols.last == "שבת")
        #expect(Set(hebrew.symbols).count == 7)
    }

    @Test("very short names of another locale than the page's are not used")
    func veryShortOnlyForThePagesNames() throws {
        let german = try LocaleProfile.named("de_DE")
        #expect(WeekdayHeader.veryShortSymbols(matching: LocaleProfile.english.shortWeekdaySymbols, in: german) == nil)
    }

    @Test("a page whose names need three columns keeps its width; wider names widen every column")
    func pageWidths() throws {
        var page = Fixtures.plainMonthPage(
            year: 2024,
            month: 3,
            title: "março de 2024",
            weekdaySymbols: ["dom.", "seg.", "ter.", "qua.", "qui.", "sex.", "sáb."]
        )
        let lines = MonthPageRenderer.render(page, style: .plain).split(separator: "\n").map(String.init)
        #expect(lines[1] == "dom seg ter qua qui sex sáb")
        #expect(lines[2] == " 1   2   3   4   5   6   7")
        page.weekdaySymbols = ["Jumapili", "Jumatatu", "Jumanne", "Jumatano", "Alhamisi", "Ijumaa", "Jumamosi"]
        let wide = MonthPageRenderer.render(page, style: .plain).split(separator: "\n").map(String.init)
        #expect(wide[1] == "Jumapil Jumatat Jumanne Jumatan Alhamis Ijumaa  Jumamos")
        #expect(wide[2].hasPrefix(" 1       2       3"))
        let year = YearRenderer.render(year: 2024, pages: [page, page, page], style: .plain)
        let rows = year.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(rows[3].hasPrefix("Jumapil Jumatat Jumanne Jumatan Alhamis Ijumaa  Jumamos   Jumapil"))
    }

    @Test("a year stands three, two or one months across, as many as the terminal's width holds")
    func yearFitsTheWidth() throws {
        let pages = (1...12).map { month in
            Fixtures.plainMonthPage(
                year: 2026,
                month: Int32(month),
                title: "M\(month) 2026",
                weekdaySymbols: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
            )
        }
        // A page's width: where the second page's weekday names start, less the gap of 3.
        let whole = YearRenderer.render(year: 2026, pages: pages, style: .plain)
        let header = try #require(whole.split(separator: "\n").first { $0.hasPrefix("Su") })
        let second = try #require(header.dropFirst().firstRange(of: "Su"))
        let single = header.distance(from: header.startIndex, to: second.lowerBound) - 3
        #expect(single >= 20, "\(whole)")
        for (width, across) in [
            (3 * single + 6, 3), (3 * single + 5, 2), (2 * single + 3, 2), (2 * single + 2, 1), (10, 1), (nil, 3),
        ] {
            let text = YearRenderer.render(year: 2026, pages: pages, style: .plain, width: width)
            let rows = text.split(separator: "\n", omittingEmptySubsequences: false)
            // The title row of the first band names the first `across` months.
            let titles = rows[2].split(separator: " ").map(String.init)
            #expect(titles == (1...across).map { "M\($0)" }, "\(String(describing: width)): \(rows[2])")
            if let width {
                #expect(
                    rows.dropLast(2).allSatisfy { DisplayWidth.of($0) <= max(width, single) },
                    "\(width): \(rows.map { DisplayWidth.of($0) })"
                )
            }
        }
    }

    @Test(
        "a year's pages are titled by the month alone: the locale's name, or the title without a plain trailing year",
        arguments: [
            ("en_US", "January 2024", "January", "January"),
            ("vi_VN", "tháng 1 năm 2024", "tháng 1", "tháng 1 năm 2024"),
            ("ja_JP", "2024年1月", "1月", "2024年1月"),
            ("ru_RU", "январь 2024 г.", "январь", "январь 2024 г."),
            ("de_DE", "Januar 2024", "Januar", "Januar"),
        ]
    )
    func yearPageTitles(identifier: String, title: String, withNames: String, withoutNames: String) throws {
        let page = Fixtures.plainMonthPage(
            year: 2024,
            month: 1,
            title: title,
            weekdaySymbols: LocaleProfile.english.shortWeekdaySymbols
        )
        /// The first page's title: the third line of the year, after the year and a blank line.
        func pageTitle(_ monthSymbols: [String]?) -> String {
            let year = YearRenderer.render(year: 2024, pages: [page], style: .plain, monthSymbols: monthSymbols)
            return year.split(separator: "\n", omittingEmptySubsequences: false)[2]
                .trimmingCharacters(in: .whitespaces)
        }
        let names = try LocaleProfile.named(identifier).monthSymbols
        #expect(pageTitle(names).lowercased() == withNames.lowercased())
        #expect(pageTitle(nil) == withoutNames)
    }
}
