public import StreakWire

/// Draws a month page like `cal`: the title centred, weekday names in the page's order, six rows
/// of days. Days outside the month are blank. Contributing (highlighted) days are in reverse video
/// with colour and followed by `*` without; today is underlined with colour and followed by `<`
/// without (`+` when it is also highlighted). A rest day is dimmed with colour and followed by `-`
/// without.
///
/// Columns are measured in terminal columns (`DisplayWidth`), so Chinese, Japanese and Korean
/// weekday names line up over their days.
public enum MonthPageRenderer {
    /// The columns of one day cell (two digits and its mark), and the page's width.
    static let cellWidth = 3
    static let pageWidth = 7 * cellWidth + 6

    /// The page as text, each line ending in a newline.
    public static func render(_ page: WireMonthPage, style: TerminalStyle) -> String {
        var lines = lines(page, style: style)
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

    /// The title, the weekday header and six rows of days, each exactly `pageWidth` columns
    /// wide before trailing spaces are trimmed (`trim` false keeps them, for pages side by side).
    static func lines(_ page: WireMonthPage, style: TerminalStyle, trim: Bool = true) -> [String] {
        let title = page.title.isEmpty ? "\(page.year)-\(page.month)" : page.title
        let padding = max(0, (pageWidth - DisplayWidth.of(title)) / 2)
        var lines = [DisplayWidth.padRight(String(repeating: " ", count: padding) + title, to: pageWidth)]
        lines.append(
            headerSymbols(page.weekdaySymbols).map { DisplayWidth.padRight($0, to: cellWidth) }
                .joined(separator: " ")
        )
        for row in 0..<(page.days.count / 7) {
            let cells = page.days[(row * 7)..<(row * 7 + 7)].map { cell($0, style: style) }
            lines.append(cells.joined(separator: " "))
        }
        return trim ? lines.map { $0.trimmingTrailingSpaces() } : lines
    }

    /// Weekday names that fit two columns: each name's widest prefix that fits (`Mo`, `月`), or,
    /// when those prefixes do not tell the days apart (Chinese `周一`, `周二`), each name's last
    /// two columns (`一`, `二`).
    static func headerSymbols(_ symbols: [String]) -> [String] {
        let prefixes = symbols.map { DisplayWidth.prefix($0, fitting: 2) }
        if Set(prefixes).count == symbols.count { return prefixes }
        return symbols.map { symbol in
            var suffix = ""
            for character in symbol.reversed() {
                guard DisplayWidth.of(String(character) + suffix) <= 2 else { break }
                suffix = String(character) + suffix
            }
            return suffix
        }
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
