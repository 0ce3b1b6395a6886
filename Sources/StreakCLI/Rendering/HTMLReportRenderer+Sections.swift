import StreakWire

extension HTMLReportRenderer {
    /// The current streak in large type and the longest under it.
    static func streakSection(_ streak: WireStreakSummary, nothingDueToday: Bool = false) -> [String] {
        var current = "<p><span class=\"streak-current\">\(StreakRenderer.days(streak.current))</span>"
        if streak.current > 0, let start = streak.currentStart { current += " since \(start)" }
        current += "</p>"
        var lines = ["<section aria-labelledby=\"streak-heading\">", "<h2 id=\"streak-heading\">Streak</h2>", current]
        if streak.todayPending {
            let note = StreakRenderer.pendingNote(nothingDue: nothingDueToday)
            lines.append("<p>\(note.prefix(1).uppercased() + note.dropFirst()).</p>")
        }
        var longest = "<p>Longest: \(StreakRenderer.days(streak.longest))"
        if streak.longest > 0, let start = streak.longestStart, let end = streak.longestEnd {
            longest += " (\(start) – \(end))"
        }
        lines += [longest + "</p>", "</section>"]
        return lines
    }

    /// The month page as a table: weekday names as column headers, a row per week, each day
    /// with its number, a swatch of its level and, in words, its level and marks. Only the
    /// server's names (the title, the weekdays) carry the locale's tag: the caption and the
    /// days' words are the page's English.
    static func monthSection(_ page: WireMonthPage, palette: HeatmapPalette, lang: String) -> [String] {
        let title = XMLText.escape(page.title.isEmpty ? "\(page.year)-\(page.month)" : page.title)
        let localTitle = lang.isEmpty ? title : "<span\(lang)>\(title)</span>"
        var lines = [
            "<section aria-labelledby=\"month-heading\">",
            "<h2 id=\"month-heading\"\(lang)>\(title)</h2>",
            "<table class=\"month\">",
            "<caption>Days of \(localTitle): ✓ counts towards the streak, – rest day, underlined: today</caption>",
            "<thead><tr>"
                + page.weekdaySymbols.map { "<th scope=\"col\"\(lang)>\(XMLText.escape($0))</th>" }.joined()
                + "</tr></thead>",
            "<tbody>",
        ]
        var rows = stride(from: 0, to: page.days.count, by: 7).map {
            Array(page.days[$0..<min($0 + 7, page.days.count)])
        }
        while let last = rows.last, !last.contains(where: \.inMonth) { rows.removeLast() }
        for row in rows {
            lines.append("<tr>" + row.map(monthCell).joined() + "</tr>")
        }
        lines += ["</tbody>", "</table>", "</section>"]
        return lines
    }

    static func monthCell(_ day: WireMonthDay) -> String {
        guard day.inMonth else { return "<td></td>" }
        let level = min(max(Int(day.level), 0), 3)
        let swatch = day.rest ? "rest" : "level\(level)"
        var words = day.rest ? "rest day" : "level \(level) of 3"
        if day.highlighted { words += ", counts towards the streak" }
        if day.today { words += ", today" }
        let mark = day.highlighted ? " ✓" : (day.rest ? " –" : "")
        let attributes = day.today ? " class=\"today\" aria-current=\"date\"" : ""
        return "<td\(attributes)>\(day.day)<span class=\"visually-hidden\">: \(words)</span>"
            + "<span aria-hidden=\"true\">\(mark)</span>"
            + "<span class=\"swatch \(swatch)\" aria-hidden=\"true\"></span></td>"
    }

    /// The weekday chart as a table: a row per habit (the total first), a column per weekday in
    /// the locale's order, each count with a bar scaled to the largest.
    static func weekdaySection(_ chart: WireWeekdayChart, lang: String) -> [String] {
        let series = chart.series.filter(\.total) + chart.series.filter { !$0.total }
        let maximum = Int(series.flatMap(\.counts).map(\.count).max() ?? 0)
        var range = ""
        if let from = chart.from, let to = chart.to { range = ", \(from) – \(to)" }
        let names = series.first?.counts.map(\.shortName) ?? []
        var lines = [
            "<section aria-labelledby=\"weekdays-heading\">",
            "<h2 id=\"weekdays-heading\">Completions by weekday</h2>",
            "<table class=\"weekdays\">",
            "<caption>Habits completed on each weekday\(range)</caption>",
            "<thead><tr><th scope=\"col\">Habit</th>"
                + names.map { "<th scope=\"col\"\(lang)>\(XMLText.escape($0))</th>" }.joined() + "</tr></thead>",
            "<tbody>",
        ]
        for entry in series {
            let name = entry.total ? "Total" : XMLText.escape(entry.name)
            let cells = entry.counts.map { count in
                let width = maximum == 0 ? 0 : Int(count.count) * 40 / maximum
                let bar =
                    width == 0 ? "" : "<span class=\"bar\" style=\"width: \(width)px\" aria-hidden=\"true\"></span>"
                return "<td>\(bar)\(count.count)</td>"
            }
            lines.append("<tr><th scope=\"row\">\(name)</th>" + cells.joined() + "</tr>")
        }
        lines += ["</tbody>", "</table>", "</section>"]
        return lines
    }
}
