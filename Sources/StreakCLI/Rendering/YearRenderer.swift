public import StreakWire

/// Draws a year like `cal 2026`: the year centred, then the twelve month pages three across, or
/// two or one across where the terminal is narrower.
public enum YearRenderer {
    /// Columns between two pages side by side.
    static let gap = 3

    /// The year as text, each line ending in a newline; `pages` are its months in order, and
    /// `veryShortSymbols` their weekdays' very short names, as for `MonthPageRenderer.render`;
    /// `monthSymbols` the locale's twelve standalone month names, January first, which title the
    /// pages (without them a title loses its trailing year only); `width` the terminal's columns
    /// (nil: no limit), which sets how many pages stand side by side (at most three).
    public static func render(
        year: Int,
        pages: [WireMonthPage],
        style: TerminalStyle,
        veryShortSymbols: [String]? = nil,
        monthSymbols: [String]? = nil,
        width terminalWidth: Int? = nil
    ) -> String {
        let drawn = pages.map { page in
            MonthPageRenderer.lines(
                pageWithMonthTitle(page, monthSymbols: monthSymbols),
                style: style,
                trim: false,
                veryShortSymbols: veryShortSymbols
            )
        }
        // Every page of a year has the same weekday names, so the same width.
        let pageWidth = drawn.first.map { DisplayWidth.of($0[1]) } ?? MonthPageRenderer.pageWidth
        let across = terminalWidth.map { min(3, max(1, ($0 + gap) / (pageWidth + gap))) } ?? 3
        let width = across * pageWidth + (across - 1) * gap
        let title = String(year)
        var lines = [String(repeating: " ", count: max(0, width - title.count) / 2) + title, ""]
        for start in stride(from: 0, to: drawn.count, by: across) {
            if start > 0 { lines.append("") }
            let row = drawn[start..<min(start + across, drawn.count)].map { page in
                var lines = page
                while lines.count < 8 { lines.append(String(repeating: " ", count: pageWidth)) }
                return lines
            }
            for index in 0..<8 {
                let line = row.map { $0[index] }.joined(separator: String(repeating: " ", count: gap))
                lines.append(line.trimmingTrailingSpaces())
            }
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        lines.append("")
        let rest = pages.contains { $0.days.contains { $0.inMonth && $0.rest } }
        lines.append(style.dim(MonthPageRenderer.note(rest: rest, style: style)))
        return lines.map { $0 + "\n" }.joined()
    }

    /// The page with its title reduced to the month (the year heads the whole picture): the
    /// locale's month name when `monthSymbols` has it. Without them only a title of the plain
    /// `<month name> <year>` form loses its year; any other (`2026年10月`, `tháng 1 năm 2024`,
    /// where cutting the year would leave "tháng 1 năm", "January of") stays whole.
    static func pageWithMonthTitle(_ page: WireMonthPage, monthSymbols: [String]? = nil) -> WireMonthPage {
        var page = page
        if let monthSymbols, monthSymbols.count == 12, (1...12).contains(page.month) {
            page.title = monthSymbols[Int(page.month) - 1]
            return page
        }
        let suffix = " \(page.year)"
        guard page.title.hasSuffix(suffix) else { return page }
        let month = page.title.dropLast(suffix.count)
        if !month.contains(" ") { page.title = String(month) }
        return page
    }
}
