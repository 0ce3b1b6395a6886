public import StreakWire

/// Draws a month page like `cal`: the title centred, weekday names in the page's order, six rows
/// of days. Days outside the month are blank. Contributing (highlighted) days are in reverse video
/// with colour and followed by `*` without; today is underlined with colour and followed by `<`
/// without (`+` when it is also highlighted). A rest day is dimmed with colour and followed by `-`
/// without.
///
/// Columns are measured in terminal columns (`DisplayWidth`), so Chinese, Japanese and Korean
/// weekday names line up over their days; the names are `WeekdayHeader`'s, seven distinct ones.
public enum MonthPageRenderer {
    /// The columns of one day cell (two digits and its mark), and the page's width with cells
    /// that wide; weekday names wider than a cell widen every column (`WeekdayHeader`).
    static let cellWidth = 3
    static let pageWidth = 7 * cellWidth + 6

    /// The page as text, each line ending in a newline. `veryShortSymbols` are the page's
    /// weekdays' very short names in its order, when known (`WeekdayHeader.veryShortSymbols`).
    public static func render(_ page: WireMonthPage, style: TerminalStyle, veryShortSymbols: [String]? = nil) -> String
    {
        var lines = lines(page, style: style, veryShortSymbols: veryShortSymbols)
        while lines.last?.isEmpty == true { lines.removeLast() }
        lines.append("")
        lines.append(style.dim(note(rest: page.days.contains(where: { $0.inMonth && $0.rest }), style: style)))
        return lines.map { $0 + "\n" }.joined()
    }

    /// The legend under a page (or a year of pages).
    static func note(rest: Bool, style: TerminalStyle) -> String {
        var note = style.usesColor ? "highlighted: counts towards the streak" : "* counts towards the streak  < today"
        if rest {
            note += style.usesColor ? "  dimmed: rest day" : "  - rest day"
        }
        return note
    }

    /// The title, the weekday header and six rows of days, each exactly as wide as the page
    /// (`pageWidth`, or wider when the weekday names need it) before trailing spaces are trimmed
    /// (`trim` false keeps them, for pages side by side).
    static func lines(
        _ page: WireMonthPage,
        style: TerminalStyle,
        trim: Bool = true,
        veryShortSymbols: [String]? = nil
    ) -> [String] {
        let header = WeekdayHeader.fit(short: page.weekdaySymbols, veryShort: veryShortSymbols)
        let column = max(cellWidth, header.width)
        let width = 7 * column + 6
        let title = page.title.isEmpty ? "\(page.year)-\(page.month)" : page.title
        let padding = max(0, (width - DisplayWidth.of(title)) / 2)
        var lines = [DisplayWidth.padRight(String(repeating: " ", count: padding) + title, to: width)]
        lines.append(header.symbols.map { DisplayWidth.padRight($0, to: column) }.joined(separator: " "))
        for row in 0..<(page.days.count / 7) {
            let cells = page.days[(row * 7)..<(row * 7 + 7)].map {
                DisplayWidth.padRight(cell($0, style: style), to: column)
            }
            lines.append(cells.joined(separator: " "))
        }
        return trim ? lines.map { $0.trimmingTrailingSpaces() } : lines
    }

    static func cell(_ day: WireMonthDay, style: TerminalStyle) -> String {
        guard day.inMonth else { return "   " }
        let number = day.day < 10 ? " \(day.day)" : "\(day.day)"
        if style.usesColor {
            var text = number
            if day.highlighted { text = style.reverse(text) }
            if day.rest && !day.highlighted { text = style.dim(text) }
            if day.today { text = style.underline(style.bold(text)) }
            return text + " "
        }
        let mark = day.today ? (day.highlighted ? "+" : "<") : (day.highlighted ? "*" : (day.rest ? "-" : " "))
        return number + mark
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
